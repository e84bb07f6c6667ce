/**
 * Schema migrations for the SQLite store, applied in order; `PRAGMA user_version` records how
 * many have run. Append only: never edit a migration that has shipped.
 */
export const SQLITE_MIGRATIONS: string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT,
    is_admin INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    display_prefix TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT
  );
  CREATE INDEX api_keys_account ON api_keys(account_id, created_at);
  CREATE TABLE jobs (
    job_id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    status TEXT NOT NULL CHECK (status IN ('QUEUED','RUNNING','COMPLETED','FAILED')),
    solver TEXT NOT NULL,
    request_json TEXT NOT NULL,
    spec_json TEXT NOT NULL,
    metadata_json TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    duration_seconds REAL,
    result_key TEXT,
    result_bytes INTEGER,
    checksum TEXT,
    error_detail TEXT,
    progress_json TEXT,
    report_json TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    worker_id TEXT,
    heartbeat_at TEXT
  );
  CREATE INDEX jobs_account_created ON jobs(account_id, created_at DESC, job_id DESC);
  CREATE INDEX jobs_status_created ON jobs(status, created_at);
  `,
  // 2 — dashboard: browser sessions and one-time setup/invitation tokens, both stored hashed.
  `
  CREATE TABLE dashboard_sessions (
    id_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  );
  CREATE INDEX dashboard_sessions_account ON dashboard_sessions(account_id);
  CREATE INDEX dashboard_sessions_expires ON dashboard_sessions(expires_at);
  CREATE TABLE dashboard_tokens (
    token_hash TEXT PRIMARY KEY,
    purpose TEXT NOT NULL CHECK (purpose IN ('setup','invite')),
    account_id TEXT REFERENCES accounts(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT
  );
  CREATE INDEX dashboard_tokens_account ON dashboard_tokens(account_id);
  `,
  // 3 — admission counts active jobs per account through this partial index.
  `
  CREATE INDEX jobs_active_account ON jobs(account_id, created_at) WHERE status IN ('QUEUED','RUNNING');
  `,
  // 4 — a row /health rewrites to learn whether the database still takes writes, and failed
  // dashboard sign-ins (per email and per client address), shared by every API process.
  `
  CREATE TABLE health_probe (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    checked_at TEXT NOT NULL
  );
  CREATE TABLE signin_failures (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    throttle_key TEXT NOT NULL,
    at_ms INTEGER NOT NULL
  );
  CREATE INDEX signin_failures_key ON signin_failures(throttle_key, at_ms);
  CREATE INDEX signin_failures_at ON signin_failures(at_ms);
  `,
  // 5 — batches (DESIGN §11): a sweep's request and dimensions; its jobs name it, their place
  // in it and their parameter values. Claims count a batch's running jobs through jobs_batch.
  `
  CREATE TABLE batches (
    batch_id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    request_json TEXT NOT NULL,
    dimensions_json TEXT NOT NULL,
    combine TEXT NOT NULL CHECK (combine IN ('product','zip')),
    job_count INTEGER NOT NULL,
    parallelism INTEGER NOT NULL,
    metadata_json TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    result_key TEXT,
    result_bytes INTEGER,
    checksum TEXT
  );
  CREATE INDEX batches_account_created ON batches(account_id, created_at DESC, batch_id DESC);
  ALTER TABLE jobs ADD COLUMN batch_id TEXT REFERENCES batches(batch_id);
  ALTER TABLE jobs ADD COLUMN batch_index INTEGER;
  ALTER TABLE jobs ADD COLUMN parameters_json TEXT;
  CREATE INDEX jobs_batch ON jobs(batch_id, status) WHERE batch_id IS NOT NULL;
  `,
  // 6 — identical work runs once: a job's canonical request hash (jobs/request-hash.ts) and the
  // earlier job whose result answered it; completed jobs are found by account and hash.
  `
  ALTER TABLE jobs ADD COLUMN request_hash TEXT;
  ALTER TABLE jobs ADD COLUMN reused_result_of TEXT;
  CREATE INDEX jobs_completed_hash ON jobs(account_id, request_hash) WHERE status = 'COMPLETED';
  `,
  // 7 — the estimate a job got at submission (the builder shows it; the record keeps it).
  `
  ALTER TABLE jobs ADD COLUMN estimate_json TEXT;
  `,
  // 8 — accounts take turns at the queue (claims.ts nextJobQuery): when each last started a job.
  `
  CREATE INDEX jobs_account_started ON jobs(account_id, started_at);
  `,
];
