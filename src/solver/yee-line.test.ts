/**
 * YeeGrid.updateLine, the plane-wave source's auxiliary line at normal incidence, against the
 * general update it replaces (reference kernel over the padded 3-D arrays, CPML pass, ghost
 * copies): on a line along each axis, with CPML at both ends and a lossy medium (ca ≠ 1), from
 * the same random fields, every real cell must hold exactly the same float32 value after many
 * steps. Exactly, not within a tolerance: the line writes each curl in the form the reference
 * kernel evaluates it (the difference across the line is +0), so any change of term, sign,
 * index or coefficient shows up at once. Likewise in a dispersive medium (a Lorentz and a
 * Drude pole), whose polarisation pass both grids run after the E update.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planGrid, YeeLayout } from "./grid.js";
import { referenceKernel } from "./kernel.js";
import { buildMedium, type UpdateMaterial } from "./medium.js";
import type { Boundary } from "./types.js";
import { buildGridModel, YeeGrid } from "./yee.js";

const LOSSY: UpdateMaterial = { epsRe: 2.25, sigma: 2e4 };
const DISPERSIVE: UpdateMaterial = {
  epsRe: 2.1,
  sigma: 1e3,
  poles: [
    { kind: "lorentz", deltaEps: 1.3, omega0: 1.6e15, gamma: 8e13 },
    { kind: "drude", omegaP: 4e14, gamma: 3e13 },
  ],
};

function lineGrids(axis: number, background: UpdateMaterial) {
  const step = 50e-9;
  const boundaries: [Boundary, Boundary, Boundary] = ["periodic", "periodic", "periodic"];
  boundaries[axis] = "pml";
  const size: [number, number, number] = [step, step, step];
  size[axis] = 80 * step;
  const plan = planGrid(
    { size, resolution: step, boundary_conditions: boundaries, pml_layers: 10 },
    0.99,
  );
  const layout = new YeeLayout(
    [plan.axes[0].cells, plan.axes[1].cells, plan.axes[2].cells],
    boundaries,
  );
  const medium = buildMedium(plan, layout, background, []);
  const model = () => buildGridModel(plan, layout, medium, { omega0: 1.2e15 });
  return { layout, line: new YeeGrid(model()), general: new YeeGrid(model()) };
}

describe("YeeGrid.updateLine", () => {
  for (const [axis, background, what] of [
    [0, LOSSY, "lossy"],
    [1, LOSSY, "lossy"],
    [2, LOSSY, "lossy"],
    [0, DISPERSIVE, "dispersive"],
    [2, DISPERSIVE, "dispersive"],
  ] as const) {
    it(`a line along ${"xyz"[axis]}, ${what}, steps bit for bit like the 3-D update`, () => {
      const { layout, line, general } = lineGrids(axis, background);
      assert.equal(line.dispersive, background === DISPERSIVE);
      // Random transverse fields on the real cells (the components along the line stay zero
      // on both: nothing drives them); the general grid's ghosts filled from them.
      let seed = 12345;
      const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
      const n = layout.n[axis];
      for (let t = 0; t < n; t++) {
        const pos = [0, 0, 0];
        pos[axis] = t;
        const p = layout.index(pos[0], pos[1], pos[2]);
        for (const comp of [0, 1, 2, 3, 4, 5]) {
          if (comp % 3 === axis) continue;
          const v = random() * (comp < 3 ? 1 : 1 / 377);
          line.re.c[comp][p] = v;
          general.re.c[comp][p] = v;
        }
      }
      general.fillGhostsH();
      general.fillGhostsE();
      for (let step = 0; step < 300; step++) {
        line.updateLine("H", axis);
        general.updateH(referenceKernel);
        general.fillGhostsH();
        line.updateLine("E", axis);
        line.updatePolarization();
        general.updateE(referenceKernel);
        general.updatePolarization();
        general.fillGhostsE();
      }
      let compared = 0;
      for (let t = -1; t <= n; t++) {
        const pos = [0, 0, 0];
        pos[axis] = t;
        const p = layout.index(pos[0], pos[1], pos[2]);
        for (let comp = 0; comp < 6; comp++) {
          const a = general.re.c[comp][p];
          const b = line.re.c[comp][p];
          assert.ok(a === b, `${"xyz"[axis]} line, component ${comp}, cell ${t}: ${a} vs ${b}`);
          if (a !== 0) compared++;
        }
      }
      // The absorber has not eaten everything: most transverse values are nonzero.
      assert.ok(compared > 3 * n, `${compared} nonzero values`);
    });
  }
});
