/**
 * The stores, split by concern: accounts and API keys, dashboard sessions and one-time tokens,
 * and the job queue. Each has an embedded SQLite implementation (src/store/sqlite/) and a
 * PostgreSQL one (src/store/postgres/), chosen in the composition root (src/store/open.ts) from
 * EMSIM_DATABASE_URL; the rest of the service is typed against these interfaces only. Methods
 * are async so that a network database fits the same shape. User-facing messages of job state
 * transitions come from src/jobs (RecoveryRule), not from the SQL.
 */

import type { JobStatus } from "../schema/job-status.js";
import type { SolverReport } from "../schema/responses.js";

export { JOB_STATUSES, type JobStatus } from "../schema/job-status.js";

export interface Account {
  id: string;
  email: string;
  isAdmin: boolean;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  displayPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface JobProgress {
  /** "setup" while the run is set up (absent in records from before it was reported). */
  phase?: "setup" | "stepping";
  /** Fraction of the set-up done (painting structures, a mode source's plane). */
  setupFraction?: number;
  step: number;
  totalSteps: number;
  fraction: number;
  lastRelativeChange: number | null;
  mcellsPerSecond: number | null;
}

export interface JobRow {
  jobId: string;
  accountId: string;
  status: JobStatus;
  solver: string;
  /** The request as submitted (JSON text). */
  requestJson: string;
  /** The request with defaults filled in (JSON text): what the worker runs. */
  specJson: string;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationSeconds: number | null;
  resultKey: string | null;
  resultBytes: number | null;
  checksum: string | null;
  errorDetail: string | null;
  progress: JobProgress | null;
  /** Solver run report of a completed job. */
  report: SolverReport | null;
  cancelRequested: boolean;
  attempts: number;
  workerId: string | null;
  heartbeatAt: string | null;
  /** SHA-256 of the canonical request (jobs/request-hash.ts); null for jobs older than it. */
  requestHash: string | null;
  /** The earlier job whose stored result answered this one (no solver ran); else null. */
  reusedResultOf: string | null;
  /** The batch the job is a variant of (batches.ts), its place in it and its parameters. */
  batchId: string | null;
  batchIndex: number | null;
  parameters: Record<string, unknown> | null;
  /** The estimate at submission (POST /v1/simulations/estimate's answer then); null before it. */
  estimate: Record<string, unknown> | null;
}

export interface NewJob {
  jobId: string;
  accountId: string;
  solver: string;
  requestJson: string;
  specJson: string;
  /** SHA-256 of the canonical request (jobs/request-hash.ts). */
  requestHash?: string;
  /** The estimate the submission was checked with (kept with the job as it was then). */
  estimate?: Record<string, unknown>;
  metadata: Record<string, unknown>;
  createdAt: string;
}

export interface AdmissionRule {
  /** Active jobs allowed in the scope. */
  limit: number;
  scope: "account" | "global";
}

export type AdmissionResult = { admitted: true; job: JobRow } | { admitted: false; active: JobRow };

export interface JobCompletion {
  resultKey: string;
  resultBytes: number;
  checksum: string;
  durationSeconds: number;
  report: SolverReport;
  /** The final progress (the run's last step, fraction 1). */
  progress: JobProgress;
}

export interface StaleJobsOutcome {
  requeued: string[];
  failed: string[];
}

export interface ListJobsOptions {
  limit: number;
  /** Cursor: return jobs created strictly before this job (newest first). */
  before?: { createdAt: string; jobId: string };
  status?: JobStatus;
}

/**
 * The reads of one request (one object per request, passed to each of its reads): a store
 * may then confirm once per request that its cached rows are current (sqlite-read-cache.ts).
 */
export interface ReadScope {
  /** Set by the store once a read of this request has confirmed the cache. */
  confirmed?: boolean;
}

/**
 * What a RUNNING job taken back from its worker (dead, silent, its result not stored, or
 * handed back by a worker that is stopping) becomes: QUEUED again, or FAILED with the words
 * users read. Decided by src/jobs (lifecycle.ts); the stores only apply it.
 */
export interface RecoveryRule {
  decide(job: { attempts: number; cancelRequested: boolean }):
    | {
        requeue: true;
        /**
         * The run that ended does not count as an attempt (a graceful hand-back): the job's
         * `attempts` goes back down by one, as if it had not been claimed.
         */
        giveBackAttempt?: boolean;
      }
    | { requeue: false; errorDetail: string };
}

export interface AccountStore {
  createAccount(input: {
    email: string;
    isAdmin: boolean;
    passwordHash?: string;
  }): Promise<Account>;
  /** The account with this email (case-insensitive). */
  findAccountByEmail(email: string): Promise<Account | null>;
  getAccount(id: string): Promise<Account | null>;
  countAccounts(): Promise<number>;
  /** The account with this email (case-insensitive) and its password hash, if any. */
  findAccountCredentials(
    email: string,
  ): Promise<{ account: Account; passwordHash: string | null } | null>;
  setPasswordHash(accountId: string, passwordHash: string): Promise<void>;
  listAccounts(): Promise<AccountSummary[]>;
  /** True once some admin account can sign in (has a password): setup is then closed. */
  hasAdminWithPassword(): Promise<boolean>;

