/**
 * Runs KLayout (Debian's `klayout` package, headless) as the independent referee for the
 * fabrication tests: `klayout -b -r script.py -rd name=value`. Each call costs 2–4 s of start-up,
 * so tests batch many layouts into one call.
 */

import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Runs a KLayout Python script with `-rd` variables; returns its standard output. */
export async function runKlayout(
  script: string,
  vars: Record<string, string> = {},
  timeoutMs = 240_000,
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "emsim-klayout-"));
  const path = join(dir, "script.py");
  writeFileSync(path, script);
  const args = ["-b", "-r", path];
  for (const [k, v] of Object.entries(vars)) args.push("-rd", `${k}=${v}`);
  try {
    const { stdout } = await run("klayout", args, { timeout: timeoutMs, maxBuffer: 1 << 30 });
    return stdout;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === "ENOENT") {
      throw new Error("KLayout is not installed: apt-get install klayout (.ci/run does this)");
    }
    throw new Error(`KLayout failed: ${e.message}\n${e.stderr ?? ""}`);
  }
}

/** A fresh temporary directory for files a test hands to KLayout. */
export function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), "emsim-fab-"));
}

/** The JSON document a script printed last (KLayout may print warnings before it). */
export function lastJson<T>(stdout: string): T {
  const line = stdout
    .trim()
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("{") || l.startsWith("["));
  if (line === undefined) throw new Error(`no JSON in KLayout's output:\n${stdout}`);
  return JSON.parse(line) as T;
}
