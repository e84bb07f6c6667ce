/**
 * `emsim submit sim.json [--wait] [--out F] [--queue] [--json]`: validate locally, submit,
 * and with `--wait` follow the run and download the verified result.
 */
import type {
  EmsimClient,
  JobRecord,
  SimulationRequest,
  SubmissionAck,
} from "../../client/index.js";
import { EmsimJobFailedError, isAbortError } from "../../client/index.js";
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
import { withLocalGdsUploaded } from "../local-gds.js";
import { connect } from "../profile.js";
import { DownloadProgressView, JobProgressView } from "../progress.js";
import { loadSimulationFile, readSimulationJson } from "../simulation-file.js";
import { parse, UsageError } from "../usage.js";
import { checkOutputPath } from "../output-path.js";
import { isBatchRequestBody } from "../sweep-request.js";
import { lostWhileFollowing, outageNotice, resumeHint } from "../following.js";

export const SUBMIT_USAGE =
  "emsim submit <sim.json> [--wait] [--out FILE] [--queue] [--quiet] [--skip-validation] [--json]";

export async function runSubmit(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
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
    throw new UsageError(`submit takes one simulation file\nusage: ${SUBMIT_USAGE}`);
  }
  if (values.out !== undefined && !values.wait) {
    throw new UsageError("--out needs --wait (or use 'emsim download <job id> --out FILE')");
  }
  checkOutputPath(values.out);
  io = { ...io, json: values.json === true };
  const file = positionals[0]!;
  return runClientCommand(io, async () => {
    const body = await readSimulationJson(file);
    if (isBatchRequestBody(body)) {
      // Its schema errors ("simulation: is not an allowed field") would not say what it is.
      throw new UsageError(`${file} is a batch request (a sweep): run 'emsim sweep ${file}'`);
    }
    const request = values["skip-validation"]
      ? (body as SimulationRequest)
      : (await loadSimulationFile(file)).request;
    const { client } = await connect();
    return withInterrupt(async (signal) => {
      const sent = await withLocalGdsUploaded(request, file, client, io, signal);
      const ack = await client.submit(sent, {
        signal,
        queue: values.queue === true,
        onQueued: (info) =>
          io.stderr.write(
            `emsim: ${info.activeJobId ? `job ${info.activeJobId} is active` : info.detail}; waiting up to ${info.retryAfterSeconds} s to submit again (--queue)\n`,
          ),
      });
      if (!values.wait) {
        if (io.json) printJson(io, ack);
        else {
          io.stdout.write(`${ack.job_id}\n`);
          if (!values.quiet) {
            io.stderr.write(
              `Submitted job ${ack.job_id} (QUEUED). Follow it with 'emsim status ${ack.job_id}'.\n`,
            );
          }
        }
        return EXIT.ok;
      }
      return waitAndDownload(client, ack, values.out, io, signal, values.quiet === true);
    });
  });
}

async function waitAndDownload(
  client: EmsimClient,
  ack: SubmissionAck,
  out: string | undefined,
  io: CommandIo,
  signal: AbortSignal,
  quiet: boolean,
): Promise<number> {
  if (!quiet) io.stderr.write(`Submitted job ${ack.job_id}.\n`);
  const followed = { kind: "job", id: ack.job_id } as const;
  const view = quiet ? null : new JobProgressView(io.stderr);
  let job: JobRecord;
  try {
    job = await client.waitFor(ack.job_id, {
      signal,
      onProgress: (j) => view?.update(j),
      onOutage: outageNotice(io, followed),
    });
  } catch (err) {
    view?.abandon();
    if (isAbortError(err)) {
      io.stderr.write(`Stopped waiting. ${resumeHint(followed)}\n`);
      if (io.json) {
        printJson(io, {
          error: { error_code: "interrupted" },
          job_id: ack.job_id,
          exit_code: EXIT.interrupted,
        });
      }
      return EXIT.interrupted;
    }
    throw lostWhileFollowing(err, followed);
  }
  view?.finish(job);
  if (job.status !== "COMPLETED") throw new EmsimJobFailedError(job);

  const path = out ?? `emsim-${job.job_id}.h5`;
  const bar = quiet ? null : new DownloadProgressView(io.stderr, path);
  const file = await client.download(job.job_id, path, {
    job,
    signal,
    onProgress: (p) => bar?.update(p),
  });
  bar?.finish(
    `wrote ${file.path} (${formatBytes(file.bytes)}, sha256 ${file.sha256.slice(0, 12)}… verified)`,
  );
  if (io.json) printJson(io, { job, file: fileJson(file) });
  else io.stdout.write(`${file.path}\n`);
  return EXIT.ok;
}
