/**
 * The job queue in PostgreSQL: one table is the single source of truth for a job's record and
 * its place in the queue (no queue library with a table of its own to keep in step).
 *
 * - Admission takes a transaction-scoped advisory lock on the scope (the account, or the whole
 *   service), counts the scope's active jobs and inserts: two API servers admitting for the
 *   same account serialise on the lock, so the 409 rule holds under concurrency.
 * - A claim is one statement: the oldest QUEUED row `FOR UPDATE SKIP LOCKED`, made RUNNING.
 *   Workers racing for jobs never wait on each other's rows and never take the same one.
 * - Submissions and requeues `NOTIFY emsim_job_queued` in their transaction, cancellations
 *   `emsim_job_cancel`: idle workers are woken at once, without polling the table.
 * - The reaper (recoverStaleJobs, run by every worker) locks stale rows `SKIP LOCKED`, so
 *   several workers sweeping at once each take different rows, and so does the take-back of
 *   a dead worker's jobs. A worker's own job (handed back as it stops, retried after a failed
 *   store) is waited for instead: a heartbeat of its own still in flight holds the row for a
 *   moment, and skipping it left the job RUNNING for a worker that was gone, until the stale
 *   sweep used up an attempt on it.
 */
import type {
  AdmissionResult,
  AdmissionRule,
  JobCompletion,
  JobProgress,
  JobQueue,
  JobRow,
  JobStatus,
  ListJobsOptions,
  NewJob,
  RecoveryRule,
  StaleJobsOutcome,
} from "../types.js";
import { outcomeOf, planRecovery } from "../recovery.js";
import { CHANNELS, type PgDatabase, type Queryable } from "./database.js";
import { nextJobQuery } from "../claims.js";
import { heldByNoRow, toJob, type Row } from "./rows.js";

const ACTIVE = "('QUEUED','RUNNING')";
/** Advisory-lock class of admission: (ADMIT, hash of the account) or (ADMIT, 0) for global. */
const ADMIT = 0x61646d74; // "admt"
/** Advisory-lock class of claims (one lock for all: see claimNextJob). */
const CLAIM = 0x636c6d20; // "clm "

/**
 * Takes the admission lock of `rule`'s scope for the transaction and returns the active job
 * that refuses an admission, or null: the caller's own oldest when it has one (admitJob,
 * admitBatch).
 */
export async function lockedConflict(
  c: Queryable,
  rule: AdmissionRule,
  accountId: string,
): Promise<JobRow | null> {
  if (rule.scope === "account") {
    await c.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [ADMIT, accountId]);
  } else {
    await c.query(`SELECT pg_advisory_xact_lock($1, 0)`, [ADMIT]);
  }
  const count = await c.query<{ n: string }>(
    rule.scope === "account"
      ? `SELECT count(*) AS n FROM jobs WHERE status IN ${ACTIVE} AND account_id = $1`
      : `SELECT count(*) AS n FROM jobs WHERE status IN ${ACTIVE}`,
    rule.scope === "account" ? [accountId] : [],
  );
  if (Number(count.rows[0]!.n) < rule.limit) return null;
  const own = await c.query(
    `SELECT * FROM jobs WHERE status IN ${ACTIVE} AND account_id = $1
       ORDER BY created_at, seq LIMIT 1`,
    [accountId],
  );
  const active =
    own.rows[0] ??
    (await c.query(`SELECT * FROM jobs WHERE status IN ${ACTIVE} ORDER BY created_at, seq LIMIT 1`))
      .rows[0];
  return toJob(active!);
}

export class PgJobQueue implements JobQueue {
  constructor(private readonly d: PgDatabase) {}

