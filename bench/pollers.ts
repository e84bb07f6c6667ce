/**
 * `npm run bench:pollers`: a thousand pollers reconnecting at once (issue #10, defect 10).
 * The service (compiled, `dist/`) runs in its own process; the crowd — 1000 clients, each
 * opening a new connection at the same moment and then polling its job three times over
 * keep-alive, 100 ms apart — runs in another (test/helpers/pollers.ts). "Cold" is the first
 * crowd after the process starts (V8 not yet warm), "warm" the next one. Each case runs with
 * the listen backlog we ship (EMSIM_LISTEN_BACKLOG, 4096) and with Node's default (511).
 *
 * Goal: 0 errors, p99 < 1 s, cold and warm.
 */
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import type { PollerFigures } from "../test/helpers/pollers.js";
import { freePort, smallSimulation, tempDir } from "../test/helpers/service.js";
import { emsim, stop, waitUp } from "./processes.js";

const CLIENTS = Number(process.env.BENCH_POLLERS ?? 1000);

function crowd(port: number, path: string, key: string): PollerFigures {
  const r = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "test/helpers/pollers.ts",
      String(port),
      path,
      key,
      String(CLIENTS),
      "3",
      "100",
    ],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as PollerFigures;
}

async function main(): Promise<void> {
  const dataDir = tempDir("emsim-bench-");
  const key = emsim([
    "keys",
    "create",
    "--email",
    "crowd@example.com",
    "--name",
    "b",
    "--data-dir",
    dataDir,
  ]);
  const rows: string[] = [];
  let jobPath = "";
  for (const backlog of ["4096", "511"]) {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      ["dist/cli/main.js", "server", "--port", String(port), "--data-dir", dataDir],
      {
        env: {
          ...process.env,
          EMSIM_LOG_LEVEL: "warn",
          EMSIM_RATE_LIMIT_PER_MINUTE: "0",
          EMSIM_EMBEDDED_WORKER: "false",
          EMSIM_LISTEN_BACKLOG: backlog,
        },
        stdio: "ignore",
      },
    );
    await waitUp(`http://127.0.0.1:${port}/health`);
    if (!jobPath) {
      const res = await fetch(`http://127.0.0.1:${port}/v1/simulations`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(smallSimulation()),
      });
      jobPath = `/v1/simulations/${((await res.json()) as { job_id: string }).job_id}`;
    }
    for (const phase of ["cold", "warm"]) {
      const f = crowd(port, jobPath, key);
      rows.push(
        `| ${backlog} | ${phase} | ${f.requests} | ${f.errors} | ${f.p50Ms} | ${f.p99Ms} | ${f.maxMs} |`,
      );
    }
    await stop(child);
  }
  rmSync(dataDir, { recursive: true, force: true });
  console.log(
    [
      `| backlog | phase | requests (${CLIENTS} clients × 3) | errors | p50 ms | p99 ms | max ms |`,
      "|---|---|---|---|---|---|---|",
      ...rows,
    ].join("\n"),
  );
}

await main();
