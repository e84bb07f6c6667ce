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
import { checkRequest } from "./validate.js";

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