  async admitJob(job: NewJob, rule: AdmissionRule): Promise<AdmissionResult> {
    return this.d.tx(async (c): Promise<AdmissionResult> => {
      const active = await lockedConflict(c, rule, job.accountId);
      if (active) return { admitted: false, active };
      const { rows } = await c.query(
        `INSERT INTO jobs (job_id, account_id, status, solver, request_json, spec_json,
             metadata_json, created_at, updated_at, request_hash, estimate_json)
           VALUES ($1, $2, 'QUEUED', $3, $4, $5, $6, $7, $7, $8, $9) RETURNING *`,
        [
          job.jobId,
          job.accountId,
          job.solver,
          job.requestJson,
          job.specJson,
          JSON.stringify(job.metadata),
          job.createdAt,
          job.requestHash ?? null,
          job.estimate ? JSON.stringify(job.estimate) : null,
        ],
      );
      await c.query(`SELECT pg_notify($1, $2)`, [CHANNELS.queued, job.jobId]);
      return { admitted: true, job: toJob(rows[0]!) };
    });
  }

  /** Not cached: every process must see another's update at once. */
  async getJob(jobId: string): Promise<JobRow | null> {
    if (heldByNoRow(jobId)) return null;
    const { rows } = await this.d.query(`SELECT * FROM jobs WHERE job_id = $1`, [jobId]);
    return rows[0] ? toJob(rows[0]) : null;
  }

  async listJobs(accountId: string, options: ListJobsOptions): Promise<JobRow[]> {
    const before = options.before;
    const { rows } = await this.d.query(
      `SELECT * FROM jobs WHERE account_id = $1
           AND ($2::text IS NULL OR status = $2)
           AND ($3::timestamptz IS NULL OR created_at < $3
                OR (created_at = $3 AND job_id < $4))
         ORDER BY created_at DESC, job_id DESC LIMIT $5`,
      [
        accountId,
        options.status ?? null,
        before?.createdAt ?? null,
        before?.jobId ?? null,
        options.limit,
      ],
    );
    return rows.map(toJob);
  }

  /**
   * The next QUEUED job that may start (claims.ts nextJobQuery: accounts take turns, each
   * account's oldest first), now this worker's. A job of a batch may start while
   * its batch runs fewer of its jobs than the batch's parallelism; claims serialise on one
   * advisory lock so that two workers cannot both count the same running jobs and both start
   * one (a claim is one short statement, so the lock costs nothing measurable).
   */
  async claimNextJob(workerId: string, now: string): Promise<JobRow | null> {
    return this.d.tx(async (c) => {
      await c.query(`SELECT pg_advisory_xact_lock($1, 0)`, [CLAIM]);
      const { rows } = await c.query(
        `UPDATE jobs SET status = 'RUNNING', worker_id = $1, heartbeat_at = $2, updated_at = $2,
             started_at = $2, attempts = attempts + 1, progress_json = NULL
           WHERE job_id = (${nextJobQuery("seq", "FOR UPDATE OF j SKIP LOCKED")})
           RETURNING *`,
        [workerId, now],
      );
      return rows[0] ? toJob(rows[0]) : null;
    });
  }

  async heartbeat(
    jobId: string,
    workerId: string,
    now: string,
    progress: JobProgress | null,
  ): Promise<{ cancelRequested: boolean } | null> {
    const { rows } = await this.d.query(
      `UPDATE jobs SET heartbeat_at = $1,
           progress_json = coalesce($2, progress_json),
           updated_at = CASE WHEN $2::text IS NULL THEN updated_at ELSE $1 END
         WHERE job_id = $3 AND worker_id = $4 AND status = 'RUNNING'
         RETURNING cancel_requested`,
      [now, progress ? JSON.stringify(progress) : null, jobId, workerId],
    );
    return rows[0] ? { cancelRequested: rows[0].cancel_requested === true } : null;
  }

  async completeJob(
    jobId: string,
    workerId: string,
    now: string,
    done: JobCompletion,
  ): Promise<boolean> {
    const res = await this.d.query(
      `UPDATE jobs SET status = 'COMPLETED', updated_at = $1, finished_at = $1, result_key = $2,
           result_bytes = $3, checksum = $4, duration_seconds = $5, report_json = $6,
           progress_json = $7, error_detail = NULL
         WHERE job_id = $8 AND worker_id = $9 AND status = 'RUNNING'`,
      [
        now,
        done.resultKey,
        done.resultBytes,
        done.checksum,
        done.durationSeconds,
        JSON.stringify(done.report),
        JSON.stringify(done.progress),
        jobId,
        workerId,
      ],
    );
    return res.rowCount === 1;
  }

