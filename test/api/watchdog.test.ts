/**
 * The solver watchdog: a solver thread that reports no progress for EMSIM_SOLVER_STALL_MS is
 * stopped and its job FAILED, so a stuck run can never hold a job RUNNING forever. Here the
 * limit (300 ms) is shorter than the solver's interval between progress reports (500 ms), so
 * a long run looks stuck. The run has no convergence checks, which report progress too (every
 * check_every_n steps: on a fast machine more often than the limit). (A cold thread's start-up, silent too, is no longer met: the worker
 * warms a thread up before the first job.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  call,
  longSimulation,
  smallSimulation,
  startService,
  waitForStatus,
} from "../helpers/service.js";

test("a solver silent for longer than the stall limit is stopped and its job FAILED", async () => {
  const svc = await startService(
    { solverStallMs: 300, heartbeatIntervalMs: 100 },
    { EMSIM_SOLVER_WARM_UP: "true" },
  );
  try {
    const key = await svc.newKey();
    const body = longSimulation() as { fdtd_settings: Record<string, number> };
    body.fdtd_settings.check_every_n = body.fdtd_settings.time_steps;
    const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
    assert.equal(sub.status, 202);
    const done = await waitForStatus(svc.baseUrl, key, String(sub.body.job_id), [
      "FAILED",
      "COMPLETED",
    ]);
    assert.equal(done.status, "FAILED");
    assert.match(String(done.error_detail), /made no progress for 0 s and was stopped/);
    // The worker is free again: the account can submit and the next job is picked up.
    const next = await call(svc.baseUrl, "POST", "/v1/simulations", {
      key,
      body: smallSimulation(),
    });
    assert.equal(next.status, 202);
  } finally {
    await svc.close();
  }
});
