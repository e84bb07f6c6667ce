/**
 * One contract for every store, run unchanged against the embedded SQLite file and against
 * PostgreSQL 15 (a fresh database per run, dropped afterwards): accounts and keys, sessions
 * and tokens, sign-in failures, and the job queue — admission and claims under concurrency
 * from two connections (two "processes"), heartbeats, recovery, cancellation, paging.
 *
 * PostgreSQL: EMSIM_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres, as
 * .ci/run sets up) is the administrative connection used to create and drop the database.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import {
  attemptsExhausted,
  CANCELLED_WHILE_RUNNING,
  RECOVERY_CAUSES,
  recoveryRule,
  TAKE_BACK_RULES,
} from "../../src/jobs/lifecycle.js";
import { openPostgresStores } from "../../src/store/postgres/index.js";
import { openSqliteStores } from "../../src/store/sqlite/index.js";
import type { NewJob, Stores } from "../../src/store/types.js";
import pg from "pg";
import { freshPgDatabase } from "../helpers/postgres.js";
import { solverReportWith } from "../../src/schema/testing/reports.js";
import { tempDir } from "../helpers/service.js";

interface Backend {
  name: string;
  /** A second connection to the same database: another server or worker process. */
  open(): Promise<Stores>;
  cleanup(): Promise<void>;
  /** Whether a job queued by one process wakes listeners in another (LISTEN/NOTIFY). */
  crossProcessWakeups: boolean;
  /**
   * Locks a job's row as a statement in flight does (PostgreSQL: a heartbeat's UPDATE on
   * another pooled connection); the returned function commits. Absent where a writer
   * holds the whole database (SQLite).
   */
  lockJobRow?: (jobId: string) => Promise<() => Promise<void>>;
}

async function sqliteBackend(): Promise<Backend> {
  const path = join(tempDir(), "contract.sqlite");
  return {
    name: "sqlite",
    open: async () => openSqliteStores(path),
    cleanup: async () => undefined,
    crossProcessWakeups: false,
  };
}

async function postgresBackend(): Promise<Backend> {
  const db = await freshPgDatabase();
  return {
    name: "postgres",
    open: () =>
      openPostgresStores({
        connectionString: db.url,
        poolMax: 5,
        connectTimeoutMs: 5000,
        statementTimeoutMs: 15_000,
      }),
    cleanup: () => db.drop(),
    crossProcessWakeups: true,
    async lockJobRow(jobId) {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      await c.query("BEGIN");
      await c.query("SELECT 1 FROM jobs WHERE job_id = $1 FOR UPDATE", [jobId]);
      return async () => {
        await c.query("COMMIT");
        await c.end();
      };
    },
  };
}

const CAUSE = "The worker running this job stopped responding";
const RULE = recoveryRule(2, CAUSE);
const iso = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();

