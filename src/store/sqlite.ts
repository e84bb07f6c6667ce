/**
 * The embedded job store: one SQLite file in WAL mode. Admission and claims run in
 * `BEGIN IMMEDIATE` transactions, which take SQLite's write lock before reading, so two
 * processes sharing the file serialise on the check-then-insert and cannot both admit a job
 * past the limit (the busy timeout makes the second one wait rather than fail).
 */
import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type {
  Account,
  AccountSummary,
  AccountToken,
  AdmissionResult,
  AdmissionRule,
  ApiKeyRecord,
  DashboardSession,
  JobCompletion,
  JobProgress,
  JobRow,
  JobStatus,
  ListJobsOptions,
  NewJob,
  ReadScope,
  StaleJobsOutcome,
  Store,
} from "./types.js";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.js";
import { SqliteReadCache } from "./sqlite-read-cache.js";

type Row = Record<string, unknown>;

const ACTIVE = "('QUEUED','RUNNING')";

function toAccount(r: Row): Account {
  return {
    id: r.id as string,
    email: r.email as string,
    isAdmin: r.is_admin === 1,
    createdAt: r.created_at as string,
  };
}

function toKey(r: Row): ApiKeyRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    name: r.name as string,
    displayPrefix: r.display_prefix as string,
    createdAt: r.created_at as string,
    lastUsedAt: (r.last_used_at as string | null) ?? null,
    revokedAt: (r.revoked_at as string | null) ?? null,
  };
}

function parse<T>(text: unknown): T | null {
  return typeof text === "string" ? (JSON.parse(text) as T) : null;
}

function toJob(r: Row): JobRow {
  return {
    jobId: r.job_id as string,
    accountId: r.account_id as string,
    status: r.status as JobStatus,
    solver: r.solver as string,
    requestJson: r.request_json as string,
    specJson: r.spec_json as string,
    metadata: parse<Record<string, unknown>>(r.metadata_json) ?? {},
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
    startedAt: (r.started_at as string | null) ?? null,
    finishedAt: (r.finished_at as string | null) ?? null,
    durationSeconds: (r.duration_seconds as number | null) ?? null,
    resultKey: (r.result_key as string | null) ?? null,
    resultBytes: (r.result_bytes as number | null) ?? null,
    checksum: (r.checksum as string | null) ?? null,
    errorDetail: (r.error_detail as string | null) ?? null,
    progress: parse<JobProgress>(r.progress_json),
    report: parse<Record<string, unknown>>(r.report_json),
    cancelRequested: r.cancel_requested === 1,
    attempts: r.attempts as number,
    workerId: (r.worker_id as string | null) ?? null,
    heartbeatAt: (r.heartbeat_at as string | null) ?? null,
  };
}

function secondsBetween(startIso: string | null, endIso: string): number | null {
  return startIso ? Math.max(0, (Date.parse(endIso) - Date.parse(startIso)) / 1000) : null;
}

export class SqliteStore implements Store {
  readonly db: Database.Database;
  /** Key lookups and jobs by id, kept until the database changes (sqlite-read-cache.ts). */
  private readonly readCache: SqliteReadCache;

  constructor(path: string) {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    // The busy timeout first: switching to WAL takes a lock another process may hold.
    this.db.pragma("busy_timeout = 10000");
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("foreign_keys = ON");
    // FULL: a 202 promises the job is stored; WAL + FULL syncs the log at every commit.
    this.db.pragma("synchronous = FULL");
    this.migrate();
    this.readCache = new SqliteReadCache(this.db);
  }

  private readonly statements = new Map<string, Database.Statement>();

  /** A prepared statement, prepared once per SQL text (preparing costs more than running). */
  private sql(text: string): Database.Statement {
    let stmt = this.statements.get(text);
    if (!stmt) {
      stmt = this.db.prepare(text);
      this.statements.set(text, stmt);
    }
    return stmt;
  }

