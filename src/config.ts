/**
 * Configuration from environment variables, with the defaults documented in
 * docs/configuration.md. One place reads the environment; everything else takes a Config.
 */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";

export interface Config {
  host: string;
  port: number;
  /** Absolute data directory: SQLite database, result files, signing secret. */
  dataDir: string;
  /** Public address of the API, used in result_url; derived from host and port when unset. */
  baseUrl: string;
  /** Public address of the storage service the results redirect to. */
  storageUrl: string;
  /** HMAC secret for download addresses; generated once per data directory when unset. */
  signingSecret: string | null;
  /** How long a pre-signed download address stays valid. */
  downloadUrlTtlSeconds: number;
  /** Run a job worker inside the server process. */
  embeddedWorker: boolean;
  /** Worker threads the solver may use (fast kernel). */
  solverThreads: number;
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
  /** How often an idle worker looks for queued jobs (it is also woken on submission). */
  pollIntervalMs: number;
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

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const host = overrides.host ?? env.EMSIM_HOST ?? "127.0.0.1";
  const port = overrides.port ?? intVar(env, "EMSIM_PORT", 8080);
  const dataDir = resolve(overrides.dataDir ?? env.EMSIM_DATA_DIR ?? "./data");
  const publicHost = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  const baseUrl = trimSlash(
    overrides.baseUrl ?? env.EMSIM_BASE_URL ?? `http://${publicHost}:${port}`,
  );
  const scope = env.EMSIM_CONCURRENCY_SCOPE ?? "account";
  if (scope !== "account" && scope !== "global") {
    throw new Error(`EMSIM_CONCURRENCY_SCOPE must be "account" or "global", got "${scope}"`);
  }
  const config: Config = {
    host,
    port,
    dataDir,
    baseUrl,
    storageUrl: trimSlash(env.EMSIM_STORAGE_URL ?? `${baseUrl}/storage`),
    signingSecret: env.EMSIM_SIGNING_SECRET || null,
    downloadUrlTtlSeconds: intVar(env, "EMSIM_DOWNLOAD_TTL_SECONDS", 900, 1),
    embeddedWorker: boolVar(env, "EMSIM_EMBEDDED_WORKER", true),
    solverThreads: intVar(env, "EMSIM_SOLVER_THREADS", availableParallelism(), 1),
    maxActiveJobs: intVar(env, "EMSIM_MAX_ACTIVE_JOBS", 1, 1),
    concurrencyScope: scope,
    limits: {
      maxCells: intVar(env, "EMSIM_MAX_CELLS", 200_000_000, 1),
      maxTimeSteps: intVar(env, "EMSIM_MAX_TIME_STEPS", 1_000_000, 1),
      maxMonitorSamples: intVar(env, "EMSIM_MAX_MONITOR_SAMPLES", 50_000_000, 1),
      maxMemoryBytes: intVar(env, "EMSIM_MAX_MEMORY_BYTES", 16 * 1024 ** 3, 1),
      maxBodyBytes: intVar(env, "EMSIM_MAX_BODY_BYTES", 1024 * 1024, 1024),
    },
    fabrication: {
      maxGdsBytes: intVar(env, "EMSIM_GDS_MAX_BYTES", 64 * 1024 * 1024, 1024),
      timeoutSeconds: intVar(env, "EMSIM_FABRICATION_TIMEOUT_SECONDS", 120, 1),
      maxConcurrent: intVar(env, "EMSIM_FABRICATION_CONCURRENCY", 2, 1),
      maxMemoryMb: intVar(env, "EMSIM_FABRICATION_MEMORY_MB", 4096, 64),
    },
    rateLimitPerMinute: intVar(env, "EMSIM_RATE_LIMIT_PER_MINUTE", 6000, 0),
    heartbeatIntervalMs: intVar(env, "EMSIM_HEARTBEAT_INTERVAL_MS", 2000, 10),
    heartbeatStaleMs: intVar(env, "EMSIM_HEARTBEAT_STALE_MS", 15000, 50),
    solverStallMs: intVar(env, "EMSIM_SOLVER_STALL_MS", 600_000, 1000),
    maxAttempts: intVar(env, "EMSIM_MAX_ATTEMPTS", 3, 1),
    pollIntervalMs: intVar(env, "EMSIM_POLL_INTERVAL_MS", 1000, 10),
    logLevel: env.EMSIM_LOG_LEVEL ?? "info",
  };
  return { ...config, ...overrides, limits: { ...config.limits, ...overrides.limits } };
}

/** The configuration as printed at start: every value, the secret hidden. */
export function describeConfig(config: Config): Record<string, unknown> {
  return { ...config, signingSecret: config.signingSecret ? "(set)" : "(per data directory)" };
}
