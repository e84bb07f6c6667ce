/**
 * Sub-cell smoothing. A slab whose faces fall between grid lines (z0 = 13.7 nm, d = 291.3 nm,
 * n = 2, λ = 1 µm) is refined from 16 to 40 cells per wavelength in the slab: with smoothing
 * the transmittance error against Airy stays below 3/N² (N cells per wavelength) and falls at
 * about second order; the staircased permittivity (validation switch) jumps around by several
 * per cent, on every backend (testing/backends.ts). Plus unit checks of the fill fractions the
 * smoothing is built on.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { domainFaces, shapeOf } from "./geometry.js";
import type { Shape } from "./shape.js";
import { planGrid, YeeLayout } from "./grid.js";
import { buildMedium, PERFECT_CONDUCTOR, type UpdateMaterial } from "./medium.js";
import type { BackendName } from "./backend.js";
import { forEachBackend, runOn } from "./testing/backends.js";
import {
  abs2,
  airySlabReflectance,
  constantMaterials,
  lineSpec,
  phasor,
  pointMonitor,
  slab,
} from "./testing/index.js";
import type { DomainSpec, StructureSpec, Vec3 } from "./types.js";

const WAVELENGTH = 1e-6;
const N = 2;
const Z0 = 0.0137e-6;
const D = 0.2913e-6;
const LENGTH = 2e-6;

async function transmissionError(
  backend: BackendName,
  cellsPerWavelength: number,
  smoothing: boolean,
) {
  const step = LENGTH / Math.round(LENGTH / (WAVELENGTH / (N * cellsPerWavelength)));
  const spec = lineSpec({
    axis: 2,
    wavelengthM: WAVELENGTH,
    stepM: step,
    lengthM: LENGTH,
    structures: [slab(2, Z0, Z0 + D, "glass")],
    monitors: [pointMonitor("t", 2, LENGTH / 2 - step / 2, ["Ey"])],
    threshold: 1e-8,
  });
  const result = await runOn(backend, spec, constantMaterials({ glass: N * N }), { smoothing });
  return abs2(phasor(result.monitors[0].data.Ey)) - (1 - airySlabReflectance(N, D, WAVELENGTH));
}

/** Σ fill·h³ over the 40³ cells of the test domain (cell centres from −0.5 µm). */
function filledVolume(shape: Shape, h: number): number {
  const n: Vec3 = [0, 0, 0];
  let volume = 0;
  for (let i = 0; i < 40; i++) {
    for (let j = 0; j < 40; j++) {
      for (let k = 0; k < 40; k++) {
        const p: Vec3 = [-0.5e-6 + (i + 0.5) * h, -0.5e-6 + (j + 0.5) * h, -0.5e-6 + (k + 0.5) * h];
        volume += shape.fill(p, [h, h, h], n) * h ** 3;
      }
    }
  }
  return volume;
}

describe("sub-cell smoothing", () => {
  forEachBackend((backend) => {
    it("a slab with faces between grid lines converges smoothly at second order", async (t) => {
      const resolutions = [16, 20, 24, 32, 40];
      const smooth: number[] = [];
      const stair: number[] = [];
      for (const n of resolutions) {
        smooth.push(Math.abs(await transmissionError(backend, n, true)));
        stair.push(Math.abs(await transmissionError(backend, n, false)));
      }
      resolutions.forEach((n, i) => {
        assert.ok(smooth[i] * n * n < 3, `N = ${n}: error ${smooth[i]}`);
      });
      const slope = Math.log(smooth[0] / smooth[4]) / Math.log(40 / 16);
      t.diagnostic(
        `|T − Airy| at ${resolutions.join("/")} cells: smoothed ${smooth.map((e) => e.toExponential(2)).join(", ")}; staircase ${stair.map((e) => e.toExponential(2)).join(", ")}; order ${slope.toFixed(2)}`,
      );
      assert.ok(slope > 1.7, `observed order ${slope}`);
      assert.ok(Math.max(...stair) > 5 * Math.max(...smooth), `staircase ${stair} vs ${smooth}`);
    });
  });
});