  async findCompletedTwin(job: JobRow): Promise<JobRow | null> {
    if (!job.requestHash) return null;
    const { rows } = await this.d.query(
      `SELECT * FROM jobs WHERE account_id = $1 AND request_hash = $2 AND status = 'COMPLETED'
           AND result_key IS NOT NULL AND job_id <> $3
         ORDER BY finished_at, seq LIMIT 1`,
      [job.accountId, job.requestHash, job.jobId],
    );
    return rows[0] ? toJob(rows[0]) : null;
  }

  async completeFromTwin(
    jobId: string,
    workerId: string,
    now: string,
    twin: JobRow,
  ): Promise<boolean> {
    const { rowCount } = await this.d.query(
      `UPDATE jobs SET status = 'COMPLETED', updated_at = $1, finished_at = $1, result_key = $2,
           result_bytes = $3, checksum = $4, duration_seconds = 0, report_json = $5,
           progress_json = $6, error_detail = NULL, reused_result_of = $7
         WHERE job_id = $8 AND worker_id = $9 AND status = 'RUNNING'`,
      [
        now,
        twin.resultKey,
        twin.resultBytes,
        twin.checksum,
        JSON.stringify(twin.report),
        JSON.stringify(twin.progress),
        twin.reusedResultOf ?? twin.jobId,
        jobId,
        workerId,
      ],
    );
    return rowCount === 1;
  }

  async failJob(
    jobId: string,
    workerId: string | null,
    now: string,
    errorDetail: string,
    durationSeconds?: number,
    progress?: JobProgress,
  ): Promise<boolean> {
    const res = await this.d.query(
      `UPDATE jobs SET status = 'FAILED', updated_at = $1, finished_at = $1, error_detail = $2,
           duration_seconds = coalesce($3,
             CASE WHEN started_at IS NULL THEN NULL
                  ELSE greatest(0, extract(epoch FROM ($1::timestamptz - started_at))) END),
           progress_json = coalesce($6, progress_json)
         WHERE job_id = $4 AND status IN ${ACTIVE}
           AND ($5::text IS NULL OR worker_id = $5)`,
      [
        now,
        errorDetail,
        durationSeconds ?? null,
        jobId,
        workerId,
        progress ? JSON.stringify(progress) : null,
      ],
    );
    return res.rowCount === 1;
  }

  async retryJob(
    jobId: string,
    workerId: string,
    now: string,
    rule: RecoveryRule,
  ): Promise<StaleJobsOutcome> {
    return this.recoverWhere(
      `status = 'RUNNING' AND job_id = $1 AND worker_id = $2`,
      [jobId, workerId],
      now,
      rule,
      "wait",
    );
  }

  async requestCancel(jobId: string, now: string, queuedDetail: string): Promise<JobRow | null> {
    return this.d.tx(async (c): Promise<JobRow | null> => {
      const found = await c.query(`SELECT status FROM jobs WHERE job_id = $1 FOR UPDATE`, [jobId]);
      const status = found.rows[0]?.status as JobStatus | undefined;
      if (!status) return null;
      if (status === "QUEUED") {
        await c.query(
          `UPDATE jobs SET status = 'FAILED', updated_at = $1, finished_at = $1,
               cancel_requested = true, duration_seconds = 0, error_detail = $2
             WHERE job_id = $3`,
          [now, queuedDetail, jobId],
        );
      } else if (status === "RUNNING") {
        await c.query(
          `UPDATE jobs SET cancel_requested = true, updated_at = $1 WHERE job_id = $2`,
          [now, jobId],
        );
        await c.query(`SELECT pg_notify($1, $2)`, [CHANNELS.cancel, jobId]);
      }
      const { rows } = await c.query(`SELECT * FROM jobs WHERE job_id = $1`, [jobId]);
      return toJob(rows[0]!);
    });
  }

