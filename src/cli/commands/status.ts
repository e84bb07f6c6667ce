/** `emsim status <job id> [--wait] [--json]`: a job's record, or follow it until it ends. */
import {
  defaultIo,
  EXIT,
  printJson,
  runClientCommand,
  withInterrupt,
  type CommandIo,
} from "../output.js";
import { isAbortError } from "../../client/index.js";
import { connect } from "../profile.js";
import { JobProgressView } from "../progress.js";
import { jobDetails } from "../job-view.js";
import { parse, UsageError } from "../usage.js";
import { lostWhileFollowing, outageNotice, resumeHint } from "../following.js";

export async function runStatus(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(
    args,
    { json: { type: "boolean" }, wait: { type: "boolean" } },
    true,
  );
  if (positionals.length !== 1)
    throw new UsageError("usage: emsim status <job id> [--wait] [--json]");
  io = { ...io, json: values.json === true };
  const id = positionals[0]!;
  return runClientCommand(io, async () => {
    const { client } = await connect();
    let job;
    if (values.wait) {
      const view = new JobProgressView(io.stderr);
      const followed = { kind: "job", id } as const;
      job = await withInterrupt((signal) =>
        client
          .waitFor(id, {
            signal,
            onProgress: (j) => view.update(j),
            onOutage: outageNotice(io, followed),
          })
          .catch((err: unknown) => {
            // Ctrl-C: the job goes on; say how to pick it up, as submit --wait does.
            if (isAbortError(err)) io.stderr.write(`Stopped waiting. ${resumeHint(followed)}\n`);
            throw lostWhileFollowing(err, followed);
          }),
      );
      view.finish(job);
    } else {
      job = await client.get(id);
    }
    if (io.json) printJson(io, job);
    else io.stdout.write(`${jobDetails(job)}\n`);
    return values.wait && job.status === "FAILED" ? EXIT.jobFailed : EXIT.ok;
  });
}
