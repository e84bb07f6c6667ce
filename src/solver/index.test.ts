/**
 * The public entry points with the real materials library: a silicon slab (d = 0.5 µm,
 * λ = 1.55 µm, 20 nm cells ≈ 22 per wavelength in Si) through `runSimulation`, checked against
 * Airy with the library's own permittivity, plus the shape of the result.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { permittivityAt } from "./materials.js";
import { checkSimulation, estimateRun, runSimulation, SOLVER_VERSION } from "./index.js";
import { airySlabReflectance } from "./testing/index.js";
import type { SimulationSpec } from "./types.js";

const STEP = 20e-9;

function siliconSlab(): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size: [STEP, STEP, 3e-6],
      resolution: STEP,
      boundary_conditions: ["periodic", "periodic", "pml"],
      pml_layers: 12,
    },
    source: {
      source_type: "plane_wave",
      wavelength: 1.55e-6,
      polarization: "tm",
      direction: [0, 0, 1],
      amplitude: 1,
    },
    structures: [
      { type: "box", center: [0, 0, 0.25e-6], size: [1e-6, 1e-6, 0.5e-6], material: "Si" },
    ],
    monitors: [
      {
        name: "transmitted",
        monitor_type: "field",
        center: [0, 0, 1.4e-6],
        size: [0, 0, 0],
        components: ["Ex", "Hy"],
      },
      {
        name: "line",
        monitor_type: "field",
        center: [0, 0, -1e-6],
        size: [0, 0, 0.5e-6],
        components: ["Ex", "Ey", "Ez"],
        wavelengths: [1.5e-6, 1.6e-6],
      },
    ],
    fdtd_settings: {
      time_steps: 50000,
      courant_factor: 0.99,
      convergence_threshold: 1e-7,
      check_every_n: 500,
    },
  };
}

describe("runSimulation with the materials library", () => {
  it("a silicon slab transmits as Airy predicts with the library's permittivity", async (t) => {
    const spec = siliconSlab();
    assert.deepEqual(checkSimulation(spec), []);
    const result = await runSimulation(spec);
    const eps = permittivityAt("Si", 1.55e-6);
    const airyT = 1 - airySlabReflectance(Math.sqrt(eps.re), 0.5e-6, 1.55e-6);
    const transmitted = result.monitors[0];
    const T = transmitted.data.Ex![0] ** 2 + transmitted.data.Ex![1] ** 2;
    t.diagnostic(
      `T ${T.toFixed(5)} (Airy ${airyT.toFixed(5)}, ${((T / airyT - 1) * 100).toFixed(2)} %)`,
    );
    assert.ok(Math.abs(T - airyT) < 0.01, `T ${T} vs Airy ${airyT}`);

    const si = result.materials.find((m) => m.name === "Si");
    assert.ok(si && si.timeDomain !== "perfect_conductor", JSON.stringify(result.materials));
    assert.deepEqual(si.permittivity, [eps.re, eps.im]);
    assert.equal(si.conductivitySPerM, 0);
    assert.ok(si.reference.length > 0 && si.model.length > 0);
    assert.ok(result.materials.some((m) => m.name === "vacuum"));

    const r = result.report;
    assert.equal(r.converged, true);
    assert.deepEqual(r.grid, [1, 1, 174]);
    assert.equal(r.cells, 174);
    assert.equal(r.gridStepM, STEP);
    assert.equal(r.kernel, "wasm");
    assert.equal(result.grid.z.length, 174);
    assert.ok(Math.abs(result.grid.z[0] - (-1.5e-6 - 12 * STEP + STEP / 2)) < 1e-15);
    assert.deepEqual(estimateRun(spec).grid, r.grid);

    const line = result.monitors[1];
    assert.deepEqual(line.shape, [2, 1, 1, 26]); // centres at −1.25 … −0.75 µm inclusive
    assert.deepEqual(line.wavelengthsM, [1.5e-6, 1.6e-6]);
    assert.equal(line.data.Ey!.length, 2 * 2 * 26);
    assert.equal(line.z.length, 26);
    assert.ok(Math.abs(line.frequenciesHz[0] - 299792458 / 1.5e-6) < 1);
    assert.equal(typeof SOLVER_VERSION, "string");
  });
});
