/**
 * Runs the `emsim` CLI from source as a child process, as a user would, without blocking the
 * event loop (the service under test may run in this process). Each run gets its own config
 * directory, so no test reads or writes the developer's ~/.config/emsim.
 */
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function newestMtimeMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtimeMs(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * The compiled CLI when `dist/` is newer than every source (as after `npm test`'s build):
 * starting from TypeScript through tsx costs seconds per process. The sources otherwise.
 * (The same rule as test/helpers/process.ts.)
 */
export const ENTRY = (() => {
  try {
    const main = join(ROOT, "dist/cli/main.js");
    if (statSync(main).mtimeMs >= newestMtimeMs(join(ROOT, "src"))) return [main];
  } catch {
    // not built
  }
  return ["--import", "tsx", "src/cli/main.ts"];
})();

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  options: {
    input?: string;
    cwd?: string;
    timeoutMs?: number;
    /** Called with everything written to stderr so far, after each write. */
    onStderr?: (soFar: string) => void;
  } = {},
): Promise<CliResult> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("EMSIM_")) childEnv[k] = v;
  }
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...ENTRY, ...args], {
      cwd: options.cwd ?? ROOT,
      env: childEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      options.onStderr?.(stderr);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** The independent PNG reader, for the tests that read the CLI's images. */
export { coloursIn, decodePng, type DecodedPng } from "../../src/plot/testing/decode-png.js";

/** Captured stdout and stderr for running a command module in this process. */
export function captureIo(json = false) {
  let out = "";
  let err = "";
  const stream = (append: (s: string) => void) =>
    ({
      write: (s: string | Uint8Array) => {
        append(String(s));
        return true;
      },
    }) as unknown as NodeJS.WritableStream;
  return {
    io: { json, stdout: stream((s) => (out += s)), stderr: stream((s) => (err += s)) },
    stdout: () => out,
    stderr: () => err,
  };
}
