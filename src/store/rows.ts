/**
 * Rows to the store's types, once for every database: each driver says how it reads its
 * timestamps (SQLite: ISO 8601 text; PostgreSQL: Date), booleans (0/1; true/false) and big
 * integers (numbers; decimal strings).
 */
import type {
  Account,
  AccountToken,
  ApiKeyRecord,
  BatchJobSummary,
  BatchRow,
  DashboardSession,
  JobProgress,
  JobRow,
  JobStatus,
} from "./types.js";
import type { SolverReport } from "../schema/responses.js";

export type Row = Record<string, unknown>;

export interface ColumnReaders {
  /** An ISO 8601 timestamp, or null. */
  time(value: unknown): string | null;
  bool(value: unknown): boolean;
  /** An integer column that may exceed 2^31 (bytes), or null. */
  bigint(value: unknown): number | null;
}

function parse<T>(text: unknown): T | null {
  return typeof text === "string" ? (JSON.parse(text) as T) : null;
}

export function rowMappers(read: ColumnReaders) {
  const time = (v: unknown) => read.time(v)!;
  return {
    toAccount: (r: Row): Account => ({
      id: r.id as string,
      email: r.email as string,
      isAdmin: read.bool(r.is_admin),
      createdAt: time(r.created_at),
    }),
    toKey: (r: Row): ApiKeyRecord => ({
      id: r.id as string,
      accountId: r.account_id as string,
      name: r.name as string,
      displayPrefix: r.display_prefix as string,
      createdAt: time(r.created_at),
      lastUsedAt: read.time(r.last_used_at),
      revokedAt: read.time(r.revoked_at),
    }),
    toJob: (r: Row): JobRow => ({
      jobId: r.job_id as string,
      accountId: r.account_id as string,
      status: r.status as JobStatus,
      solver: r.solver as string,
      requestJson: r.request_json as string,
      specJson: r.spec_json as string,
      metadata: parse<Record<string, unknown>>(r.metadata_json) ?? {},
      createdAt: time(r.created_at),
      updatedAt: time(r.updated_at),
      startedAt: read.time(r.started_at),
      finishedAt: read.time(r.finished_at),
      durationSeconds: (r.duration_seconds as number | null) ?? null,
      resultKey: (r.result_key as string | null) ?? null,
      resultBytes: read.bigint(r.result_bytes),
      checksum: (r.checksum as string | null) ?? null,
      errorDetail: (r.error_detail as string | null) ?? null,
      progress: parse<JobProgress>(r.progress_json),
      report: parse<SolverReport>(r.report_json),
      cancelRequested: read.bool(r.cancel_requested),
      attempts: r.attempts as number,
      workerId: (r.worker_id as string | null) ?? null,
      heartbeatAt: read.time(r.heartbeat_at),
      requestHash: (r.request_hash as string | null) ?? null,
      reusedResultOf: (r.reused_result_of as string | null) ?? null,
      batchId: (r.batch_id as string | null) ?? null,
      batchIndex:
        r.batch_index === null || r.batch_index === undefined ? null : Number(r.batch_index),
      parameters: parse<Record<string, unknown>>(r.parameters_json),
      estimate: parse<Record<string, unknown>>(r.estimate_json),
    }),
    ...batchMappers(read),
    toSession: (r: Row): DashboardSession => ({
      idHash: r.id_hash as string,
      accountId: r.account_id as string,
      createdAt: time(r.created_at),
      lastSeenAt: time(r.last_seen_at),
      expiresAt: time(r.expires_at),
    }),
    toToken: (r: Row): AccountToken => ({
      tokenHash: r.token_hash as string,
      purpose: r.purpose as AccountToken["purpose"],
      accountId: (r.account_id as string | null) ?? null,
      createdAt: time(r.created_at),
      expiresAt: read.time(r.expires_at),
    }),
  };
}

/** A batch and the summary of its jobs (BatchStore). */
function batchMappers(read: ColumnReaders) {
  const time = (v: unknown) => read.time(v)!;
  return {
    toBatch: (r: Row): BatchRow => ({
      batchId: r.batch_id as string,
      accountId: r.account_id as string,
      requestJson: r.request_json as string,
      dimensions: parse<BatchRow["dimensions"]>(r.dimensions_json) ?? [],
      combine: r.combine as BatchRow["combine"],
      jobCount: Number(r.job_count),
      parallelism: Number(r.parallelism),
      metadata: parse<Record<string, unknown>>(r.metadata_json) ?? {},
      createdAt: time(r.created_at),
      updatedAt: time(r.updated_at),
      cancelRequested: read.bool(r.cancel_requested),
      resultKey: (r.result_key as string | null) ?? null,
      resultBytes: read.bigint(r.result_bytes),
      checksum: (r.checksum as string | null) ?? null,
    }),
    toBatchJob: (r: Row): BatchJobSummary => ({
      jobId: r.job_id as string,
      batchIndex: Number(r.batch_index),
      status: r.status as JobStatus,
      parameters: parse<Record<string, unknown>>(r.parameters_json) ?? {},
      progressFraction: parse<JobProgress>(r.progress_json)?.fraction ?? null,
      errorDetail: (r.error_detail as string | null) ?? null,
      resultKey: (r.result_key as string | null) ?? null,
      checksum: (r.checksum as string | null) ?? null,
      updatedAt: time(r.updated_at),
    }),
  };
}
