/**
 * The Gaussian beam of a cross-section (a domain one cell thick along y: the 2-D beam of
 * beam-profile-2d.ts, uniform along y) against the exact beam it injects: |E| along x at the
 * focus and one Rayleigh range past it (second-moment width within 1 %, peak |E| = amplitude
 * within 2 %), and the power through a plane downstream over the beam's own power (1 within
 * 1 %), both polarisations (te: E along y, out of the cross-section; tm: E in it), tilted 10°
 * as a fibre over a grating coupler is.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BackendName } from "../backend.js";
import { checkSimulation } from "../index.js";
import { forEachBackend, runOn } from "../testing/backends.js";
import { constantMaterials } from "../testing/index.js";
import type { GaussianBeamSpec, MonitorResult, MonitorSpec, SimulationSpec } from "../types.js";
import type { GaussianBeam } from "./beam-profile.js";
import { beamFields2d } from "./beam-profile-2d.js";

const [LAMBDA, W0] = [1.55e-6, 1.5e-6];
const TILT = (10 * Math.PI) / 180;
const DIRECTION: [number, number, number] = [Math.sin(TILT), 0, Math.cos(TILT)];
const Z_R = (Math.PI * W0 * W0) / LAMBDA;
const [HALF_X, PLANE_Z] = [4 * W0, -0.8e-6];

/** A line monitor along x at height z (every E component). */
const line = (name: string, z: number): MonitorSpec => ({
  name,
  monitor_type: "field",
  center: [0, 0, z],
  size: [2 * HALF_X - 0.3e-6, 0, 0],
  components: ["Ex", "Ey", "Ez"],
});

/**
 * The beam on a grid of `cells` per wavelength, on `backend`; `mirror` turns it along z (normal
 * to the plane) and steps half the grid, on the mirror plane x = 0 of its parity.
 */
async function run(
  polarization: "te" | "tm",
  cells: number,
  backend: BackendName = "wasm",
  mirror: "pmc" | "pec" | "none" | null = null,
) {
  const H = LAMBDA / cells;
  const direction: [number, number, number] = mirror === null ? DIRECTION : [0, 0, 1];
  const source: GaussianBeamSpec = {
    source_type: "gaussian_beam",
    wavelength: LAMBDA,
    center: [0, 0, PLANE_Z],
    size: [2 * HALF_X - 0.3e-6, 0, 0],
    direction,
    polarization,
    waist_radius: W0,
    waist_distance: -PLANE_Z / direction[2],
    amplitude: 2,
  };
  // On the mirror plane's runs an even number of cells across x, so that the whole grid has
  // a node on x = 0 where the half starts (checks/symmetry.ts).
  const width = mirror === null ? 2 * HALF_X + 2e-6 : 2 * H * Math.ceil((HALF_X + 1e-6) / H);
  const spec: SimulationSpec = {
    solver: "fdtd",
    domain: {
      size: [width, H, 2 * (Z_R + 0.6e-6)],
      resolution: H,
      boundary_conditions: ["pml", "periodic", "pml"],
      pml_layers: 12,
      ...(mirror ? { symmetry: [mirror, "none", "none"] as const } : {}),
    },
    source,
    structures: [],
    monitors: [
      line("focus", 0),
      line("zR", Z_R * direction[2]),
      {
        name: "power",
        monitor_type: "flux",
        center: [0, 0, Z_R],
        size: [2 * HALF_X + 2e-6, H, 0],
      },
    ],
    fdtd_settings: {
      time_steps: 20000,
      courant_factor: 0.99,
      convergence_threshold: 1e-5,
      check_every_n: 200,
    },
  };
  // A request the service takes as it is (the plane's size along y is ignored there).
  assert.deepEqual(checkSimulation(spec), []);
  return runOn(backend, spec, constantMaterials({}));
}

/** |E|² along x of a line monitor. */
function intensity(m: MonitorResult): { x: number; i: number }[] {
  return Array.from(m.x, (x, a) => {
    let i = 0;
    for (const c of ["Ex", "Ey", "Ez"] as const) {
      i += m.data[c]![2 * a]! ** 2 + m.data[c]![2 * a + 1]! ** 2;
    }
    return { x, i };
  });
}

