/**
 * `npm run bench:scale` (issue #11): the scaled-out service against the embedded default, in
 * one run on one machine.
 *
 * 1. Small-job throughput: BENCH_JOBS small jobs (SMALL_JOB below) submitted at once,
 *    timed from the first submission to the last COMPLETED, with 1 and 2 worker processes on
 *    PostgreSQL (each worker one solver thread) and with the embedded SQLite default (its
 *    in-process worker, one solver thread). Result files go to a local folder shared by the
 *    processes, so that the figure is the queue's, not the object store's.
 * 2. Claim latency: a job submitted while a worker is idle, until it is RUNNING (the job's
 *    started_at − created_at, both stamped by the service), BENCH_CLAIMS times; on PostgreSQL
 *    the workers' safety-net poll is set to a minute, so the wake-up is LISTEN/NOTIFY's alone.
 * 3. Authenticated status GETs by 500 concurrent clients: spread over 2 API processes on
 *    PostgreSQL, against 1 API process on SQLite. Each client polls every 500 ms at its own
 *    phase, as pollers do (1 000 req/s in all); reported: requests per second, p50/p99 latency
 *    and errors. A second run with clients polling as fast as they can gives the ceiling.
 *
 * Goals (this 2-core machine): 2 workers ≥ 1.7 × the jobs per minute of 1; claim latency p99 <
 * 100 ms with no busy polling; status GET p99 < 10 ms at 500 concurrent clients; zero errors.
 */
import autocannon from "autocannon";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import type { PollerFigures } from "../test/helpers/pollers.js";
import { freshPgDatabase } from "../test/helpers/postgres.js";
import { freePort, smallSimulation, tempDir } from "../test/helpers/service.js";
import { emsim, stop as stopProcess, waitUp } from "./processes.js";

const JOBS = Number(process.env.BENCH_JOBS ?? 24);

/**
 * A small job with real work in it: a periodic 3-D cell of 0.8 × 0.8 × 1.6 µm at 40 nm with a
 * silica slab, 2 000 steps (≈ 51 M cell-updates, a few tenths of a second on one thread), so
 * that the figure shows how the solver's work spreads over workers, not only the queue's.
 */
const SMALL_JOB = smallSimulation({
  domain: {
    size: [0.8e-6, 0.8e-6, 1.6e-6],
    resolution: 0.04e-6,
    boundary_conditions: ["periodic", "periodic", "pml"],
    pml_layers: 12,
  },
  structures: [
    { type: "box", center: [0, 0, 0.3e-6], size: [0.8e-6, 0.8e-6, 0.4e-6], material: "SiO2" },
  ],
  monitors: [
    {
      name: "axis",
      monitor_type: "field",
      center: [0, 0, 0],
      size: [0, 0, 1.2e-6],
      components: ["Ex", "Ey"],
    },
  ],
  fdtd_settings: { time_steps: 2000, convergence_threshold: 0 },
});
const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 30);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

type Env = Record<string, string>;

