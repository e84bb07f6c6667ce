/**
 * `emsim batch <batch id> [--wait] [--out FILE] [--cancel] [--quiet] [--json]`: a batch's
 * status and its jobs; `--wait` follows it to its end, `--out` downloads its one verified
 * result file, `--cancel` cancels it.
 */
import {
  defaultIo,
  EXIT,
  printJson,
  runClientCommand,
  withInterrupt,
  type CommandIo,
} from "../output.js";
import { EmsimApiError, type BatchRecord, type EmsimClient } from "../../client/index.js";
import { batchDetails } from "../batch-view.js";
import { connect } from "../profile.js";
import { parse, UsageError } from "../usage.js";
import { checkOutputPath } from "../output-path.js";
import { downloadBatchFile, followBatch } from "./sweep.js";

export const BATCH_USAGE =
  "emsim batch <batch id> [--wait] [--out FILE] [--cancel] [--quiet] [--json]";

export async function runBatch(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      wait: { type: "boolean" },
      out: { type: "string" },
      cancel: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
      json: { type: "boolean" },
    },
    true,
  );
  if (positionals.length !== 1) throw new UsageError(`usage: ${BATCH_USAGE}`);
  if (values.cancel && values.out !== undefined) {
    throw new UsageError("--cancel and --out do not go together");
  }
  checkOutputPath(values.out);
  io = { ...io, json: values.json === true };
  const id = positionals[0]!;
  const quiet = values.quiet === true;
  return runClientCommand(io, async () => {
    const { client } = await connect();
    if (values.cancel) {
      // Alone, cancelling a finished batch exits 5 as `emsim cancel` does of a finished job;
      // with --wait or --out, what follows still has its use.
      const batch = await cancelled(client, id, values.wait === true || values.out !== undefined);
      if (io.json) {
        if (!values.wait) printJson(io, batch); // else the record after waiting
      } else if (batch.status === "RUNNING" || batch.status === "QUEUED") {
        io.stdout.write(
          `cancellation requested: batch ${batch.batch_id}'s queued jobs are FAILED, its running ones stop within about a second\n`,
        );
      } else {
        io.stdout.write(`batch ${batch.batch_id} is ${batch.status}: nothing left to cancel\n`);
      }
      if (!values.wait) return EXIT.ok;
    }
    return withInterrupt(async (signal) => {
      const batch = values.wait
        ? await followBatch(client, { batch_id: id }, io, signal, quiet)
        : await client.getBatch(id, { signal });
      if (batch === null) return EXIT.interrupted;
      if (values.out !== undefined) {
        return downloadBatchFile(client, batch, values.out, io, signal, quiet);
      }
      if (io.json) printJson(io, batch);
      else io.stdout.write(`${batchDetails(batch)}\n`);
      return values.wait && batch.status === "FAILED" ? EXIT.jobFailed : EXIT.ok;
    });
  });
}

/**
 * The batch's record after asking to cancel it; a finished batch's 409 is thrown, or with
 * `finishedIsFine` its record as it is.
 */
async function cancelled(
  client: EmsimClient,
  id: string,
  finishedIsFine: boolean,
): Promise<BatchRecord> {
  try {
    return await client.cancelBatch(id);
  } catch (err) {
    const finished = err instanceof EmsimApiError && err.code === "batch_finished";
    if (finished && finishedIsFine) return client.getBatch(id);
    throw err;
  }
}
