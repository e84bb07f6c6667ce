/**
 * The composition root: builds the stores, storage, services, worker and HTTP app from a
 * Config, and nothing else chooses an implementation. The embedded default is SQLite + local
 * files + an in-process worker under one data directory; EMSIM_DATABASE_URL and
 * EMSIM_STORAGE_URL select PostgreSQL and S3 for many servers and workers (docs/deploy.md).
 */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyServerOptions } from "fastify";
import { AccountService } from "./accounts/service.js";
import type { Config } from "./config.js";
import { dashboardPlugin } from "./dashboard/plugin.js";
import { FabricationService } from "./fabrication/service.js";
import { ModeService } from "./modes/service.js";
import { buildApp } from "./http/app.js";
import { storageDownload } from "./http/routes/storage/download.js";
import type { App } from "./http/types.js";
import { RUN_FAILURE_WORDS, TAKE_BACK_RULES } from "./jobs/lifecycle.js";
import { JobService } from "./jobs/service.js";
import { BatchService } from "./batches/service.js";
import { ServiceMetrics } from "./metrics/registry.js";
import { openStorage } from "./storage/open.js";
import type { StorageBackend } from "./storage/types.js";
import { openStores } from "./store/open.js";
import type { Stores } from "./store/types.js";
import { sweepSilentWorkers } from "./worker/silent-workers.js";
import { JobWorker, type WorkerLogger } from "./worker/worker.js";
import { adapterReport } from "./worker/report.js";
import { describeAdapter, initSolverBackend } from "./solver/index.js";
import type { SolverBackendInfo } from "./http/types.js";

/**
 * The data directory, and the folders under it, made readable by this user alone: they hold
 * every account's requests, results, and key and password hashes.
 */
const PRIVATE_DIR = { recursive: true, mode: 0o700 } as const;

/**
 * The data directory made (PRIVATE_DIR), or, where it was there already and open to others
 * (an operator's mkdir: 0755), closed to them when this user owns it. The files in it are
 * made with the usual 0644, so the directory is what keeps them private.
 */
function privateDataDir(dir: string): void {
  mkdirSync(dir, PRIVATE_DIR);
  const { mode, uid } = statSync(dir);
  if ((mode & 0o077) !== 0 && uid === process.getuid?.()) chmodSync(dir, 0o700);
}

/**
 * The secret that signs download addresses (local storage) and keys the dashboard's CSRF
 * tokens: EMSIM_SIGNING_SECRET, else one made once per data directory. Several API servers
 * behind one address must share it (set EMSIM_SIGNING_SECRET, or share the data directory).
 */
