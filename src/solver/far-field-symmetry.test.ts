/**
 * Far-field monitors with mirror symmetry (far-field-symmetry.ts): the grid holds the half at
 * ≥ 0 of each symmetric axis, and the far-field surface's other part is unfolded from it with
 * each component's parity. On a uniform grid with a node on each mirror plane the half's cells
 * are exactly the whole grid's, and the unfolded points exactly the whole surface's, so a run
 * with symmetry must give the whole run's pattern up to the float32 round-off of the stepping
 * (the mirror walls and the absorber on the low faces round differently): E_θ, E_φ and U within
 * 1e-5 of their peaks, as the other monitors in symmetry.test.ts. A wrong parity (one sign of
 * E or H on the image) turns a null into a lobe or the reverse, a missing or doubled image
 * halves or doubles U: differences of order 1. The power scale: ∫U dΩ over the flux box's
 * power on the same surface is the same with and without symmetry (1e-5; the flux monitor
 * reports the whole box, 2^planes times its half), and within 3 % of 1 on this coarse grid.
 *
 * Cases: an Ez dipole at the origin, with one mirror (pmc on x) and with three (pmc, pmc, pec:
 * an eighth of the grid); an Hx dipole with two (pec on y and z); and a plane wave scattered by
 * a polymer sphere (n = 1.3; te, E ∥ y: pmc on x, pec on y), whose pattern is the scattered
 * field's.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkSimulationWith } from "./check.js";
import { integrateOverSphere } from "./far-field.js";
import { mirrorFace, unfoldMirroredFaces } from "./far-field-symmetry.js";
import { runWithMaterials } from "./run.js";
import { constantMaterials } from "./testing/index.js";
import type {
  FieldComponent,
  MonitorSpec,
  SimulationSpec,
  SolverResult,
  Symmetry,
} from "./types.js";

const LAMBDA = 1e-6;
/** 15 cells per wavelength: 12 across the domain, a node on each mirror plane. */
const STEP = LAMBDA / 15;
const MATERIALS = constantMaterials({ polymer: { re: 1.69, im: 0 } });
const DEG = Math.PI / 180;
type Mirrors = [Symmetry, Symmetry, Symmetry];

/** A far-field box and a flux box on the same surface, 8 cells on a side, at the origin. */
function boxes(wavelengths: number[]): MonitorSpec[] {
  const box = { center: [0, 0, 0] as const, size: [8 * STEP, 8 * STEP, 8 * STEP] as const };
  return [
    {
      name: "pattern",
      monitor_type: "far_field",
      center: [...box.center],
      size: [...box.size],
      wavelengths,
      theta_deg: { start: 0, stop: 180, points: 13 },
      phi_deg: { start: 0, stop: 345, points: 24 },
    },
    {
      name: "box",
      monitor_type: "flux",
      center: [...box.center],
      size: [...box.size],
      wavelengths,
    },
  ];
}

function dipoleSpec(polarization: FieldComponent, symmetry?: Mirrors): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size: [12 * STEP, 12 * STEP, 12 * STEP],
      resolution: STEP,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 8,
      ...(symmetry ? { symmetry } : {}),
    },
    source: {
      source_type: "point_dipole",
      wavelength: LAMBDA,
      center: [0, 0, 0],
      polarization,
      amplitude: 1,
    },
    structures: [],
    monitors: boxes([0.9e-6, 1.1e-6]),
    // A fixed count (the pulse long gone): both runs stop at the same step.
    fdtd_settings: {
      time_steps: 1200,
      courant_factor: 0.99,
      convergence_threshold: 0,
      check_every_n: 200,
    },
  };
}

function sphereSpec(symmetry?: Mirrors): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size: [12 * STEP, 12 * STEP, 16 * STEP],
      resolution: STEP,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 8,
      ...(symmetry ? { symmetry } : {}),
    },
    source: {
      source_type: "plane_wave",
      wavelength: LAMBDA,
      polarization: "te",
      direction: [0, 0, 1],
      amplitude: 1,
    },
    structures: [{ type: "sphere", center: [0, 0, 0], radius: 2.5 * STEP, material: "polymer" }],
    monitors: boxes([0.9e-6, 1.1e-6]),
    fdtd_settings: {
      time_steps: 600,
      courant_factor: 0.99,
      convergence_threshold: 0,
      check_every_n: 200,
    },
  };
}

