/**
 * Runs emsim as a separate process, as a user would: the compiled CLI (`dist/`, which
 * `npm test` builds first) when it is up to date, since starting from TypeScript sources
 * costs seconds per process; the sources through tsx otherwise.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { call } from "./service.js";

function newestMtimeMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtimeMs(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function entry(): string[] {
  const main = "dist/cli/main.js";
  try {
    if (statSync(main).mtimeMs >= newestMtimeMs("src")) return [main];
  } catch {
    // not built
  }
  return ["--import", "tsx", "src/cli/main.ts"];
}

const ENTRY = entry();

/** Every server this test file started; none may outlive it, even when a test fails. */
const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** The command line that runs `emsim ARGS` (for tests that spawn it themselves). */
export function cliCommand(args: string[]): string[] {
  return [process.execPath, ...ENTRY, ...args];
}

/** `emsim ARGS` as one sh command line (each argument quoted). */
export function shellCli(args: string[]): string {
  return cliCommand(args).map(shellQuote).join(" ");
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

export function cli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [...ENTRY, ...args], {
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
}

/**
 * A new API key made with `emsim keys create`, as an operator would (creating the account if
 * needed), in `dataDir`'s database or the one `env` selects (EMSIM_DATABASE_URL).
 */
export function createKeyWithCli(
  email: string,
  dataDir: string | null,
  env: Record<string, string> = {},
): string {
  const args = ["keys", "create", "--email", email, "--name", "test"];
  const res = cli(dataDir ? [...args, "--data-dir", dataDir] : args, env);
  if (res.status !== 0) throw new Error(`emsim keys create failed: ${res.stderr}`);
  return res.stdout.trim();
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  stderr: () => string;
  /** What the server wrote to stdout (its request log, at EMSIM_LOG_LEVEL info). */
  stdout: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export type WorkerProcess = Omit<ServerProcess, "baseUrl">;

/**
 * Spawns `argv` with the test defaults in its environment, collects its output, and resolves
 * once `ready()` says so (or rejects if it exits or takes a minute). Neither the child nor its
 * pipes keep this process alive: a failed test must not hang.
 */
async function spawnEmsim(
  argv: string[],
  env: Record<string, string>,
  ready: (stderr: string) => Promise<boolean>,
  what: string,
): Promise<WorkerProcess> {
  const child = spawn(argv[0]!, argv.slice(1), {
    env: {
      ...process.env,
      EMSIM_LOG_LEVEL: "warn",
      EMSIM_POLL_INTERVAL_MS: "100",
      EMSIM_SOLVER_THREADS: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  child.unref();
  (child.stderr as unknown as { unref?: () => void }).unref?.();
  (child.stdout as unknown as { unref?: () => void }).unref?.();
  let err = "";
  let out = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  const end = Date.now() + 60_000;
  while (!(await ready(err))) {
    if (child.exitCode !== null) throw new Error(`${what} exited: ${err}`);
    if (Date.now() > end) {
      child.kill("SIGKILL");
      throw new Error(`${what} did not start within 60 s; its stderr:\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    stderr: () => err,
    stdout: () => out,
    kill: (signal: NodeJS.Signals = "SIGTERM") =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.ref(); // keep this process alive until the child has exited
        child.once("exit", () => resolve());
        child.kill(signal);
      }),
  };
}

export async function startServerProcess(
  port: number,
  dataDir: string,
  env: Record<string, string> = {},
  options: {
    tls?: boolean;
    /**
     * Small tmpfs file systems mounted (at these paths, sizes in KiB) in a private mount
     * namespace of the server alone (`unshare -m`, needs root): a full disk with nothing
     * mounted on the machine. The test reaches them through /proc/<pid>/root.
     */
    tmpfs?: { path: string; sizeKiB: number }[];
    /** Commands (sh) run in that namespace after mounting, before the server starts. */
    before?: string;
    /** A file the server's stdout (its log) is redirected to, instead of a pipe. */
    stdoutTo?: string;
  } = {},
): Promise<ServerProcess> {
  const argv = cliCommand(["server", "--port", String(port), "--data-dir", dataDir]);
  const script = [
    ...(options.tmpfs ?? []).map(
      (m) =>
        `mkdir -p ${shellQuote(m.path)} && mount -t tmpfs -o size=${m.sizeKiB}k tmpfs ${shellQuote(m.path)}`,
    ),
    ...(options.before ? [options.before] : []),
    `exec "$0" "$@"${options.stdoutTo ? ` > ${shellQuote(options.stdoutTo)}` : ""}`,
  ].join(" && ");
  const baseUrl = `${options.tls ? "https" : "http"}://127.0.0.1:${port}`;
  const healthy = async () => {
    try {
      return (await call(baseUrl, "GET", "/health", { timeoutMs: 5000 })).status === 200;
    } catch {
      return false; // not listening yet (or not answering)
    }
  };
  const wrapped = options.tmpfs
    ? ["unshare", "-m", "sh", "-c", script, ...argv]
    : options.stdoutTo
      ? ["sh", "-c", script, ...argv]
      : argv;
  const started = await spawnEmsim(wrapped, env, healthy, "server");
  return { ...started, baseUrl };
}

/** `emsim worker` as a separate process, started once it says it is polling. */
export function startWorkerProcess(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<WorkerProcess> {
  return spawnEmsim(
    cliCommand(["worker", "--data-dir", dataDir]),
    env,
    async (stderr) => /emsim worker \S+ polling/.test(stderr),
    "worker",
  );
}