/** The second-moment width 2√⟨(x − x̄)²⟩ of |E|², and its peak |E|. */
function widthOf(samples: { x: number; i: number }[]): { width: number; peak: number } {
  const total = samples.reduce((t, s) => t + s.i, 0);
  const mean = samples.reduce((t, s) => t + s.i * s.x, 0) / total;
  const m2 = samples.reduce((t, s) => t + s.i * (s.x - mean) ** 2, 0) / total;
  return { width: 2 * Math.sqrt(m2), peak: Math.sqrt(Math.max(...samples.map((s) => s.i))) };
}

/** The power through the plane downstream over the beam's own power, at the source wavelength. */
function powerRatio(r: Awaited<ReturnType<typeof run>>): number {
  const power = r.fluxMonitors[0]!;
  assert.equal(power.quantity, "power");
  return power.flux[power.wavelengthsM.findIndex((w) => Math.abs(w - LAMBDA) < 1e-12)]!;
}

/** The widths and peaks of |E| on the line monitors against the exact beam's. */
function assertProfiles(r: Awaited<ReturnType<typeof run>>, polarization: "te" | "tm"): void {
  const beam: GaussianBeam = {
    direction: DIRECTION,
    focus: [0, 0, 0],
    waistRadius: W0,
    wavelength: LAMBDA,
    index: 1,
    polarization,
    amplitude: 2,
  };
  for (const m of r.monitors) {
    const got = widthOf(intensity(m));
    const points = Float64Array.from(Array.from(m.x).flatMap((x) => [x, 0, m.center[2]]));
    const f = beamFields2d(beam, 1, points);
    const exact = widthOf(
      Array.from(m.x, (x, a) => {
        let i = 0;
        for (let k = 0; k < 6; k++) i += f.e[6 * a + k]! ** 2;
        return { x, i };
      }),
    );
    assert.ok(
      Math.abs(got.width / exact.width - 1) < 0.01,
      `${m.name}: ${got.width} vs ${exact.width}`,
    );
    assert.ok(
      Math.abs(got.peak / exact.peak - 1) < 0.02,
      `${m.name}: ${got.peak} vs ${exact.peak}`,
    );
  }
}

describe("the Gaussian beam of a cross-section", () => {
  it("te (E out of the cross-section), tilted 10°: |E| as the exact 2-D beam's; its power converges to the beam's at second order", async () => {
    const [coarse, fine] = [await run("te", 20), await run("te", 40)];
    assertProfiles(coarse, "te");
    const [p20, p40] = [powerRatio(coarse), powerRatio(fine)];
    // The deficit is the grid's (1.2 % at 20 cells/λ): a quarter of it at twice the cells, and
    // the Richardson extrapolation of the two is the beam's power.
    assert.ok(Math.abs(p20 - 1) < 0.015, `20 cells/λ: ${p20}`);
    assert.ok((1 - p20) / (1 - p40) > 3, `deficits ${1 - p20} and ${1 - p40}`);
    const extrapolated = p40 + (p40 - p20) / 3;
    assert.ok(Math.abs(extrapolated - 1) < 2e-3, `extrapolated ${extrapolated}`);
  });

  it("along z, on the mirror plane x = 0 of its parity (te: pmc, tm: pec), half the grid gives the whole grid's power", async () => {
    for (const [polarization, mirror] of [
      ["te", "pmc"],
      ["tm", "pec"],
    ] as const) {
      const [half, whole] = [
        await run(polarization, 20, "wasm", mirror),
        await run(polarization, 20, "wasm", "none"),
      ];
      assert.ok(half.report.cells < 0.55 * whole.report.cells);
      const [p, q] = [powerRatio(half), powerRatio(whole)];
      assert.ok(Math.abs(p - q) < 1e-4 && Math.abs(q - 1) < 0.015, `${polarization}: ${p} vs ${q}`);
    }
  });

  forEachBackend((backend) => {
    it("tm (E in the cross-section), tilted 10°: |E| as the exact 2-D beam's, its power within 1.5 %", async () => {
      const r = await run("tm", 20, backend);
      assertProfiles(r, "tm");
      assert.ok(Math.abs(powerRatio(r) - 1) < 0.015, `power ${powerRatio(r)}`);
    });
  });
});
