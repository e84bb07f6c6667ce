/** PostgreSQL rows to the store's types: timestamps arrive as Date, bigints as strings. */
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

/** An ISO 8601 timestamp (as the SQLite store returns them), or null. */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

function parse<T>(text: unknown): T | null {
  return typeof text === "string" ? (JSON.parse(text) as T) : null;
}

export function toAccount(r: Row): Account {
  return {
    id: r.id as string,
    email: r.email as string,
    isAdmin: r.is_admin === true,
    createdAt: iso(r.created_at)!,
  };
}

export function toKey(r: Row): ApiKeyRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    name: r.name as string,
    displayPrefix: r.display_prefix as string,
    createdAt: iso(r.created_at)!,
    lastUsedAt: iso(r.last_used_at),
    revokedAt: iso(r.revoked_at),
  };
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
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    durationSeconds: (r.duration_seconds as number | null) ?? null,
    resultKey: (r.result_key as string | null) ?? null,
    resultBytes:
      r.result_bytes === null || r.result_bytes === undefined ? null : Number(r.result_bytes),
    checksum: (r.checksum as string | null) ?? null,
    errorDetail: (r.error_detail as string | null) ?? null,
    progress: parse<JobProgress>(r.progress_json),
    report: parse<Record<string, unknown>>(r.report_json),
    cancelRequested: r.cancel_requested === true,
    attempts: r.attempts as number,
    workerId: (r.worker_id as string | null) ?? null,
    heartbeatAt: iso(r.heartbeat_at),
  };
}

export function toSession(r: Row): DashboardSession {
  return {
    idHash: r.id_hash as string,
    accountId: r.account_id as string,
    createdAt: iso(r.created_at)!,
    lastSeenAt: iso(r.last_seen_at)!,
    expiresAt: iso(r.expires_at)!,
  };
}

export function toToken(r: Row): AccountToken {
  return {
    tokenHash: r.token_hash as string,
    purpose: r.purpose as AccountToken["purpose"],
    accountId: (r.account_id as string | null) ?? null,
    createdAt: iso(r.created_at)!,
    expiresAt: iso(r.expires_at),
  };
}
