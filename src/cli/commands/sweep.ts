/**
 * `emsim sweep <sim.json> --param POINTER=START:STOP:POINTS … [--wait] [--out F]`: one
 * simulation over parameters as a batch (POST /v1/batches, docs/api.md "Batches"), checked
 * locally variant by variant first; with `--wait`, a progress bar over the whole batch and then
 * the batch's one verified result file (every monitor with the sweep's dimensions first).
 */
import type { BatchAck, BatchRecord, BatchRequest, EmsimClient } from "../../client/index.js";
import { EmsimBatchFailedError, isAbortError } from "../../client/index.js";
import { withLocalGdsUploaded } from "../local-gds.js";
import {
  fileJson,
  defaultIo,
  EXIT,
  formatBytes,
  InvalidRequestError,
  printJson,
  runClientCommand,
  withInterrupt,
  type CommandIo,
} from "../output.js";
import { connect } from "../profile.js";
import { BatchProgressView, DownloadProgressView } from "../progress.js";
import { readSimulationJson } from "../simulation-file.js";
import { readBatchNotes } from "../../results/read.js";
import {
  checkBatchRequest,
  isBatchRequestBody,
  PARAM_SYNTAX,
  parametersFromOptions,
} from "../sweep-request.js";
import { parse, UsageError } from "../usage.js";
import { checkOutputPath } from "../output-path.js";
import { lostWhileFollowing, outageNotice, resumeHint } from "../following.js";

export const SWEEP_USAGE =
  "emsim sweep <sim.json | batch.json> --param POINTER=START:STOP:POINTS | --param POINTER=V1,V2,… [--name NAME] … [--zip] [--wait] [--out FILE] [--queue] [--quiet] [--skip-validation] [--json]";

export async function runSweep(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      param: { type: "string", short: "p", multiple: true },
      name: { type: "string", multiple: true },
      zip: { type: "boolean" },
      wait: { type: "boolean" },
      out: { type: "string" },
      queue: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
      "skip-validation": { type: "boolean" },
      json: { type: "boolean" },
    },
    true,
  );
  if (positionals.length !== 1) {
    throw new UsageError(
      `sweep takes one simulation (or batch request) file\nusage: ${SWEEP_USAGE}`,
    );
  }
  if (values.out !== undefined && !values.wait) {
    throw new UsageError("--out needs --wait (or use 'emsim batch <batch id> --out FILE')");
  }
  checkOutputPath(values.out);
  io = { ...io, json: values.json === true };
  const file = positionals[0]!;
  const params = values.param ?? [];
  const names = values.name ?? [];
  return runClientCommand(io, async () => {
    const request = batchRequest(await readSimulationJson(file), params, names, values.zip);
    if (!values["skip-validation"]) {
      const check = checkBatchRequest(request);
      // With --param the request is the file and the options together: name both.
      const source = params.length > 0 ? `${file} with its --param options` : file;
      if (!check.ok) throw new InvalidRequestError(source, check.errors, "batch request");
    }
    const { client } = await connect();
    return withInterrupt(async (signal) => {
      const simulation = await withLocalGdsUploaded(request.simulation, file, client, io, signal);
      const ack = await client.submitBatch(
        { ...request, simulation },
        {
          signal,
          queue: values.queue === true,
          onQueued: (info) =>
            io.stderr.write(
              `emsim: ${info.activeBatchId ? `batch ${info.activeBatchId} is active` : info.activeJobId ? `job ${info.activeJobId} is active` : info.detail}; waiting up to ${info.retryAfterSeconds} s to submit again (--queue)\n`,
            ),
        },
      );
      if (!values.wait) {
        if (io.json) printJson(io, ack);
        else {
          io.stdout.write(`${ack.batch_id}\n`);
          if (!values.quiet) {
            io.stderr.write(
              `Submitted batch ${ack.batch_id}: ${ack.job_count} jobs (QUEUED). Follow it with 'emsim batch ${ack.batch_id} --wait'.\n`,
            );
          }
        }
        return EXIT.ok;
      }
      if (!values.quiet) {
        io.stderr.write(`Submitted batch ${ack.batch_id}: ${ack.job_count} jobs.\n`);
      }
      const batch = await followBatch(client, ack, io, signal, values.quiet === true);
      if (batch === null) return EXIT.interrupted;
      return downloadBatchFile(client, batch, values.out, io, signal, values.quiet === true);
    });
  });
}

