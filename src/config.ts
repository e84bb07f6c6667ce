/**
 * Configuration from environment variables, with the defaults documented in
 * docs/configuration.md. One place reads the environment; everything else takes a Config.
 */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import {
  BACKEND_CHOICES,
  fieldStorageFromEnv,
  type BackendChoice,
  type FieldStorage,
} from "./solver/index.js";

export interface Config {
  host: string;
  port: number;
  /** Absolute data directory: SQLite database, result files, signing secret. */
  dataDir: string;
  /** Public address of the API, used in result_url; derived from host and port when unset. */
  baseUrl: string;
  /**
   * The database: null for the embedded SQLite file in the data directory (the default), a
   * `postgres://…` address for PostgreSQL, or `sqlite:<path>` for a SQLite file elsewhere.
   */
  databaseUrl: string | null;
  /** PostgreSQL connections at most per process. */
  databasePoolMax: number;
  /**
   * Public address of the local storage service the results redirect to (local storage). With
   * S3 storage (`s3`), the results redirect to pre-signed S3 addresses instead.
   */
  storageUrl: string;
  /** S3-compatible object storage from `EMSIM_STORAGE_URL=s3://bucket/prefix`, else null. */
  s3: { bucket: string; prefix: string; endpoint: string | null; region: string } | null;
  /** HMAC secret for download addresses; generated once per data directory when unset. */
  signingSecret: string | null;
  /** How long a pre-signed download address stays valid. */
  downloadUrlTtlSeconds: number;
  /** Run a job worker inside the server process. */
  embeddedWorker: boolean;
  /** Worker threads the solver may use (wasm backend). */
  solverThreads: number;
  /**
   * Warm a fresh solver thread up before it takes a job (solver/warm-up.ts): 1–1.5 s at start
   * and after a job whose thread was let go, which that job would otherwise pay in part. Off,
   * jobs start at once on a cold thread.
   */
  solverWarmUp: boolean;
  /** Which solver backend steps the fields; validation applies its memory bound. */
  solverBackend: BackendChoice;
  /**
   * How the webgpu backend stores the fields (EMSIM_WEBGPU_FIELD_STORAGE, which the backend
   * reads itself; checked here so that a wrong value stops the process at start).
   */
  webgpuFieldStorage: FieldStorage;
  /** Active (QUEUED or RUNNING) jobs allowed per scope. */
  maxActiveJobs: number;
  /** "account": the limit applies per account; "global": across the whole service. */
  concurrencyScope: "account" | "global";
  /** Limits a request must respect to be accepted (422 otherwise). */
  limits: {
    maxCells: number;
    maxTimeSteps: number;
    maxMonitorSamples: number;
    maxMemoryBytes: number;
    maxBodyBytes: number;
  };
  /** The fabrication interface (/v1/fabrication): GDS uploads and the checks run on them. */
  fabrication: {
    /** Largest GDS II upload accepted (413 above). */
    maxGdsBytes: number;
    /** A check (reading, DRC) running longer than this is stopped (422). */
    timeoutSeconds: number;
    /** Checks running at once in this server; more get 503 with Retry-After. */
    maxConcurrent: number;
    /** Heap limit of the thread a check runs in. */
    maxMemoryMb: number;
  };
  /** The mode solver (POST /v1/modes): solves run in threads, as the fabrication checks. */
  modes: {
    /** A solve running longer than this is stopped (422). */
    timeoutSeconds: number;
    /** Solves running at once in this server; more get 503 with Retry-After. */
    maxConcurrent: number;
    /** Heap limit of the thread a solve runs in. */
    maxMemoryMb: number;
  };
  /** Batches (POST /v1/batches, DESIGN §11). */
  batches: {
    /** Jobs of one batch that may run at once (with as many workers). */
    parallelism: number;
    /** Variants one batch may hold (422 above). */
    maxJobs: number;
    /** The sum of a batch's jobs' estimated run times may not pass this (422 above). */
    maxTotalSeconds: number;
  };
  /** Requests per minute per API key (token bucket); 0 turns rate limiting off. */
  rateLimitPerMinute: number;
  /** How often a running worker records its heartbeat. */
  heartbeatIntervalMs: number;
  /** A RUNNING job whose heartbeat is older than this is taken back from its worker. */
  heartbeatStaleMs: number;
  /** A solver thread that reports no progress for this long is stopped and its job FAILED. */
  solverStallMs: number;
  /** Attempts a job gets before a lost worker makes it FAILED instead of QUEUED again. */
  maxAttempts: number;
  /**
   * How long a finished result waits for an object store that does not answer (S3 down or
   * restarting) before the job takes its next attempt.
   */
  storageOutageWaitMs: number;
  /**
   * How often an idle worker looks for queued jobs. It is also woken on submission: within its
   * process with SQLite, from any process with PostgreSQL (so there the poll is a safety net).
   */
  pollIntervalMs: number;
  /** Time a client has to send a whole request, headers and body (then 408). */
  requestTimeoutMs: number;
  /** Time a client has to send the request's headers (then 408). */
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** A connection on which no byte moves either way for this long is closed. */
  idleTimeoutMs: number;
  /** Pending connections the kernel may queue for accept (capped by net.core.somaxconn). */
  listenBacklog: number;
  /**
   * On SIGTERM, how long responses still being sent (a slow download) may finish before their
   * connections are closed and the process exits.
   */
  shutdownGraceMs: number;
  /** HTTPS with TLS 1.3 only, from PEM files (re-read on SIGHUP); null serves plain HTTP. */
  tls: { certPath: string; keyPath: string } | null;
  logLevel: string;
}

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || !Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function boolVar(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

/** EMSIM_DATABASE_URL: unset (embedded SQLite), postgres://…, or sqlite:<path>. */
function databaseUrl(env: Env): string | null {
  const raw = env.EMSIM_DATABASE_URL;
  if (raw === undefined || raw === "") return null;
  if (!/^(postgres(ql)?:\/\/.+|sqlite:.+)$/.test(raw)) {
    throw new Error(
      `EMSIM_DATABASE_URL must be postgres://user@host:port/database or sqlite:<path>, got "${raw.replace(/:[^:@/]*@/, ":***@")}"`,
    );
  }
  return raw;
}

/** `s3://bucket/prefix` with EMSIM_S3_ENDPOINT and EMSIM_S3_REGION (else AWS_REGION). */
function s3Storage(url: string, env: Env): NonNullable<Config["s3"]> {
  const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url);
  if (!m || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(m[1]!)) {
    throw new Error(
      `EMSIM_STORAGE_URL must be s3://bucket/prefix with a valid bucket name, got "${url}"`,
    );
  }
  return {
    bucket: m[1]!,
    prefix: (m[2] ?? "").replace(/^\/+|\/+$/g, ""),
    endpoint: env.EMSIM_S3_ENDPOINT || null,
    region: env.EMSIM_S3_REGION || env.AWS_REGION || "us-east-1",
  };
}

