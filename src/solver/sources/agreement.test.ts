/**
 * The backends against the reference for the sources of the seam other than the plane wave
 * (whose agreement cases are wasm/agreement.test.ts and webgpu/agreement.test.ts): a point dipole
 * off every sample (spread over eight) with a field line, a flux box and a far-field box, the
 * same monitors around a dipole on three mirror planes (an eighth of the grid, the far field
 * unfolded), and an oblique Gaussian beam with a field plane. Float32 rounding accumulated over the run bounds
 * the difference at 1e-5 of the largest value compared; a wrong term anywhere gives order 1.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runWithMaterials } from "../run.js";
import { BACKENDS_UNDER_TEST } from "../testing/backends.js";
import { constantMaterials } from "../testing/index.js";
import type {
  FieldComponent,
  MonitorSpec,
  SimulationSpec,
  SolverResult,
  SourceSpec,
} from "../types.js";

const MATERIALS = constantMaterials({ glass: { re: 2.25, im: 0 } });

function spec(source: SourceSpec, monitors: MonitorSpec[]): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size: [0.8e-6, 0.8e-6, 0.8e-6],
      resolution: 1e-6 / 12,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 6,
    },
    source,
    structures: [
      { type: "sphere", center: [0.15e-6, 0, 0.2e-6], radius: 0.12e-6, material: "glass" },
    ],
    monitors,
    fdtd_settings: {
      time_steps: 240,
      courant_factor: 0.99,
      convergence_threshold: 0,
      check_every_n: 100,
    },
  };
}

const line: MonitorSpec = {
  name: "line",
  monitor_type: "field",
  center: [0, 0.1e-6, 0.2e-6],
  size: [0.6e-6, 0, 0.2e-6],
  components: ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"],
};

/**
 * A z dipole at the origin inside a sphere there, on mirror planes of its parity (pmc on x and
 * y, pec on z): the grid holds the eighth at x, y, z ≥ 0.
 */
function onMirrors(monitors: MonitorSpec[]): SimulationSpec {
  const s = spec(
    {
      source_type: "point_dipole",
      wavelength: 1e-6,
      center: [0, 0, 0],
      polarization: "Ez",
      amplitude: 1,
    },
    monitors,
  );
  s.domain.symmetry = ["pmc", "pmc", "pec"];
  s.structures = [{ type: "sphere", center: [0, 0, 0], radius: 0.12e-6, material: "glass" }];
  return s;
}

const CASES: [string, SimulationSpec][] = [
  [
    "point dipole off every sample, field, flux box and far-field box",
    spec(
      {
        source_type: "point_dipole",
        wavelength: 1e-6,
        center: [0.02e-6, -0.03e-6, 0.01e-6],
        polarization: "Ey",
        amplitude: 1,
      },
      [
        line,
        { name: "box", monitor_type: "flux", center: [0, 0, 0], size: [0.5e-6, 0.5e-6, 0.5e-6] },
        {
          name: "far",
          monitor_type: "far_field",
          center: [0, 0, 0],
          size: [0.6e-6, 0.6e-6, 0.6e-6],
          theta_deg: [0, 60, 120],
          phi_deg: [0, 90],
        },
      ],
    ),
  ],
  [
    "point dipole on three mirror planes, field line, flux box and far-field box",
    onMirrors([
      line,
      { name: "box", monitor_type: "flux", center: [0, 0, 0], size: [0.5e-6, 0.5e-6, 0.5e-6] },
      {
        name: "far",
        monitor_type: "far_field",
        center: [0, 0, 0],
        size: [0.6e-6, 0.6e-6, 0.6e-6],
        theta_deg: [0, 60, 120],
        phi_deg: [0, 45, 90],
      },
    ]),
  ],
  [
    "oblique Gaussian beam through a sphere, field line and flux plane",
    spec(
      {
        source_type: "gaussian_beam",
        wavelength: 1e-6,
        center: [-0.1e-6, 0, -0.25e-6],
        size: [0.7e-6, 0.7e-6, 0],
        direction: [0.4, 0.2, 1],
        polarization: "tm",
        waist_radius: 0.4e-6,
        waist_distance: 0.2e-6,
        amplitude: 1,
      },
      [
        line,
        { name: "T", monitor_type: "flux", center: [0, 0, 0.3e-6], size: [0.6e-6, 0.6e-6, 0] },
      ],
    ),
  ],
];

/** The largest difference over every recorded value, relative to the largest value. */
function worstDifference(a: SolverResult, b: SolverResult): number {
  const pairs: [ArrayLike<number>, ArrayLike<number>][] = [];
  a.monitors.forEach((m, i) => {
    for (const c of Object.keys(m.data) as FieldComponent[])
      pairs.push([m.data[c]!, b.monitors[i]!.data[c]!]);
  });
  a.fluxMonitors.forEach((m, i) => pairs.push([m.powerW!, b.fluxMonitors[i]!.powerW!]));
  a.farFieldMonitors.forEach((m, i) => pairs.push([m.eTheta, b.farFieldMonitors[i]!.eTheta]));
  let worst = 0;
  for (const [x, y] of pairs) {
    let peak = 0;
    let diff = 0;
    for (let k = 0; k < x.length; k++) {
      peak = Math.max(peak, Math.abs(x[k]!));
      diff = Math.max(diff, Math.abs(x[k]! - y[k]!));
    }
    assert.ok(peak > 0, "a monitor recorded nothing");
    worst = Math.max(worst, diff / peak);
  }
  return worst;
}

for (const [name, request] of CASES) {
  describe(`sources agree with the reference backend: ${name}`, () => {
    let reference: Promise<SolverResult> | null = null;
    for (const b of BACKENDS_UNDER_TEST.filter((x) => x.name !== "reference")) {
      it(`on ${b.label}`, { skip: b.unavailable ?? false }, async () => {
        reference ??= runWithMaterials(request, MATERIALS, { backend: "reference" });
        const other = await runWithMaterials(request, MATERIALS, {
          backend: b.name,
          minCellsPerThread: 0,
        });
        const worst = worstDifference(await reference, other);
        assert.ok(worst <= 1e-5, `largest difference ${worst} of the peak`);
      });
    }
  });
}
