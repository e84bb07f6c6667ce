/**
 * Checks a file a command will write (`--out`, `--png`, `--plot`) before the command does any
 * work: a job that runs for an hour and then cannot save its result because the folder named
 * does not exist is an hour lost. The checks are what writing would need: the folder exists,
 * is a folder and is writable, and the path is not itself a folder (nor ends in a slash).
 */
import { accessSync, constants, statSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { UsageError } from "./usage.js";

/** Throws a UsageError naming the flag and the reason where `path` cannot be written. */
export function checkOutputPath(path: string | undefined, flag = "--out"): void {
  if (path === undefined) return;
  if (path.endsWith("/") || path.endsWith(sep)) {
    throw new UsageError(`${flag} ${path}: names a folder; name the file to write`);
  }
  const full = resolve(path);
  const folder = dirname(full);
  const folderStat = statSync(folder, { throwIfNoEntry: false });
  if (!folderStat) throw new UsageError(`${flag} ${path}: the folder ${folder} does not exist`);
  if (!folderStat.isDirectory()) {
    throw new UsageError(`${flag} ${path}: ${folder} is not a folder`);
  }
  if (statSync(full, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`${flag} ${path}: that is a folder; name the file to write`);
  }
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new UsageError(`${flag} ${path}: the folder ${folder} is not writable`);
  }
}