function start(args: string[], env: Env): ChildProcess {
  return spawn(process.execPath, ["dist/cli/main.js", ...args], {
    env: { ...process.env, EMSIM_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
}

async function waitWorker(child: ChildProcess): Promise<void> {
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  for (let i = 0; i < 600 && !/emsim worker \S+ polling/.test(err); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!/emsim worker \S+ polling/.test(err)) throw new Error(`worker did not start: ${err}`);
}

async function stop(d: Deployment): Promise<void> {
  await Promise.all(d.children.map(stopProcess));
  rmSync(d.dataDir, { recursive: true, force: true });
}

interface Deployment {
  name: string;
  dataDir: string;
  apis: string[];
  key: string;
  children: ChildProcess[];
}

/** API processes and worker processes on one database; all share one data directory. */
async function deploy(
  name: string,
  base: Env,
  apiCount: number,
  workerCount: number,
): Promise<Deployment> {
  const dataDir = tempDir("emsim-bench-");
  const env = {
    ...base,
    EMSIM_DATA_DIR: dataDir,
    EMSIM_RATE_LIMIT_PER_MINUTE: "0",
    EMSIM_MAX_ACTIVE_JOBS: "100000",
    EMSIM_SOLVER_THREADS: "1",
  };
  const key = emsim(["keys", "create", "--email", "bench@example.com", "--name", "b"], env);
  const children: ChildProcess[] = [];
  const apis: string[] = [];
  for (let i = 0; i < apiCount; i++) {
    const port = await freePort();
    // With no separate workers, the first API process runs the embedded worker.
    const embedded = workerCount === 0 && i === 0 ? "true" : "false";
    children.push(
      start(["server", "--port", String(port)], { ...env, EMSIM_EMBEDDED_WORKER: embedded }),
    );
    apis.push(`http://127.0.0.1:${port}`);
    await waitUp(`${apis[i]}/health`);
  }
  for (let i = 0; i < workerCount; i++) {
    const child = start(["worker"], env);
    children.push(child);
    await waitWorker(child);
  }
  return { name, dataDir, apis, key, children };
}

async function submit(d: Deployment, api = d.apis[0]!): Promise<string> {
  const res = await fetch(`${api}/v1/simulations`, {
    method: "POST",
    headers: { authorization: `Bearer ${d.key}`, "content-type": "application/json" },
    body: JSON.stringify(SMALL_JOB),
  });
  if (res.status !== 202) throw new Error(`submission: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { job_id: string }).job_id;
}

async function job(d: Deployment, id: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${d.apis[0]}/v1/simulations/${id}`, {
    headers: { authorization: `Bearer ${d.key}` },
  });
  return (await res.json()) as Record<string, unknown>;
}

async function until(d: Deployment, id: string, statuses: string[]) {
  for (;;) {
    const j = await job(d, id);
    if (statuses.includes(String(j.status))) return j;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Jobs per minute: JOBS submitted at once, until the last is COMPLETED. */
async function throughput(d: Deployment): Promise<{ perMinute: number; failed: number }> {
  const t0 = Date.now();
  const ids = await Promise.all(Array.from({ length: JOBS }, () => submit(d)));
  let failed = 0;
  for (const id of ids)
    if ((await until(d, id, ["COMPLETED", "FAILED"])).status !== "COMPLETED") failed++;
  return { perMinute: (JOBS / (Date.now() - t0)) * 60_000, failed };
}

/** Submitted → RUNNING, one job at a time with the worker idle in between. */
async function claimLatency(d: Deployment): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < CLAIMS; i++) {
    await new Promise((r) => setTimeout(r, 100)); // the worker is idle, waiting
    const id = await submit(d);
    const done = await until(d, id, ["COMPLETED", "FAILED"]);
    ms.push(Date.parse(String(done.started_at)) - Date.parse(String(done.created_at)));
  }
  return ms.sort((a, b) => a - b);
}

/**
 * 500 steady pollers (test/helpers/pollers.ts in processes of their own, one per API process,
 * each client at its own random phase) polling every 500 ms: 1 000 req/s in all.
 */
function pacedPollers(d: Deployment, id: string): PollerFigures[] {
  const per = Math.floor(500 / d.apis.length);
  return d.apis.map((api) => {
    const r = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "test/helpers/pollers.ts",
        new URL(api).port,
        `/v1/simulations/${id}`,
        d.key,
        String(per),
        String(Math.round((SECONDS * 1000) / 500)),
        "500",
        "spread",
      ],
      { encoding: "utf8" },
    );
    if (r.status !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout) as PollerFigures;
  });
}

/** Clients polling as fast as they can (autocannon): the ceiling. */
async function statusCeiling(d: Deployment, id: string) {
  const per = Math.floor(500 / d.apis.length);
  const runs = await Promise.all(
    d.apis.map((api) =>
      autocannon({
        url: `${api}/v1/simulations/${id}`,
        headers: { authorization: `Bearer ${d.key}` },
        connections: per,
        duration: SECONDS,
      }),
    ),
  );
  const rps = runs.reduce((a, r) => a + r.requests.average, 0);
  const p50 = Math.max(...runs.map((r) => r.latency.p50));
  const p99 = Math.max(...runs.map((r) => r.latency.p99));
  const errors = runs.reduce((a, r) => a + r.errors + r.timeouts + r.non2xx, 0);
  return { rps, p50, p99, errors };
}

const pct = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main(): Promise<void> {
  const db = await freshPgDatabase();
  const rows: string[] = [];
  const claimRows: string[] = [];
  const statusRows: string[] = [];
  const pgEnv = { EMSIM_DATABASE_URL: db.url, EMSIM_POLL_INTERVAL_MS: "60000" };
  try {
    for (const [name, env, apis, workers] of [
      ["SQLite, embedded worker", {}, 1, 0],
      ["PostgreSQL, 1 worker process", pgEnv, 1, 1],
      ["PostgreSQL, 2 worker processes", pgEnv, 1, 2],
    ] as const) {
      const d = await deploy(name, env, apis, workers);
      try {
        await throughput(d); // warm-up: JIT, kernels, connections
        const t = await throughput(d);
        rows.push(`| ${name} | ${t.perMinute.toFixed(0)} | ${t.failed} |`);
        if (workers !== 2) {
          const ms = await claimLatency(d);
          claimRows.push(`| ${name} | ${pct(ms, 0.5)} | ${pct(ms, 0.99)} | ${ms[ms.length - 1]} |`);
        }
      } finally {
        await stop(d);
      }
    }
    for (const [name, env, apis] of [
      ["SQLite, 1 API process", {}, 1],
      ["PostgreSQL, 2 API processes", pgEnv, 2],
    ] as const) {
      const d = await deploy(name, { ...env, EMSIM_EMBEDDED_WORKER: "false" }, apis, 0);
      try {
        const id = await submit(d);
        pacedPollers(d, id); // warm-up
        const paced = pacedPollers(d, id);
        const requests = paced.reduce((a, f) => a + f.requests, 0);
        const errors = paced.reduce((a, f) => a + f.errors, 0);
        const p50 = Math.max(...paced.map((f) => f.p50Ms));
        const p99 = Math.max(...paced.map((f) => f.p99Ms));
        const ceiling = await statusCeiling(d, id);
        statusRows.push(
          `| ${name} | 500 pollers, every 500 ms | ${(requests / SECONDS).toFixed(0)} | ${p50} | ${p99} | ${errors} |`,
          `| ${name} | as fast as they can | ${ceiling.rps.toFixed(0)} | ${ceiling.p50} | ${ceiling.p99} | ${ceiling.errors} |`,
        );
      } finally {
        await stop(d);
      }
    }
  } finally {
    await db.drop();
  }
  console.log(
    [
      `Small-job throughput (${JOBS} jobs at once, one solver thread per worker):`,
      "| deployment | jobs per minute | failed |",
      "|---|---|---|",
      ...rows,
      "",
      `Claim latency, submitted → RUNNING with the worker idle (${CLAIMS} jobs, ms):`,
      "| deployment | p50 | p99 | max |",
      "|---|---|---|---|",
      ...claimRows,
      "",
      `Authenticated status GETs, 500 concurrent clients, ${SECONDS} s:`,
      "| deployment | load | req/s | p50 ms | p99 ms | errors |",
      "|---|---|---|---|---|---|",
      ...statusRows,
    ].join("\n"),
  );
}

await main();
