/**
 * `npm run bench:batch` (issue #30): a batch of small 2-D jobs through the HTTP API of a fresh
 * embedded server (compiled, `dist/`, its own process), timed from submission to COMPLETED,
 * against the sum of the same jobs' solver times (each job's `solver_report.wall_seconds`, read
 * from its record): the batch's overhead is what the service adds around the solver (claims,
 * thread hand-offs, result files, the store). Then the same batch with a second worker process
 * sharing the data directory and EMSIM_BATCH_PARALLELISM=2: the speed-up over one worker.
 *
 * The jobs: a Si strip's cross-section (one cell thick, 2-D) swept over its width, every
 * variant different (identical variants would be answered from each other's results). Each
 * job's solver uses one thread (EMSIM_SOLVER_THREADS=1), so that two workers on two cores are
 * two jobs at once. Last, the same jobs in plain processes with no service (batch-ceiling.ts):
 * one process, then two at once, whose speed-up is the most a second worker could give here.
 *
 *   npm run bench:batch          # BENCH_JOBS=100 (default), BENCH_STEPS=4000
 *
 * 4000 steps: a job that injects its whole source pulse (about 2800 steps here), as a user's
 * would; with fewer each job's record says its spectra are not reliable, and the benchmark
 * prints how many did.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism, cpus, loadavg } from "node:os";
import { rmSync } from "node:fs";
import { tempDir } from "../test/helpers/service.js";
import { emsim, startServer, stop } from "./processes.js";
import { ceiling, stripJob, widthOf } from "./batch-ceiling.js";

const JOBS = Math.max(2, Number(process.env.BENCH_JOBS ?? 100) || 100);
const STEPS = Math.max(100, Number(process.env.BENCH_STEPS ?? 4000) || 4000);
/** The run report's note on a run stopped before its source pulse was fully injected. */
const CUT_SHORT = /before the source pulse was fully injected/;

/** The batch: a strip's 2-D cross-section (x–y, one cell along z) over JOBS widths. */
function batchRequest() {
  const widths = Array.from({ length: JOBS }, (_, i) => widthOf(i, JOBS));
  return {
    simulation: stripJob(widths[0]!, STEPS),
    parameters: [{ name: "width", path: "/structures/1/size/1", values: widths }],
  };
}

interface Run {
  workers: number;
  wallSeconds: number;
  solverSeconds: number;
  jobs: number;
  /** Jobs whose run report says the time-step limit cut their source pulse short. */
  cutShort: number;
}

async function call(base: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as Record<string, unknown>;
}

/** One round: a fresh server (and a second worker when `workers` is 2), the whole batch. */
async function round(workers: 1 | 2): Promise<Run> {
  const dataDir = tempDir();
  const env = {
    EMSIM_SOLVER_THREADS: "1",
    EMSIM_BATCH_PARALLELISM: String(workers),
    EMSIM_POLL_INTERVAL_MS: "100",
  };
  const { child, baseUrl } = await startServer(dataDir, env);
  let second: ChildProcess | null = null;
  try {
    if (workers === 2) {
      second = spawn(process.execPath, ["dist/cli/main.js", "worker", "--data-dir", dataDir], {
        env: { ...process.env, EMSIM_LOG_LEVEL: "warn", ...env },
        stdio: "ignore",
      });
      await new Promise((r) => setTimeout(r, 1500)); // its solver thread warms up
    }
    const key = emsim(["keys", "create", "--email", "bench@example.com", "--name", "bench"], {
      EMSIM_DATA_DIR: dataDir,
    });
    const started = performance.now();
    const ack = await call(baseUrl, key, "POST", "/v1/batches", batchRequest());
    if (!ack.batch_id) throw new Error(`batch refused: ${JSON.stringify(ack)}`);
    let record: Record<string, unknown>;
    for (;;) {
      record = await call(baseUrl, key, "GET", `/v1/batches/${String(ack.batch_id)}`);
      if (record.status === "COMPLETED" || record.status === "FAILED") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const wallSeconds = (performance.now() - started) / 1000;
    let solverSeconds = 0;
    let cutShort = 0;
    for (const j of record.jobs as { job_id: string }[]) {
      const job = await call(baseUrl, key, "GET", `/v1/simulations/${j.job_id}`);
      const report = job.solver_report as { wall_seconds: number; notes?: string[] };
      solverSeconds += Number(report.wall_seconds);
      if ((report.notes ?? []).some((n) => CUT_SHORT.test(n))) cutShort++;
    }
    const jobs = (record.jobs as unknown[]).length;
    return { workers, wallSeconds, solverSeconds, jobs, cutShort };
  } finally {
    if (second) await stop(second);
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const before = loadavg();
const one = await round(1);
const two = await round(2);
const bare = await ceiling(JOBS, STEPS);
const after = loadavg();
console.log(
  `# bench:batch — ${new Date().toISOString()}, ${cpus()[0]?.model ?? "?"}, ${availableParallelism()} cores, load ${before.map((l) => l.toFixed(2)).join(" / ")} before, ${after.map((l) => l.toFixed(2)).join(" / ")} after`,
);
console.log(`${JOBS} jobs of ${STEPS} steps each (a 2-D strip cross-section, 150 × 100 cells)\n`);
if (one.cutShort > 0) {
  console.log(
    `(${one.cutShort} of the ${one.jobs} jobs stopped before their source pulse was fully injected: raise BENCH_STEPS)\n`,
  );
}
console.log(
  "| workers | batch wall (s) | Σ solver wall_seconds (s) | batch ÷ Σ solver | speed-up over 1 worker |",
);
console.log("| --- | --- | --- | --- | --- |");
for (const r of [one, two]) {
  console.log(
    `| ${r.workers} | ${r.wallSeconds.toFixed(2)} | ${r.solverSeconds.toFixed(2)} | ${(r.wallSeconds / r.solverSeconds).toFixed(3)} | ${(one.wallSeconds / r.wallSeconds).toFixed(2)} |`,
  );
}
console.log(
  `\nThe same jobs with no service, in plain processes (bench/batch-ceiling.ts): one process ${bare.one.toFixed(2)} s, two at once ${bare.two.toFixed(2)} s — ${(bare.one / bare.two).toFixed(2)}× is what a second core gives two solvers here; the batch's ${(one.wallSeconds / two.wallSeconds).toFixed(2)}× is ${((100 * (one.wallSeconds / two.wallSeconds)) / (bare.one / bare.two)).toFixed(0)} % of it.`,
);