/** The services whose requests run in worker threads: their time, heap and concurrency limits. */
/** EMSIM_BATCH_PARALLELISM, EMSIM_MAX_BATCH_JOBS (at most 10 000), EMSIM_MAX_BATCH_SECONDS. */
function batchLimits(env: NodeJS.ProcessEnv): Config["batches"] {
  return {
    parallelism: intVar(env, "EMSIM_BATCH_PARALLELISM", 1, 1),
    maxJobs: Math.min(intVar(env, "EMSIM_MAX_BATCH_JOBS", 10_000, 1), 10_000),
    maxTotalSeconds: intVar(env, "EMSIM_MAX_BATCH_SECONDS", 7 * 24 * 3600, 1),
  };
}

function threadedServices(env: NodeJS.ProcessEnv): Pick<Config, "fabrication" | "modes"> {
  return {
    fabrication: {
      maxGdsBytes: intVar(env, "EMSIM_GDS_MAX_BYTES", 64 * 1024 * 1024, 1024),
      timeoutSeconds: intVar(env, "EMSIM_FABRICATION_TIMEOUT_SECONDS", 120, 1),
      maxConcurrent: intVar(env, "EMSIM_FABRICATION_CONCURRENCY", 2, 1),
      maxMemoryMb: intVar(env, "EMSIM_FABRICATION_MEMORY_MB", 4096, 64),
    },
    modes: {
      timeoutSeconds: intVar(env, "EMSIM_MODES_TIMEOUT_SECONDS", 60, 1),
      maxConcurrent: intVar(env, "EMSIM_MODES_CONCURRENCY", 1, 1),
      maxMemoryMb: intVar(env, "EMSIM_MODES_MEMORY_MB", 2048, 64),
    },
  };
}

