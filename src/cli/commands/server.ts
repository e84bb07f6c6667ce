import { join } from "node:path";
import { describeConfig, loadConfig, type Config } from "../../config.js";
import { dashboardSetupAddress } from "../../dashboard/setup.js";
import { reloadTls } from "../../http/server.js";
import { createService, createWorker } from "../../service.js";
import { ignoreStdioErrors, LogSink } from "../log-sink.js";
import { workerLog } from "../worker-log.js";
import { parse, UsageError } from "../usage.js";

function configFrom(values: { port?: string; host?: string; "data-dir"?: string }): Config {
  const overrides: Partial<Config> = {};
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new UsageError(`--port must be an integer 0–65535, got '${values.port}'`);
    }
    overrides.port = port;
  }
  if (values.host !== undefined) overrides.host = values.host;
  if (values["data-dir"] !== undefined) overrides.dataDir = values["data-dir"];
  return loadConfig(process.env, overrides);
}

function onSignals(stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      stopping = true;
      stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

export async function runServer(args: string[]): Promise<number> {
  const { values } = parse(args, {
    port: { type: "string" },
    host: { type: "string" },
    "data-dir": { type: "string" },
  });
  const config = configFrom(values);
  ignoreStdioErrors();
  const service = await createService(config, {
    level: config.logLevel,
    stream: new LogSink(process.stdout.fd),
  });
  process.stderr.write(
    `emsim configuration:\n${Object.entries(describeConfig(config))
      .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
      .join("\n")}\n`,
  );
  const { solver } = service;
  process.stderr.write(
    `solver backend: ${solver.backend}` +
      (solver.adapter
        ? ` on ${solver.adapter.device || "an unknown GPU"} (${solver.adapter.description})` +
          (solver.adapter.software ? ", a software adapter: correct, not fast" : "")
        : "") +
      "\n",
  );
  const address = await service.listen();
  process.stderr.write(`emsim listening on ${address} (API docs at ${config.baseUrl}/docs)\n`);
  const setupAddress = await dashboardSetupAddress(service.stores, config.baseUrl);
  if (setupAddress) {
    process.stderr.write(
      `No administrator account yet. Create one (once) at:\n  ${setupAddress}\n`,
    );
  }
  onSignals(async () => {
    process.stderr.write("emsim: stopping\n");
    await service.close();
    process.stderr.write("emsim: stopped\n");
  });
  const tls = config.tls;
  if (tls) {
    // SIGHUP: re-read the certificate and key (after a renewal); a bad pair keeps the old one.
    process.on("SIGHUP", () => {
      try {
        reloadTls(service.app.server, tls);
        process.stderr.write(`emsim: reloaded the TLS certificate from ${tls.certPath}\n`);
      } catch (err) {
        process.stderr.write(
          `emsim: could not reload the TLS certificate (keeping the old one): ${(err as Error).message}\n`,
        );
      }
    });
  }
  return 0;
}

export async function runWorker(args: string[]): Promise<number> {
  const { values } = parse(args, { "data-dir": { type: "string" } });
  const config = configFrom(values);
  ignoreStdioErrors();
  const log = workerLog(new LogSink(process.stderr.fd));
  const { worker, close } = await createWorker(config, log);
  await worker.start();
  process.stderr.write(
    `emsim worker ${worker.id} polling ${config.databaseUrl ? "the database" : config.dataDir}\n`,
  );
  if (config.databaseUrl && !config.s3) {
    // Local storage is this data directory: only API servers that serve it can hand results out.
    process.stderr.write(
      `emsim worker: results are stored in ${join(config.dataDir, "results")} (no ` +
        "EMSIM_STORAGE_URL=s3://…): the API servers must use this same data directory (one " +
        "host, or a shared filesystem), else downloads will not find them\n",
    );
  }
  onSignals(close);
  return 0;
}