  async recoverStaleJobs(
    now: string,
    staleBefore: string,
    rule: RecoveryRule,
  ): Promise<StaleJobsOutcome> {
    return this.recoverWhere(
      `status = 'RUNNING' AND heartbeat_at < $1`,
      [staleBefore],
      now,
      rule,
      "skip",
    );
  }

  async recoverJobsOfWorkers(
    workerIds: string[],
    now: string,
    rule: RecoveryRule,
    options: { waitForRows?: boolean } = {},
  ): Promise<StaleJobsOutcome> {
    if (workerIds.length === 0) return { requeued: [], failed: [] };
    return this.recoverWhere(
      `status = 'RUNNING' AND worker_id = ANY($1::text[])`,
      [workerIds],
      now,
      rule,
      options.waitForRows ? "wait" : "skip",
    );
  }

  /**
   * RUNNING jobs matching `where` back to QUEUED, or FAILED (cancelled, out of attempts).
   * `skip` passes over rows another transaction holds (sweepers racing); `wait` waits for
   * them, in job_id order so that two waiters cannot deadlock, and takes a row only if it
   * still matches once free.
   */
  private async recoverWhere(
    where: string,
    params: unknown[],
    now: string,
    rule: RecoveryRule,
    locked: "skip" | "wait",
  ): Promise<StaleJobsOutcome> {
    const lock = locked === "skip" ? "FOR UPDATE SKIP LOCKED" : "ORDER BY job_id FOR UPDATE";
    return this.d.tx(async (c) => {
      const { rows } = await c.query(
        `SELECT job_id, attempts, cancel_requested FROM jobs WHERE ${where} ${lock}`,
        params,
      );
      const plan = planRecovery(
        (rows as Row[]).map((row) => ({
          jobId: row.job_id as string,
          attempts: row.attempts as number,
          cancelRequested: row.cancel_requested === true,
        })),
        rule,
      );
      for (const { jobId, errorDetail } of plan.fail) {
        await c.query(
          `UPDATE jobs SET status = 'FAILED', updated_at = $1, finished_at = $1,
               worker_id = NULL, error_detail = $2 WHERE job_id = $3`,
          [now, errorDetail, jobId],
        );
      }
      for (const { jobId, giveBackAttempt } of plan.requeue) {
        await c.query(
          `UPDATE jobs SET status = 'QUEUED', updated_at = $1, worker_id = NULL,
               heartbeat_at = NULL, started_at = NULL, progress_json = NULL,
               attempts = greatest(attempts - $3, 0)
             WHERE job_id = $2`,
          [now, jobId, giveBackAttempt ? 1 : 0],
        );
        await c.query(`SELECT pg_notify($1, $2)`, [CHANNELS.queued, jobId]);
      }
      return outcomeOf(plan);
    });
  }

  async runningWorkerIds(): Promise<string[]> {
    const { rows } = await this.d.query(
      `SELECT DISTINCT worker_id FROM jobs WHERE status = 'RUNNING' AND worker_id IS NOT NULL`,
    );
    return rows.map((r) => r.worker_id as string);
  }

  async countJobsByStatus(): Promise<Record<JobStatus, number>> {
    const out: Record<JobStatus, number> = { QUEUED: 0, RUNNING: 0, COMPLETED: 0, FAILED: 0 };
    const { rows } = await this.d.query<{ status: JobStatus; n: string }>(
      `SELECT status, count(*) AS n FROM jobs GROUP BY status`,
    );
    for (const r of rows) out[r.status] = Number(r.n);
    return out;
  }

  onJobQueued(listener: () => void): () => void {
    return this.d.listen(CHANNELS.queued, () => listener());
  }

  onCancelRequested(listener: (jobId: string) => void): () => void {
    return this.d.listen(CHANNELS.cancel, (jobId) => {
      if (jobId) listener(jobId);
    });
  }
}
