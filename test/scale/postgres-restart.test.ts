/**
 * Issue #11: PostgreSQL restarted under load. An API process and a worker process share a
 * private cluster (started and stopped here, nothing else uses it). While it is down,
 * `/health` says so and every request answers 503 within seconds instead of hanging; once it
 * is back, everything recovers by itself and no accepted job is lost, a running one included,
 * nor run again.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  startServerProcess,
  startWorkerProcess,
  type ServerProcess,
  type WorkerProcess,
  createKeyWithCli,
} from "../helpers/process.js";
import { privateCluster, type PrivateCluster } from "../helpers/postgres.js";
import { call, freePort, smallSimulation, tempDir, waitForStatus } from "../helpers/service.js";

let cluster: PrivateCluster;
let api: ServerProcess;
let worker: WorkerProcess;
let key: string;
let env: Record<string, string>;
/** A job whose heartbeat is older is taken back: short, so that outages here outlast it. */
const STALE_MS = 5000;

before(async () => {
  cluster = privateCluster(await freePort());
  env = {
    EMSIM_DATABASE_URL: cluster.url,
    EMSIM_MAX_ACTIVE_JOBS: "1000",
    EMSIM_RATE_LIMIT_PER_MINUTE: "0",
    EMSIM_EMBEDDED_WORKER: "false",
    EMSIM_HEARTBEAT_STALE_MS: String(STALE_MS),
  };
  const dataDir = tempDir();
  key = createKeyWithCli("pg@example.com", null, env);
  api = await startServerProcess(await freePort(), dataDir, env);
  worker = await startWorkerProcess(dataDir, env);
});
after(async () => {
  await api?.kill("SIGKILL");
  await worker?.kill("SIGKILL");
  cluster?.destroy();
});

test("requests answer 503 while PostgreSQL is down, and nothing accepted is lost", async () => {
  const accepted: string[] = [];
  const submit = async () => {
    const res = await call(api.baseUrl, "POST", "/v1/simulations", {
      key,
      body: smallSimulation({ fdtd_settings: { time_steps: 300 } }),
    });
    if (res.status === 202) accepted.push(String(res.body.job_id));
    return res;
  };
  for (let i = 0; i < 3; i++) assert.equal((await submit()).status, 202);

  cluster.stop();
  // Down: /health reports it, and requests are refused quickly, not left hanging.
  const t0 = Date.now();
  const health = await call(api.baseUrl, "GET", "/health");
  assert.equal(health.status, 503, health.text);
  assert.equal(health.body.database, "unavailable");
  for (const attempt of [
    () => submit(),
    () => call(api.baseUrl, "GET", `/v1/simulations/${accepted[0]}`, { key }),
    () => call(api.baseUrl, "GET", "/v1/simulations", { key }),
  ]) {
    const started = Date.now();
    const res = await attempt();
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.error_code, "service_unavailable");
    assert.match(String(res.body.detail), /nothing was stored/);
    assert.ok(res.headers.get("retry-after"));
    assert.ok(Date.now() - started < 8000, `answered after ${Date.now() - started} ms`);
  }
  assert.ok(Date.now() - t0 < 30_000);

  cluster.start();
  // Back: the pool reconnects by itself.
  const end = Date.now() + 30_000;
  for (;;) {
    const res = await call(api.baseUrl, "GET", "/health");
    if (res.status === 200) break;
    if (Date.now() > end) assert.fail(`still unhealthy: ${res.text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  for (let i = 0; i < 2; i++) assert.equal((await submit()).status, 202);
  // Every accepted job is there and completes; the worker came back too.
  for (const id of accepted) {
    const job = await waitForStatus(api.baseUrl, key, id, ["COMPLETED", "FAILED"], 120_000);
    assert.equal(job.status, "COMPLETED", `${id}: ${String(job.error_detail)}`);
  }
  assert.equal(accepted.length, 5);
});

test("a job running while PostgreSQL restarts completes, its result stored", async () => {
  // About 10 s of stepping on one thread here, twice that on a loaded host: the cluster goes
  // down a second in, for 3 s plus what pg_ctl takes to stop and start it (about the stale
  // time), so heartbeats fail while the job runs and it ends after the database is back.
  const id = await submitRunning(50_000);
  await new Promise((r) => setTimeout(r, 1000));
  cluster.stop();
  await new Promise((r) => setTimeout(r, 3000));
  cluster.start();
  await assertCompletedOnce(id);
});

test("a job that ends while PostgreSQL is down completes when it is back, not run again", async () => {
  // About 3 s of stepping; the cluster stops as it starts and stays down until the worker has
  // tried to record the completion and the stale time has passed. The worker keeps the stored
  // result and tries again; neither sweeper (the API's, the worker's) takes the job back for
  // its heartbeat, which aged in the outage as every live worker's did.
  const id = await submitRunning(15_000);
  const logged = worker.stderr().length;
  cluster.stop();
  const end = Date.now() + 60_000;
  while (!worker.stderr().slice(logged).includes("recording a completed job failed")) {
    if (Date.now() > end) assert.fail(`no completion was tried: ${worker.stderr().slice(logged)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, STALE_MS + 2000));
  cluster.start();
  await assertCompletedOnce(id);
});

/** A job stepping `steps` steps of a small grid with no early stop, once it is RUNNING. */
async function submitRunning(steps: number): Promise<string> {
  const body = smallSimulation({
    domain: {
      size: [1e-6, 1e-6, 3e-6],
      resolution: 0.05e-6,
      boundary_conditions: ["periodic", "periodic", "pml"],
      pml_layers: 12,
    },
    fdtd_settings: { time_steps: steps, convergence_threshold: 0 },
  });
  const res = await call(api.baseUrl, "POST", "/v1/simulations", { key, body });
  assert.equal(res.status, 202, res.text);
  const id = String(res.body.job_id);
  await waitForStatus(api.baseUrl, key, id, ["RUNNING"], 60_000);
  return id;
}

/** The job completed in its first attempt, its result there; neither process exited. */
async function assertCompletedOnce(id: string): Promise<void> {
  const job = await waitForStatus(api.baseUrl, key, id, ["COMPLETED", "FAILED"], 120_000);
  assert.equal(job.status, "COMPLETED", String(job.error_detail));
  assert.equal(job.attempts, 1, "the job was not started again");
  assert.equal(worker.child.exitCode, null, `the worker exited: ${worker.stderr()}`);
  assert.equal(api.child.exitCode, null, `the API exited: ${api.stderr()}`);
  const file = await call(api.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
  assert.ok([200, 302].includes(file.status), file.text);
}
