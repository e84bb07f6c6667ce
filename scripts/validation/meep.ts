/**
 * The side-by-side scripts' call into Meep (Debian's python3-meep, serial): one of the Python
 * scripts beside this file with its arguments as JSON, at a lower priority than emsim's run, and
 * the JSON line it prints with its results.
 */
import { spawnSync } from "node:child_process";

/** Runs `script` with `args`; returns the printed JSON object whose first key is `firstKey`. */
export function runMeepScript<T>(script: string, args: unknown, firstKey: string): T {
  const meep = spawnSync(
    "nice",
    ["-n", "10", "/usr/bin/python3", `scripts/validation/${script}`, JSON.stringify(args)],
    { encoding: "utf8", maxBuffer: 1 << 26 },
  );
  if (meep.status !== 0) {
    console.error(meep.stderr.slice(-2000));
    throw new Error("Meep failed (are python3-meep and python3-matplotlib installed?)");
  }
  const line = meep.stdout.split("\n").find((l) => l.startsWith(`{"${firstKey}"`));
  if (!line) throw new Error(`${script} printed no {"${firstKey}": …} line:\n${meep.stdout}`);
  return JSON.parse(line) as T;
}
