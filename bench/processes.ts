/**
 * What the benchmarks share for running emsim as separate processes from the compiled build
 * (`dist/`, which each bench script builds first): the CLI, waiting for a server, stopping.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { freePort } from "../test/helpers/service.js";

/** Runs `emsim ARGS` to completion; its stdout, or an error with its stderr. */
export function emsim(args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(process.execPath, ["dist/cli/main.js", ...args], {
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

/** Resolves once `url` answers below 500 (a server is up), or throws after 30 s. */
export async function waitUp(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not come up`);
}

/** SIGTERM, resolved once the process has exited. */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * `emsim server` on a free port over `dataDir` (rate limit off, warnings only, `env` on top),
 * resolved once it answers /health.
 */
export async function startServer(
  dataDir: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["dist/cli/main.js", "server", "--port", String(port), "--data-dir", dataDir],
    {
      env: { ...process.env, EMSIM_LOG_LEVEL: "warn", EMSIM_RATE_LIMIT_PER_MINUTE: "0", ...env },
      stdio: "ignore",
    },
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUp(`${baseUrl}/health`);
  return { child, baseUrl };
}