  createApiKey(input: {
    accountId: string;
    name: string;
    keyHash: string;
    displayPrefix: string;
  }): Promise<ApiKeyRecord>;
  /** The key with this SHA-256 hash, if it exists and is not revoked. */
  findActiveApiKeyByHash(
    keyHash: string,
    scope?: ReadScope,
  ): Promise<{ key: ApiKeyRecord; keyHash: string } | null>;
  listApiKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  /** Revokes by id or display prefix (restricted to an account when given); null if none. */
  revokeApiKey(idOrPrefix: string, accountId?: string): Promise<ApiKeyRecord | null>;
  touchApiKey(id: string, at: string): Promise<void>;
}

export interface SessionStore {
  createSession(session: DashboardSession): Promise<void>;
  getSession(idHash: string): Promise<DashboardSession | null>;
  touchSession(idHash: string, at: string): Promise<void>;
  deleteSession(idHash: string): Promise<void>;
  /** Ends every session of an account (password set or reset), keeping `exceptIdHash`. */
  deleteSessionsOfAccount(accountId: string, exceptIdHash?: string): Promise<void>;
  /** Deletes sessions past their absolute end or idle since before `idleBefore`. */
  deleteExpiredSessions(now: string, idleBefore: string): Promise<number>;

  /** Stores a setup token; every unused one stays valid until setup completes. */
  createSetupToken(tokenHash: string, createdAt: string): Promise<void>;
  /** Stores an invitation for an account, replacing any earlier one of that account. */
  createInviteToken(token: Omit<AccountToken, "purpose"> & { accountId: string }): Promise<void>;
  /** The token if it exists and has not expired at `now`. */
  findAccountToken(tokenHash: string, now: string): Promise<AccountToken | null>;
  /**
   * In one transaction: uses up the setup token, refuses if an admin can already sign in,
   * creates the admin account (or makes an existing password-less account of that email the
   * admin) with the password, and deletes every setup token. Null when the token is not valid.
   */
  completeSetup(input: {
    tokenHash: string;
    email: string;
    passwordHash: string;
    now: string;
  }): Promise<Account | null>;
  /**
   * In one transaction: uses up the invitation, sets the account's password and ends its
   * sessions. Null when the token is not valid.
   */
  redeemInvite(input: {
    tokenHash: string;
    passwordHash: string;
    now: string;
  }): Promise<Account | null>;

