/**
 * Runs on a named backend for the tests and validation scripts, asserting that the run report
 * names the backend asked for: a run that fell back to another backend fails instead of
 * passing for the wrong one. No side effects on import (unlike backends.ts, which finds the
 * GPU adapter when it loads).
 */
import assert from "node:assert/strict";
import type { BackendName } from "../backend.js";
import { withUserMaterials } from "../dispersion/user.js";
import { libraryMaterials } from "../index.js";
import { runWithMaterials } from "../run.js";
import type { InternalRunOptions, MaterialResolver } from "../simulation.js";
import type { SimulationSpec, SolverResult } from "../types.js";

/**
 * Runs a simulation on one backend and asserts its report names that backend. Without
 * `materials` it resolves them as `runSimulation` does (the library and the request's own).
 */
export async function runOn(
  backend: BackendName,
  spec: SimulationSpec,
  materials?: MaterialResolver,
  options: InternalRunOptions = {},
): Promise<SolverResult> {
  const resolver = materials ?? withUserMaterials(libraryMaterials, spec.materials);
  const result = await runWithMaterials(spec, resolver, { ...options, backend });
  assertRanOn(result, backend);
  return result;
}

/** Asserts that a result's report names the backend the run was asked for. */
export function assertRanOn(result: SolverResult, backend: BackendName): void {
  assert.equal(
    result.report.kernel,
    backend,
    `asked for ${backend}, ran on ${result.report.kernel}`,
  );
}
