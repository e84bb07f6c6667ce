/**
 * The warm-up's problems are requests a user could send, with every default already in place
 * (the solver takes specs as the schema fills them in), and each runs: the waveguide between
 * two ports solves its modes and reports an S-matrix, so the mode solver's code is compiled;
 * and the last problem starts the kernel threads a job gets, which stay for its first job.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { validateSimulationRequest } from "../schema/validate.js";
import { runSimulation } from "./entry-points.js";
import { keptThreads } from "./wasm/pool.js";
import { WARM_UP_PROBLEMS, warmUp } from "./warm-up.js";

const limits = { maxCells: 1e9, maxTimeSteps: 1e7, maxMonitorSamples: 1e9, maxMemoryBytes: 1e12 };

test("every warm-up problem is a valid request that needs no defaults filled in", () => {
  for (const problem of WARM_UP_PROBLEMS) {
    const outcome = validateSimulationRequest(structuredClone(problem), limits);
    assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.errors));
    assert.deepEqual(outcome.spec, problem);
  }
});

test("the warm-up's port problem runs its port and gives an S-matrix", async () => {
  const ports = WARM_UP_PROBLEMS.find((p) => p.source.source_type === "ports");
  assert.ok(ports, "no warm-up problem exercises the ports");
  const result = await runSimulation(structuredClone(ports), { backend: "wasm", threads: 1 });
  assert.ok(result.sMatrix, "no S-matrix");
  assert.equal(result.report.stepsRun, ports.fdtd_settings.time_steps);
});

test("a warm-up on two threads leaves a warm kernel thread for the first job", async () => {
  const { result } = await warmUp("wasm", 2);
  assert.equal(result.report.threads, 2);
  assert.ok((await keptThreads()).length >= 1, "no kernel thread kept");
});
