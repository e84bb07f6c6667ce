/**
 * The run report's note on oblique incidence past a critical angle: glass (n = 1.5) onto
 * vacuum at 43.5° grazes at 678 nm for a source at 700 nm; from vacuum onto glass, or with the
 * monitors' band far below grazing, there is nothing to say.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { FdtdSimulation } from "../simulation.js";
import { constantMaterials, fluxPlane, lineSpec } from "../testing/index.js";
import { grazingNote } from "./grazing-note.js";

const THETA = (43.5 * Math.PI) / 180;

/** The notes of a column with glass below z = 0, the wave coming from `from` (−z or +z). */
function notes(from: "glass" | "vacuum", wavelengths: number[]): string[] {
  const spec = lineSpec({
    axis: 2,
    wavelengthM: 0.7e-6,
    stepM: 10e-9,
    lengthM: 2e-6,
    direction: [Math.sin(THETA), 0, (from === "glass" ? 1 : -1) * Math.cos(THETA)],
    polarization: "te",
    structures: [{ type: "box", center: [0, 0, -1e-6], size: [1, 1, 2e-6], material: "glass" }],
    monitors: [fluxPlane("R", 2, from === "glass" ? -0.5e-6 : 0.5e-6, wavelengths)],
  });
  return new FdtdSimulation(spec, constantMaterials({ glass: 2.25 }), { backend: "reference" })
    .notes;
}

test("glass onto vacuum past the critical angle, with the band reaching grazing: noted", () => {
  const found = notes("glass", [0.66e-6, 0.7e-6, 0.74e-6]).filter((n) => /grazing/.test(n));
  assert.equal(found.length, 1, found.join("\n"));
  assert.match(found[0]!, /from a medium of index 1\.500 onto one of index 1\.000/);
  assert.match(found[0]!, /critical angle 41\.8°/);
  assert.match(found[0]!, /from about 6\.779e-7 m on the wave is evanescent/);
});

test("nothing to say from vacuum onto glass, or for a band well short of grazing", () => {
  assert.deepEqual(
    notes("vacuum", [0.66e-6, 0.7e-6, 0.74e-6]).filter((n) => /grazing/.test(n)),
    [],
  );
  assert.equal(
    grazingNote({
      sourceIndex: 1.5,
      lowestIndex: 1,
      sinTheta: Math.sin(THETA),
      wavelengthM: 0.7e-6,
      wavelengthsM: [0.55e-6, 0.6e-6],
    }),
    null,
  );
});