const maxAbs = (a: ArrayLike<number>) =>
  Array.from(a).reduce((m, v) => Math.max(m, Math.abs(v)), 0);

/** The largest difference between a and b over `peak`. */
function relativeDifference(a: ArrayLike<number>, b: ArrayLike<number>, peak: number): number {
  assert.equal(a.length, b.length);
  assert.ok(peak > 0, "an empty pattern");
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff = Math.max(diff, Math.abs(a[i]! - b[i]!));
  return diff / peak;
}

/**
 * ∫U dΩ over the box's power, per wavelength: a dipole's power in watts, or a plane wave's
 * scattered power, the scattering cross-section times the incident intensity.
 */
function powerRatios(r: SolverResult): number[] {
  const ff = r.farFieldMonitors[0]!;
  const box = r.fluxMonitors[0]!;
  const theta = ff.thetaDeg.map((t) => t * DEG);
  const phi = ff.phiDeg.map((p) => p * DEG);
  const n = theta.length * phi.length;
  return ff.wavelengthsM.map((_, w) => {
    const u = ff.radiantIntensity.subarray(w * n, (w + 1) * n);
    const watts =
      box.powerW?.[w] ?? box.crossSections!.scattering[w]! * box.incidentIntensityWPerM2![w]!;
    return integrateOverSphere(u, theta, phi) / watts;
  });
}

/**
 * Asserts the pattern of `part` is `whole`'s: U over its peak, E_θ and E_φ over the larger of
 * their peaks (one of them is near zero everywhere for a dipole: its own peak is noise).
 * Returns the largest difference.
 */
function assertSamePattern(whole: SolverResult, part: SolverResult): number {
  const [a, b] = [whole.farFieldMonitors[0]!, part.farFieldMonitors[0]!];
  const peakE = Math.max(maxAbs(a.eTheta), maxAbs(a.ePhi));
  const worst = Math.max(
    relativeDifference(a.eTheta, b.eTheta, peakE),
    relativeDifference(a.ePhi, b.ePhi, peakE),
    relativeDifference(a.radiantIntensity, b.radiantIntensity, maxAbs(a.radiantIntensity)),
  );
  assert.ok(worst < 1e-5, `pattern differs by ${worst} of its peak`);
  return worst;
}

async function run(spec: SimulationSpec): Promise<SolverResult> {
  assert.deepEqual(checkSimulationWith(spec, MATERIALS), []);
  return runWithMaterials(spec, MATERIALS, { backend: "wasm" });
}