describe("fill fractions", () => {
  const domain = (bc: DomainSpec["boundary_conditions"]): DomainSpec => ({
    size: [1e-6, 1e-6, 1e-6],
    resolution: 25e-9,
    boundary_conditions: bc,
    pml_layers: 4,
  });

  it("a box covering the grid paints every cell as its fills would, over what came before", () => {
    const plan = planGrid(domain(["pml", "pml", "periodic"]), 0.99);
    const layout = YeeLayout.ofPlan(plan);
    const faces = domainFaces(plan);
    const shape = (s: object) => shapeOf({ ...s, material: "x" } as StructureSpec, faces);
    const cladding = shape({ type: "box", center: [0, 0, 0], size: [9, 9, 1e-6] });
    assert.equal(cladding.coversAll, true);
    assert.ok(!shape({ type: "box", center: [0, 0, 0], size: [9, 0.9e-6, 9] }).coversAll);
    const glass: UpdateMaterial = { epsRe: 2.25, sigma: 0 };
    const silica: UpdateMaterial = { epsRe: 2.1, sigma: 0.01 };
    const sphere = shape({ type: "sphere", center: [0.1e-6, 0, 0], radius: 0.2e-6 });
    const plate = shape({ type: "box", center: [0, 0.2e-6, 0], size: [0.4e-6, 0.1e-6, 9] });
    // The same box without the flag: painted cell by cell from its fills.
    const byFill: Shape = {
      lo: cladding.lo,
      hi: cladding.hi,
      fill: (p, h, n) => cladding.fill(p, h, n),
    };
    const paint = (box: Shape) =>
      buildMedium(plan, layout, glass, [
        { shape: sphere, material: glass },
        { shape: plate, material: PERFECT_CONDUCTOR },
        { shape: box, material: silica },
        { shape: sphere, material: glass },
      ]);
    const [fast, slow] = [paint(cladding), paint(byFill)];
    for (let c = 0; c < 3; c++) assert.deepEqual(fast.index[c], slow.index[c]);
    assert.deepEqual([fast.ca, fast.cb], [slow.ca, slow.cb]);
    assert.ok(new Set(fast.index[0]).size > 2, "the sphere's surface mixes entries");
  });

  it("a box's fill is its exact overlap, with an axis-aligned normal", () => {
    const faces = domainFaces(planGrid(domain(["pec", "pec", "pec"]), 0.99));
    const box = shapeOf(
      { type: "box", center: [0, 0, 0], size: [0.2e-6, 0.2e-6, 0.2e-6], material: "x" },
      faces,
    );
    const n: Vec3 = [0, 0, 0];
    const f = box.fill([0.1e-6 + 0.3 * 25e-9, 0, 0], [25e-9, 25e-9, 25e-9], n);
    assert.ok(Math.abs(f - 0.2) < 1e-12, String(f));
    assert.deepEqual(
      n.map((v) => Math.round(v * 1e9) / 1e9 + 0),
      [1, 0, 0],
    );
  });

  it("a sphere's fills add up to its volume within 0.5 %", () => {
    const plan = planGrid(domain(["pec", "pec", "pec"]), 0.99);
    const faces = domainFaces(plan);
    const r = 0.3e-6;
    const sphere = shapeOf(
      { type: "sphere", center: [0.01e-6, -0.02e-6, 0.003e-6], radius: r, material: "x" },
      faces,
    );
    const volume = filledVolume(sphere, plan.baseStepM);
    const exact = (4 / 3) * Math.PI * r ** 3;
    assert.ok(Math.abs(volume / exact - 1) < 0.005, `${volume / exact}`);
  });

  it("a cylinder's fills add up to its volume within 0.5 %", () => {
    const plan = planGrid(domain(["pec", "pec", "pec"]), 0.99);
    const faces = domainFaces(plan);
    const cyl = shapeOf(
      {
        type: "cylinder",
        center: [0, 0.013e-6, 0],
        radius: 0.25e-6,
        height: 0.4e-6,
        axis: "y",
        material: "x",
      },
      faces,
    );
    const volume = filledVolume(cyl, plan.baseStepM);
    const exact = Math.PI * 0.25e-6 ** 2 * 0.4e-6;
    assert.ok(Math.abs(volume / exact - 1) < 0.005, `${volume / exact}`);
  });

  it("a rod along a 2-D cross-section's thin axis, or a sphere wider than a period, fills as it does alone", () => {
    // Its periodic images overlap it: counted, they made every surface cube two or three
    // times as full (a rod's radius a third of a cell too large, its scattering 15 % high).
    const h = 25e-9;
    const thin: DomainSpec = {
      size: [1e-6, h, 1e-6],
      resolution: h,
      boundary_conditions: ["pml", "periodic", "pml"],
      pml_layers: 4,
    };
    const open = { ...thin, boundary_conditions: ["pml", "pml", "pml"] } as DomainSpec;
    const rod = { type: "cylinder", center: [0, 0, 0], radius: 0.2e-6, height: 10, axis: "y" };
    const ball = { type: "sphere", center: [0, 0, 0], radius: 0.2e-6 };
    // A rod exactly one period long is an infinite one too (its caps' corners not rounded).
    const short = { ...rod, height: h };
    for (const [s, lone] of [
      [rod, rod],
      [short, rod],
      [ball, ball],
    ]) {
      const shape = (t: object, d: DomainSpec) =>
        shapeOf({ ...t, material: "x" } as StructureSpec, domainFaces(planGrid(d, 0.99)));
      const [periodic, alone] = [shape(s!, thin), shape(lone!, open)];
      const n: Vec3 = [0, 0, 0];
      for (let k = 0; k < 40; k++) {
        // Cubes across the surface along x, at y = 0 and off it by a third of a cell.
        for (const y of [0, h / 3]) {
          const p: Vec3 = [0.15e-6 + (k * 0.1e-6) / 40, y, 0.01e-6];
          const f = periodic.fill(p, [h, h, h], n);
          const want = alone.fill(p, [h, h, h], n);
          assert.ok(Math.abs(f - want) < 1e-12, `${JSON.stringify(s)} at ${p}: ${f}, not ${want}`);
        }
      }
    }
  });

  it("a sphere wider than the period, off the cell's centre, wraps round the periodic axis", () => {
    // Period 1 µm along x; the sphere (r = 0.6 µm at x = 0.4 µm) reaches past x = 0.5 µm, and
    // that part lies again at x < 0 through its image at x = −0.6 µm.
    const plan = planGrid(domain(["periodic", "pml", "pml"]), 0.99);
    const sphere = shapeOf(
      { type: "sphere", center: [0.4e-6, 0, 0], radius: 0.6e-6, material: "x" },
      domainFaces(plan),
    );
    const h = plan.baseStepM;
    const n: Vec3 = [0, 0, 0];
    assert.equal(sphere.fill([-0.45e-6, 0, 0], [h, h, h], n), 1); // 0.85 µm from its centre
    // On the image's surface at y = 0.4 µm (x = −0.6 + √0.2 µm), 0.68 µm from the sphere's
    // own centre: about half full.
    const edge = sphere.fill([(Math.sqrt(0.2) - 0.6) * 1e-6, 0.4e-6, 0], [h, h, h], n);
    assert.ok(edge > 0.3 && edge < 0.7, `${edge}`);
  });

  it("later structures override earlier ones; structures reaching a pml face continue through it", () => {
    const spec = domain(["pml", "pec", "pec"]);
    const plan = planGrid(spec, 0.99);
    const layout = new YeeLayout(
      [plan.axes[0].cells, plan.axes[1].cells, plan.axes[2].cells],
      spec.boundary_conditions,
    );
    const faces = domainFaces(plan);
    const structures: StructureSpec[] = [
      // A waveguide along x reaching both x faces, then a block overriding part of it.
      { type: "box", center: [0, 0, 0], size: [1e-6, 0.2e-6, 0.2e-6], material: "a" },
      { type: "box", center: [0, 0, 0], size: [0.2e-6, 0.2e-6, 0.2e-6], material: "b" },
    ];
    const medium = buildMedium(plan, layout, { epsRe: 1, sigma: 0 }, [
      { shape: shapeOf(structures[0], faces), material: { epsRe: 4, sigma: 0 } },
      { shape: shapeOf(structures[1], faces), material: { epsRe: 9, sigma: 0 } },
    ]);
    const eps = (c: number, i: number, j: number, k: number) =>
      medium.epsEff[medium.index[c][layout.index(i, j, k)]];
    const mid = [plan.axes[0].cells / 2, 20, 20];
    assert.equal(eps(1, mid[0], mid[1], mid[2]), 9); // the block wins
    assert.equal(eps(1, 1, 20, 20), 4); // inside the x absorber, the guide continues
    assert.equal(eps(1, mid[0], 30, 20), 1); // outside both
  });
});
