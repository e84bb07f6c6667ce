/** SQLite rows to the store's types (timestamps are ISO 8601 text, booleans 0/1). */
import type {
  Account,
  AccountToken,
  ApiKeyRecord,
  DashboardSession,
  JobProgress,
  JobRow,
  JobStatus,
} from "../types.js";

export type Row = Record<string, unknown>;

export function toAccount(r: Row): Account {
  return {
    id: r.id as string,
    email: r.email as string,
    isAdmin: r.is_admin === 1,
    createdAt: r.created_at as string,
  };
}

export function toKey(r: Row): ApiKeyRecord {
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

export function toJob(r: Row): JobRow {
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

export function toSession(r: Row): DashboardSession {
  return {
    idHash: r.id_hash as string,
    accountId: r.account_id as string,
    createdAt: r.created_at as string,
    lastSeenAt: r.last_seen_at as string,
    expiresAt: r.expires_at as string,
  };
}

export function toToken(r: Row): AccountToken {
  return {
    tokenHash: r.token_hash as string,
    purpose: r.purpose as AccountToken["purpose"],
    accountId: (r.account_id as string | null) ?? null,
    createdAt: r.created_at as string,
    expiresAt: (r.expires_at as string | null) ?? null,
  };
}
