/**
 * `emsim download <job id> [--out F] [--json]`: the verified result file; an interrupted
 * download resumes from `F.part`, a file that fails its checksum is kept as `F.corrupt`.
 */
import { stat } from "node:fs/promises";
import {
  fileJson,
  defaultIo,
  EXIT,
  formatBytes,
  printJson,
  runClientCommand,
  withInterrupt,
  type CommandIo,
} from "../output.js";
import { connect } from "../profile.js";
import { DownloadProgressView } from "../progress.js";
import { parse, UsageError } from "../usage.js";
import { checkOutputPath } from "../output-path.js";

export async function runDownload(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      out: { type: "string", short: "o" },
      json: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
    },
    true,
  );
  if (positionals.length !== 1) {
    throw new UsageError("usage: emsim download <job id> [--out FILE] [--quiet] [--json]");
  }
  io = { ...io, json: values.json === true };
  const id = positionals[0]!;
  checkOutputPath(values.out);
  const path = values.out ?? `emsim-${id}.h5`;
  return runClientCommand(io, async () => {
    const { client } = await connect();
    const bar = values.quiet ? null : new DownloadProgressView(io.stderr, path);
    try {
      const file = await withInterrupt((signal) =>
        client.download(id, path, { signal, onProgress: (p) => bar?.update(p) }),
      );
      bar?.finish(
        `wrote ${file.path} (${formatBytes(file.bytes)}${file.resumedFromBytes > 0 ? `, resumed at ${formatBytes(file.resumedFromBytes)}` : ""}, sha256 verified)`,
      );
      if (io.json) printJson(io, fileJson(file));
      else io.stdout.write(`${file.path}\n`);
      return EXIT.ok;
    } catch (err) {
      bar?.finish();
      if ((err as Error).name === "AbortError") {
        io.stderr.write(
          `emsim: interrupted; run the same command again to resume from ${path}.part\n`,
        );
        return EXIT.interrupted;
      }
      if (await hasBytes(`${path}.part`)) {
        io.stderr.write(
          `emsim: the download stopped; run the same command again to resume from ${path}.part\n`,
        );
      }
      throw err;
    }
  });
}

async function hasBytes(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.size > 0,
    () => false,
  );
}
