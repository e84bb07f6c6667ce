/**
 * The 409 rule holds between two server processes sharing one data directory (the database
 * enforces it), and a job whose process is killed mid-run is taken back and finished, also
 * when its process was a separate worker and no worker is left to sweep (the API server does).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  createKeyWithCli,
  startServerProcess,
  startWorkerProcess,
  type ServerProcess,
} from "../helpers/process.js";
import {
  call,
  freePort,
  longSimulation,
  smallSimulation,
  tempDir,
  waitForStatus,
} from "../helpers/service.js";

test("two servers racing on one data directory admit exactly one job per account", async () => {
  const dataDir = tempDir();
  const key = createKeyWithCli("race@example.com", dataDir);
  assert.match(key, /^emsim_[0-9A-Za-z]{38}$/);
  const started = await Promise.allSettled([
    startServerProcess(await freePort(), dataDir, { EMSIM_EMBEDDED_WORKER: "false" }),
    startServerProcess(await freePort(), dataDir, { EMSIM_EMBEDDED_WORKER: "false" }),
  ]);
  const servers = started.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  try {
    for (const r of started) if (r.status === "rejected") throw r.reason;
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const body = smallSimulation();
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        call(i % 2 ? a.baseUrl : b.baseUrl, "POST", "/v1/simulations", { key, body }),
      ),
    );
    const accepted = results.filter((r) => r.status === 202);
    const refused = results.filter((r) => r.status === 409);
    assert.equal(accepted.length, 1, results.map((r) => r.status).join(","));
    assert.equal(refused.length, 23);
    for (const r of refused) assert.equal(r.body.active_job_id, accepted[0]!.body.job_id);
  } finally {
    await Promise.all(servers.map((s) => s.kill()));
  }
});

test("a server killed mid-run: on restart its job is queued again and completes", async () => {
  const dataDir = tempDir();
  const key = createKeyWithCli("crash@example.com", dataDir);
  const port = await freePort();
  const first = await startServerProcess(port, dataDir);
  const long = longSimulation();
  const sub = await call(first.baseUrl, "POST", "/v1/simulations", { key, body: long });
  assert.equal(sub.status, 202);
  const id = String(sub.body.job_id);
  await waitForStatus(first.baseUrl, key, id, ["RUNNING"]);
  await first.kill("SIGKILL");

  const second = await startServerProcess(port, dataDir);
  try {
    const back = await call(second.baseUrl, "GET", `/v1/simulations/${id}`, { key });
    // Taken back before the server listened: never RUNNING for the dead process.
    assert.ok(
      back.body.status === "QUEUED" || (back.body.status === "RUNNING" && back.body.attempts === 2),
      `${String(back.body.status)}, attempt ${String(back.body.attempts)}`,
    );
    const running = await waitForStatus(second.baseUrl, key, id, ["RUNNING"]);
    assert.equal(running.attempts, 2);
    // Cancel to finish quickly: what matters is that it was picked up again.
    await call(second.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key });
    const done = await waitForStatus(second.baseUrl, key, id, ["FAILED", "COMPLETED"]);
    assert.match(String(done.error_detail), /[Cc]ancelled/);
  } finally {
    await second.kill();
  }
});

test("a server killed mid-batch: on restart the batch goes on, every job completes once", async () => {
  const dataDir = tempDir();
  const key = createKeyWithCli("crash-batch@example.com", dataDir);
  const port = await freePort();
  const first = await startServerProcess(port, dataDir);
  const body = {
    simulation: {
      ...longSimulation(),
      fdtd_settings: { time_steps: 8000, check_every_n: 1000, convergence_threshold: 0 },
    },
    parameters: [{ name: "wl", path: "/source/wavelength", values: [1.5e-6, 1.55e-6, 1.6e-6] }],
  };
  const sub = await call(first.baseUrl, "POST", "/v1/batches", { key, body });
  assert.equal(sub.status, 202, sub.text);
  const batchId = String(sub.body.batch_id);
  const ids = (
    (await call(first.baseUrl, "GET", `/v1/batches/${batchId}`, { key })).body.jobs as {
      job_id: string;
    }[]
  ).map((j) => j.job_id);
  await waitForStatus(first.baseUrl, key, ids[1]!, ["RUNNING"], 120_000);
  await first.kill("SIGKILL");

  const second = await startServerProcess(port, dataDir);
  try {
    const end = Date.now() + 180_000;
    let record: Record<string, unknown>;
    for (;;) {
      record = (await call(second.baseUrl, "GET", `/v1/batches/${batchId}`, { key })).body;
      if (record.status === "COMPLETED" || record.status === "FAILED") break;
      if (Date.now() > end) assert.fail(`batch not done: ${JSON.stringify(record.counts)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.deepEqual(record.counts, { QUEUED: 0, RUNNING: 0, COMPLETED: 3, FAILED: 0 });
    const jobs = await Promise.all(
      ids.map(
        async (id) => (await call(second.baseUrl, "GET", `/v1/simulations/${id}`, { key })).body,
      ),
    );
    assert.deepEqual(
      jobs.map((j) => [j.status, j.attempts, j.reused_result_of]),
      [
        ["COMPLETED", 1, null],
        ["COMPLETED", 2, null],
        ["COMPLETED", 1, null],
      ],
      "the job killed mid-run ran again; the others once",
    );
  } finally {
    await second.kill();
  }
});

test("a job whose worker dies on its last attempt ends FAILED with a clear error_detail", async () => {
  const dataDir = tempDir();
  const key = createKeyWithCli("x@example.com", dataDir);
  const port = await freePort();
  const env = { EMSIM_MAX_ATTEMPTS: "1" };
  const first = await startServerProcess(port, dataDir, env);
  const long = longSimulation();
  const id = String(
    (await call(first.baseUrl, "POST", "/v1/simulations", { key, body: long })).body.job_id,
  );
  await waitForStatus(first.baseUrl, key, id, ["RUNNING"]);
  await first.kill("SIGKILL");
  const second = await startServerProcess(port, dataDir, env);
  try {
    const done = await waitForStatus(second.baseUrl, key, id, ["FAILED"], 30_000);
    assert.match(String(done.error_detail), /worker .* exited .* 1 attempts?/);
    // Nothing is left active: the account can submit again.
    const next = await call(second.baseUrl, "POST", "/v1/simulations", {
      key,
      body: smallSimulation(),
    });
    assert.equal(next.status, 202);
  } finally {
    await second.kill();
  }
});

test("a separate worker killed mid-run, none left: the API server queues its job again", async () => {
  const dataDir = tempDir();
  const key = createKeyWithCli("lone-worker@example.com", dataDir);
  const env = { EMSIM_HEARTBEAT_INTERVAL_MS: "200", EMSIM_HEARTBEAT_STALE_MS: "1500" };
  const server = await startServerProcess(await freePort(), dataDir, {
    ...env,
    EMSIM_EMBEDDED_WORKER: "false",
  });
  let worker = await startWorkerProcess(dataDir, env);
  try {
    const sub = await call(server.baseUrl, "POST", "/v1/simulations", {
      key,
      body: longSimulation(),
    });
    assert.equal(sub.status, 202, sub.text);
    const id = String(sub.body.job_id);
    await waitForStatus(server.baseUrl, key, id, ["RUNNING"], 60_000);
    await worker.kill("SIGKILL");
    // Not RUNNING for a process that is gone, though no worker runs to say so.
    const back = await waitForStatus(server.baseUrl, key, id, ["QUEUED"], 15_000);
    assert.equal(back.attempts, 1);
    worker = await startWorkerProcess(dataDir, env);
    const again = await waitForStatus(server.baseUrl, key, id, ["RUNNING"], 60_000);
    assert.equal(again.attempts, 2);
    await call(server.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key });
    const done = await waitForStatus(server.baseUrl, key, id, ["FAILED", "COMPLETED"]);
    assert.match(String(done.error_detail), /[Cc]ancelled/);
  } finally {
    await worker.kill("SIGKILL");
    await server.kill();
  }
});