export function signingSecretFor(config: Config): string {
  if (config.signingSecret) return config.signingSecret;
  const path = join(config.dataDir, "signing-secret");
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    mkdirSync(config.dataDir, PRIVATE_DIR);
    try {
      // "wx": if another process created it first, read theirs instead.
      writeFileSync(path, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    return readFileSync(path, "utf8").trim();
  }
}

export interface Service {
  config: Config;
  app: App;
  stores: Stores;
  storage: StorageBackend;
  accounts: AccountService;
  jobs: JobService;
  worker: JobWorker | null;
  metrics: ServiceMetrics;
  /** The solver backend the jobs run on, resolved at start-up. */
  solver: SolverBackendInfo;
  /** Starts listening (and the embedded worker); resolves to the address. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** What the API, the dashboard and the embedded worker of one service share. */
type ServiceParts = Pick<
  Service,
  "config" | "stores" | "storage" | "accounts" | "jobs" | "metrics" | "solver"
> & { fabrication: FabricationService; modes: ModeService; batches: BatchService };

export async function createService(
  config: Config,
  logger: FastifyServerOptions["logger"] = false,
): Promise<Service> {
  privateDataDir(config.dataDir);
  let app: App | null = null;
  const stores = await openStores(config, (err) =>
    app?.log.warn({ err }, "database connection error (it reconnects)"),
  );
  const secret = signingSecretFor(config);
  const { storage, local, scratchDir } = await openStorage(config, secret);
  const accounts = new AccountService(stores.accounts);
  const jobs = new JobService(stores.jobs, storage, config, stores.batches);
  const solver = await chooseSolverBackend(config);
  const metrics = new ServiceMetrics(
    stores.jobs,
    solver.backend,
    jobs.runTimeModel,
    config.solverThreads,
    solver.adapter,
  );
  const fabrication = new FabricationService(storage, config);
  const modes = new ModeService(config, fabrication);
  const batches = new BatchService(stores, jobs, fabrication, config, storage);
  const parts: ServiceParts = {
    config,
    stores,
    storage,
    accounts,
    jobs,
    metrics,
    solver,
    fabrication,
    modes,
    batches,
  };
  let worker: JobWorker | null = null;
  app = await apiFor(parts, () => (config.embeddedWorker ? worker !== null : null), logger);
  if (local) storageDownload(app, local, config.storageUrl);
  await app.register(dashboardFor(parts, secret));
  if (config.embeddedWorker) worker = embeddedWorker(parts, scratchDir, app.log as WorkerLogger);
  return serviceOf(parts, app, worker);
}

/**
 * The backend is chosen once: `auto` looks for a hardware GPU adapter (asynchronously), and
 * validation, the estimate, /health and /metrics then name what the worker threads will run.
 */
async function chooseSolverBackend(config: Config): Promise<SolverBackendInfo> {
  const backend = await initSolverBackend(config.solverBackend);
  return {
    backend: backend.name,
    adapter: backend.adapter ? adapterReport(backend.adapter) : null,
  };
}

/** The API over the service's parts, told whether the embedded worker runs (for /health). */
function apiFor(
  parts: ServiceParts,
  workerRunning: () => boolean | null,
  logger: FastifyServerOptions["logger"],
): Promise<App> {
  const { config, stores, storage, jobs, batches, fabrication, modes, metrics, solver } = parts;
  return buildApp(
    { config, stores, storage, jobs, batches, fabrication, modes, metrics, solver, workerRunning },
    logger,
  );
}

/** The dashboard over the service's parts; the signing secret keys its CSRF tokens. */
function dashboardFor(parts: ServiceParts, signingSecret: string) {
  const { config, stores, accounts, jobs, batches, storage, fabrication, modes } = parts;
  return dashboardPlugin({
    config,
    stores,
    accountService: accounts,
    jobs,
    batches,
    storage,
    fabrication,
    modes,
    signingSecret,
  });
}

/**
 * The worker inside an API process. Unlike a lone worker's (`createWorker`), it reports every
 * run to the job service, which refits its run-time estimates, and to the metrics.
 */
function embeddedWorker(parts: ServiceParts, scratchDir: string, log: WorkerLogger): JobWorker {
  return new JobWorker({
    store: parts.stores.jobs,
    storage: parts.storage,
    scratchDir,
    takeBack: TAKE_BACK_RULES,
    failureWords: RUN_FAILURE_WORDS,
    runs: parts.jobs,
    config: parts.config,
    log,
    metrics: parts.metrics,
  });
}

/** How often a closing server ends the keep-alive connections that have become idle. */
const IDLE_CLOSE_INTERVAL_MS = 50;

/**
 * Stops the listener and waits for the responses still being sent, for `graceMs` at most: then
 * their connections are closed (a client downloading a byte a second does not hold a rolling
 * restart up past the orchestrator's kill).
 */
async function closeWithin(app: App, graceMs: number): Promise<void> {
  const deadline = setTimeout(() => app.server.closeAllConnections(), graceMs);
  // A close ends the connections idle at that moment only: one whose response was still on
  // its way would otherwise stay open for the client's next request, until the deadline.
  const idle = setInterval(() => app.server.closeIdleConnections(), IDLE_CLOSE_INTERVAL_MS);
  try {
    await app.close();
  } finally {
    clearTimeout(deadline);
    clearInterval(idle);
  }
}

/** The service's parts, with how they start (the worker around the listener) and stop. */
function serviceOf(parts: ServiceParts, app: App, worker: JobWorker | null): Service {
  const { config, stores, storage, accounts, jobs, metrics, solver, fabrication, modes } = parts;
  let closed = false;
  let stopSweeping: (() => void) | null = null;
  return {
    config,
    app,
    stores,
    storage,
    accounts,
    jobs,
    worker,
    metrics,
    solver,
    async listen() {
      // Jobs of a dead process are taken back before any request can see them RUNNING.
      if (worker) await worker.recover();
      const address = await app.listen({
        host: config.host,
        port: config.port,
        backlog: config.listenBacklog,
      });
      if (worker) {
        await worker.start();
      } else {
        // Workers run elsewhere: a dead one's job is still taken back while none runs.
        stopSweeping = sweepSilentWorkers(
          stores.jobs,
          config,
          TAKE_BACK_RULES.rule("workerSilent", config.maxAttempts),
          app.log as WorkerLogger,
        );
      }
      // Fastify names the address by its own options; a server of ours (serverFactory) may
      // speak TLS.
      return config.tls ? address.replace(/^http:/, "https:") : address;
    },
    async close() {
      if (closed) return;
      closed = true;
      stopSweeping?.();
      // The running job goes back to the queue at once, not after the last download.
      const workerStopped = worker?.stop();
      await closeWithin(app, config.shutdownGraceMs);
      await fabrication.close();
      await modes.close();
      await workerStopped;
      await stores.close();
    },
  };
}

/** A standalone worker process (`emsim worker`): only the database, the storage and scratch. */
export async function createWorker(
  config: Config,
  log: WorkerLogger,
): Promise<{ worker: JobWorker; close(): Promise<void> }> {
  privateDataDir(config.dataDir);
  const stores = await openStores(config, (err) => log.warn({ err }, "database connection error"));
  const { storage, scratchDir } = await openStorage(config, signingSecretFor(config));
  // Fails here, not per job, when the configured backend cannot run on this machine.
  const backend = await initSolverBackend(config.solverBackend);
  log.info(
    {
      solverBackend: backend.name,
      adapter: backend.adapter ? describeAdapter(backend.adapter) : null,
    },
    "solver backend",
  );
  const worker = new JobWorker({
    store: stores.jobs,
    storage,
    scratchDir,
    takeBack: TAKE_BACK_RULES,
    failureWords: RUN_FAILURE_WORDS,
    config,
    log,
  });
  return {
    worker,
    async close() {
      await worker.stop();
      await stores.close();
    },
  };
}
