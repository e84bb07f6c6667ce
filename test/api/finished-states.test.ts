/**
 * What the API answers about work that has ended, through the HTTP server: the results and
 * the S-parameters of a FAILED (cancelled) job are a 409 that says the job ended without
 * results and carries no retry_after nor Retry-After (there is nothing to wait for), while a
 * job still QUEUED or RUNNING gets both; cancelling a finished batch (COMPLETED, or FAILED
 * after an earlier cancel) is a 409 batch_finished, as cancelling a finished job is a 409
 * job_finished, and leaves the batch's record as it was.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  call,
  longSimulation,
  smallSimulation,
  startService,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";
import { twoPortWaveguide } from "../helpers/simulations.js";

let svc: TestService;
before(async () => {
  svc = await startService({ rateLimitPerMinute: 0 });
});
after(async () => svc.close());

test("a FAILED job's results and S-parameters: 409 without retry_after, saying it ended", async () => {
  const key = await svc.newKey("failed@example.com");
  // A ports job long enough to cancel (S-parameters are waited for only from one).
  const body = {
    ...twoPortWaveguide(),
    fdtd_settings: { time_steps: 900_000, check_every_n: 1000, convergence_threshold: 0 },
  };
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  for (const path of [`/v1/simulations/${id}/results`, `/v1/simulations/${id}/sparameters`]) {
    // Still QUEUED or RUNNING: come back later, and when.
    const early = await call(svc.baseUrl, "GET", path, { key });
    assert.equal(early.status, 409, early.text);
    assert.ok(["QUEUED", "RUNNING"].includes(String(early.body.status)), early.text);
    assert.ok(Number(early.body.retry_after) >= 1, early.text);
    assert.equal(early.headers.get("retry-after"), String(early.body.retry_after));
  }
  const cancel = await call(svc.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key });
  assert.equal(cancel.status, 200, cancel.text);
  await waitForStatus(svc.baseUrl, key, id, ["FAILED"], 20_000);
  for (const path of [
    `/v1/simulations/${id}/results`,
    `/v1/simulations/${id}/sparameters`,
    `/v1/simulations/${id}/sparameters?format=touchstone`,
  ]) {
    const res = await call(svc.baseUrl, "GET", path, { key });
    assert.equal(res.status, 409, `${path}: ${res.text}`);
    assert.equal(res.body.error_code, "results_not_ready");
    assert.equal(res.body.status, "FAILED");
    assert.equal("retry_after" in res.body, false, `${path}: ${res.text}`);
    assert.equal(res.headers.get("retry-after"), null, path);
    assert.match(String(res.body.detail), /ended without results/, path);
  }
});

async function waitForBatch(key: string, id: string, statuses: string[]) {
  const end = Date.now() + 60_000;
  for (;;) {
    const res = await call(svc.baseUrl, "GET", `/v1/batches/${id}`, { key });
    assert.equal(res.status, 200, res.text);
    if (statuses.includes(String(res.body.status))) return res;
    if (Date.now() > end) throw new Error(`batch ${id} still ${String(res.body.status)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Cancels a finished batch: 409 batch_finished naming its status, the record unchanged. */
async function refusedCancel(key: string, id: string, status: string): Promise<void> {
  const before = await call(svc.baseUrl, "GET", `/v1/batches/${id}`, { key });
  const cancel = await call(svc.baseUrl, "POST", `/v1/batches/${id}/cancel`, { key });
  assert.equal(cancel.status, 409, cancel.text);
  assert.equal(cancel.body.error_code, "batch_finished");
  assert.equal(cancel.body.status, status);
  assert.match(String(cancel.body.detail), new RegExp(`${id}.*finished.*${status}`));
  const afterwards = await call(svc.baseUrl, "GET", `/v1/batches/${id}`, { key });
  assert.deepEqual(afterwards.body, before.body);
}

test("cancelling a COMPLETED batch is a 409 batch_finished; the record stays as it was", async () => {
  const key = await svc.newKey("completed-batch@example.com");
  const quick = smallSimulation({ fdtd_settings: { time_steps: 200, check_every_n: 100 } });
  const sub = await call(svc.baseUrl, "POST", "/v1/batches", {
    key,
    body: {
      simulation: quick,
      parameters: [{ name: "t", path: "/structures/0/size/2", values: [0.3e-6, 0.5e-6] }],
    },
  });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.batch_id);
  const done = await waitForBatch(key, id, ["COMPLETED", "FAILED"]);
  assert.equal(done.body.status, "COMPLETED", done.text);
  await refusedCancel(key, id, "COMPLETED");
  const record = await call(svc.baseUrl, "GET", `/v1/batches/${id}`, { key });
  assert.equal(record.body.cancel_requested, false);
});

test("cancelling a batch again once it has ended FAILED is a 409 batch_finished", async () => {
  const key = await svc.newKey("cancelled-batch@example.com");
  const sub = await call(svc.baseUrl, "POST", "/v1/batches", {
    key,
    body: {
      simulation: longSimulation(),
      parameters: [{ name: "wl", path: "/source/wavelength", values: [1.5e-6, 1.6e-6] }],
    },
  });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.batch_id);
  const first = await call(svc.baseUrl, "POST", `/v1/batches/${id}/cancel`, { key });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.body.cancel_requested, true);
  await waitForBatch(key, id, ["FAILED"]);
  await refusedCancel(key, id, "FAILED");
});
