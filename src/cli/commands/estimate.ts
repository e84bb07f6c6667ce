/** `emsim estimate <sim.json> [--json]`: grid, memory and time of a run, without queueing it. */
import {
  defaultIo,
  EXIT,
  fields,
  formatBytes,
  formatDuration,
  printJson,
  runClientCommand,
  type CommandIo,
} from "../output.js";
import { withLocalGdsUploaded } from "../local-gds.js";
import { connect } from "../profile.js";
import { loadSimulationFile } from "../simulation-file.js";
import { parse, UsageError } from "../usage.js";

export async function runEstimate(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: "boolean" } }, true);
  if (positionals.length !== 1) throw new UsageError("usage: emsim estimate <sim.json> [--json]");
  io = { ...io, json: values.json === true };
  return runClientCommand(io, async () => {
    const file = positionals[0]!;
    const { request } = await loadSimulationFile(file);
    const { client } = await connect();
    const e = await client.estimate(await withLocalGdsUploaded(request, file, client, io));
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