for (const make of [sqliteBackend, postgresBackend]) {
  describe(`store contract (${make.name.replace("Backend", "")})`, () => {
    let backend: Backend;
    let one: Stores;
    let two: Stores;
    let n = 0;
    /** A new account with a unique email. */
    const account = async (isAdmin = false) =>
      one.accounts.createAccount({ email: `u${++n}-${randomUUID()}@Example.com`, isAdmin });
    const job = (accountId: string, createdAt = iso(++n)): NewJob => ({
      jobId: randomUUID(),
      accountId,
      solver: "fdtd",
      requestJson: '{"b": 1, "a": 2}',
      specJson: "{}",
      metadata: { zeta: 1, alpha: { nested: [1, "two"] } },
      createdAt,
    });

    before(async () => {
      backend = await make();
      one = await backend.open();
      two = await backend.open();
    });
    after(async () => {
      await one?.close();
      await two?.close();
      await backend?.cleanup();
    });

    test("accounts: created once per email (any case), found, counted, listed", async () => {
      const before = await one.accounts.countAccounts();
      const email = `Mixed.Case-${randomUUID()}@Example.com`;
      const a = await one.accounts.createAccount({ email, isAdmin: false, passwordHash: "h1" });
      assert.equal(a.email, email);
      assert.equal(a.isAdmin, false);
      assert.match(a.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.deepEqual(await two.accounts.findAccountByEmail(email.toLowerCase()), a);
      assert.deepEqual(await two.accounts.getAccount(a.id), a);
      await assert.rejects(
        two.accounts.createAccount({ email: email.toUpperCase(), isAdmin: true }),
        "an email is unique whatever its case",
      );
      assert.equal(await one.accounts.countAccounts(), before + 1);
      const creds = await one.accounts.findAccountCredentials(email.toUpperCase());
      assert.equal(creds?.passwordHash, "h1");
      await one.accounts.setPasswordHash(a.id, "h2");
      assert.equal((await two.accounts.findAccountCredentials(email))?.passwordHash, "h2");
      const listed = (await one.accounts.listAccounts()).find((x) => x.id === a.id);
      assert.equal(listed?.hasPassword, true);
      assert.equal(await one.accounts.getAccount("nope"), null);
    });

    test("accounts: an admin with a password closes setup", async () => {
      const admin = await account(true);
      // Other tests may have made admins: this one has no password yet.
      const had = await one.accounts.hasAdminWithPassword();
      await one.accounts.setPasswordHash(admin.id, "pw");
      assert.equal(await two.accounts.hasAdminWithPassword(), true);
      assert.ok(had === true || had === false);
    });

    test("API keys: active lookup by hash, listing, revocation by prefix within an account", async () => {
      const a = await account();
      const b = await account();
      const hash = randomUUID().replace(/-/g, "").repeat(2);
      const prefix = `emsim_${randomUUID().slice(0, 8)}`;
      const k = await one.accounts.createApiKey({
        accountId: a.id,
        name: "laptop",
        keyHash: hash,
        displayPrefix: prefix,
      });
      assert.equal(k.lastUsedAt, null);
      assert.equal((await two.accounts.findActiveApiKeyByHash(hash))?.key.id, k.id);
      assert.deepEqual(
        (await one.accounts.listApiKeys(a.id)).map((x) => x.id),
        [k.id],
      );
      await one.accounts.touchApiKey(k.id, "2030-01-02T03:04:05.000Z");
      assert.equal(
        (await two.accounts.listApiKeys(a.id))[0]!.lastUsedAt,
        "2030-01-02T03:04:05.000Z",
      );
      assert.equal(await two.accounts.revokeApiKey(prefix, b.id), null, "not b's key");
      const revoked = await two.accounts.revokeApiKey(prefix, a.id);
      assert.equal(revoked?.id, k.id);
      assert.ok(revoked?.revokedAt);
      assert.equal(await one.accounts.findActiveApiKeyByHash(hash), null, "seen by the other");
    });

    test("a key with a NUL character in it finds nothing (PostgreSQL's text cannot hold one)", async () => {
      const a = await account();
      const nul = `${randomUUID()}\u0000`;
      assert.equal(await two.jobs.getJob(nul), null);
      assert.equal(await two.batches.getBatch(nul), null);
      assert.equal(await two.accounts.getAccount(nul), null);
      assert.equal(await two.accounts.findAccountByEmail(`a\u0000${a.email}`), null);
      assert.equal(await two.accounts.findAccountCredentials(`a\u0000${a.email}`), null);
      assert.equal(await two.accounts.revokeApiKey(nul, a.id), null);
    });

    test("sessions: created, touched, ended one by one, per account, and when expired", async () => {
      const a = await account();
      const s = (id: string, lastSeenAt: string, expiresAt: string) => ({
        idHash: id,
        accountId: a.id,
        createdAt: lastSeenAt,
        lastSeenAt,
        expiresAt,
      });
      const [h1, h2, h3] = [randomUUID(), randomUUID(), randomUUID()];
      await one.sessions.createSession(s(h1, iso(), iso(3600_000)));
      await one.sessions.createSession(s(h2, iso(), iso(3600_000)));
      await one.sessions.createSession(s(h3, iso(-7200_000), iso(3600_000)));
      assert.equal((await two.sessions.getSession(h1))?.accountId, a.id);
      await one.sessions.touchSession(h1, "2031-01-01T00:00:00.000Z");
      assert.equal((await two.sessions.getSession(h1))?.lastSeenAt, "2031-01-01T00:00:00.000Z");
      // h3 has been idle for two hours.
      assert.ok((await two.sessions.deleteExpiredSessions(iso(), iso(-3600_000))) >= 1);
      assert.equal(await one.sessions.getSession(h3), null);
      await one.sessions.deleteSessionsOfAccount(a.id, h1);
      assert.equal(await one.sessions.getSession(h2), null);
      assert.ok(await one.sessions.getSession(h1));
      await two.sessions.deleteSession(h1);
      assert.equal(await one.sessions.getSession(h1), null);
    });

    test("one-time tokens: an invitation replaces the last, works once, ends sessions", async () => {
      const a = await account();
      const first = randomUUID();
      const second = randomUUID();
      await one.sessions.createInviteToken({
        tokenHash: first,
        accountId: a.id,
        createdAt: iso(),
        expiresAt: iso(3600_000),
      });
      await one.sessions.createInviteToken({
        tokenHash: second,
        accountId: a.id,
        createdAt: iso(),
        expiresAt: iso(3600_000),
      });
      assert.equal(await two.sessions.findAccountToken(first, iso()), null, "replaced");
      assert.equal((await two.sessions.findAccountToken(second, iso()))?.purpose, "invite");
      assert.equal(await two.sessions.findAccountToken(second, iso(7200_000)), null, "expired");
      await one.sessions.createSession({
        idHash: randomUUID(),
        accountId: a.id,
        createdAt: iso(),
        lastSeenAt: iso(),
        expiresAt: iso(3600_000),
      });
      const redeemed = await two.sessions.redeemInvite({
        tokenHash: second,
        passwordHash: "new",
        now: iso(),
      });
      assert.equal(redeemed?.id, a.id);
      assert.equal(
        await one.sessions.redeemInvite({ tokenHash: second, passwordHash: "x", now: iso() }),
        null,
        "only once",
      );
      assert.equal((await one.accounts.findAccountCredentials(a.email))?.passwordHash, "new");
    });

    test("sign-in failures: one limit for every connection, counted atomically", async () => {
      const key = `account:${randomUUID()}`;
      const input = (nowMs: number) => ({ keys: [{ key, limit: 3 }], nowMs, windowMs: 60_000 });
      const t0 = Date.now();
      // Six attempts at once from two connections: exactly three are let through.
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? one : two).sessions.beginSignInAttempt(input(t0)),
        ),
      );
      const allowed = outcomes.filter((o) => "failureIds" in o);
      assert.equal(allowed.length, 3);
      const refused = outcomes.find((o) => "retryAfterMs" in o) as { retryAfterMs: number };
      assert.equal(refused.retryAfterMs, 60_000);
      const locked = await one.sessions.lockedSignInKeys({
        prefix: "account:",
        limit: 3,
        nowMs: t0 + 1000,
        windowMs: 60_000,
      });
      assert.deepEqual(
        locked.find((l) => l.key === key),
        { key, retryAfterMs: 59_000 },
      );
      // One success takes its own attempt back; clearing the key lifts the lock.
      await two.sessions.clearSignInFailures(
        null,
        (allowed[0] as { failureIds: number[] }).failureIds,
      );
      assert.ok("failureIds" in (await one.sessions.beginSignInAttempt(input(t0))));
      await two.sessions.clearSignInFailures(key);
      assert.ok("failureIds" in (await one.sessions.beginSignInAttempt(input(t0))));
      // Past the window, old failures no longer count.
      for (let i = 0; i < 2; i++) await one.sessions.beginSignInAttempt(input(t0));
      assert.ok("retryAfterMs" in (await one.sessions.beginSignInAttempt(input(t0))));
      assert.ok("failureIds" in (await two.sessions.beginSignInAttempt(input(t0 + 60_001))));
    });

    test("admission: the limit holds when two processes admit for one account at once", async () => {
      const a = await account();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 ? one : two).jobs.admitJob(job(a.id), { limit: 1, scope: "account" }),
        ),
      );
      const admitted = results.filter((r) => r.admitted);
      assert.equal(admitted.length, 1);
      for (const r of results) {
        if (!r.admitted && admitted[0]!.admitted)
          assert.equal(r.active.jobId, admitted[0]!.job.jobId);
      }
      // Another account is not blocked by it; a limit of 3 admits two more for the same one.
      const b = await account();
      assert.equal(
        (await one.jobs.admitJob(job(b.id), { limit: 1, scope: "account" })).admitted,
        true,
      );
      const more = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? one : two).jobs.admitJob(job(a.id), { limit: 3, scope: "account" }),
        ),
      );
      assert.equal(more.filter((r) => r.admitted).length, 2);
    });

    test("jobs: what was submitted reads back exactly (request text, metadata order, estimate)", async () => {
      const a = await account();
      const estimate = { cells: 5_268_024, grid: [174, 174, 174], notes: ["a note"] };
      const admitted = await one.jobs.admitJob(
        { ...job(a.id), estimate },
        { limit: 100, scope: "account" },
      );
      assert.ok(admitted.admitted);
      const row = await two.jobs.getJob(admitted.job.jobId);
      assert.equal(row?.status, "QUEUED");
      assert.equal(row?.requestJson, '{"b": 1, "a": 2}');
      assert.equal(JSON.stringify(row?.metadata), '{"zeta":1,"alpha":{"nested":[1,"two"]}}');
      assert.equal(row?.attempts, 0);
      assert.equal(row?.progress, null);
      assert.deepEqual(row?.estimate, estimate);
      const without = await one.jobs.admitJob(job(a.id), { limit: 100, scope: "account" });
      assert.ok(without.admitted);
      assert.equal((await two.jobs.getJob(without.job.jobId))?.estimate, null);
      assert.equal(await two.jobs.getJob(randomUUID()), null);
    });

    test("claims: oldest first, never the same job twice, from two processes at once", async () => {
      // Drain what other tests left queued, so this test sees only its own jobs.
      while (await one.jobs.claimNextJob("drain", iso())) {
        /* claimed */
      }
      const a = await account();
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const r = await one.jobs.admitJob(job(a.id, iso(i)), { limit: 100, scope: "account" });
        assert.ok(r.admitted);
        ids.push(r.job.jobId);
      }
      const claims = await Promise.all(
        Array.from({ length: 14 }, (_, i) => (i % 2 ? one : two).jobs.claimNextJob(`w${i}`, iso())),
      );
      const got = claims.filter((c) => c !== null).map((c) => c!.jobId);
      assert.equal(got.length, 10);
      assert.equal(new Set(got).size, 10, "no job claimed twice");
      assert.deepEqual([...got].sort(), [...ids].sort());
      for (const c of claims.filter((x) => x !== null)) {
        assert.equal(c!.status, "RUNNING");
        assert.equal(c!.attempts, 1);
      }
      assert.ok((await two.jobs.runningWorkerIds()).length >= 10);
    });

    test("claims: accounts take turns, each account's oldest job first", async () => {
      while (await one.jobs.claimNextJob("drain", iso())) {
        /* claimed */
      }
      // A queues three jobs (a batch's worth), then B one: B's need not wait for all of A's.
      const [a, b] = [await account(), await account()];
      const queued = async (accountId: string, at: number) => {
        const r = await one.jobs.admitJob(job(accountId, iso(at)), {
          limit: 100,
          scope: "account",
        });
        assert.ok(r.admitted);
        return r.job.jobId;
      };
      const a1 = await queued(a.id, 1);
      const a2 = await queued(a.id, 2);
      const a3 = await queued(a.id, 3);
      const b1 = await queued(b.id, 10);
      const order: string[] = [];
      for (let k = 0; k < 4; k++) {
        const c = await (k % 2 ? two : one).jobs.claimNextJob("w", iso(1000 * (k + 1)));
        order.push(c!.jobId);
      }
      assert.deepEqual(order, [a1, b1, a2, a3]);
    });

    test("a running job: heartbeats with progress, cancellation requested, completed", async () => {
      while (await one.jobs.claimNextJob("drain", iso())) {
        /* claimed */
      }
      const a = await account();
      const r = await one.jobs.admitJob(job(a.id), { limit: 100, scope: "account" });
      assert.ok(r.admitted);
      const claimed = await two.jobs.claimNextJob("w1", iso());
      assert.equal(claimed?.jobId, r.job.jobId);
      const progress = {
        step: 10,
        totalSteps: 100,
        fraction: 0.1,
        lastRelativeChange: null,
        mcellsPerSecond: 5,
      };
      assert.deepEqual(await one.jobs.heartbeat(r.job.jobId, "w1", iso(), progress), {
        cancelRequested: false,
      });
      assert.deepEqual((await two.jobs.getJob(r.job.jobId))?.progress, progress);
      assert.equal(await one.jobs.heartbeat(r.job.jobId, "w2", iso(), null), null, "not w2's");
      const after = await two.jobs.requestCancel(r.job.jobId, iso(), "unused for RUNNING");
      assert.equal(after?.status, "RUNNING");
      assert.equal(after?.cancelRequested, true);
      assert.deepEqual(await one.jobs.heartbeat(r.job.jobId, "w1", iso(), null), {
        cancelRequested: true,
      });
      assert.equal(
        await one.jobs.completeJob(r.job.jobId, "w2", iso(), completion()),
        false,
        "only its worker completes it",
      );
      assert.equal(await one.jobs.completeJob(r.job.jobId, "w1", iso(), completion()), true);
      const done = await two.jobs.getJob(r.job.jobId);
      assert.equal(done?.status, "COMPLETED");
      assert.equal(done?.resultBytes, 5_000_000_000, "a result over 2^32 bytes");
      assert.equal(done?.checksum, "c".repeat(64));
      assert.deepEqual(done?.report, solverReportWith({ steps_run: 100 }));
      assert.equal(done?.durationSeconds, 12.5);
      assert.ok(done?.finishedAt);
      assert.equal(await one.jobs.failJob(r.job.jobId, null, iso(), "late"), false, "finished");
    });

    test("cancelling a queued job fails it with the given words; failing checks the worker", async () => {
      const a = await account();
      const q = await one.jobs.admitJob(job(a.id), { limit: 100, scope: "account" });
      assert.ok(q.admitted);
      const cancelled = await two.jobs.requestCancel(
        q.job.jobId,
        iso(),
        "Cancelled before it started.",
      );
      assert.equal(cancelled?.status, "FAILED");
      assert.equal(cancelled?.errorDetail, "Cancelled before it started.");
      assert.equal(cancelled?.durationSeconds, 0);
      assert.equal(await one.jobs.requestCancel(randomUUID(), iso(), "x"), null);
      while (await one.jobs.claimNextJob("drain", iso())) {
        /* claimed */
      }
      const r = await one.jobs.admitJob(job(a.id), { limit: 100, scope: "account" });
      assert.ok(r.admitted);
      await one.jobs.claimNextJob("w9", iso(-2000));
      assert.equal(await two.jobs.failJob(r.job.jobId, "w8", iso(), "no"), false);
      assert.equal(await two.jobs.failJob(r.job.jobId, "w9", iso(), "diverged"), true);
      const failed = await one.jobs.getJob(r.job.jobId);
      assert.equal(failed?.errorDetail, "diverged");
      assert.ok(failed!.durationSeconds! >= 1.9, "measured from the start");
      // A run's last progress (a cancel's step) goes with the failure; without one the
      // heartbeat's stays.
      const p = (step: number) => ({
        phase: "stepping" as const,
        step,
        totalSteps: 100,
        fraction: step / 100,
        lastRelativeChange: null,
        mcellsPerSecond: 5,
      });
      for (const [last, expected] of [
        [p(40), p(40)],
        [undefined, p(20)],
      ] as const) {
        const s = await one.jobs.admitJob(job(a.id), { limit: 100, scope: "account" });
        assert.ok(s.admitted);
        assert.equal((await one.jobs.claimNextJob("w7", iso()))?.jobId, s.job.jobId);
        await one.jobs.heartbeat(s.job.jobId, "w7", iso(), p(20));
        assert.ok(await two.jobs.failJob(s.job.jobId, "w7", iso(), "Cancelled.", 1, last));
        assert.deepEqual((await one.jobs.getJob(s.job.jobId))?.progress, expected);
      }
    });

    test("recovery: stale or dead workers' jobs go back to QUEUED, then FAILED after the last attempt", async () => {
      while (await one.jobs.claimNextJob("drain", iso())) {
        /* claimed */
      }
      const a = await account();
      const r = await one.jobs.admitJob(job(a.id), { limit: 100, scope: "account" });
      assert.ok(r.admitted);
      const id = r.job.jobId;
      const longAgo = iso(-3600_000);
      const cutoff = iso(-60_000);
      // A worker that crashed is simulated as graphile-worker's tests do: its heartbeat is old.
      await one.jobs.claimNextJob("deadhost:1:aaaa", longAgo);
      const first = await two.jobs.recoverStaleJobs(iso(), cutoff, RULE);
      assert.ok(first.requeued.includes(id));
      let row = await one.jobs.getJob(id);
      assert.equal(row?.status, "QUEUED");
      assert.equal(row?.workerId, null);
      assert.equal(row?.heartbeatAt, null);
      await one.jobs.claimNextJob("deadhost:2:bbbb", longAgo);
      const second = await two.jobs.recoverStaleJobs(iso(), cutoff, RULE);
      assert.ok(second.failed.includes(id));
      row = await one.jobs.getJob(id);
      assert.equal(row?.status, "FAILED");
      assert.equal(
        row?.errorDetail,
        attemptsExhausted(CAUSE, 2),
        "the words come from src/jobs, not from the store",
      );
      // By worker id (a process known dead), and a fresh heartbeat is left alone.
      const r2 = await one.jobs.admitJob(job(a.id), { limit: 100, scope: "account" });
      const r3 = await one.jobs.admitJob(job(a.id), { limit: 100, scope: "account" });
      assert.ok(r2.admitted && r3.admitted);
      await one.jobs.claimNextJob("host:1:dead", iso());
      await one.jobs.claimNextJob("host:2:live", iso());
      assert.deepEqual(await two.jobs.recoverStaleJobs(iso(), cutoff, RULE), {
        requeued: [],
        failed: [],
      });
      const byId = await two.jobs.recoverJobsOfWorkers(["host:1:dead"], iso(), RULE);
      assert.equal(byId.requeued.length, 1);
      // A retried run (its result was not stored) uses an attempt too.
      const live = await one.jobs.getJob(r3.job.jobId);
      const workerOfLive = live!.workerId!;
      const retried = await two.jobs.retryJob(live!.jobId, "someone-else", iso(), RULE);
      assert.deepEqual(retried, { requeued: [], failed: [] }, "only its own worker retries it");
      assert.deepEqual(await two.jobs.retryJob(live!.jobId, workerOfLive, iso(), RULE), {
        requeued: [live!.jobId],
        failed: [],
      });
    });

    test("recovery of a job whose cancellation was requested ends it FAILED, cancelled", async () => {
      while (await one.jobs.claimNextJob("drain", iso())) {
        /* claimed */
      }
      const a = await account();
      const r = await one.jobs.admitJob(job(a.id), { limit: 100, scope: "account" });
      assert.ok(r.admitted);
      await one.jobs.claimNextJob("gone:1:x", iso(-3600_000));
      await two.jobs.requestCancel(r.job.jobId, iso(), "unused");
      const out = await one.jobs.recoverStaleJobs(iso(), iso(-60_000), RULE);
      assert.ok(out.failed.includes(r.job.jobId));
      assert.equal((await two.jobs.getJob(r.job.jobId))?.errorDetail, CANCELLED_WHILE_RUNNING);
    });

    test("a graceful hand-back gives its attempt back: only abnormal ends use attempts up", async () => {
      while (await one.jobs.claimNextJob("drain", iso())) {
        /* claimed */
      }
      const a = await account();
      const r = await one.jobs.admitJob(job(a.id), { limit: 100, scope: "account" });
      assert.ok(r.admitted);
      const id = r.job.jobId;
      const handBack = TAKE_BACK_RULES.handBack();
      const exited = TAKE_BACK_RULES.rule("workerExited", 2);
      const attempts = async () => (await two.jobs.getJob(id))!.attempts;
      // Two rolling restarts: each stopping worker hands the job back, the attempt not counted.
      for (const worker of ["stopping:1:a", "stopping:2:b"]) {
        assert.equal((await one.jobs.claimNextJob(worker, iso()))?.attempts, 1);
        assert.deepEqual(await two.jobs.recoverJobsOfWorkers([worker], iso(), handBack), {
          requeued: [id],
          failed: [],
        });
        assert.equal((await one.jobs.getJob(id))?.status, "QUEUED");
        assert.equal(await attempts(), 0, "a handed-back run is no attempt used up");
      }
      // Then a crash: the first of two attempts; the job goes back to the queue.
      assert.equal((await one.jobs.claimNextJob("crashed:3:c", iso()))?.attempts, 1);
      assert.deepEqual(await two.jobs.recoverJobsOfWorkers(["crashed:3:c"], iso(), exited), {
        requeued: [id],
        failed: [],
      });
      assert.equal(await attempts(), 1);
      // A hand-back between crashes leaves the count of crashes as it was.
      assert.equal((await one.jobs.claimNextJob("stopping:4:d", iso()))?.attempts, 2);
      await two.jobs.recoverJobsOfWorkers(["stopping:4:d"], iso(), handBack);
      assert.equal(await attempts(), 1);
      // The second crash is the last of two: FAILED, saying two attempts, not five.
      assert.equal((await one.jobs.claimNextJob("crashed:5:e", iso()))?.attempts, 2);
      const last = await two.jobs.recoverJobsOfWorkers(["crashed:5:e"], iso(), exited);
      assert.deepEqual(last, { requeued: [], failed: [id] });
      const failed = await one.jobs.getJob(id);
      assert.equal(failed?.errorDetail, attemptsExhausted(RECOVERY_CAUSES.workerExited, 2));
      assert.equal(failed?.attempts, 2);
      // A job handed back after its cancellation was requested ends FAILED, cancelled.
      const c = await one.jobs.admitJob(job(a.id), { limit: 100, scope: "account" });
      assert.ok(c.admitted);
      await one.jobs.claimNextJob("stopping:6:f", iso());
      await two.jobs.requestCancel(c.job.jobId, iso(), "unused");
      assert.deepEqual(await one.jobs.recoverJobsOfWorkers(["stopping:6:f"], iso(), handBack), {
        requeued: [],
        failed: [c.job.jobId],
      });
      const cancelled = await two.jobs.getJob(c.job.jobId);
      assert.equal(cancelled?.errorDetail, CANCELLED_WHILE_RUNNING);
      assert.equal(cancelled?.attempts, 1, "the attempt that was cancelled ran");
    });

    test("a worker's own job is handed back or retried though a statement of its own holds the row", async (t) => {
      if (!backend.lockJobRow) return t.skip("one writer holds the whole database");
      const a = await account();
      for (const [worker, recover] of [
        [
          "stopping:7:g",
          (w: string) =>
            two.jobs.recoverJobsOfWorkers([w], iso(), TAKE_BACK_RULES.handBack(), {
              waitForRows: true,
            }),
        ],
        ["storing:8:h", (w: string, id: string) => two.jobs.retryJob(id, w, iso(), RULE)],
      ] as const) {
        while (await one.jobs.claimNextJob("drain", iso())) {
          /* claimed */
        }
        const r = await one.jobs.admitJob(job(a.id), { limit: 100, scope: "account" });
        assert.ok(r.admitted);
        assert.equal((await one.jobs.claimNextJob(worker, iso()))?.jobId, r.job.jobId);
        // The worker's last heartbeat, still in flight as it stops (or retries): it holds the
        // row for a moment. SKIP LOCKED passed the job over and left it RUNNING for a dead
        // worker until the stale sweep took it, an attempt used up.
        const commit = await backend.lockJobRow(r.job.jobId);
        const recovered = recover(worker, r.job.jobId);
        await new Promise((done) => setTimeout(done, 200));
        await commit();
        assert.deepEqual(await recovered, { requeued: [r.job.jobId], failed: [] });
        assert.equal((await one.jobs.getJob(r.job.jobId))?.status, "QUEUED");
      }
    });

    test("listing: newest first, paged by a cursor, filtered by status, counted", async () => {
      const a = await account();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await one.jobs.admitJob(job(a.id, iso(1000 + i)), {
          limit: 100,
          scope: "account",
        });
        assert.ok(r.admitted);
        ids.push(r.job.jobId);
      }
      const page1 = await two.jobs.listJobs(a.id, { limit: 2 });
      assert.deepEqual(
        page1.map((j) => j.jobId),
        [ids[4], ids[3]],
      );
      const last = page1[1]!;
      const page2 = await two.jobs.listJobs(a.id, {
        limit: 10,
        before: { createdAt: last.createdAt, jobId: last.jobId },
      });
      assert.deepEqual(
        page2.map((j) => j.jobId),
        [ids[2], ids[1], ids[0]],
      );
      assert.equal((await two.jobs.listJobs(a.id, { limit: 10, status: "RUNNING" })).length, 0);
      const counts = await one.jobs.countJobsByStatus();
      assert.ok(counts.QUEUED >= 5);
      assert.deepEqual(Object.keys(counts).sort(), ["COMPLETED", "FAILED", "QUEUED", "RUNNING"]);
    });

    test("wake-ups: a submission and a cancellation reach listeners", async () => {
      const a = await account();
      const listener = backend.crossProcessWakeups ? two : one;
      let woken = 0;
      const cancelled: string[] = [];
      const stopQueued = listener.jobs.onJobQueued(() => woken++);
      const stopCancel = listener.jobs.onCancelRequested((id) => cancelled.push(id));
      try {
        // LISTEN needs a moment to be established on a fresh connection.
        await new Promise((r) => setTimeout(r, 300));
        const r = await one.jobs.admitJob(job(a.id), { limit: 100, scope: "account" });
        assert.ok(r.admitted);
        await until(() => woken > 0);
        while (await one.jobs.claimNextJob("drain", iso())) {
          /* claimed */
        }
        await one.jobs.requestCancel(r.job.jobId, iso(), "unused");
        await until(() => cancelled.includes(r.job.jobId));
      } finally {
        stopQueued();
        stopCancel();
      }
    });

    /** A batch of `count` jobs for the account, each job one variant. */
    const batchOf = (accountId: string, count: number, parallelism = 1) => {
      const batchId = randomUUID();
      const createdAt = iso(++n);
      return {
        batch: {
          batchId,
          accountId,
          requestJson: '{"simulation": {}, "parameters": []}',
          dimensions: [{ name: "w", values: Array.from({ length: count }, (_, i) => i) }],
          combine: "product" as const,
          jobCount: count,
          parallelism,
          metadata: { sweep: "w" },
          createdAt,
        },
        jobs: Array.from({ length: count }, (_, i) => ({
          ...job(accountId, createdAt),
          batchIndex: i,
          parameters: { w: i },
        })),
      };
    };

    test("batches: admitted whole under the account's rule, and then they are its active work", async () => {
      const a = await account();
      const first = batchOf(a.id, 4);
      const rule = { limit: 1, scope: "account" as const };
      const admitted = await one.batches.admitBatch(first.batch, first.jobs, rule);
      assert.ok(admitted.admitted);
      assert.equal(admitted.batch.jobCount, 4);
      assert.deepEqual(admitted.batch.metadata, { sweep: "w" });
      const jobs = await two.batches.batchJobs(first.batch.batchId);
      assert.deepEqual(
        jobs.map((j) => [j.batchIndex, j.status, j.parameters.w]),
        [0, 1, 2, 3].map((i) => [i, "QUEUED", i]),
      );
      const row = await two.jobs.getJob(jobs[2]!.jobId);
      assert.equal(row?.batchId, first.batch.batchId);
      assert.equal(row?.batchIndex, 2);
      // While it is active, neither a job nor another batch of the account is admitted.
      const single = await two.jobs.admitJob(job(a.id), rule);
      assert.ok(!single.admitted && single.active.batchId === first.batch.batchId);
      const second = batchOf(a.id, 2);
      const refused = await two.batches.admitBatch(second.batch, second.jobs, rule);
      assert.ok(!refused.admitted);
      assert.equal(await one.batches.getBatch(second.batch.batchId), null, "nothing stored");
      // Cancelled: the queued jobs fail at once with the words given; the account is free.
      assert.deepEqual(await one.batches.cancelBatch(first.batch.batchId, iso(), "stopped"), []);
      const after = await two.batches.batchJobs(first.batch.batchId);
      assert.ok(after.every((j) => j.status === "FAILED" && j.errorDetail === "stopped"));
      assert.equal((await two.batches.getBatch(first.batch.batchId))?.cancelRequested, true);
      assert.ok((await one.jobs.admitJob(job(a.id), rule)).admitted);
    });

    test("batches: a claim keeps to the batch's parallelism, from two processes at once", async () => {
      while (await one.jobs.claimNextJob("drain", iso())) {
        /* claimed */
      }
      for (const parallelism of [1, 2]) {
        const a = await account();
        const b = batchOf(a.id, 5, parallelism);
        assert.ok(
          (await one.batches.admitBatch(b.batch, b.jobs, { limit: 1, scope: "account" })).admitted,
        );
        const claims = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            (i % 2 ? one : two).jobs.claimNextJob(`p${i}`, iso()),
          ),
        );
        const got = claims.filter((c) => c !== null);
        assert.equal(got.length, parallelism, `parallelism ${parallelism}`);
        assert.deepEqual(
          got.map((c) => c!.batchIndex).sort(),
          Array.from({ length: parallelism }, (_, i) => i),
          "in variant order",
        );
        // One ends: the next variant may start, and only that one.
        await one.jobs.completeJob(got[0]!.jobId, got[0]!.workerId!, iso(), completion());
        const next = await two.jobs.claimNextJob("next", iso());
        assert.equal(next?.batchIndex, parallelism);
        assert.equal(await one.jobs.claimNextJob("none", iso()), null);
        const running = await one.batches.cancelBatch(b.batch.batchId, iso(), "stopped");
        assert.equal(running.length, parallelism);
        for (const id of running) assert.equal((await two.jobs.getJob(id))?.cancelRequested, true);
      }
    });

    test("batches: listed newest first and paged; the result file is recorded once", async () => {
      const a = await account();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const b = batchOf(a.id, 1);
        assert.ok(
          (await one.batches.admitBatch(b.batch, b.jobs, { limit: 100, scope: "account" }))
            .admitted,
        );
        ids.push(b.batch.batchId);
      }
      const page = await two.batches.listBatches(a.id, { limit: 2 });
      assert.deepEqual(
        page.map((b) => b.batchId),
        [ids[2], ids[1]],
      );
      const last = page[1]!;
      const rest = await two.batches.listBatches(a.id, {
        limit: 2,
        before: { createdAt: last.createdAt, batchId: last.batchId },
      });
      assert.deepEqual(
        rest.map((b) => b.batchId),
        [ids[0]],
      );
      const first = await one.batches.setBatchResult(ids[0]!, iso(), {
        key: "b1.h5",
        bytes: 9,
        checksum: "a",
      });
      const again = await two.batches.setBatchResult(ids[0]!, iso(), {
        key: "b2.h5",
        bytes: 8,
        checksum: "b",
      });
      assert.equal(first.resultKey, "b1.h5");
      assert.equal(again.resultKey, "b1.h5", "the first result stays");
      for (const id of ids) await one.batches.cancelBatch(id, iso(), "done");
    });

    test("identical work: a COMPLETED twin of the same account and hash answers a claimed job", async () => {
      while (await one.jobs.claimNextJob("drain", iso())) {
        /* claimed */
      }
      const a = await account();
      const b = await account();
      const hash = "h".repeat(64);
      const admit = async (accountId: string, requestHash?: string) => {
        const r = await one.jobs.admitJob(
          { ...job(accountId), ...(requestHash ? { requestHash } : {}) },
          { limit: 100, scope: "account" },
        );
        assert.ok(r.admitted);
        return (await two.jobs.claimNextJob(`w-${r.job.jobId}`, iso()))!;
      };
      const ran = await admit(a.id, hash);
      assert.equal(ran.requestHash, hash);
      assert.equal(await one.jobs.findCompletedTwin(ran), null, "not completed yet");
      assert.ok(await one.jobs.completeJob(ran.jobId, ran.workerId!, iso(), completion()));
      const repeat = await admit(a.id, hash);
      const twin = await two.jobs.findCompletedTwin(repeat);
      assert.equal(twin?.jobId, ran.jobId);
      assert.equal(
        await one.jobs.findCompletedTwin(await admit(b.id, hash)),
        null,
        "other account",
      );
      assert.equal(await one.jobs.findCompletedTwin(await admit(a.id)), null, "no hash");
      assert.equal(await one.jobs.completeFromTwin(repeat.jobId, "not-mine", iso(), twin!), false);
      assert.ok(await one.jobs.completeFromTwin(repeat.jobId, repeat.workerId!, iso(), twin!));
      const after = await two.jobs.getJob(repeat.jobId);
      assert.equal(after?.status, "COMPLETED");
      assert.equal(after?.reusedResultOf, ran.jobId);
      assert.equal(after?.resultKey, "k.h5");
      assert.equal(after?.checksum, "c".repeat(64));
      assert.equal(after?.durationSeconds, 0);
      assert.deepEqual(after?.report, completion().report);
      // A third one names the job that ran, not the one answered from it.
      const third = await admit(a.id, hash);
      assert.ok(await one.jobs.completeFromTwin(third.jobId, third.workerId!, iso(), after!));
      assert.equal((await two.jobs.getJob(third.jobId))?.reusedResultOf, ran.jobId);
    });

    test("a write probe commits", async () => {
      await one.probeWrite(iso());
      await two.probeWrite(iso());
    });
  });
}

function completion() {
  return {
    resultKey: "k.h5",
    resultBytes: 5_000_000_000,
    checksum: "c".repeat(64),
    durationSeconds: 12.5,
    report: solverReportWith({ steps_run: 100 }),
    progress: {
      step: 100,
      totalSteps: 100,
      fraction: 1,
      lastRelativeChange: null,
      mcellsPerSecond: 1,
    },
  };
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}