/** EMSIM_TLS_CERT and EMSIM_TLS_KEY: both (HTTPS) or neither (HTTP). */
function tlsFiles(env: Env): Config["tls"] {
  const certPath = env.EMSIM_TLS_CERT || "";
  const keyPath = env.EMSIM_TLS_KEY || "";
  if (!certPath && !keyPath) return null;
  if (!certPath || !keyPath) {
    throw new Error("EMSIM_TLS_CERT and EMSIM_TLS_KEY must be set together (PEM file paths)");
  }
  return { certPath: resolve(certPath), keyPath: resolve(keyPath) };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const host = overrides.host ?? env.EMSIM_HOST ?? "127.0.0.1";
  const port = overrides.port ?? intVar(env, "EMSIM_PORT", 8080);
  const dataDir = resolve(overrides.dataDir ?? env.EMSIM_DATA_DIR ?? "./data");
  const publicHost = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  const tls = overrides.tls !== undefined ? overrides.tls : tlsFiles(env);
  const baseUrl = trimSlash(
    overrides.baseUrl ??
      env.EMSIM_BASE_URL ??
      `${tls ? "https" : "http"}://${publicHost.includes(":") ? `[${publicHost}]` : publicHost}:${port}`,
  );
  const storageVar = env.EMSIM_STORAGE_URL || undefined;
  const s3 = storageVar?.startsWith("s3://") ? s3Storage(storageVar, env) : null;
  const requestTimeoutMs = intVar(env, "EMSIM_REQUEST_TIMEOUT_MS", 60_000, 1000);
  const headersTimeoutMs = intVar(env, "EMSIM_HEADERS_TIMEOUT_MS", 10_000, 1000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error(
      `EMSIM_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed EMSIM_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }
  const config: Config = {
    host,
    port,
    dataDir,
    baseUrl,
    databaseUrl: databaseUrl(env),
    databasePoolMax: intVar(env, "EMSIM_DATABASE_POOL_MAX", 10, 1),
    storageUrl: s3 ? `${baseUrl}/storage` : trimSlash(storageVar ?? `${baseUrl}/storage`),
    s3,
    signingSecret: env.EMSIM_SIGNING_SECRET || null,
    downloadUrlTtlSeconds: intVar(env, "EMSIM_DOWNLOAD_TTL_SECONDS", 900, 1),
    embeddedWorker: boolVar(env, "EMSIM_EMBEDDED_WORKER", true),
    solverThreads: intVar(env, "EMSIM_SOLVER_THREADS", availableParallelism(), 1),
    solverWarmUp: boolVar(env, "EMSIM_SOLVER_WARM_UP", true),
    solverBackend: solverBackendOf(env),
    webgpuFieldStorage: fieldStorageFromEnv(env.EMSIM_WEBGPU_FIELD_STORAGE),
    maxActiveJobs: intVar(env, "EMSIM_MAX_ACTIVE_JOBS", 1, 1),
    concurrencyScope: concurrencyScopeOf(env),
    limits: {
      maxCells: intVar(env, "EMSIM_MAX_CELLS", 200_000_000, 1),
      maxTimeSteps: intVar(env, "EMSIM_MAX_TIME_STEPS", 1_000_000, 1),
      maxMonitorSamples: intVar(env, "EMSIM_MAX_MONITOR_SAMPLES", 50_000_000, 1),
      maxMemoryBytes: intVar(env, "EMSIM_MAX_MEMORY_BYTES", 16 * 1024 ** 3, 1),
      maxBodyBytes: intVar(env, "EMSIM_MAX_BODY_BYTES", 1024 * 1024, 1024),
    },
    ...threadedServices(env),
    batches: batchLimits(env),
    rateLimitPerMinute: intVar(env, "EMSIM_RATE_LIMIT_PER_MINUTE", 6000, 0),
    heartbeatIntervalMs: intVar(env, "EMSIM_HEARTBEAT_INTERVAL_MS", 2000, 10),
    heartbeatStaleMs: intVar(env, "EMSIM_HEARTBEAT_STALE_MS", 15000, 50),
    solverStallMs: intVar(env, "EMSIM_SOLVER_STALL_MS", 600_000, 1000),
    maxAttempts: intVar(env, "EMSIM_MAX_ATTEMPTS", 3, 1),
    storageOutageWaitMs: intVar(env, "EMSIM_STORAGE_OUTAGE_WAIT_MS", 600_000, 0),
    // With PostgreSQL, workers are woken by LISTEN/NOTIFY; the poll is only a safety net.
    pollIntervalMs: intVar(
      env,
      "EMSIM_POLL_INTERVAL_MS",
      /^postgres/.test(env.EMSIM_DATABASE_URL ?? "") ? 30_000 : 1000,
      10,
    ),
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: intVar(env, "EMSIM_KEEPALIVE_TIMEOUT_MS", 72_000, 100),
    idleTimeoutMs: intVar(env, "EMSIM_IDLE_TIMEOUT_MS", 120_000, 1000),
    listenBacklog: intVar(env, "EMSIM_LISTEN_BACKLOG", 4096, 1),
    shutdownGraceMs: intVar(env, "EMSIM_SHUTDOWN_GRACE_MS", 10_000, 0),
    tls,
    logLevel: env.EMSIM_LOG_LEVEL ?? "info",
  };
  return { ...config, ...overrides, limits: { ...config.limits, ...overrides.limits } };
}

/** EMSIM_CONCURRENCY_SCOPE: whose active jobs the limit counts. */
function concurrencyScopeOf(env: Env): "account" | "global" {
  const scope = env.EMSIM_CONCURRENCY_SCOPE ?? "account";
  if (scope !== "account" && scope !== "global") {
    throw new Error(`EMSIM_CONCURRENCY_SCOPE must be "account" or "global", got "${scope}"`);
  }
  return scope;
}

/** EMSIM_SOLVER_BACKEND: one of BACKEND_CHOICES (auto by default). */
function solverBackendOf(env: Env): BackendChoice {
  const backend = env.EMSIM_SOLVER_BACKEND || "auto";
  if (!(BACKEND_CHOICES as readonly string[]).includes(backend)) {
    throw new Error(
      `EMSIM_SOLVER_BACKEND must be one of ${BACKEND_CHOICES.join(", ")}, got "${backend}"`,
    );
  }
  return backend as BackendChoice;
}

/** The configuration as printed at start: every value, secrets hidden. */
export function describeConfig(config: Config): Record<string, unknown> {
  return {
    ...config,
    signingSecret: config.signingSecret ? "(set)" : "(per data directory)",
    // A database address may carry a password.
    databaseUrl: config.databaseUrl?.replace(/:[^:@/]*@/, ":***@") ?? "(embedded SQLite)",
  };
}
