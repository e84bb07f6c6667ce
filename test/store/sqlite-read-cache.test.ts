/**
 * The read cache of the SQLite store (src/store/sqlite/read-cache.ts): rows are served from
 * memory while nothing changed, and every change, made through this connection, another
 * connection or another process, is seen by the next read.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { hashApiKey } from "../../src/auth/api-keys.js";
import { AccountService } from "../../src/accounts/service.js";
import Database from "better-sqlite3";
import { openSqliteStores } from "../../src/store/sqlite/index.js";
import { SqliteReadCache } from "../../src/store/sqlite/read-cache.js";
import type { ReadScope } from "../../src/store/types.js";
import { cli } from "../helpers/process.js";
import { call, startService, tempDir } from "../helpers/service.js";

async function twoConnections() {
  const path = join(tempDir(), "t.sqlite");
  const a = openSqliteStores(path);
  const b = openSqliteStores(path);
  const account = await a.accounts.createAccount({ email: "a@x.io", isAdmin: false });
  const { key } = await new AccountService(a.accounts).issueKeyFor("a@x.io", "k");
  const admitted = await a.jobs.admitJob(
    {
      jobId: "00000000-0000-4000-8000-000000000001",
      accountId: account.id,
      solver: "fdtd",
      requestJson: "{}",
      specJson: "{}",
      metadata: {},
      createdAt: new Date().toISOString(),
    },
    { limit: 1, scope: "account" },
  );
  assert.ok(admitted.admitted);
  return { a, b, hash: hashApiKey(key), jobId: admitted.job.jobId };
}

test("unchanged rows come from memory; any commit, on any connection, is seen next read", async () => {
  const { a, b, hash, jobId } = await twoConnections();
  const job1 = await a.jobs.getJob(jobId);
  assert.equal(await a.jobs.getJob(jobId), job1, "a repeated read is the cached row");
  const key1 = await a.accounts.findActiveApiKeyByHash(hash);
  assert.equal(await a.accounts.findActiveApiKeyByHash(hash), key1);

  // Another connection (another server process, a worker) claims the job.
  assert.equal((await b.jobs.claimNextJob("w1", new Date().toISOString()))?.jobId, jobId);
  const job2 = await a.jobs.getJob(jobId);
  assert.equal(job2?.status, "RUNNING");
  assert.notEqual(job2, job1);

  // Another connection revokes the key: refused on the very next lookup.
  await b.accounts.revokeApiKey(key1!.key.id);
  assert.equal(await a.accounts.findActiveApiKeyByHash(hash), null);
});

test("this connection's own writes are seen, also within a request's read scope", async () => {
  const { a, hash, jobId } = await twoConnections();
  const reads: ReadScope = {};
  const key = await a.accounts.findActiveApiKeyByHash(hash, reads);
  assert.equal(reads.confirmed, true, "the first read of a request confirms the cache");
  assert.equal((await a.jobs.getJob(jobId, reads))?.cancelRequested, false);
  await a.jobs.requestCancel(jobId, new Date().toISOString(), "cancelled");
  assert.equal((await a.jobs.getJob(jobId, reads))?.cancelRequested, true);
  await a.accounts.revokeApiKey(key!.key.id);
  assert.equal(await a.accounts.findActiveApiKeyByHash(hash, reads), null);
});

test("a new request sees what other connections committed after an earlier request", async () => {
  const { a, b, jobId } = await twoConnections();
  const first: ReadScope = {};
  assert.equal((await a.jobs.getJob(jobId, first))?.status, "QUEUED");
  await b.jobs.claimNextJob("w1", new Date().toISOString());
  assert.equal((await a.jobs.getJob(jobId, {}))?.status, "RUNNING");
});

test("a key revoked by the CLI in another process is refused by a running server at once", async () => {
  const svc = await startService();
  try {
    const key = await svc.newKey("cli-revoke@example.com", "laptop");
    for (let i = 0; i < 3; i++) {
      assert.equal((await call(svc.baseUrl, "GET", "/v1/simulations", { key })).status, 200);
    }
    const [record] = await svc.service.stores.accounts.listApiKeys();
    const out = cli(["keys", "revoke", record!.id, "--data-dir", svc.config.dataDir]);
    assert.equal(out.status, 0, out.stderr);
    const res = await call(svc.baseUrl, "GET", "/v1/simulations", { key });
    assert.equal(res.status, 401);
  } finally {
    await svc.close();
  }
});

test("the cache is bounded by entries and by bytes, and never keeps a value over the budget", () => {
  const reads = new Map<string, number>();
  const count = (key: string) => reads.get(key) ?? 0;
  const reader = (limits: { maxEntries: number; maxBytes: number }) => {
    const cache = new SqliteReadCache(new Database(":memory:"), limits);
    return (key: string, bytes: number) =>
      cache.get(
        key,
        () => {
          reads.set(key, count(key) + 1);
          return { key };
        },
        undefined,
        () => bytes,
      );
  };

  const byCount = reader({ maxEntries: 3, maxBytes: 1e9 });
  byCount("a", 100);
  byCount("a", 100);
  assert.equal(count("a"), 1, "a repeated read is served from memory");
  byCount("b", 100);
  byCount("c", 100);
  byCount("d", 100); // a fourth entry: the cache starts over
  byCount("a", 100);
  assert.equal(count("a"), 2);

  const byBytes = reader({ maxEntries: 1000, maxBytes: 1000 });
  byBytes("big1", 600);
  byBytes("big1", 600);
  assert.equal(count("big1"), 1);
  byBytes("big2", 600); // 600 + 600 > 1000 bytes: starts over
  byBytes("big1", 600);
  assert.equal(count("big1"), 2);
  byBytes("huge", 5000); // larger than the whole budget: returned, never kept
  byBytes("huge", 5000);
  assert.equal(count("huge"), 2);
  byBytes("big1", 600);
  assert.equal(count("big1"), 2, "a value over the budget does not evict the others");
});
