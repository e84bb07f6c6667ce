/**
 * The composition root: builds the store, storage, job service, worker and HTTP app from a
 * Config. The embedded default is SQLite + local files + an in-process worker under one data
 * directory; this is the one place other backends would be chosen.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyServerOptions } from "fastify";
import type { Config } from "./config.js";
import { buildApp } from "./http/app.js";
import type { App } from "./http/types.js";
import { FabricationService } from "./fabrication/service.js";
import { JobService } from "./jobs/service.js";
import { ServiceMetrics } from "./metrics/registry.js";
import { LocalFileStorage } from "./storage/local.js";
import { openStore } from "./store/open.js";
import type { Store } from "./store/types.js";
import { JobWorker, type WorkerLogger } from "./worker/worker.js";

/** The signing secret shared by every process using this data directory. */
export function signingSecretFor(config: Config): string {
  if (config.signingSecret) return config.signingSecret;
  const path = join(config.dataDir, "signing-secret");
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    mkdirSync(config.dataDir, { recursive: true });
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
  store: Store;
  storage: LocalFileStorage;
  jobs: JobService;
  worker: JobWorker | null;
  metrics: ServiceMetrics;
  /** Starts listening (and the embedded worker); resolves to the address. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export async function createService(
  config: Config,
  logger: FastifyServerOptions["logger"] = false,
): Promise<Service> {
  mkdirSync(config.dataDir, { recursive: true });
  const store = openStore(config);
  const secret = signingSecretFor(config);
  const storage = new LocalFileStorage(join(config.dataDir, "results"), config.storageUrl, secret);
  const jobs = new JobService(store, storage, config);
  const metrics = new ServiceMetrics(store);
  const fabrication = new FabricationService(storage, config);
  let worker: JobWorker | null = null;
  const app = await buildApp(
    {
      config,
      store,
      storage,
      jobs,
      fabrication,
      metrics,
      signingSecret: secret,
      workerRunning: () => (config.embeddedWorker ? worker !== null : null),
    },
    logger,
  );
  if (config.embeddedWorker) {
    worker = new JobWorker(store, storage, jobs, config, app.log as WorkerLogger, metrics);
  }
  let closed = false;
  return {
    config,
    app,
    store,
    storage,
    jobs,
    worker,
    metrics,
    async listen() {
      const address = await app.listen({ host: config.host, port: config.port });
      if (worker) await worker.start();
      return address;
    },
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await fabrication.close();
      if (worker) await worker.stop();
      await store.close();
    },
  };
}
