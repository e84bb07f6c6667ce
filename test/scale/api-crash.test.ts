/**
 * Issue #11: an API process killed with SIGKILL in the middle of a burst of submissions, on
 * PostgreSQL. Every submission that was answered 202 is stored; nothing half-made is: each
 * stored job is whole (request, spec, metadata) and QUEUED, and a new API process serves it.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { startServerProcess, createKeyWithCli } from "../helpers/process.js";
import { freshPgDatabase } from "../helpers/postgres.js";
import { call, freePort, smallSimulation, tempDir } from "../helpers/service.js";

let db: Awaited<ReturnType<typeof freshPgDatabase>>;
before(async () => {
  db = await freshPgDatabase();
});
after(async () => db?.drop());

test("SIGKILL of an API process during submissions leaves no half-made job", async () => {
  const env = {
    EMSIM_DATABASE_URL: db.url,
    EMSIM_MAX_ACTIVE_JOBS: "100000",
    EMSIM_RATE_LIMIT_PER_MINUTE: "0",
    EMSIM_EMBEDDED_WORKER: "false",
  };
  const keys = [0, 1, 2, 3].map((i) => {
    return createKeyWithCli(`crash${i}@example.com`, null, env);
  });
  const port = await freePort();
  const api = await startServerProcess(port, tempDir(), env);
  const accepted: string[] = [];
  const outcomes = { accepted: 0, failed: 0 };
  // A steady stream of submissions from four accounts; the process dies in the middle of it.
  const stream = (key: string, i: number) =>
    (async () => {
      for (let n = 0; n < 40; n++) {
        try {
          const res = await call(api.baseUrl, "POST", "/v1/simulations", {
            key,
            body: smallSimulation({ metadata: { client: i, n, pad: "x".repeat(2000) } }),
          });
          if (res.status === 202) {
            accepted.push(String(res.body.job_id));
            outcomes.accepted++;
          } else outcomes.failed++;
        } catch {
          outcomes.failed++; // the connection died with the process
          return;
        }
      }
    })();
  const streams = keys.map(stream);
  await new Promise((r) => setTimeout(r, 400));
  await api.kill("SIGKILL");
  await Promise.all(streams);
  assert.ok(outcomes.accepted > 0, "some submissions were accepted before the kill");
  assert.ok(outcomes.failed > 0, "the kill happened during the burst");

  // Straight from the database: every row is whole, and every 202 has its row.
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const { rows } = await client.query<{
    job_id: string;
    status: string;
    request_json: string;
    spec_json: string;
    metadata_json: string;
  }>("SELECT job_id, status, request_json, spec_json, metadata_json FROM jobs");
  await client.end();
  const stored = new Set(rows.map((r) => r.job_id));
  for (const id of accepted) assert.ok(stored.has(id), `accepted job ${id} was lost`);
  for (const r of rows) {
    assert.equal(r.status, "QUEUED");
    assert.doesNotThrow(() => JSON.parse(r.request_json));
    assert.ok(JSON.parse(r.spec_json).domain, "spec is whole");
    assert.equal(JSON.parse(r.metadata_json).pad.length, 2000);
  }
  // A new API process serves them all.
  const again = await startServerProcess(await freePort(), tempDir(), env);
  try {
    for (const id of accepted.slice(0, 10)) {
      const res = await call(again.baseUrl, "GET", `/v1/simulations/${id}`, {
        key: keys[0]!,
      });
      assert.ok(res.status === 200 || res.status === 404, res.text); // 404: another account's
    }
    let seen = 0;
    for (const key of keys) {
      const list = await call(again.baseUrl, "GET", "/v1/simulations?limit=100", { key });
      seen += (list.body.jobs as unknown[]).length;
    }
    assert.equal(seen, rows.length);
  } finally {
    await again.kill("SIGKILL");
  }
});
