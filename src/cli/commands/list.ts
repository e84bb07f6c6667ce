/** `emsim list [--limit N] [--status S] [--cursor C] [--json]`: your jobs, newest first. */
import { JOB_STATUSES, type JobStatus } from "../../client/index.js";
import { defaultIo, EXIT, printJson, runClientCommand, table, type CommandIo } from "../output.js";
import { connect } from "../profile.js";
import { JOB_TABLE_HEADER, jobRow } from "../job-view.js";
import { parse, UsageError } from "../usage.js";

export async function runList(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values } = parse(args, {
    limit: { type: "string" },
    status: { type: "string" },
    cursor: { type: "string" },
    json: { type: "boolean" },
  });
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw new UsageError(`--limit must be an integer 1–100, got '${values.limit}'`);
    }
  }
  let status: JobStatus | undefined;
  if (values.status !== undefined) {
    status = values.status.toUpperCase() as JobStatus;
    if (!JOB_STATUSES.includes(status)) {
      throw new UsageError(
        `--status must be one of ${JOB_STATUSES.join(", ")}, got '${values.status}'`,
      );
    }
  }
  io = { ...io, json: values.json === true };
  return runClientCommand(io, async () => {
    const { client } = await connect();
    const page = await client.list({
      ...(limit !== undefined ? { limit } : {}),
      ...(status ? { status } : {}),
      ...(values.cursor ? { cursor: values.cursor } : {}),
    });
    if (io.json) {
      printJson(io, page);
      return EXIT.ok;
    }
    if (page.jobs.length === 0) {
      io.stderr.write(status ? `no ${status} jobs\n` : "no jobs yet\n");
      return EXIT.ok;
    }
    io.stdout.write(`${table([JOB_TABLE_HEADER, ...page.jobs.map(jobRow)])}\n`);
    if (page.next_cursor) {
      io.stderr.write(
        `more: emsim list --cursor ${page.next_cursor}${status ? ` --status ${status}` : ""}${limit ? ` --limit ${limit}` : ""}\n`,
      );
    }
    return EXIT.ok;
  });
}
