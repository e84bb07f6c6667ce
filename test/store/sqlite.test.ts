/** The SQLite store against a real database file: admission, claims, heartbeats, recovery. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { SqliteStore } from "../../src/store/sqlite.js";
import type { NewJob } from "../../src/store/types.js";
import { tempDir } from "../helpers/service.js";

async function setup() {
  const store = new SqliteStore(join(tempDir(), "t.sqlite"));
  const a = await store.createAccount({ email: "a@x.io", isAdmin: false });
  const b = await store.createAccount({ email: "b@x.io", isAdmin: false });
  let n = 0;
  const job = (accountId: string): NewJob => ({
    jobId: `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
    accountId,
    solver: "fdtd",
    requestJson: "{}",
    specJson: "{}",
    metadata: {},
    createdAt: new Date(Date.now() + n).toISOString(),
  });
  return { store, a, b, job };
}

test("admission: one active job per account by default, global scope counts everyone", async () => {
  const { store, a, b, job } = await setup();
  const rule = { limit: 1, scope: "account" as const };
  const first = await store.admitJob(job(a.id), rule);
  assert.equal(first.admitted, true);
  const second = await store.admitJob(job(a.id), rule);
  assert.equal(second.admitted, false);
  if (!second.admitted && first.admitted) assert.equal(second.active.jobId, first.job.jobId);
  assert.equal((await store.admitJob(job(b.id), rule)).admitted, true);
  assert.equal((await store.admitJob(job(b.id), { limit: 2, scope: "global" })).admitted, false);
  assert.equal((await store.admitJob(job(a.id), { limit: 3, scope: "global" })).admitted, true);
});

test("claims take the oldest queued job once; heartbeats report cancellation", async () => {
  const { store, a, b, job } = await setup();
  const rule = { limit: 5, scope: "account" as const };
  const j1 = await store.admitJob(job(a.id), rule);
  const j2 = await store.admitJob(job(b.id), rule);
  assert.ok(j1.admitted && j2.admitted);
  const now = new Date().toISOString();
  const c1 = await store.claimNextJob("w1", now);
  const c2 = await store.claimNextJob("w2", now);
  assert.equal(c1?.jobId, j1.admitted ? j1.job.jobId : "");
  assert.equal(c2?.jobId, j2.admitted ? j2.job.jobId : "");
  assert.equal(await store.claimNextJob("w3", now), null);
  assert.deepEqual(await store.heartbeat(c1!.jobId, "w1", now, null), { cancelRequested: false });
  assert.equal(await store.heartbeat(c1!.jobId, "w2", now, null), null, "not w2's job");
  await store.requestCancel(c1!.jobId, now);
  assert.deepEqual(await store.heartbeat(c1!.jobId, "w1", now, null), { cancelRequested: true });
});

test("a stale heartbeat sends the job back to QUEUED, then FAILED after the last attempt", async () => {
  const { store, a, job } = await setup();
  const admitted = await store.admitJob(job(a.id), { limit: 1, scope: "account" });
  assert.ok(admitted.admitted);
  const id = admitted.job.jobId;
  const long_ago = new Date(Date.now() - 3600_000).toISOString();
  await store.claimNextJob("deadhost:1:aaaa", long_ago);
  // Simulate the crashed worker as graphile-worker's tests do: its heartbeat is simply old.
  const now = new Date().toISOString();
  const cutoff = new Date(Date.now() - 60_000).toISOString();
  let out = await store.recoverStaleJobs(now, cutoff, 2);
  assert.deepEqual(out, { requeued: [id], failed: [] });
  let row = await store.getJob(id);
  assert.equal(row?.status, "QUEUED");
  assert.equal(row?.workerId, null);
  await store.claimNextJob("deadhost:2:bbbb", long_ago);
  (
    store.db.prepare("UPDATE jobs SET heartbeat_at = ? WHERE job_id = ?") as {
      run: (...a: unknown[]) => unknown;
    }
  ).run(long_ago, id);
  out = await store.recoverStaleJobs(now, cutoff, 2);
  assert.deepEqual(out, { requeued: [], failed: [id] });
  row = await store.getJob(id);
  assert.equal(row?.status, "FAILED");
  assert.match(row!.errorDetail!, /stopped responding on each of 2 attempts/);
  // A fresh heartbeat is left alone.
  const j2 = await store.admitJob(job(a.id), { limit: 1, scope: "account" });
  assert.ok(j2.admitted);
  await store.claimNextJob("live:1:cccc", new Date().toISOString());
  assert.deepEqual(await store.recoverStaleJobs(now, cutoff, 2), { requeued: [], failed: [] });
});

test("revoking by display prefix, scoped to an account", async () => {
  const { store, a, b } = await setup();
  const k = await store.createApiKey({
    accountId: a.id,
    name: "k",
    keyHash: "ab".repeat(32),
    displayPrefix: "emsim_ABCDEFGH",
  });
  assert.equal(await store.revokeApiKey("emsim_ABCDEFGH", b.id), null);
  const revoked = await store.revokeApiKey("emsim_ABCDEFGH", a.id);
  assert.equal(revoked?.id, k.id);
  assert.ok(revoked?.revokedAt);
  assert.equal(await store.findActiveApiKeyByHash("ab".repeat(32)), null);
});