  /**
   * One sign-in attempt against failure limits, as one transaction: when a key has `limit`
   * failures within the window, the attempt is refused with the milliseconds until the oldest
   * of those leaves it; otherwise a failure is recorded under every key (taken back on
   * success with `clearSignInFailures`). Shared by every process using the database.
   */
  beginSignInAttempt(input: {
    keys: { key: string; limit: number }[];
    nowMs: number;
    windowMs: number;
  }): Promise<{ retryAfterMs: number } | { failureIds: number[] }>;
  /** Removes every failure under `key`, and the failures with these ids. */
  clearSignInFailures(key: string | null, failureIds?: number[]): Promise<void>;
  /** Keys starting with `prefix` that have `limit` failures within the window, with the wait. */
  lockedSignInKeys(input: {
    prefix: string;
    limit: number;
    nowMs: number;
    windowMs: number;
  }): Promise<{ key: string; retryAfterMs: number }[]>;
}

export interface JobQueue {
  /**
   * Inserts the job as QUEUED unless the admission rule is already met by active jobs; the
   * check and the insert are one serialised transaction in the database, so two servers
   * sharing it cannot both pass.
   */
  admitJob(job: NewJob, rule: AdmissionRule): Promise<AdmissionResult>;
  getJob(jobId: string, scope?: ReadScope): Promise<JobRow | null>;
  listJobs(accountId: string, options: ListJobsOptions): Promise<JobRow[]>;
  /** Oldest QUEUED job, now RUNNING for this worker; null when none is queued. */
  claimNextJob(workerId: string, now: string): Promise<JobRow | null>;
  /** Records progress and heartbeat; null when the job is no longer this worker's. */
  heartbeat(
    jobId: string,
    workerId: string,
    now: string,
    progress: JobProgress | null,
  ): Promise<{ cancelRequested: boolean } | null>;
  completeJob(jobId: string, workerId: string, now: string, done: JobCompletion): Promise<boolean>;
  /**
   * The account's earliest COMPLETED job with the same request hash as `job` (another job),
   * whose stored result answers it; null when there is none or `job` has no hash.
   */
  findCompletedTwin(job: JobRow): Promise<JobRow | null>;
  /**
   * Completes a job this worker holds with `twin`'s stored result, report and checksum, no
   * solver run: reused_result_of names the job that ran. False when it is no longer held.
   */
  completeFromTwin(jobId: string, workerId: string, now: string, twin: JobRow): Promise<boolean>;
  /**
   * Marks the job FAILED; with a worker id only while that worker still holds it. `progress`,
   * where given, is the run's last (a cancelled run's step), else the record keeps its own.
   */
  failJob(
    jobId: string,
    workerId: string | null,
    now: string,
    errorDetail: string,
    durationSeconds?: number,
    progress?: JobProgress,
  ): Promise<boolean>;
  /**
   * A run this worker holds that failed for a reason worth another attempt (its result could
   * not be stored): back to QUEUED, or FAILED once the attempts are used up.
   */
  retryJob(
    jobId: string,
    workerId: string,
    now: string,
    rule: RecoveryRule,
  ): Promise<StaleJobsOutcome>;
  /**
   * QUEUED → FAILED at once with `queuedDetail`; RUNNING → cancel requested (the worker is
   * told). Returns the job after.
   */
  requestCancel(jobId: string, now: string, queuedDetail: string): Promise<JobRow | null>;
  /** RUNNING jobs whose heartbeat is older than `staleBefore` go back to QUEUED or FAILED. */
  recoverStaleJobs(now: string, staleBefore: string, rule: RecoveryRule): Promise<StaleJobsOutcome>;
  /**
   * RUNNING jobs held by a worker id, e.g. a crashed process of this host, recovered at once.
   * `waitForRows`: a stopping worker handing its own job back waits for a row another
   * statement holds (its own last heartbeat) instead of passing it over.
   */
  recoverJobsOfWorkers(
    workerIds: string[],
    now: string,
    rule: RecoveryRule,
    options?: { waitForRows?: boolean },
  ): Promise<StaleJobsOutcome>;
  runningWorkerIds(): Promise<string[]>;
  countJobsByStatus(): Promise<Record<JobStatus, number>>;
  /**
   * Calls `listener` when a job may be waiting (submitted or put back in the queue): from
   * this process with SQLite, from any process with PostgreSQL (LISTEN/NOTIFY). Returns the
   * function that stops it.
   */
  onJobQueued(listener: () => void): () => void;
  /** Calls `listener` with the id of a RUNNING job whose cancellation was requested. */
  onCancelRequested(listener: (jobId: string) => void): () => void;
}

/** Every store of one database, and what concerns the database as a whole. */
export interface Stores {
  readonly kind: "sqlite" | "postgres";
  readonly accounts: AccountStore;
  readonly sessions: SessionStore;
  readonly jobs: JobQueue;
  readonly batches: BatchStore;
  /** Commits a one-row write; throws when the database does not take writes (for /health). */
  probeWrite(now: string): Promise<void>;
  close(): Promise<void>;
}

// --- dashboard: accounts, sessions ---

/** An account as the dashboard's account list shows it. */
export interface AccountSummary extends Account {
  /** False for accounts made by `emsim keys create`, which cannot sign in until given one. */
  hasPassword: boolean;
}

/** A signed-in browser; the cookie holds the token, the store only its SHA-256. */
export interface DashboardSession {
  idHash: string;
  accountId: string;
  createdAt: string;
  lastSeenAt: string;
  /** Absolute end of the session, whatever its activity. */
  expiresAt: string;
}

/**
 * A one-time link token, stored as its SHA-256: `setup` creates the first admin account (no
 * account, no expiry), `invite` sets the password of `accountId` (new account or reset).
 */
export interface AccountToken {
  tokenHash: string;
  purpose: "setup" | "invite";
  accountId: string | null;
  createdAt: string;
  expiresAt: string | null;
}

// --- batches (DESIGN §11) ---

/** A batch as stored; its status and counts come from its jobs (batchJobs). */
export interface BatchRow {
  batchId: string;
  accountId: string;
  /** The batch request as submitted (simulation, parameters, combine, metadata). */
  requestJson: string;
  /** The sweep's dimensions: [{name, values}] (variants.ts), row-major over the jobs. */
  dimensions: { name: string; values: unknown[] }[];
  combine: "product" | "zip";
  jobCount: number;
  /** How many of its jobs may run at once (the operator's EMSIM_BATCH_PARALLELISM). */
  parallelism: number;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  cancelRequested: boolean;
  resultKey: string | null;
  resultBytes: number | null;
  checksum: string | null;
}

export type NewBatch = Omit<
  BatchRow,
  "updatedAt" | "cancelRequested" | "resultKey" | "resultBytes" | "checksum"
>;

/** One variant's job: a new job with its place in the batch and its parameter values. */
export interface NewBatchJob extends NewJob {
  batchIndex: number;
  parameters: Record<string, unknown>;
}

/** What a batch's record shows of each job (no request or report: a batch may hold 10 000). */
export interface BatchJobSummary {
  jobId: string;
  batchIndex: number;
  status: JobStatus;
  parameters: Record<string, unknown>;
  progressFraction: number | null;
  errorDetail: string | null;
  resultKey: string | null;
  checksum: string | null;
  updatedAt: string;
}

export type BatchAdmission =
  { admitted: true; batch: BatchRow } | { admitted: false; active: JobRow };

export interface BatchStore {
  /**
   * Stores the batch and all its jobs QUEUED in one transaction, under the same rule and lock
   * as admitJob: a batch is refused while the scope has active jobs, and once admitted its
   * jobs are the account's active work, so a submission meanwhile gets the 409.
   */
  admitBatch(batch: NewBatch, jobs: NewBatchJob[], rule: AdmissionRule): Promise<BatchAdmission>;
  getBatch(batchId: string): Promise<BatchRow | null>;
  /** Newest first, `before` the anchor batch when given. */
  listBatches(
    accountId: string,
    options: { limit: number; before?: { createdAt: string; batchId: string } },
  ): Promise<BatchRow[]>;
  /** The batch's jobs in variant order. */
  batchJobs(batchId: string): Promise<BatchJobSummary[]>;
  /**
   * Marks the batch cancelled: its QUEUED jobs FAILED with `queuedDetail` at once, its
   * RUNNING ones asked to stop (workers are told). Returns the ids of those running.
   */
  cancelBatch(batchId: string, now: string, queuedDetail: string): Promise<string[]>;
  /** Records the batch's result file once; returns the batch as stored after (first wins). */
  setBatchResult(
    batchId: string,
    now: string,
    result: { key: string; bytes: number; checksum: string },
  ): Promise<BatchRow>;
}