/**
 * The batch request: a simulation file's body with the --param options, or a batch request
 * file's with more of them appended.
 */
function batchRequest(
  body: unknown,
  params: string[],
  names: string[],
  zip: boolean | undefined,
): BatchRequest {
  const given = isBatchRequestBody(body) ? body : null;
  if (!given && params.length === 0) {
    throw new UsageError(`sweep needs a parameter: ${PARAM_SYNTAX}\nusage: ${SWEEP_USAGE}`);
  }
  const existing = Array.isArray(given?.parameters) ? given.parameters : [];
  return {
    ...given,
    simulation: given ? given.simulation : body,
    parameters: [...existing, ...parametersFromOptions(params, names, existing)],
    ...(zip ? { combine: "zip" } : {}),
  } as BatchRequest;
}

/**
 * Waits for a batch with a progress bar on stderr; its final record, or null when Ctrl-C
 * stopped the wait (the batch goes on; the message says how to follow it).
 */
export async function followBatch(
  client: EmsimClient,
  ack: Pick<BatchAck, "batch_id">,
  io: CommandIo,
  signal: AbortSignal,
  quiet: boolean,
): Promise<BatchRecord | null> {
  const id = ack.batch_id;
  const view = quiet ? null : new BatchProgressView(io.stderr);
  const followed = { kind: "batch", id } as const;
  try {
    const batch = await client.waitForBatch(id, {
      signal,
      onProgress: (b) => view?.update(b),
      onOutage: outageNotice(io, followed),
    });
    view?.finish(batch);
    return batch;
  } catch (err) {
    view?.abandon();
    if (!isAbortError(err)) throw lostWhileFollowing(err, followed);
    io.stderr.write(`Stopped waiting. ${resumeHint(followed)}\n`);
    if (io.json) {
      printJson(io, {
        error: { error_code: "interrupted" },
        batch_id: id,
        exit_code: EXIT.interrupted,
      });
    }
    return null;
  }
}

/**
 * Downloads an ended batch's verified result file (FAILED: exit 10); says how many of its
 * jobs failed (their places in the file are NaN). Prints the path, or `{batch, file}`.
 */
export async function downloadBatchFile(
  client: EmsimClient,
  batch: BatchRecord,
  out: string | undefined,
  io: CommandIo,
  signal: AbortSignal,
  quiet: boolean,
): Promise<number> {
  if (batch.status === "FAILED") throw new EmsimBatchFailedError(batch);
  const id = batch.batch_id;
  if (batch.status === "COMPLETED" && batch.counts.FAILED > 0) {
    io.stderr.write(
      `emsim: ${batch.counts.FAILED} of ${batch.job_count} jobs FAILED; their places in the file are NaN ('emsim batch ${id}' lists their errors)\n`,
    );
  }
  const path = out ?? `emsim-batch-${id}.h5`;
  if (!quiet && batch.status === "COMPLETED" && !batch.checksum) {
    io.stderr.write(`The server writes the batch's result file (once, for its first download)…\n`);
  }
  // Made at the first bytes, so that its rate is the transfer's, not the writing's.
  let bar: DownloadProgressView | null = null;
  const file = await client.downloadBatch(id, path, {
    batch,
    signal,
    onProgress: (p) => {
      if (quiet) return;
      bar ??= new DownloadProgressView(io.stderr, path);
      bar.update(p);
    },
  });
  bar ??= quiet ? null : new DownloadProgressView(io.stderr, path);
  bar?.finish(
    `wrote ${file.path} (${formatBytes(file.bytes)}, sha256 ${file.sha256.slice(0, 12)}… verified)`,
  );
  // A group the variants hold in different shapes (say, the S-matrix at other wavelengths)
  // is left out of the stacked file: said here, not only in its attributes.
  for (const note of await readBatchNotes(file.path)) io.stderr.write(`emsim: warning: ${note}\n`);
  if (io.json) {
    printJson(io, { batch: await client.getBatch(id, { signal }), file: fileJson(file) });
  } else io.stdout.write(`${file.path}\n`);
  return EXIT.ok;
}
