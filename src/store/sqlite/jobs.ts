/**
 * The job queue in SQLite. Workers in this process are woken through an in-process emitter;
 * workers in other processes sharing the file find new jobs by polling (EMSIM_POLL_INTERVAL_MS).
 */
import { EventEmitter } from "node:events";
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
  ReadScope,
  RecoveryRule,
  StaleJobsOutcome,
} from "../types.js";
import { nextJobQuery } from "../claims.js";
import { outcomeOf, planRecovery } from "../recovery.js";
import type { SqliteDatabase } from "./database.js";
import { toJob, type Row } from "./rows.js";

const ACTIVE = "('QUEUED','RUNNING')";

/**
 * The active job that refuses an admission under `rule`, or null: the caller's own oldest
 * when it has one. Call inside an immediate transaction (admitJob, admitBatch). Counted
 * through the partial index on active jobs, so admission stays O(active jobs of the scope)
 * however many finished jobs the table holds.
 */
export function activeConflict(
  d: SqliteDatabase,
  rule: AdmissionRule,
  accountId: string,
): JobRow | null {
  const count = (
    rule.scope === "account"
      ? d
          .sql(`SELECT count(*) AS n FROM jobs WHERE status IN ${ACTIVE} AND account_id = ?`)
          .get(accountId)
      : d.sql(`SELECT count(*) AS n FROM jobs WHERE status IN ${ACTIVE}`).get()
  ) as { n: number };
  if (count.n < rule.limit) return null;
  const active = (d
    .sql(
      `SELECT * FROM jobs WHERE status IN ${ACTIVE} AND account_id = ?
         ORDER BY created_at, rowid LIMIT 1`,
    )
    .get(accountId) ??
    d
      .sql(`SELECT * FROM jobs WHERE status IN ${ACTIVE} ORDER BY created_at, rowid LIMIT 1`)
      .get()) as Row;
  return toJob(active);
}

export class SqliteJobQueue implements JobQueue {
  private readonly events = new EventEmitter<{ queued: []; cancel: [jobId: string] }>();

  constructor(private readonly d: SqliteDatabase) {
    this.events.setMaxListeners(0);
  }

