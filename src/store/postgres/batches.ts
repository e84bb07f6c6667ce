/**
 * Batches in PostgreSQL (DESIGN §11), as the SQLite store: the batch row and its jobs
 * admitted in one transaction under the admission lock and rule of jobs.ts; the jobs are
 * ordinary rows of `jobs`. Admission NOTIFYs the queue channel and a cancel the cancel
 * channel for each running job, in the transaction, so workers in every process hear it.
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
import { CHANNELS, type PgDatabase } from "./database.js";
import { lockedConflict } from "./jobs.js";
import { heldByNoRow, toBatch, toBatchJob } from "./rows.js";

/** Jobs per INSERT statement (11 parameters each, well under PostgreSQL's 65 535). */
const INSERT_CHUNK = 1000;

export class PgBatchStore implements BatchStore {
  constructor(private readonly d: PgDatabase) {}

  async admitBatch(
    batch: NewBatch,
    jobs: NewBatchJob[],
    rule: AdmissionRule,
  ): Promise<BatchAdmission> {
    return this.d.tx(async (c): Promise<BatchAdmission> => {
      const active = await lockedConflict(c, rule, batch.accountId);
      if (active) return { admitted: false, active };
      const { rows } = await c.query(
        `INSERT INTO batches (batch_id, account_id, request_json, dimensions_json, combine,
             job_count, parallelism, metadata_json, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING *`,
        [
          batch.batchId,
          batch.accountId,
          batch.requestJson,
          JSON.stringify(batch.dimensions),
          batch.combine,
          batch.jobCount,
          batch.parallelism,
          JSON.stringify(batch.metadata),
          batch.createdAt,
        ],
      );
      for (let start = 0; start < jobs.length; start += INSERT_CHUNK) {
        const chunk = jobs.slice(start, start + INSERT_CHUNK);
        const values: unknown[] = [];
        const tuples = chunk.map((job, k) => {
          values.push(
            job.jobId,
            job.accountId,
            job.solver,
            job.requestJson,
            job.specJson,
            JSON.stringify(job.metadata),
            job.createdAt,
            batch.batchId,
            job.batchIndex,
            JSON.stringify(job.parameters),
            job.requestHash ?? null,
          );
          const p = (i: number) => `$${11 * k + i}`;
          return `(${p(1)}, ${p(2)}, 'QUEUED', ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(7)}, ${p(8)}, ${p(9)}, ${p(10)}, ${p(11)})`;
        });
        // Rows in variant order: seq (the claim's tie-break) follows the VALUES list.
        await c.query(
          `INSERT INTO jobs (job_id, account_id, status, solver, request_json, spec_json,
               metadata_json, created_at, updated_at, batch_id, batch_index, parameters_json,
               request_hash)
             VALUES ${tuples.join(", ")}`,
          values,
        );
      }
      await c.query(`SELECT pg_notify($1, $2)`, [CHANNELS.queued, batch.batchId]);
      return { admitted: true, batch: toBatch(rows[0]!) };
    });
  }

  async getBatch(batchId: string): Promise<BatchRow | null> {
    if (heldByNoRow(batchId)) return null;
    const { rows } = await this.d.query(`SELECT * FROM batches WHERE batch_id = $1`, [batchId]);
    return rows[0] ? toBatch(rows[0]) : null;
  }

  async listBatches(
    accountId: string,
    options: { limit: number; before?: { createdAt: string; batchId: string } },
  ): Promise<BatchRow[]> {
    const b = options.before;
    const { rows } = await this.d.query(
      `SELECT * FROM batches WHERE account_id = $1
           AND ($2::timestamptz IS NULL OR created_at < $2
                OR (created_at = $2 AND batch_id < $3))
         ORDER BY created_at DESC, batch_id DESC LIMIT $4`,
      [accountId, b?.createdAt ?? null, b?.batchId ?? null, options.limit],
    );
    return rows.map(toBatch);
  }

  async batchJobs(batchId: string): Promise<BatchJobSummary[]> {
    const { rows } = await this.d.query(
      `SELECT job_id, batch_index, status, parameters_json, progress_json, error_detail,
           result_key, checksum, updated_at
         FROM jobs WHERE batch_id = $1 ORDER BY batch_index`,
      [batchId],
    );
    return rows.map(toBatchJob);
  }

  async cancelBatch(batchId: string, now: string, queuedDetail: string): Promise<string[]> {
    return this.d.tx(async (c) => {
      await c.query(
        `UPDATE batches SET cancel_requested = true, updated_at = $1 WHERE batch_id = $2`,
        [now, batchId],
      );
      await c.query(
        `UPDATE jobs SET status = 'FAILED', updated_at = $1, finished_at = $1,
             cancel_requested = true, duration_seconds = 0, error_detail = $2
           WHERE batch_id = $3 AND status = 'QUEUED'`,
        [now, queuedDetail, batchId],
      );
      const { rows } = await c.query(
        `UPDATE jobs SET cancel_requested = true, updated_at = $1
           WHERE batch_id = $2 AND status = 'RUNNING' RETURNING job_id`,
        [now, batchId],
      );
      const running = rows.map((r) => r.job_id as string);
      for (const jobId of running) {
        await c.query(`SELECT pg_notify($1, $2)`, [CHANNELS.cancel, jobId]);
      }
      return running;
    });
  }

  async setBatchResult(
    batchId: string,
    now: string,
    result: { key: string; bytes: number; checksum: string },
  ): Promise<BatchRow> {
    await this.d.query(
      `UPDATE batches SET result_key = $1, result_bytes = $2, checksum = $3, updated_at = $4
         WHERE batch_id = $5 AND result_key IS NULL`,
      [result.key, result.bytes, result.checksum, now, batchId],
    );
    return (await this.getBatch(batchId))!;
  }
}