  private migrate(): void {
    // The version is read inside the write transaction: processes starting together on an
    // empty data directory each wait for the lock and then see what the first one applied.
    const apply = this.db.transaction(() => {
      const current = this.db.pragma("user_version", { simple: true }) as number;
      for (let v = current; v < SQLITE_MIGRATIONS.length; v++) {
        this.db.exec(SQLITE_MIGRATIONS[v]!);
        this.db.pragma(`user_version = ${v + 1}`);
      }
    });
    apply.immediate();
  }

  async createAccount(input: {
    email: string;
    isAdmin: boolean;
    passwordHash?: string;
  }): Promise<Account> {
    const row = this.sql(
      `INSERT INTO accounts (id, email, password_hash, is_admin, created_at)
         VALUES (?, ?, ?, ?, ?) RETURNING *`,
    ).get(
      randomUUID(),
      input.email,
      input.passwordHash ?? null,
      input.isAdmin ? 1 : 0,
      new Date().toISOString(),
    ) as Row;
    return toAccount(row);
  }

  async findAccountByEmail(email: string): Promise<Account | null> {
    const row = this.sql(`SELECT * FROM accounts WHERE email = ?`).get(email) as Row | undefined;
    return row ? toAccount(row) : null;
  }

  async getAccount(id: string): Promise<Account | null> {
    const row = this.sql(`SELECT * FROM accounts WHERE id = ?`).get(id) as Row | undefined;
    return row ? toAccount(row) : null;
  }

  async countAccounts(): Promise<number> {
    return (this.sql(`SELECT count(*) AS n FROM accounts`).get() as { n: number }).n;
  }

  async createApiKey(input: {
    accountId: string;
    name: string;
    keyHash: string;
    displayPrefix: string;
  }): Promise<ApiKeyRecord> {
    const row = this.sql(
      `INSERT INTO api_keys (id, account_id, name, key_hash, display_prefix, created_at)
         VALUES (?, ?, ?, ?, ?, ?) RETURNING *`,
    ).get(
      randomUUID(),
      input.accountId,
      input.name,
      input.keyHash,
      input.displayPrefix,
      new Date().toISOString(),
    ) as Row;
    return toKey(row);
  }

  async findActiveApiKeyByHash(
    keyHash: string,
    scope?: ReadScope,
  ): Promise<{ key: ApiKeyRecord; keyHash: string } | null> {
    return this.readCache.get(
      `key:${keyHash}`,
      () => {
        const row = this.sql(
          `SELECT * FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL`,
        ).get(keyHash) as Row | undefined;
        return row ? { key: toKey(row), keyHash: row.key_hash as string } : null;
      },
      scope,
      () => 512,
    );
  }

