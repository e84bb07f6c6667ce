/**
 * `emsim estimate <sim.json> [--json]`: grid, memory and time of a run, without queueing it;
 * for a batch request file (`emsim sweep`'s), what the whole sweep would cost.
 */
import type { BatchRequest } from "../../client/index.js";
import {
  defaultIo,
  EXIT,
  fields,
  formatBytes,
  formatDuration,
  InvalidRequestError,
  printJson,
  runClientCommand,
  type CommandIo,
} from "../output.js";
import { withLocalGdsUploaded } from "../local-gds.js";
import { connect } from "../profile.js";
import { checkSimulationLocally, readSimulationJson } from "../simulation-file.js";
import { checkBatchRequest, isBatchRequestBody } from "../sweep-request.js";
import { parse, UsageError } from "../usage.js";

export async function runEstimate(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: "boolean" } }, true);
  if (positionals.length !== 1) throw new UsageError("usage: emsim estimate <sim.json> [--json]");
  io = { ...io, json: values.json === true };
  return runClientCommand(io, async () => {
    const file = positionals[0]!;
    const body = await readSimulationJson(file);
    if (isBatchRequestBody(body)) return estimateBatchFile(file, body, io);
    const outcome = checkSimulationLocally(body);
    if ("errors" in outcome) throw new InvalidRequestError(file, outcome.errors);
    const { client } = await connect();
    const e = await client.estimate(await withLocalGdsUploaded(outcome.request, file, client, io));
    if (io.json) {
      printJson(io, e);
      return EXIT.ok;
    }
    io.stdout.write(
      `${fields([
        [
          "grid",
          `${e.grid.join(" × ")} cells with PML (${e.interior_grid.join(" × ")} inside the domain)`,
        ],
        ["cells", e.cells.toLocaleString("en-US")],
        [
          "time steps",
          `${e.time_steps.toLocaleString("en-US")} at most, dt = ${e.dt_seconds.toExponential(3)} s`,
        ],
        ["monitor samples", e.monitor_samples.toLocaleString("en-US")],
        ["memory", formatBytes(e.memory_bytes)],
        ["result file", `about ${formatBytes(e.result_bytes)}`],
        [
          "run time",
          `at most about ${formatDuration(e.estimated_seconds)} at ${e.mcells_per_second_assumed} Mcell/s (less if it converges early)`,
        ],
        [
          "expected",
          `about ${formatDuration(e.expected_seconds)} (${e.expected_steps.toLocaleString("en-US")} time steps)`,
        ],
        ...(e.notes?.length ? [["notes", e.notes.join("\n")] as [string, string]] : []),
      ])}\n`,
    );
    return EXIT.ok;
  });
}

/** A batch request file: checked locally as `emsim sweep` checks it, then the server's sum. */
async function estimateBatchFile(file: string, body: BatchRequest, io: CommandIo): Promise<number> {
  const check = checkBatchRequest(body);
  if (!check.ok) throw new InvalidRequestError(file, check.errors, "batch request");
  const { client } = await connect();
  const simulation = await withLocalGdsUploaded(body.simulation, file, client, io);
  const e = await client.estimateBatch({ ...body, simulation });
  if (io.json) {
    printJson(io, e);
    return EXIT.ok;
  }
  io.stdout.write(
    `${fields([
      ["jobs", `${e.job_count.toLocaleString("en-US")} (one per variant)`],
      [
        "run time",
        `about ${formatDuration(e.expected_seconds)} in all (this deployment takes batches of up to ${formatDuration(e.max_batch_seconds)}; up to ${e.parallelism} at once with several workers)`,
      ],
      ["time steps", `${e.time_steps.toLocaleString("en-US")} at most, all jobs`],
      ["result files", `about ${formatBytes(e.result_bytes)} in all`],
      [
        "largest job",
        `${e.largest_job.cells.toLocaleString("en-US")} cells, ${formatBytes(e.largest_job.memory_bytes)}`,
      ],
    ])}\n`,
  );
  return EXIT.ok;
}
