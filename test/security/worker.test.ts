/**
 * Jobs that could hold the worker: a cancellation must take effect even while the solver is
 * busy in a long stretch that never yields (here: painting many overlapping structures), and a
 * job that fails on the server's side says so without the server's paths or errors.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  call,
  smallSimulation,
  startService,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";

let svc: TestService;
let key: string;

before(async () => {
  svc = await startService({ rateLimitPerMinute: 0 });
  key = await svc.newKey();
});
after(async () => svc.close());

/**
 * A small request (≈ 100 kB) whose set-up takes minutes: a thousand spheres that each cover
 * the whole 1.2 M-cell grid, painted with sub-cell smoothing before the first time step.
 */
function slowSetup(): Record<string, unknown> {
  const size = 2e-6;
  return smallSimulation({
    domain: {
      size: [size, size, size],
      resolution: 0.02e-6,
      boundary_conditions: ["periodic", "periodic", "pml"],
    },
    structures: Array.from({ length: 1000 }, () => ({
      type: "sphere",
      center: [0, 0, 0],
      radius: size,
      material: "Si",
    })),
    monitors: [],
    fdtd_settings: { time_steps: 1000, check_every_n: 1000, convergence_threshold: 0 },
  });
}

test("a cancelled job stops within seconds even while the solver is busy setting up", async () => {
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: slowSetup() });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  await waitForStatus(svc.baseUrl, key, id, ["RUNNING"]);
  await new Promise((r) => setTimeout(r, 500));
  const started = Date.now();
  const cancel = await call(svc.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key });
  assert.equal(cancel.status, 200);
  const done = await waitForStatus(svc.baseUrl, key, id, ["FAILED", "COMPLETED"], 20_000);
  assert.equal(done.status, "FAILED");
  assert.match(String(done.error_detail), /^Cancelled by the user/);
  assert.ok(Date.now() - started < 20_000);
  // The worker is free again: the next test runs its job on it.
});

test("a result the server cannot store fails the job without server paths or errors", async () => {
  const storage = svc.service.storage as unknown as { putFile: unknown };
  storage.putFile = async (key: string, localPath: string) => {
    const err = new Error(
      `ENOSPC: no space left on device, rename '${localPath}' -> '/secret/results/${key}'`,
    ) as NodeJS.ErrnoException;
    err.code = "ENOSPC";
    throw err;
  };
  try {
    const own = await svc.newKey("storage@example.com");
    const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
      key: own,
      body: smallSimulation(),
    });
    assert.equal(sub.status, 202, sub.text);
    const done = await waitForStatus(svc.baseUrl, own, String(sub.body.job_id), [
      "FAILED",
      "COMPLETED",
    ]);
    assert.equal(done.status, "FAILED");
    const detail = String(done.error_detail);
    assert.match(detail, /could not be stored/);
    assert.doesNotMatch(detail, /ENOSPC|\/secret|\.incoming|rename/, detail);
    assert.ok(!detail.includes(svc.config.dataDir), detail);
  } finally {
    delete (storage as { putFile?: unknown }).putFile;
  }
});

test("a slow upload of the result keeps the job its worker's: heartbeats go on until it is stored", async () => {
  // Heartbeats every 50 ms, stale after 400 ms; the result takes 1.5 s to store (slow S3, a
  // large file). The worker used to stop beating when the run ended, and the stale-job sweep
  // took the job back and ran it again, each time (a finished job then ended FAILED).
  const slow = await startService(
    { rateLimitPerMinute: 0 },
    { EMSIM_HEARTBEAT_INTERVAL_MS: "50", EMSIM_HEARTBEAT_STALE_MS: "400" },
  );
  const storage = slow.service.storage as unknown as {
    putFile: (key: string, path: string) => Promise<unknown>;
  };
  const put = storage.putFile.bind(storage);
  storage.putFile = async (k, path) => {
    await new Promise((r) => setTimeout(r, 1500));
    return put(k, path);
  };
  try {
    const own = await slow.newKey("slow-upload@example.com");
    const sub = await call(slow.baseUrl, "POST", "/v1/simulations", {
      key: own,
      body: smallSimulation({ fdtd_settings: { time_steps: 200, convergence_threshold: 0 } }),
    });
    assert.equal(sub.status, 202, sub.text);
    const id = String(sub.body.job_id);
    const done = await waitForStatus(slow.baseUrl, own, id, ["FAILED", "COMPLETED"], 30_000);
    assert.equal(done.status, "COMPLETED", String(done.error_detail));
    const row = await slow.service.stores.jobs.getJob(id);
    assert.equal(row?.attempts, 1, "run once, never taken back");
  } finally {
    await slow.close();
  }
});
