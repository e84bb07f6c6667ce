/**
 * `npm run bench:api`: authenticated status GETs and submissions at 50 connections
 * (autocannon), beside a bare Fastify route measured in the same run on the same machine.
 * The service (compiled, `dist/`) and the bare server each run in their own process, the load
 * generator in this one, so on a 2-core machine server and client get a core each.
 * Reports requests/s, p50/p99 latency and the ratio to the bare route.
 *
 * The bare route and the status GET are measured in alternation, BENCH_ROUNDS times (3 by
 * default), each status run against the bare run just before it: on a shared host both
 * drift by several per cent over a minute, and a ratio of neighbours cancels most of that.
 * The summary is the median of those ratios.
 *
 * Goal (issue #2): authenticated status throughput ≥ 0.5 × bare, p99 < 10 ms.
 */
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { freePort, smallSimulation, tempDir } from "../test/helpers/service.js";
import { emsim as runEmsim, startServer, stop, waitUp } from "./processes.js";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const CONNECTIONS = 50;

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function measure(name: string, opts: autocannon.Options): Promise<Figures> {
  // A short warm-up lets V8 optimise the server's hot paths before the measured run.
  await autocannon({ connections: CONNECTIONS, duration: 1, ...opts });
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...opts });
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
  };
}

async function main(): Promise<void> {
  const barePort = await freePort();
  const bare = spawn(process.execPath, ["bench/bare-server.mjs", String(barePort)], {
    stdio: "ignore",
  });
  await waitUp(`http://127.0.0.1:${barePort}/bare`);

  const dataDir = tempDir("emsim-bench-");
  const key = runEmsim([
    "keys",
    "create",
    "--email",
    "bench@example.com",
    "--name",
    "bench",
    "--data-dir",
    dataDir,
  ]);
  const emsim = await startServer(dataDir, { EMSIM_EMBEDDED_WORKER: "false" });
  const sub = await fetch(`${emsim.baseUrl}/v1/simulations`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(smallSimulation()),
  });
  const { job_id: jobId } = (await sub.json()) as { job_id: string };
  const auth = { authorization: `Bearer ${key}` };
  const body = JSON.stringify(smallSimulation());

  const results: Figures[] = [];
  const ratios: number[] = [];
  const statuses: Figures[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const tag = ROUNDS > 1 ? ` [round ${round}]` : "";
    const bareRun = await measure(`bare Fastify route${tag}`, {
      url: `http://127.0.0.1:${barePort}/bare`,
    });
    const statusRun = await measure(`GET /v1/simulations/{id} (authenticated)${tag}`, {
      url: `${emsim.baseUrl}/v1/simulations/${jobId}`,
      headers: auth,
    });
    results.push(bareRun, statusRun);
    statuses.push(statusRun);
    ratios.push(statusRun.rps / bareRun.rps);
  }
  // The account already has an active job: each submission is fully validated, then refused
  // with 409 by the admission transaction.
  results.push(
    await measure("POST /v1/simulations (validated, admission → 409)", {
      url: `${emsim.baseUrl}/v1/simulations`,
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body,
    }),
  );
  await stop(emsim.child);

  // Admitted submissions: a high global limit admits and inserts every one.
  const dataDir2 = tempDir("emsim-bench-");
  const key2 = runEmsim([
    "keys",
    "create",
    "--email",
    "bench2@example.com",
    "--name",
    "bench",
    "--data-dir",
    dataDir2,
  ]);
  const emsim2 = await startServer(dataDir2, {
    EMSIM_EMBEDDED_WORKER: "false",
    EMSIM_MAX_ACTIVE_JOBS: "100000000",
  });
  results.push(
    await measure("POST /v1/simulations (validated, admitted → 202)", {
      url: `${emsim2.baseUrl}/v1/simulations`,
      method: "POST",
      headers: { authorization: `Bearer ${key2}`, "content-type": "application/json" },
      body,
    }),
  );
  await Promise.all([stop(emsim2.child), stop(bare)]);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(dataDir2, { recursive: true, force: true });

  // Each measurement's ratio is to the bare run of its round (the latest one before it).
  let bareRps = results[0]!.rps;
  const rows = results.map((r) => {
    if (r.name.startsWith("bare")) bareRps = r.rps;
    return `| ${r.name} | ${Math.round(r.rps)} | ${(r.rps / bareRps).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.non2xx} |`;
  });
  console.log(
    [
      `| measurement (${CONNECTIONS} connections, ${DURATION_S} s) | req/s | × bare | p50 ms | p99 ms | non-2xx |`,
      "|---|---|---|---|---|---|",
      ...rows,
    ].join("\n"),
  );
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const p99 = Math.max(...statuses.map((s) => s.p99));
  console.log(
    `\nstatus GET: ${median.toFixed(2)} × bare (median of ${ratios.map((r) => r.toFixed(2)).join(", ")}; goal ≥ 0.5), ` +
      `p99 ≤ ${p99} ms (goal < 10 ms)`,
  );
}

await main();
