/**
 * Far-field monitors in a run: a dipole's radiation pattern against sin² of the angle to its
 * axis, and the pattern's integral over the sphere against the power a flux box on the same
 * surface measures (the same power scale), on a full 3-D grid.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { integrateOverSphere } from "./far-field.js";
import { runWithMaterials } from "./run.js";
import { constantMaterials } from "./testing/index.js";
import type { FieldComponent, MonitorSpec, SimulationSpec } from "./types.js";

const LAMBDA = 1e-6;
/** 30 cells per wavelength: the pattern within 0.5 % of sin² (1 % at 20 cells). */
const STEP = LAMBDA / 30;
const BOX = {
  center: [0, 0, 0] as [number, number, number],
  size: [0.6e-6, 0.6e-6, 0.6e-6] as [number, number, number],
};

function dipoleRun(polarization: FieldComponent): SimulationSpec {
  const monitors: MonitorSpec[] = [
    {
      name: "pattern",
      monitor_type: "far_field",
      ...BOX,
      wavelengths: [0.95e-6, 1.05e-6],
      theta_deg: { start: 0, stop: 180, points: 19 },
      phi_deg: { start: 0, stop: 345, points: 24 },
    },
    { name: "box", monitor_type: "flux", ...BOX, wavelengths: [0.95e-6, 1.05e-6] },
  ];
  return {
    solver: "fdtd",
    domain: {
      size: [1e-6, 1e-6, 1e-6],
      resolution: STEP,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 12,
    },
    // On an E sample of its component (x and y nodes, a z cell centre for Ez), off the origin.
    source: {
      source_type: "point_dipole",
      wavelength: LAMBDA,
      center: polarization === "Ez" ? [0, 0, STEP / 2] : [STEP / 2, 0, 0],
      polarization,
      amplitude: 1,
    },
    structures: [],
    monitors,
    fdtd_settings: {
      time_steps: 20000,
      courant_factor: 0.99,
      convergence_threshold: 1e-6,
      check_every_n: 200,
    },
  };
}

for (const [polarization, axis] of [
  ["Ez", [0, 0, 1]],
  ["Ex", [1, 0, 0]],
] as const) {
  it(`far field of a ${polarization} dipole: sin² of the angle to its axis within 1 % of the peak, and the box's power`, async () => {
    const r = await runWithMaterials(dipoleRun(polarization), constantMaterials({}), {
      backend: "wasm",
    });
    const ff = r.farFieldMonitors[0]!;
    const box = r.fluxMonitors[0]!;
    const [nt, np] = [ff.thetaDeg.length, ff.phiDeg.length];
    const theta = ff.thetaDeg.map((t) => (t * Math.PI) / 180);
    const phi = ff.phiDeg.map((p) => (p * Math.PI) / 180);
    ff.wavelengthsM.forEach((_, w) => {
      const u = ff.radiantIntensity.subarray(w * nt * np, (w + 1) * nt * np);
      const power = integrateOverSphere(u, theta, phi);
      // The flux box on the same surface: the same power within 1 %.
      const watts = box.powerW![w]!;
      assert.ok(Math.abs(power / watts - 1) < 0.01, `∫U dΩ ${power} W, box ${watts} W`);
      // U = 3P/(8π)·sin²ψ, ψ the angle to the dipole's axis.
      const peak = (3 * power) / (8 * Math.PI);
      let worst = 0;
      for (let t = 0; t < nt; t++) {
        for (let p = 0; p < np; p++) {
          const dir = [
            Math.sin(theta[t]!) * Math.cos(phi[p]!),
            Math.sin(theta[t]!) * Math.sin(phi[p]!),
            Math.cos(theta[t]!),
          ];
          const c = dir[0]! * axis[0] + dir[1]! * axis[1] + dir[2]! * axis[2];
          worst = Math.max(worst, Math.abs(u[t * np + p]! - peak * (1 - c * c)) / peak);
        }
      }
      assert.ok(worst < 0.01, `pattern off sin² by ${worst} of its peak`);
    });
  });
}
