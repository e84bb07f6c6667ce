/**
 * `npm run bench:api`: authenticated status GETs and submissions at 50 connections
 * (autocannon), beside a bare Fastify route measured in the same run on the same machine.
 * Reports requests/s and p50/p99 latency and the ratio to the bare route.
 *
 * Goal (issue #2): authenticated status throughput ≥ 0.5 × bare, p99 < 10 ms.
 */
import autocannon from "autocannon";
import Fastify from "fastify";
import { rmSync } from "node:fs";
import { freePort, smallSimulation, startService, tempDir } from "../test/helpers/service.js";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measure(name: string, opts: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...opts });
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

async function main(): Promise<void> {
  // The bare route: Fastify answering a small JSON object, no auth, no database.
  const bare = Fastify();
  bare.get("/bare", async () => ({ status: "ok", n: 1 }));
  const barePort = await freePort();
  await bare.listen({ host: "127.0.0.1", port: barePort });

  const dataDir = tempDir("emsim-bench-");
  const svc = await startService(
    { rateLimitPerMinute: 0, embeddedWorker: false, dataDir },
    { EMSIM_LOG_LEVEL: "silent" },
  );
  const key = await svc.newKey("bench@example.com");
  const sub = await fetch(`${svc.baseUrl}/v1/simulations`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(smallSimulation()),
  });
  const { job_id: jobId } = (await sub.json()) as { job_id: string };
  const auth = { authorization: `Bearer ${key}` };

  const results: Figures[] = [];
  results.push(await measure("bare Fastify route", { url: `http://127.0.0.1:${barePort}/bare` }));
  results.push(
    await measure("GET /v1/simulations/{id} (authenticated)", {
      url: `${svc.baseUrl}/v1/simulations/${jobId}`,
      headers: auth,
    }),
  );
  // Submissions: the account already has an active job, so each is fully validated and then
  // refused with 409 by the admission transaction — the path every submission takes.
  results.push(
    await measure("POST /v1/simulations (validated, admission → 409)", {
      url: `${svc.baseUrl}/v1/simulations`,
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(smallSimulation()),
    }),
  );
  // Accepted submissions: a key per request cycle is impractical, so with the global scope
  // and a high limit every submission is admitted and inserted.
  await svc.close();
  const svc2 = await startService(
    { rateLimitPerMinute: 0, embeddedWorker: false, maxActiveJobs: 1_000_000 },
    { EMSIM_LOG_LEVEL: "silent" },
  );
  const key2 = await svc2.newKey("bench2@example.com");
  results.push(
    await measure("POST /v1/simulations (validated, admitted → 202)", {
      url: `${svc2.baseUrl}/v1/simulations`,
      method: "POST",
      headers: { authorization: `Bearer ${key2}`, "content-type": "application/json" },
      body: JSON.stringify(smallSimulation()),
    }),
  );
  await svc2.close();
  await bare.close();
  rmSync(dataDir, { recursive: true, force: true });

  const bareRps = results[0]!.rps;
  const lines = [
    `| measurement (${CONNECTIONS} connections, ${DURATION_S} s) | req/s | × bare | p50 ms | p99 ms | non-2xx |`,
    "|---|---|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${r.name} | ${Math.round(r.rps)} | ${(r.rps / bareRps).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.non2xx} |`,
    ),
  ];
  console.log(lines.join("\n"));
  const status = results[1]!;
  console.log(
    `\nstatus GET: ${(status.rps / bareRps).toFixed(2)} × bare (goal ≥ 0.5), p99 ${status.p99} ms (goal < 10 ms)`,
  );
}

await main();
