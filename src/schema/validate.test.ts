/**
 * A request's grid is planned once per submission: the plan the checks made comes back with
 * the outcome, and the estimate and the set-up notes are made from it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { planGrid } from "../solver/grid.js";
import { estimateRun, setupNotes } from "../solver/index.js";
import type { SimulationRequest } from "./simulation.js";
import { applyDefaults, checkRequest } from "./validate.js";

const graded = JSON.parse(
  readFileSync(new URL("../../examples/gold-film-graded.json", import.meta.url), "utf8"),
) as SimulationRequest;

const limits = {
  maxCells: 1e9,
  maxTimeSteps: 1e7,
  maxMonitorSamples: 1e9,
  maxMemoryBytes: 1e12,
  solverBackend: "wasm" as const,
};

test("a graded request's outcome carries the grid it was checked and estimated on", () => {
  const outcome = checkRequest(graded, limits);
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.errors));
  const { spec, plan, estimate } = outcome;
  assert.deepEqual(plan, planGrid(spec.domain, spec.fdtd_settings.courant_factor));
  assert.deepEqual(estimate, estimateRun(spec, "wasm"));
  assert.deepEqual(setupNotes(spec, plan), setupNotes(spec));
  assert.ok((spec.domain.mesh_overrides?.length ?? 0) > 0, "the example is not graded");
});

test("a far-field monitor's default directions are the cross-section's plane in a 2-D domain", () => {
  const request = (size: [number, number, number], bc: string[]): SimulationRequest =>
    ({
      domain: { size, resolution: 2e-8, boundary_conditions: bc },
      source: {
        source_type: "point_dipole",
        wavelength: 1e-6,
        center: [0, 0, 0],
        polarization: "Ey",
      },
      monitors: [
        { name: "far", monitor_type: "far_field", center: [0, 0, 0], size: [4e-7, 4e-7, 4e-7] },
        {
          name: "given",
          monitor_type: "far_field",
          center: [0, 0, 0],
          size: [4e-7, 4e-7, 4e-7],
          theta_deg: [10, 20],
        },
      ],
    }) as SimulationRequest;
  const angles = (r: SimulationRequest) =>
    applyDefaults(r).monitors.map((m) =>
      m.monitor_type === "far_field" ? [m.theta_deg, m.phi_deg] : null,
    );
  const full = { start: 0, stop: 180, points: 37 };
  const around = { start: 0, stop: 355, points: 72 };
  assert.deepEqual(angles(request([1e-6, 2e-8, 1e-6], ["pml", "periodic", "pml"])), [
    [full, [0, 180]],
    [
      [10, 20],
      [0, 180],
    ],
  ]);
  assert.deepEqual(angles(request([2e-8, 1e-6, 1e-6], ["periodic", "pml", "pml"]))[0], [
    full,
    [90, 270],
  ]);
  assert.deepEqual(angles(request([1e-6, 1e-6, 2e-8], ["pml", "pml", "periodic"]))[0], [
    [90],
    around,
  ]);
  // One cell thick but not periodic, or periodic but thicker: a 3-D domain's defaults.
  for (const r of [
    request([1e-6, 2e-8, 1e-6], ["pml", "pml", "pml"]),
    request([1e-6, 4e-8, 1e-6], ["pml", "periodic", "pml"]),
  ]) {
    assert.deepEqual(angles(r)[0], [full, around]);
  }
});