  async admitJob(job: NewJob, rule: AdmissionRule): Promise<AdmissionResult> {
    const result = this.d.immediate((): AdmissionResult => {
      const active = activeConflict(this.d, rule, job.accountId);
      if (active) return { admitted: false, active };
      const row = this.d
        .sql(
          `INSERT INTO jobs (job_id, account_id, status, solver, request_json, spec_json,
               metadata_json, created_at, updated_at, request_hash, estimate_json)
             VALUES (?, ?, 'QUEUED', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        )
        .get(
          job.jobId,
          job.accountId,
          job.solver,
          job.requestJson,
          job.specJson,
          JSON.stringify(job.metadata),
          job.createdAt,
          job.createdAt,
          job.requestHash ?? null,
          job.estimate ? JSON.stringify(job.estimate) : null,
        ) as Row;
      return { admitted: true, job: toJob(row) };
    });
    if (result.admitted) this.events.emit("queued");
    return result;
  }

  async getJob(jobId: string, scope?: ReadScope): Promise<JobRow | null> {
    return this.d.readCache.get(
      `job:${jobId}`,
      () => {
        const row = this.d.sql(`SELECT * FROM jobs WHERE job_id = ?`).get(jobId) as Row | undefined;
        return row ? toJob(row) : null;
      },
      scope,
      // UTF-16 strings; the request's metadata is also held parsed; progress, report, the rest.
      (job) => 4 * job.requestJson.length + 2 * job.specJson.length + 4096,
    );
  }

  async listJobs(accountId: string, options: ListJobsOptions): Promise<JobRow[]> {
    const before = options.before;
    const rows = this.d
      .sql(
        `SELECT * FROM jobs WHERE account_id = ?
             AND (? IS NULL OR status = ?)
             AND (? IS NULL OR created_at < ? OR (created_at = ? AND job_id < ?))
           ORDER BY created_at DESC, job_id DESC LIMIT ?`,
      )
      .all(
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

  /** The next QUEUED job that may start (claims.ts nextJobQuery), now this worker's. */
  async claimNextJob(workerId: string, now: string): Promise<JobRow | null> {
    return this.d.immediate((): JobRow | null => {
      const row = this.d
        .sql(
          `UPDATE jobs SET status = 'RUNNING', worker_id = ?, heartbeat_at = ?, updated_at = ?,
               started_at = ?, attempts = attempts + 1, progress_json = NULL
             WHERE job_id = (${nextJobQuery("rowid")})
             RETURNING *`,
        )
        .get(workerId, now, now, now) as Row | undefined;
      return row ? toJob(row) : null;
    });
  }

  async heartbeat(
    jobId: string,
    workerId: string,
    now: string,
    progress: JobProgress | null,
  ): Promise<{ cancelRequested: boolean } | null> {
    // Through `returning`: a heartbeat the disk refused must fail, not pass for recorded.
    const row = this.d.returning(
      `UPDATE jobs SET heartbeat_at = ?,
           progress_json = coalesce(?, progress_json),
           updated_at = CASE WHEN ? IS NULL THEN updated_at ELSE ? END
         WHERE job_id = ? AND worker_id = ? AND status = 'RUNNING'
         RETURNING cancel_requested`,
      now,
      progress ? JSON.stringify(progress) : null,
      progress ? 1 : null,
      now,
      jobId,
      workerId,
    );
    return row ? { cancelRequested: row.cancel_requested === 1 } : null;
  }

  async completeJob(
    jobId: string,
    workerId: string,
    now: string,
    done: JobCompletion,
  ): Promise<boolean> {
    const result = this.d
      .sql(
        `UPDATE jobs SET status = 'COMPLETED', updated_at = ?, finished_at = ?, result_key = ?,
             result_bytes = ?, checksum = ?, duration_seconds = ?, report_json = ?,
             progress_json = ?, error_detail = NULL
           WHERE job_id = ? AND worker_id = ? AND status = 'RUNNING'`,
      )
      .run(
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

  async findCompletedTwin(job: JobRow): Promise<JobRow | null> {
    if (!job.requestHash) return null;
    const row = this.d
      .sql(
        `SELECT * FROM jobs WHERE account_id = ? AND request_hash = ? AND status = 'COMPLETED'
             AND result_key IS NOT NULL AND job_id <> ?
           ORDER BY finished_at, rowid LIMIT 1`,
      )
      .get(job.accountId, job.requestHash, job.jobId) as Row | undefined;
    return row ? toJob(row) : null;
  }

  async completeFromTwin(
    jobId: string,
    workerId: string,
    now: string,
    twin: JobRow,
  ): Promise<boolean> {
    const result = this.d
      .sql(
        `UPDATE jobs SET status = 'COMPLETED', updated_at = ?, finished_at = ?, result_key = ?,
             result_bytes = ?, checksum = ?, duration_seconds = 0, report_json = ?,
             progress_json = ?, error_detail = NULL, reused_result_of = ?
           WHERE job_id = ? AND worker_id = ? AND status = 'RUNNING'`,
      )
      .run(
        now,
        now,
        twin.resultKey,
        twin.resultBytes,
        twin.checksum,
        JSON.stringify(twin.report),
        JSON.stringify(twin.progress),
        twin.reusedResultOf ?? twin.jobId,
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
    progress?: JobProgress,
  ): Promise<boolean> {
    return this.d.immediate(() => {
      const row = this.d.sql(`SELECT * FROM jobs WHERE job_id = ?`).get(jobId) as Row | undefined;
      if (!row || (row.status !== "RUNNING" && row.status !== "QUEUED")) return false;
      if (workerId !== null && row.worker_id !== workerId) return false;
      const duration = durationSeconds ?? secondsBetween(row.started_at as string | null, now);
      this.d
        .sql(
          `UPDATE jobs SET status = 'FAILED', updated_at = ?, finished_at = ?, error_detail = ?,
               duration_seconds = ?, progress_json = coalesce(?, progress_json) WHERE job_id = ?`,
        )
        .run(now, now, errorDetail, duration, progress ? JSON.stringify(progress) : null, jobId);
      return true;
    });
  }

  async retryJob(
    jobId: string,
    workerId: string,
    now: string,
    rule: RecoveryRule,
  ): Promise<StaleJobsOutcome> {
    return this.recoverWhere(
      `status = 'RUNNING' AND job_id = ? AND worker_id = ?`,
      [jobId, workerId],
      now,
      rule,
    );
  }

  async requestCancel(jobId: string, now: string, queuedDetail: string): Promise<JobRow | null> {
    let running = false;
    const after = this.d.immediate((): JobRow | null => {
      const row = this.d.sql(`SELECT * FROM jobs WHERE job_id = ?`).get(jobId) as Row | undefined;
      if (!row) return null;
      if (row.status === "QUEUED") {
        this.d
          .sql(
            `UPDATE jobs SET status = 'FAILED', updated_at = ?, finished_at = ?,
                 cancel_requested = 1, duration_seconds = 0, error_detail = ?
               WHERE job_id = ?`,
          )
          .run(now, now, queuedDetail, jobId);
      } else if (row.status === "RUNNING") {
        running = true;
        this.d
          .sql(`UPDATE jobs SET cancel_requested = 1, updated_at = ? WHERE job_id = ?`)
          .run(now, jobId);
      }
      return toJob(this.d.sql(`SELECT * FROM jobs WHERE job_id = ?`).get(jobId) as Row);
    });
    if (running) this.events.emit("cancel", jobId);
    return after;
  }

  async recoverStaleJobs(
    now: string,
    staleBefore: string,
    rule: RecoveryRule,
  ): Promise<StaleJobsOutcome> {
    return this.recoverWhere(`status = 'RUNNING' AND heartbeat_at < ?`, [staleBefore], now, rule);
  }

  async recoverJobsOfWorkers(
    workerIds: string[],
    now: string,
    rule: RecoveryRule,
  ): Promise<StaleJobsOutcome> {
    if (workerIds.length === 0) return { requeued: [], failed: [] };
    return this.recoverWhere(
      `status = 'RUNNING' AND worker_id IN (${workerIds.map(() => "?").join(",")})`,
      workerIds,
      now,
      rule,
    );
  }

  /** RUNNING jobs matching `where` back to QUEUED, or FAILED (cancelled, out of attempts). */
  private recoverWhere(
    where: string,
    params: unknown[],
    now: string,
    rule: RecoveryRule,
  ): StaleJobsOutcome {
    const out = this.d.immediate(() => {
      const rows = this.d.sql(`SELECT * FROM jobs WHERE ${where}`).all(...params) as Row[];
      const plan = planRecovery(
        rows.map((row) => ({
          jobId: row.job_id as string,
          attempts: row.attempts as number,
          cancelRequested: row.cancel_requested === 1,
        })),
        rule,
      );
      for (const { jobId, errorDetail } of plan.fail) {
        this.d
          .sql(
            `UPDATE jobs SET status = 'FAILED', updated_at = ?, finished_at = ?,
                 worker_id = NULL, error_detail = ? WHERE job_id = ?`,
          )
          .run(now, now, errorDetail, jobId);
      }
      for (const { jobId, giveBackAttempt } of plan.requeue) {
        this.d
          .sql(
            `UPDATE jobs SET status = 'QUEUED', updated_at = ?, worker_id = NULL,
                 heartbeat_at = NULL, started_at = NULL, progress_json = NULL,
                 attempts = max(attempts - ?, 0)
               WHERE job_id = ?`,
          )
          .run(now, giveBackAttempt ? 1 : 0, jobId);
      }
      return outcomeOf(plan);
    });
    if (out.requeued.length > 0) this.events.emit("queued");
    return out;
  }

  async runningWorkerIds(): Promise<string[]> {
    const rows = this.d
      .sql(`SELECT DISTINCT worker_id FROM jobs WHERE status = 'RUNNING'`)
      .all() as Row[];
    return rows.map((r) => r.worker_id as string).filter(Boolean);
  }

  async countJobsByStatus(): Promise<Record<JobStatus, number>> {
    const out: Record<JobStatus, number> = { QUEUED: 0, RUNNING: 0, COMPLETED: 0, FAILED: 0 };
    const rows = this.d.sql(`SELECT status, count(*) AS n FROM jobs GROUP BY status`).all() as {
      status: JobStatus;
      n: number;
    }[];
    for (const r of rows) out[r.status] = r.n;
    return out;
  }

  /** Wakes this process's workers: jobs were queued outside admitJob (a batch's). */
  announceQueued(): void {
    this.events.emit("queued");
  }

  /** Tells this process's workers that a running job was asked to stop (a batch's cancel). */
  announceCancel(jobId: string): void {
    this.events.emit("cancel", jobId);
  }

  onJobQueued(listener: () => void): () => void {
    this.events.on("queued", listener);
    return () => this.events.off("queued", listener);
  }

  onCancelRequested(listener: (jobId: string) => void): () => void {
    this.events.on("cancel", listener);
    return () => this.events.off("cancel", listener);
  }
}

export function secondsBetween(startIso: string | null, endIso: string): number | null {
  return startIso ? Math.max(0, (Date.parse(endIso) - Date.parse(startIso)) / 1000) : null;
}
