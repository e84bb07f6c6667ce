/**
 * A file the user named as input (a simulation, a layout): read whole, or a usage error (exit 2)
 * that says why in words — no such file, a folder — rather than the system's ENOENT text.
 */
import { readFile } from "node:fs/promises";
import { CliError, EXIT } from "./output.js";

/** The bytes of `path`; `what` prefixes the message (e.g. the request field that names it). */
export async function readInputFile(path: string, what = ""): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "it is a folder"
          : code === "EACCES"
            ? "permission denied"
            : (err as Error).message;
    throw new CliError(`${what}cannot read ${path}: ${why}`, EXIT.usage);
  }
}
