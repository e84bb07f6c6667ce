/**
 * Batches in SQLite (DESIGN §11): the batch row and its jobs, admitted in one immediate
 * transaction under the job queue's admission rule. The jobs are ordinary rows of `jobs`
 * (claimed, run, recovered and cancelled as any job), so nothing here runs or schedules.
 */
import type {
  AdmissionRule,
  BatchAdmission,
  BatchJobSummary,
  BatchRow,
  BatchStore,
  NewBatch,
  NewBatchJob,
} from "../types.js";
import type { SqliteDatabase } from "./database.js";
import { activeConflict, type SqliteJobQueue } from "./jobs.js";
import { toBatch, toBatchJob, type Row } from "./rows.js";

export class SqliteBatchStore implements BatchStore {
  constructor(
    private readonly d: SqliteDatabase,
    private readonly jobs: SqliteJobQueue,
  ) {}

  async admitBatch(
    batch: NewBatch,
    jobs: NewBatchJob[],
    rule: AdmissionRule,
  ): Promise<BatchAdmission> {
    const result = this.d.immediate((): BatchAdmission => {
      const active = activeConflict(this.d, rule, batch.accountId);
      if (active) return { admitted: false, active };
      const row = this.d
        .sql(
          `INSERT INTO batches (batch_id, account_id, request_json, dimensions_json, combine,
               job_count, parallelism, metadata_json, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        )
        .get(
          batch.batchId,
          batch.accountId,
          batch.requestJson,
          JSON.stringify(batch.dimensions),
          batch.combine,
          batch.jobCount,
          batch.parallelism,
          JSON.stringify(batch.metadata),
          batch.createdAt,
          batch.createdAt,
        ) as Row;
      const insert = this.d.sql(
        `INSERT INTO jobs (job_id, account_id, status, solver, request_json, spec_json,
             metadata_json, created_at, updated_at, batch_id, batch_index, parameters_json,
             request_hash)
           VALUES (?, ?, 'QUEUED', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const job of jobs) {
        insert.run(
          job.jobId,
          job.accountId,
          job.solver,
          job.requestJson,
          job.specJson,
          JSON.stringify(job.metadata),
          job.createdAt,
          job.createdAt,
          batch.batchId,
          job.batchIndex,
          JSON.stringify(job.parameters),
          job.requestHash ?? null,
        );
      }
      return { admitted: true, batch: toBatch(row) };
    });
    if (result.admitted) this.jobs.announceQueued();
    return result;
  }

  async getBatch(batchId: string): Promise<BatchRow | null> {
    const row = this.d.sql(`SELECT * FROM batches WHERE batch_id = ?`).get(batchId) as
      Row | undefined;
    return row ? toBatch(row) : null;
  }

  async listBatches(
    accountId: string,
    options: { limit: number; before?: { createdAt: string; batchId: string } },
  ): Promise<BatchRow[]> {
    const b = options.before;
    const rows = this.d
      .sql(
        `SELECT * FROM batches WHERE account_id = ?
             AND (? IS NULL OR created_at < ? OR (created_at = ? AND batch_id < ?))
           ORDER BY created_at DESC, batch_id DESC LIMIT ?`,
      )
      .all(
        accountId,
        b?.createdAt ?? null,
        b?.createdAt ?? null,
        b?.createdAt ?? null,
        b?.batchId ?? null,
        options.limit,
      ) as Row[];
    return rows.map(toBatch);
  }

  async batchJobs(batchId: string): Promise<BatchJobSummary[]> {
    const rows = this.d
      .sql(
        `SELECT job_id, batch_index, status, parameters_json, progress_json, error_detail,
             result_key, checksum, updated_at
           FROM jobs WHERE batch_id = ? ORDER BY batch_index`,
      )
      .all(batchId) as Row[];
    return rows.map(toBatchJob);
  }

  async cancelBatch(batchId: string, now: string, queuedDetail: string): Promise<string[]> {
    const running = this.d.immediate(() => {
      this.d
        .sql(`UPDATE batches SET cancel_requested = 1, updated_at = ? WHERE batch_id = ?`)
        .run(now, batchId);
      this.d
        .sql(
          `UPDATE jobs SET status = 'FAILED', updated_at = ?, finished_at = ?,
               cancel_requested = 1, duration_seconds = 0, error_detail = ?
             WHERE batch_id = ? AND status = 'QUEUED'`,
        )
        .run(now, now, queuedDetail, batchId);
      const rows = this.d
        .sql(
          `UPDATE jobs SET cancel_requested = 1, updated_at = ?
             WHERE batch_id = ? AND status = 'RUNNING' RETURNING job_id`,
        )
        .all(now, batchId) as Row[];
      return rows.map((r) => r.job_id as string);
    });
    for (const jobId of running) this.jobs.announceCancel(jobId);
    return running;
  }

  async setBatchResult(
    batchId: string,
    now: string,
    result: { key: string; bytes: number; checksum: string },
  ): Promise<BatchRow> {
    return this.d.immediate(() => {
      this.d
        .sql(
          `UPDATE batches SET result_key = ?, result_bytes = ?, checksum = ?, updated_at = ?
             WHERE batch_id = ? AND result_key IS NULL`,
        )
        .run(result.key, result.bytes, result.checksum, now, batchId);
      return toBatch(this.d.sql(`SELECT * FROM batches WHERE batch_id = ?`).get(batchId) as Row);
    });
  }
}