  async listApiKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    const rows = accountId
      ? this.sql(`SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at DESC`).all(
          accountId,
        )
      : this.sql(`SELECT * FROM api_keys ORDER BY created_at DESC`).all();
    return (rows as Row[]).map(toKey);
  }

  async revokeApiKey(idOrPrefix: string, accountId?: string): Promise<ApiKeyRecord | null> {
    const revoke = this.db.transaction(() => {
      const matches = this.sql(
        `SELECT * FROM api_keys WHERE (id = ? OR display_prefix = ?)
           AND (? IS NULL OR account_id = ?)`,
      ).all(idOrPrefix, idOrPrefix, accountId ?? null, accountId ?? null) as Row[];
      if (matches.length !== 1) return null;
      const row = this.sql(
        `UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING *`,
      ).get(new Date().toISOString(), matches[0]!.id) as Row;
      return toKey(row);
    });
    return revoke.immediate();
  }

  async touchApiKey(id: string, at: string): Promise<void> {
    this.sql(`UPDATE api_keys SET last_used_at = ? WHERE id = ?`).run(at, id);
  }

  async admitJob(job: NewJob, rule: AdmissionRule): Promise<AdmissionResult> {
    const admit = this.db.transaction((): AdmissionResult => {
      // Counted through the partial index on active jobs, so admission stays O(active jobs
      // of the scope) however many finished jobs the table holds.
      const count = (
        rule.scope === "account"
          ? this.sql(
              `SELECT count(*) AS n FROM jobs WHERE status IN ${ACTIVE} AND account_id = ?`,
            ).get(job.accountId)
          : this.sql(`SELECT count(*) AS n FROM jobs WHERE status IN ${ACTIVE}`).get()
      ) as { n: number };
      if (count.n >= rule.limit) {
        // Report the caller's own oldest active job when there is one.
        const active = (this.sql(
          `SELECT * FROM jobs WHERE status IN ${ACTIVE} AND account_id = ?
           ORDER BY created_at, rowid LIMIT 1`,
        ).get(job.accountId) ??
          this.sql(
            `SELECT * FROM jobs WHERE status IN ${ACTIVE} ORDER BY created_at, rowid LIMIT 1`,
          ).get()) as Row;
        return { admitted: false, active: toJob(active) };
      }
      const row = this.sql(
        `INSERT INTO jobs (job_id, account_id, status, solver, request_json, spec_json,
             metadata_json, created_at, updated_at)
           VALUES (?, ?, 'QUEUED', ?, ?, ?, ?, ?, ?) RETURNING *`,
      ).get(
        job.jobId,
        job.accountId,
        job.solver,
        job.requestJson,
        job.specJson,
        JSON.stringify(job.metadata),
        job.createdAt,
        job.createdAt,
      ) as Row;
      return { admitted: true, job: toJob(row) };
    });
    return admit.immediate();
  }

  async getJob(jobId: string, scope?: ReadScope): Promise<JobRow | null> {
    return this.readCache.get(
      `job:${jobId}`,
      () => {
        const row = this.sql(`SELECT * FROM jobs WHERE job_id = ?`).get(jobId) as Row | undefined;
        return row ? toJob(row) : null;
      },
      scope,
      // UTF-16 strings; the request's metadata is also held parsed; progress, report, the rest.
      (job) => 4 * job.requestJson.length + 2 * job.specJson.length + 4096,
    );
  }

  async listJobs(accountId: string, options: ListJobsOptions): Promise<JobRow[]> {
    const before = options.before;
    const rows = this.sql(
      `SELECT * FROM jobs WHERE account_id = ?
           AND (? IS NULL OR status = ?)
           AND (? IS NULL OR created_at < ? OR (created_at = ? AND job_id < ?))
         ORDER BY created_at DESC, job_id DESC LIMIT ?`,
    ).all(
      accountId,
      options.status ?? null,
      options.status ?? null,
      before?.createdAt ?? null,
      before?.createdAt ?? null,
      before?.createdAt ?? null,
      before?.jobId ?? null,
      options.limit,
    ) as Row[];
    return rows.map(toJob);
  }

  async claimNextJob(workerId: string, now: string): Promise<JobRow | null> {
    const claim = this.db.transaction((): JobRow | null => {
      const row = this.sql(
        `UPDATE jobs SET status = 'RUNNING', worker_id = ?, heartbeat_at = ?, updated_at = ?,
             started_at = ?, attempts = attempts + 1, progress_json = NULL
           WHERE job_id = (SELECT job_id FROM jobs WHERE status = 'QUEUED'
                           ORDER BY created_at, rowid LIMIT 1)
           RETURNING *`,
      ).get(workerId, now, now, now) as Row | undefined;
      return row ? toJob(row) : null;
    });
    return claim.immediate();
  }

  async heartbeat(
    jobId: string,
    workerId: string,
    now: string,
    progress: JobProgress | null,
  ): Promise<{ cancelRequested: boolean } | null> {
    const row = this.sql(
      `UPDATE jobs SET heartbeat_at = ?,
           progress_json = coalesce(?, progress_json),
           updated_at = CASE WHEN ? IS NULL THEN updated_at ELSE ? END
         WHERE job_id = ? AND worker_id = ? AND status = 'RUNNING'
         RETURNING cancel_requested`,
    ).get(
      now,
      progress ? JSON.stringify(progress) : null,
      progress ? 1 : null,
      now,
      jobId,
      workerId,
    ) as Row | undefined;
    return row ? { cancelRequested: row.cancel_requested === 1 } : null;
  }

  async completeJob(
    jobId: string,
    workerId: string,
    now: string,
    done: JobCompletion,
  ): Promise<boolean> {
    const result = this.sql(
      `UPDATE jobs SET status = 'COMPLETED', updated_at = ?, finished_at = ?, result_key = ?,
           result_bytes = ?, checksum = ?, duration_seconds = ?, report_json = ?,
           progress_json = ?, error_detail = NULL
         WHERE job_id = ? AND worker_id = ? AND status = 'RUNNING'`,
    ).run(
      now,
      now,
      done.resultKey,
      done.resultBytes,
      done.checksum,
      done.durationSeconds,
      JSON.stringify(done.report),
      JSON.stringify(done.progress),
      jobId,
      workerId,
    );
    return result.changes === 1;
  }

  async failJob(
    jobId: string,
    workerId: string | null,
    now: string,
    errorDetail: string,
    durationSeconds?: number,
  ): Promise<boolean> {
    const fail = this.db.transaction(() => {
      const row = this.sql(`SELECT * FROM jobs WHERE job_id = ?`).get(jobId) as Row | undefined;
      if (!row || (row.status !== "RUNNING" && row.status !== "QUEUED")) return false;
      if (workerId !== null && row.worker_id !== workerId) return false;
      const duration = durationSeconds ?? secondsBetween(row.started_at as string | null, now);
      this.sql(
        `UPDATE jobs SET status = 'FAILED', updated_at = ?, finished_at = ?, error_detail = ?,
             duration_seconds = ? WHERE job_id = ?`,
      ).run(now, now, errorDetail, duration, jobId);
      return true;
    });
    return fail.immediate();
  }

  async requestCancel(jobId: string, now: string): Promise<JobRow | null> {
    const cancel = this.db.transaction((): JobRow | null => {
      const row = this.sql(`SELECT * FROM jobs WHERE job_id = ?`).get(jobId) as Row | undefined;
      if (!row) return null;
      if (row.status === "QUEUED") {
        this.sql(
          `UPDATE jobs SET status = 'FAILED', updated_at = ?, finished_at = ?,
               cancel_requested = 1, duration_seconds = 0,
               error_detail = 'Cancelled by the user before it started.'
             WHERE job_id = ?`,
        ).run(now, now, jobId);
      } else if (row.status === "RUNNING") {
        this.sql(`UPDATE jobs SET cancel_requested = 1, updated_at = ? WHERE job_id = ?`).run(
          now,
          jobId,
        );
      }
      return toJob(this.sql(`SELECT * FROM jobs WHERE job_id = ?`).get(jobId) as Row);
    });
    return cancel.immediate();
  }

  private recover(rows: Row[], now: string, maxAttempts: number, why: string): StaleJobsOutcome {
    const out: StaleJobsOutcome = { requeued: [], failed: [] };
    for (const row of rows) {
      const id = row.job_id as string;
      const attempts = row.attempts as number;
      if (row.cancel_requested === 1) {
        this.sql(
          `UPDATE jobs SET status = 'FAILED', updated_at = ?, finished_at = ?, worker_id = NULL,
               error_detail = 'Cancelled by the user.' WHERE job_id = ?`,
        ).run(now, now, id);
        out.failed.push(id);
      } else if (attempts < maxAttempts) {
        this.sql(
          `UPDATE jobs SET status = 'QUEUED', updated_at = ?, worker_id = NULL,
               heartbeat_at = NULL, started_at = NULL, progress_json = NULL WHERE job_id = ?`,
        ).run(now, id);
        out.requeued.push(id);
      } else {
        this.sql(
          `UPDATE jobs SET status = 'FAILED', updated_at = ?, finished_at = ?, worker_id = NULL,
               error_detail = ? WHERE job_id = ?`,
        ).run(
          now,
          now,
          `${why} on each of ${attempts} attempts; giving up. Submit the job again; if it keeps failing, reduce its size.`,
          id,
        );
        out.failed.push(id);
      }
    }
    return out;
  }

  async recoverStaleJobs(
    now: string,
    staleBefore: string,
    maxAttempts: number,
  ): Promise<StaleJobsOutcome> {
    const run = this.db.transaction(() => {
      const rows = this.sql(`SELECT * FROM jobs WHERE status = 'RUNNING' AND heartbeat_at < ?`).all(
        staleBefore,
      ) as Row[];
      return this.recover(rows, now, maxAttempts, "The worker running this job stopped responding");
    });
    return run.immediate();
  }

  async retryJob(
    jobId: string,
    workerId: string,
    now: string,
    maxAttempts: number,
    why: string,
  ): Promise<StaleJobsOutcome> {
    const run = this.db.transaction(() => {
      const rows = this.sql(
        `SELECT * FROM jobs WHERE job_id = ? AND status = 'RUNNING' AND worker_id = ?`,
      ).all(jobId, workerId) as Row[];
      return this.recover(rows, now, maxAttempts, why);
    });
    return run.immediate();
  }

  async beginSignInAttempt(input: {
    keys: { key: string; limit: number }[];
    nowMs: number;
    windowMs: number;
  }): Promise<{ retryAfterMs: number } | { failureIds: number[] }> {
    const since = input.nowMs - input.windowMs;
    const run = this.db.transaction(() => {
      this.sql(`DELETE FROM signin_failures WHERE at_ms <= ?`).run(since);
      let retryAfterMs = 0;
      for (const { key, limit } of input.keys) {
        // The limit-th newest failure: once it leaves the window, an attempt is allowed.
        const row = this.sql(
          `SELECT at_ms FROM signin_failures WHERE throttle_key = ? AND at_ms > ?
             ORDER BY at_ms DESC, id DESC LIMIT 1 OFFSET ?`,
        ).get(key, since, limit - 1) as { at_ms: number } | undefined;
        if (row) retryAfterMs = Math.max(retryAfterMs, row.at_ms + input.windowMs - input.nowMs);
      }
      if (retryAfterMs > 0) return { retryAfterMs };
      const insert = this.sql(
        `INSERT INTO signin_failures (throttle_key, at_ms) VALUES (?, ?) RETURNING id`,
      );
      return {
        failureIds: input.keys.map(
          ({ key }) => (insert.get(key, input.nowMs) as { id: number }).id,
        ),
      };
    });
    return run.immediate();
  }

  async clearSignInFailures(key: string | null, failureIds: number[] = []): Promise<void> {
    const run = this.db.transaction(() => {
      if (key !== null) this.sql(`DELETE FROM signin_failures WHERE throttle_key = ?`).run(key);
      const remove = this.sql(`DELETE FROM signin_failures WHERE id = ?`);
      for (const id of failureIds) remove.run(id);
    });
    run.immediate();
  }

  async lockedSignInKeys(input: {
    prefix: string;
    limit: number;
    nowMs: number;
    windowMs: number;
  }): Promise<{ key: string; retryAfterMs: number }[]> {
    const since = input.nowMs - input.windowMs;
    const rows = this.sql(
      `SELECT throttle_key AS key, at_ms FROM signin_failures
         WHERE substr(throttle_key, 1, ?) = ? AND at_ms > ?
         ORDER BY throttle_key, at_ms DESC, id DESC`,
    ).all(input.prefix.length, input.prefix, since) as { key: string; at_ms: number }[];
    const out: { key: string; retryAfterMs: number }[] = [];
    for (let i = 0; i < rows.length;) {
      let j = i;
      while (j < rows.length && rows[j]!.key === rows[i]!.key) j++;
      if (j - i >= input.limit) {
        out.push({
          key: rows[i]!.key,
          retryAfterMs: rows[i + input.limit - 1]!.at_ms + input.windowMs - input.nowMs,
        });
      }
      i = j;
    }
    return out;
  }

  async probeWrite(now: string): Promise<void> {
    this.sql(
      `INSERT INTO health_probe (id, checked_at) VALUES (1, ?)
         ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at`,
    ).run(now);
  }

  async recoverJobsOfWorkers(
    workerIds: string[],
    now: string,
    maxAttempts: number,
  ): Promise<StaleJobsOutcome> {
    if (workerIds.length === 0) return { requeued: [], failed: [] };
    const run = this.db.transaction(() => {
      const rows = this.sql(
        `SELECT * FROM jobs WHERE status = 'RUNNING' AND worker_id IN (${workerIds.map(() => "?").join(",")})`,
      ).all(...workerIds) as Row[];
      return this.recover(rows, now, maxAttempts, "The worker running this job exited");
    });
    return run.immediate();
  }

  async runningWorkerIds(): Promise<string[]> {
    const rows = this.sql(
      `SELECT DISTINCT worker_id FROM jobs WHERE status = 'RUNNING'`,
    ).all() as Row[];
    return rows.map((r) => r.worker_id as string).filter(Boolean);
  }

  async countJobsByStatus(): Promise<Record<JobStatus, number>> {
    const out: Record<JobStatus, number> = { QUEUED: 0, RUNNING: 0, COMPLETED: 0, FAILED: 0 };
    const rows = this.sql(`SELECT status, count(*) AS n FROM jobs GROUP BY status`).all() as {
      status: JobStatus;
      n: number;
    }[];
    for (const r of rows) out[r.status] = r.n;
    return out;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  // --- dashboard: accounts, sessions ---

  async findAccountCredentials(
    email: string,
  ): Promise<{ account: Account; passwordHash: string | null } | null> {
    const row = this.sql(`SELECT * FROM accounts WHERE email = ?`).get(email) as Row | undefined;
    return row
      ? { account: toAccount(row), passwordHash: (row.password_hash as string | null) ?? null }
      : null;
  }

  async setPasswordHash(accountId: string, passwordHash: string): Promise<void> {
    this.sql(`UPDATE accounts SET password_hash = ? WHERE id = ?`).run(passwordHash, accountId);
  }

  async listAccounts(): Promise<AccountSummary[]> {
    const rows = this.sql(`SELECT * FROM accounts ORDER BY created_at, email`).all() as Row[];
    return rows.map((r) => ({ ...toAccount(r), hasPassword: r.password_hash !== null }));
  }

  async hasAdminWithPassword(): Promise<boolean> {
    return (
      this.sql(
        `SELECT 1 FROM accounts WHERE is_admin = 1 AND password_hash IS NOT NULL LIMIT 1`,
      ).get() !== undefined
    );
  }

  async createSession(session: DashboardSession): Promise<void> {
    this.sql(
      `INSERT INTO dashboard_sessions (id_hash, account_id, created_at, last_seen_at, expires_at)
         VALUES (?, ?, ?, ?, ?)`,
    ).run(
      session.idHash,
      session.accountId,
      session.createdAt,
      session.lastSeenAt,
      session.expiresAt,
    );
  }

  async getSession(idHash: string): Promise<DashboardSession | null> {
    const row = this.sql(`SELECT * FROM dashboard_sessions WHERE id_hash = ?`).get(idHash) as
      Row | undefined;
    return row
      ? {
          idHash: row.id_hash as string,
          accountId: row.account_id as string,
          createdAt: row.created_at as string,
          lastSeenAt: row.last_seen_at as string,
          expiresAt: row.expires_at as string,
        }
      : null;
  }

  async touchSession(idHash: string, at: string): Promise<void> {
    this.sql(`UPDATE dashboard_sessions SET last_seen_at = ? WHERE id_hash = ?`).run(at, idHash);
  }

  async deleteSession(idHash: string): Promise<void> {
    this.sql(`DELETE FROM dashboard_sessions WHERE id_hash = ?`).run(idHash);
  }

  async deleteSessionsOfAccount(accountId: string, exceptIdHash?: string): Promise<void> {
    this.sql(`DELETE FROM dashboard_sessions WHERE account_id = ? AND id_hash IS NOT ?`).run(
      accountId,
      exceptIdHash ?? null,
    );
  }

  async deleteExpiredSessions(now: string, idleBefore: string): Promise<number> {
    return this.sql(`DELETE FROM dashboard_sessions WHERE expires_at <= ? OR last_seen_at < ?`).run(
      now,
      idleBefore,
    ).changes;
  }

  async createSetupToken(tokenHash: string, createdAt: string): Promise<void> {
    this.sql(
      `INSERT INTO dashboard_tokens (token_hash, purpose, account_id, created_at, expires_at)
         VALUES (?, 'setup', NULL, ?, NULL)`,
    ).run(tokenHash, createdAt);
  }

  async createInviteToken(
    token: Omit<AccountToken, "purpose"> & { accountId: string },
  ): Promise<void> {
    const replace = this.db.transaction(() => {
      this.sql(`DELETE FROM dashboard_tokens WHERE purpose = 'invite' AND account_id = ?`).run(
        token.accountId,
      );
      this.sql(
        `INSERT INTO dashboard_tokens (token_hash, purpose, account_id, created_at, expires_at)
           VALUES (?, 'invite', ?, ?, ?)`,
      ).run(token.tokenHash, token.accountId, token.createdAt, token.expiresAt);
    });
    replace.immediate();
  }

  private readonly validToken = (tokenHash: string, now: string) =>
    this.sql(
      `SELECT * FROM dashboard_tokens WHERE token_hash = ? AND (expires_at IS NULL OR expires_at > ?)`,
    ).get(tokenHash, now) as Row | undefined;

  async findAccountToken(tokenHash: string, now: string): Promise<AccountToken | null> {
    const row = this.validToken(tokenHash, now);
    return row
      ? {
          tokenHash: row.token_hash as string,
          purpose: row.purpose as AccountToken["purpose"],
          accountId: (row.account_id as string | null) ?? null,
          createdAt: row.created_at as string,
          expiresAt: (row.expires_at as string | null) ?? null,
        }
      : null;
  }

  async completeSetup(input: {
    tokenHash: string;
    email: string;
    passwordHash: string;
    now: string;
  }): Promise<Account | null> {
    const setup = this.db.transaction((): Account | null => {
      const token = this.validToken(input.tokenHash, input.now);
      if (!token || token.purpose !== "setup") return null;
      const admin = this.sql(
        `SELECT 1 FROM accounts WHERE is_admin = 1 AND password_hash IS NOT NULL`,
      ).get();
      this.sql(`DELETE FROM dashboard_tokens WHERE purpose = 'setup'`).run();
      if (admin) return null;
      const existing = this.sql(`SELECT * FROM accounts WHERE email = ?`).get(input.email) as
        Row | undefined;
      const row = existing
        ? (this.sql(
            `UPDATE accounts SET password_hash = ?, is_admin = 1 WHERE id = ? RETURNING *`,
          ).get(input.passwordHash, existing.id) as Row)
        : (this.sql(
            `INSERT INTO accounts (id, email, password_hash, is_admin, created_at)
               VALUES (?, ?, ?, 1, ?) RETURNING *`,
          ).get(randomUUID(), input.email, input.passwordHash, input.now) as Row);
      return toAccount(row);
    });
    return setup.immediate();
  }

  async redeemInvite(input: {
    tokenHash: string;
    passwordHash: string;
    now: string;
  }): Promise<Account | null> {
    const redeem = this.db.transaction((): Account | null => {
      const token = this.validToken(input.tokenHash, input.now);
      if (!token || token.purpose !== "invite" || typeof token.account_id !== "string") {
        return null;
      }
      this.sql(`DELETE FROM dashboard_tokens WHERE token_hash = ?`).run(input.tokenHash);
      const row = this.sql(`UPDATE accounts SET password_hash = ? WHERE id = ? RETURNING *`).get(
        input.passwordHash,
        token.account_id,
      ) as Row | undefined;
      if (!row) return null;
      this.sql(`DELETE FROM dashboard_sessions WHERE account_id = ?`).run(token.account_id);
      return toAccount(row);
    });
    return redeem.immediate();
  }
}
