/**
 * A worker keeps a warmed-up solver thread for its next job: from start (solver/warm-up.ts),
 * and again after a job whose thread it let go (here a cancelled one). The warm-up leaves no
 * file in scratch, and the job on the warmed thread runs as any other.
 */
import assert from "node:assert/strict";
import { basename } from "node:path";
import { after, before, test } from "node:test";
import {
  call,
  filesUnder,
  longSimulation,
  smallSimulation,
  startService,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService(
    {},
    { EMSIM_HEARTBEAT_INTERVAL_MS: "100", EMSIM_SOLVER_WARM_UP: "true" },
  );
  key = await svc.newKey("warm@example.com");
});
after(async () => svc.close());

test("a started worker has a warmed solver thread, and no warm-up file is left", async () => {
  const worker = svc.service.worker!;
  assert.equal(await worker.threadReady(), true);
  assert.deepEqual(
    // The worker's scratch folder is under the data directory.
    filesUnder(svc.config.dataDir).filter((f) => basename(f).startsWith("warm-up")),
    [],
  );
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: smallSimulation() });
  assert.equal(sub.status, 202);
  const done = await waitForStatus(svc.baseUrl, key, String(sub.body.job_id), [
    "COMPLETED",
    "FAILED",
  ]);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  assert.equal(await worker.threadReady(), true, "a small job's thread is kept");
});

test("after a job whose thread is let go, another is warmed up for the next job", async () => {
  const worker = svc.service.worker!;
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: longSimulation() });
  const id = String(sub.body.job_id);
  await waitForStatus(svc.baseUrl, key, id, ["RUNNING"]);
  await call(svc.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key });
  const cancelled = await waitForStatus(svc.baseUrl, key, id, ["FAILED", "COMPLETED"]);
  assert.match(String(cancelled.error_detail), /[Cc]ancelled/);
  assert.equal(await worker.threadReady(), true);
  const next = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: smallSimulation() });
  const done = await waitForStatus(svc.baseUrl, key, String(next.body.job_id), [
    "COMPLETED",
    "FAILED",
  ]);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
});
