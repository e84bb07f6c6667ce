/**
 * Schema migrations for PostgreSQL, applied in order under an advisory lock (see database.ts);
 * `emsim_schema.version` records how many have run. Append only: never edit a shipped one.
 * The same tables as the SQLite store, with native types; request, spec, metadata, progress
 * and report stay JSON text, so that what a user sent is echoed byte for byte.
 */
export const PG_MIGRATIONS: string[] = [
  `
  CREATE TABLE accounts (
    id text PRIMARY KEY,
    email text NOT NULL,
    password_hash text,
    is_admin boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL
  );
  CREATE UNIQUE INDEX accounts_email ON accounts (lower(email));
  CREATE TABLE api_keys (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name text NOT NULL,
    key_hash text NOT NULL UNIQUE,
    display_prefix text NOT NULL,
    created_at timestamptz NOT NULL,
    last_used_at timestamptz,
    revoked_at timestamptz
  );
  CREATE INDEX api_keys_account ON api_keys (account_id, created_at);
  CREATE TABLE jobs (
    seq bigserial NOT NULL,
    job_id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id),
    status text NOT NULL CHECK (status IN ('QUEUED','RUNNING','COMPLETED','FAILED')),
    solver text NOT NULL,
    request_json text NOT NULL,
    spec_json text NOT NULL,
    metadata_json text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    started_at timestamptz,
    finished_at timestamptz,
    duration_seconds double precision,
    result_key text,
    result_bytes bigint,
    checksum text,
    error_detail text,
    progress_json text,
    report_json text,
    cancel_requested boolean NOT NULL DEFAULT false,
    attempts integer NOT NULL DEFAULT 0,
    worker_id text,
    heartbeat_at timestamptz
  );
  CREATE INDEX jobs_account_created ON jobs (account_id, created_at DESC, job_id DESC);
  CREATE INDEX jobs_queued ON jobs (created_at, seq) WHERE status = 'QUEUED';
  CREATE INDEX jobs_running ON jobs (heartbeat_at) WHERE status = 'RUNNING';
  CREATE INDEX jobs_active_account ON jobs (account_id) WHERE status IN ('QUEUED','RUNNING');
  CREATE TABLE dashboard_sessions (
    id_hash text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
  );
  CREATE INDEX dashboard_sessions_account ON dashboard_sessions (account_id);
  CREATE INDEX dashboard_sessions_expires ON dashboard_sessions (expires_at);
  CREATE TABLE dashboard_tokens (
    token_hash text PRIMARY KEY,
    purpose text NOT NULL CHECK (purpose IN ('setup','invite')),
    account_id text REFERENCES accounts(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz
  );
  CREATE INDEX dashboard_tokens_account ON dashboard_tokens (account_id);
  CREATE TABLE signin_failures (
    id bigserial PRIMARY KEY,
    throttle_key text NOT NULL,
    at_ms bigint NOT NULL
  );
  CREATE INDEX signin_failures_key ON signin_failures (throttle_key, at_ms);
  CREATE INDEX signin_failures_at ON signin_failures (at_ms);
  CREATE TABLE health_probe (
    id integer PRIMARY KEY CHECK (id = 1),
    checked_at timestamptz NOT NULL
  );
  `,
  // 2 — batches (DESIGN §11), as SQLite's migration 5.
  `
  CREATE TABLE batches (
    batch_id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id),
    request_json text NOT NULL,
    dimensions_json text NOT NULL,
    combine text NOT NULL CHECK (combine IN ('product','zip')),
    job_count integer NOT NULL,
    parallelism integer NOT NULL,
    metadata_json text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    cancel_requested boolean NOT NULL DEFAULT false,
    result_key text,
    result_bytes bigint,
    checksum text
  );
  CREATE INDEX batches_account_created ON batches (account_id, created_at DESC, batch_id DESC);
  ALTER TABLE jobs ADD COLUMN batch_id text REFERENCES batches(batch_id);
  ALTER TABLE jobs ADD COLUMN batch_index integer;
  ALTER TABLE jobs ADD COLUMN parameters_json text;
  CREATE INDEX jobs_batch ON jobs (batch_id, status) WHERE batch_id IS NOT NULL;
  `,
  // 3 — identical work runs once, as SQLite's migration 6.
  `
  ALTER TABLE jobs ADD COLUMN request_hash text;
  ALTER TABLE jobs ADD COLUMN reused_result_of text;
  CREATE INDEX jobs_completed_hash ON jobs (account_id, request_hash) WHERE status = 'COMPLETED';
  `,
  // 4 — the estimate a job got at submission, as SQLite's migration 7.
  `
  ALTER TABLE jobs ADD COLUMN estimate_json text;
  `,
  // 5 — accounts take turns at the queue, as SQLite's migration 8.
  `
  CREATE INDEX jobs_account_started ON jobs (account_id, started_at);
  `,
];