describe("far-field monitors with mirror symmetry", () => {
  it("an Ez dipole on one and on three mirror planes: the whole run's pattern and power", async (t) => {
    const whole = await run(dipoleSpec("Ez"));
    const wholeRatio = powerRatios(whole);
    for (const symmetry of [
      ["pmc", "none", "none"],
      ["pmc", "pmc", "pec"],
    ] as Mirrors[]) {
      const part = await run(dipoleSpec("Ez", symmetry));
      const worst = assertSamePattern(whole, part);
      const ratio = powerRatios(part);
      t.diagnostic(
        `${symmetry.join(",")}: grid ${part.report.grid.join("×")}, pattern within ` +
          `${worst.toExponential(2)}, ∫U dΩ / box ${ratio.map((v) => v.toFixed(5)).join(", ")}`,
      );
      ratio.forEach((v, w) => {
        assert.ok(Math.abs(v / wholeRatio[w]! - 1) < 1e-5, `${v} vs ${wholeRatio[w]}`);
        assert.ok(Math.abs(v - 1) < 0.03, `∫U dΩ / box power ${v}`);
      });
    }
  });

  it("an Hx dipole on two mirror planes (pec on y and z): the whole run's pattern", async (t) => {
    const whole = await run(dipoleSpec("Hx"));
    const part = await run(dipoleSpec("Hx", ["none", "pec", "pec"]));
    const worst = assertSamePattern(whole, part);
    const ratio = powerRatios(part);
    t.diagnostic(`pattern within ${worst.toExponential(2)}, ∫U dΩ / box ${ratio.join(", ")}`);
    powerRatios(whole).forEach((v, w) => {
      assert.ok(Math.abs(ratio[w]! / v - 1) < 1e-5, `${ratio[w]} vs ${v}`);
      assert.ok(Math.abs(v - 1) < 0.03, `∫U dΩ / box power ${v}`);
    });
  });

  it("a plane wave scattered by a sphere, on a quarter of the grid: the whole run's pattern", async (t) => {
    const whole = await run(sphereSpec());
    const part = await run(sphereSpec(["pmc", "pec", "none"]));
    const worst = assertSamePattern(whole, part);
    const ratio = powerRatios(part);
    t.diagnostic(`pattern within ${worst.toExponential(2)}, ∫U dΩ / box ${ratio.join(", ")}`);
    powerRatios(whole).forEach((v, w) => {
      assert.ok(Math.abs(ratio[w]! / v - 1) < 1e-5, `${ratio[w]} vs ${v}`);
      assert.ok(Math.abs(v - 1) < 0.03, `∫U dΩ / box power ${v}`);
    });
  });

  it("unfolds a face across the plane into one face, and the face normal to it into two", () => {
    const face = (normal: [number, number, number]) => ({
      normal,
      points: new Float64Array([0.5, 1, 2]),
      areas: new Float64Array([3]),
      e: new Float64Array([1, 0.1, 2, 0.2, 3, 0.3]),
      h: new Float64Array([4, 0.4, 5, 0.5, 6, 0.6]),
    });
    const image = mirrorFace(face([1, 0, 0]), { axis: 0, mirror: "pec" });
    assert.deepEqual(image.normal, [-1, 0, 0]);
    assert.deepEqual(Array.from(image.points), [-0.5, 1, 2]);
    // pec on x: E_y, E_z and H_x odd; E_x, H_y, H_z even.
    assert.deepEqual(Array.from(image.e), [1, 0.1, -2, -0.2, -3, -0.3]);
    assert.deepEqual(Array.from(image.h), [-4, -0.4, 5, 0.5, 6, 0.6]);
    const pmc = mirrorFace(face([1, 0, 0]), { axis: 0, mirror: "pmc" });
    assert.deepEqual(Array.from(pmc.e), [-1, -0.1, 2, 0.2, 3, 0.3]);
    assert.deepEqual(Array.from(pmc.h), [4, 0.4, -5, -0.5, -6, -0.6]);
    const unfolded = unfoldMirroredFaces(
      [face([1, 0, 0]), face([0, 1, 0])],
      [{ axis: 0, mirror: "pec" }],
    );
    assert.deepEqual(
      unfolded.map((f) => [f.normal, f.areas.length]),
      [
        [[1, 0, 0], 1],
        [[-1, 0, 0], 1],
        [[0, 1, 0], 2],
      ],
    );
    // Two planes: each point four times over.
    const twice = unfoldMirroredFaces(
      [face([0, 0, 1])],
      [
        { axis: 0, mirror: "pec" },
        { axis: 1, mirror: "pmc" },
      ],
    );
    assert.equal(twice.length, 1);
    assert.deepEqual(
      Array.from(twice[0]!.points.filter((_, i) => i % 3 === 0)),
      [0.5, -0.5, 0.5, -0.5],
    );
  });

  it("refuses a far-field surface on a mirror wall, and accepts one centred on the plane", () => {
    const spec = dipoleSpec("Ez", ["pmc", "pmc", "pec"]);
    assert.deepEqual(checkSimulationWith(spec, MATERIALS), []);
    // A box from z = 0 up: its bottom face would lie on the wall.
    const above = structuredClone(spec);
    above.monitors = [
      { ...boxes([LAMBDA])[0]!, center: [0, 0, 2 * STEP], size: [0.5e-6, 0.5e-6, 4 * STEP] },
    ];
    const p = checkSimulationWith(above, MATERIALS);
    assert.deepEqual(
      p.map((x) => x.path),
      ["monitors[0].center"],
    );
    assert.match(p[0]!.message, /centred on z = 0 .* or keep clear of that plane/);
    // A plane on the wall z = 0; one a cell above it is fine.
    const plane = structuredClone(spec);
    plane.monitors = [{ ...boxes([LAMBDA])[0]!, size: [0.5e-6, 0.5e-6, 0] }];
    assert.deepEqual(
      checkSimulationWith(plane, MATERIALS).map((x) => x.path),
      ["monitors[0].center"],
    );
    plane.monitors[0]!.center = [0, 0, STEP];
    assert.deepEqual(checkSimulationWith(plane, MATERIALS), []);
  });
});
