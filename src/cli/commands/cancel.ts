/** `emsim cancel <job id> [--json]`: cancel a QUEUED or RUNNING job. */
import { defaultIo, EXIT, printJson, runClientCommand, type CommandIo } from "../output.js";
import { connect } from "../profile.js";
import { parse, UsageError } from "../usage.js";

export async function runCancel(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: "boolean" } }, true);
  if (positionals.length !== 1) throw new UsageError("usage: emsim cancel <job id> [--json]");
  io = { ...io, json: values.json === true };
  return runClientCommand(io, async () => {
    const { client } = await connect();
    const job = await client.cancel(positionals[0]!);
    if (io.json) printJson(io, job);
    else if (job.status === "RUNNING") {
      io.stdout.write(
        `cancellation requested: job ${job.job_id} stops within about a second and becomes FAILED\n`,
      );
    } else {
      io.stdout.write(`cancelled job ${job.job_id} (${job.status})\n`);
    }
    return EXIT.ok;
  });
}
