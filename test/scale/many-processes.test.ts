/**
 * Issue #11: the service past one machine, as separate processes sharing only PostgreSQL and
 * an S3-compatible store — two API servers and three workers, each worker with a scratch
 * directory of its own (no disk shared with anyone). Jobs of several accounts all complete,
 * each exactly once; results download through the pre-signed S3 address with their checksum;
 * a worker killed with SIGKILL mid-run loses nothing (another finishes its job); an object
 * store that is down at upload time makes the job retry, then fail with a clear error_detail.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  startServerProcess,
  startWorkerProcess,
  type ServerProcess,
  type WorkerProcess,
  createKeyWithCli,
} from "../helpers/process.js";
import { freshPgDatabase } from "../helpers/postgres.js";
import { startS3, type TestS3 } from "../helpers/s3.js";
import {
  call,
  freePort,
  longSimulation,
  smallSimulation,
  tempDir,
  waitForStatus,
} from "../helpers/service.js";

let db: Awaited<ReturnType<typeof freshPgDatabase>>;
let s3: TestS3;
let env: Record<string, string>;
const apis: ServerProcess[] = [];
const workers: WorkerProcess[] = [];
const keys: string[] = [];

before(async () => {
  db = await freshPgDatabase();
  s3 = await startS3();
  env = {
    ...s3.env,
    EMSIM_DATABASE_URL: db.url,
    EMSIM_MAX_ACTIVE_JOBS: "20",
    EMSIM_RATE_LIMIT_PER_MINUTE: "0",
    EMSIM_EMBEDDED_WORKER: "false",
    EMSIM_SIGNING_SECRET: "shared-by-every-api-server",
    EMSIM_HEARTBEAT_INTERVAL_MS: "500",
    EMSIM_HEARTBEAT_STALE_MS: "4000",
    EMSIM_MAX_ATTEMPTS: "2",
    // A result waits this long for an object store that does not answer, then is retried.
    EMSIM_STORAGE_OUTAGE_WAIT_MS: "1500",
    // Workers are woken by LISTEN/NOTIFY; a long poll shows they do not need to poll.
    EMSIM_POLL_INTERVAL_MS: "60000",
  };
  for (const name of ["ada", "bo", "cy"]) {
    keys.push(createKeyWithCli(`${name}@example.com`, null, env));
  }
  for (let i = 0; i < 2; i++) apis.push(await startServerProcess(await freePort(), tempDir(), env));
  for (let i = 0; i < 3; i++) workers.push(await startWorkerProcess(tempDir(), env));
});
after(async () => {
  for (const p of [...apis, ...workers]) await p.kill("SIGKILL");
  await s3?.close();
  await db?.drop();
});

test("jobs of three accounts over two API servers all complete once, on three workers", async () => {
  const submitted: { id: string; key: string }[] = [];
  for (let i = 0; i < 9; i++) {
    const key = keys[i % 3]!;
    const res = await call(apis[i % 2]!.baseUrl, "POST", "/v1/simulations", {
      key,
      body: smallSimulation({ metadata: { i } }),
    });
    assert.equal(res.status, 202, res.text);
    submitted.push({ id: String(res.body.job_id), key });
  }
  for (const { id, key } of submitted) {
    // Read through the other API server than the one that took it.
    const job = await waitForStatus(apis[1]!.baseUrl, key, id, ["COMPLETED", "FAILED"], 120_000);
    assert.equal(job.status, "COMPLETED", String(job.error_detail));
    assert.equal(job.attempts, 1, "each job ran exactly once");
    // The download is a redirect to the object store, and the bytes match the checksum.
    const res = await fetch(`${apis[0]!.baseUrl}/v1/simulations/${id}/results`, {
      headers: { authorization: `Bearer ${key}` },
      redirect: "manual",
    });
    assert.equal(res.status, 302);
    const location = res.headers.get("location")!;
    assert.ok(location.startsWith(`${s3.endpoint}/${s3.bucket}/results/`), location);
    assert.equal(new URL(location).searchParams.get("X-Amz-Expires"), "900");
    const file = Buffer.from(await (await fetch(location)).arrayBuffer());
    assert.equal(createHash("sha256").update(file).digest("hex"), job.checksum);
    assert.equal(file.length, job.result_bytes);
  }
  // Every worker log names the jobs it ran; together they ran each job once.
  const ran = workers.map((w) => (w.stderr().match(/job completed/g) ?? []).length);
  assert.equal(
    ran.reduce((a, b) => a + b, 0),
    9,
    ran.join(" + "),
  );
  assert.ok(ran.filter((n) => n > 0).length >= 2, `the jobs were shared: ${ran.join(", ")}`);
});

test("a worker killed with SIGKILL mid-run: its job is taken back and finished by another", async () => {
  const key = keys[0]!;
  const res = await call(apis[0]!.baseUrl, "POST", "/v1/simulations", {
    key,
    body: longSimulation(),
  });
  assert.equal(res.status, 202, res.text);
  const id = String(res.body.job_id);
  // A long job: cancel it after the crash test, once another worker has picked it up.
  const running = await waitForStatus(apis[0]!.baseUrl, key, id, ["RUNNING"], 60_000);
  assert.equal(running.attempts, 1);
  let victim: WorkerProcess | undefined;
  for (let i = 0; i < 100 && !victim; i++) {
    victim = workers.find((w) => w.stderr().includes(id));
    if (!victim) await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(victim, "the worker that took the job logged it");
  await victim.kill("SIGKILL");
  workers.splice(workers.indexOf(victim), 1);
  // Taken back once its heartbeat is stale, then claimed by a surviving worker.
  const end = Date.now() + 60_000;
  for (;;) {
    const job = await call(apis[1]!.baseUrl, "GET", `/v1/simulations/${id}`, { key });
    if (job.body.status === "RUNNING" && job.body.attempts === 2) break;
    assert.notEqual(job.body.status, "FAILED", String(job.body.error_detail));
    if (Date.now() > end) assert.fail(`not taken back: ${job.text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(
    workers.some((w) => w.stderr().includes(id)),
    "a surviving worker runs it",
  );
  // The survivor is told of the cancellation through the database at once.
  const cancelled = await call(apis[1]!.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key });
  assert.equal(cancelled.status, 200, cancelled.text);
  const done = await waitForStatus(apis[0]!.baseUrl, key, id, ["FAILED"], 30_000);
  assert.match(String(done.error_detail), /Cancelled by the user/);
});

test("a worker killed with SIGKILL mid-batch: every job of the batch completes exactly once", async () => {
  const key = keys[1]!;
  // Jobs of a few seconds each, two at a time on three workers.
  const body = {
    simulation: {
      ...longSimulation(),
      fdtd_settings: { time_steps: 12_000, check_every_n: 1000, convergence_threshold: 0 },
    },
    parameters: [
      { name: "wl", path: "/source/wavelength", values: [1.5e-6, 1.55e-6, 1.6e-6, 1.65e-6] },
    ],
  };
  const sub = await call(apis[0]!.baseUrl, "POST", "/v1/batches", { key, body });
  assert.equal(sub.status, 202, sub.text);
  const batchId = String(sub.body.batch_id);
  const batch = await call(apis[0]!.baseUrl, "GET", `/v1/batches/${batchId}`, { key });
  const ids = (batch.body.jobs as { job_id: string }[]).map((j) => j.job_id);
  await waitForStatus(apis[0]!.baseUrl, key, ids[0]!, ["RUNNING"], 60_000);
  let victim: WorkerProcess | undefined;
  for (let i = 0; i < 100 && !victim; i++) {
    victim = workers.find((w) => w.stderr().includes(ids[0]!));
    if (!victim) await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(victim, "the worker that took the first job logged it");
  await victim.kill("SIGKILL");
  workers.splice(workers.indexOf(victim), 1);
  const end = Date.now() + 180_000;
  let record: Record<string, unknown>;
  for (;;) {
    record = (await call(apis[1]!.baseUrl, "GET", `/v1/batches/${batchId}`, { key })).body;
    if (record.status === "COMPLETED" || record.status === "FAILED") break;
    if (Date.now() > end) assert.fail(`batch not done: ${JSON.stringify(record.counts)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.deepEqual(record.counts, { QUEUED: 0, RUNNING: 0, COMPLETED: 4, FAILED: 0 });
  for (const id of ids) {
    const job = (await call(apis[0]!.baseUrl, "GET", `/v1/simulations/${id}`, { key })).body;
    assert.equal(job.status, "COMPLETED");
    // Exactly once: one completed run each; only the killed job needed a second attempt.
    const ranOn = workers.filter((w) => w.stderr().includes(`${id}`)).length;
    assert.ok(ranOn >= 1, `job ${id} ran on a surviving worker`);
    assert.equal(job.attempts, id === ids[0] ? 2 : 1, `job ${id}: attempts`);
  }
  // The batch's one file comes through the pre-signed S3 address with its checksum.
  const res = await fetch(`${apis[1]!.baseUrl}/v1/batches/${batchId}/results`, {
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(res.status, 200);
  const bytes = Buffer.from(await res.arrayBuffer());
  const after = (await call(apis[0]!.baseUrl, "GET", `/v1/batches/${batchId}`, { key })).body;
  assert.equal(createHash("sha256").update(bytes).digest("hex"), after.checksum);
});

test("an object store that stays down at upload time: waited for, retried, then FAILED with a clear detail", async () => {
  await s3.close(); // the store goes away; the database is still there
  const key = keys[2]!;
  const res = await call(apis[0]!.baseUrl, "POST", "/v1/simulations", {
    key,
    body: smallSimulation(),
  });
  assert.equal(res.status, 202, res.text);
  const job = await waitForStatus(
    apis[1]!.baseUrl,
    key,
    String(res.body.job_id),
    ["COMPLETED", "FAILED"],
    120_000,
  );
  assert.equal(job.status, "FAILED");
  assert.equal(job.attempts, 2, "retried once, as EMSIM_MAX_ATTEMPTS allows");
  assert.match(String(job.error_detail), /could not be stored on the server/);
  assert.match(String(job.error_detail), /unreachable/);
  assert.doesNotMatch(String(job.error_detail), /127\.0\.0\.1|S3RVER|ECONNREFUSED/);
});
