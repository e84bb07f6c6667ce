/**
 * `emsim sparams <job id> [--out FILE] [--format touchstone|json] [--plot FILE.png]`: a ports
 * job's S-matrix (`GET /v1/simulations/{id}/sparameters`). Without `--out`, a table of |S|²
 * in dB per wavelength for each out/in pair run; with it, the server's Touchstone 1.1 file
 * (or the JSON), whose extension must say the port count (`.s2p` for two ports: scikit-rf and
 * circuit simulators read the count from it); `--plot` draws |S_ji|² in dB against wavelength
 * with the flux spectra's chart (src/plot/s-parameters.ts).
 */
import { writeFile } from "node:fs/promises";
import { extname } from "node:path";
import type { SMatrix } from "../../client/index.js";
import { sParameterTable, sParametersPng } from "../../plot/s-parameters.js";
import { notRunInputs, touchstoneExtension } from "../../results/touchstone.js";
import {
  CliError,
  defaultIo,
  EXIT,
  printJson,
  runClientCommand,
  table,
  type CommandIo,
} from "../output.js";
import { connect } from "../profile.js";
import { parse, UsageError } from "../usage.js";
import { checkOutputPath } from "../output-path.js";

export const SPARAMS_USAGE =
  "emsim sparams <job id> [--out FILE] [--format touchstone|json] [--plot FILE.png] [--json]";

export const SPARAMS_HELP = `usage: ${SPARAMS_USAGE}

The S-parameters of a COMPLETED job with source_type "ports" (docs/api.md "Ports and
S-parameters"). Ports are named port@mode (o1@0: port o1, mode 0); S21 is what arrives
at the second port from the first. Entries of inputs that were not run (source.run_ports)
are shown as "-" and written as 0 in a Touchstone file, which names them in a comment.

  (no option)         a table of |S|² in dB per wavelength for each out/in pair run
  --out FILE          write the S-matrix to FILE: Touchstone 1.1 (# HZ S RI R 50,
                      frequency ascending) unless FILE ends in .json. A Touchstone file's
                      extension must match the port count: .s2p for 2 ports, .s4p for 4;
                      another name needs --format
  --format F          touchstone or json. touchstone without --out writes
                      emsim-<job id>.s<N>p here; json without --out prints the matrix
  --plot FILE.png     |S_ji|² in dB against wavelength, one curve per out/in pair run
  --json              what was fetched and written, as JSON

Example: emsim sparams 1c9f… --out device.s2p --plot s.png
`;

type Format = "touchstone" | "json" | "table";

interface SparamsCommand {
  jobId: string;
  out: string | undefined;
  format: Format;
  plot: string | undefined;
}

const OPTIONS = {
  out: { type: "string", short: "o" },
  format: { type: "string", short: "f" },
  plot: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function runSparams(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(args, OPTIONS, true);
  if (values.help) {
    io.stdout.write(SPARAMS_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1) {
    throw new UsageError(`sparams takes one job id\nusage: ${SPARAMS_USAGE}`);
  }
  const format = values.format;
  if (format !== undefined && format !== "touchstone" && format !== "json") {
    throw new UsageError(`--format must be touchstone or json, got '${format}'`);
  }
  const out = values.out;
  checkOutputPath(out);
  if (out !== undefined && format === undefined && !/\.(s\d+p|json)$/i.test(out)) {
    throw new UsageError(
      `${out}: name a Touchstone file .s<N>p for N port@modes (.s2p for two) or a JSON file .json, ` +
        "or give --format touchstone (or json) to write this name",
    );
  }
  checkOutputPath(values.plot, "--plot");
  const command: SparamsCommand = {
    jobId: positionals[0]!,
    out,
    // A file is Touchstone unless it is named .json; no file and no format: the table.
    format:
      format ?? (out === undefined ? "table" : extname(out) === ".json" ? "json" : "touchstone"),
    plot: values.plot,
  };
  io = { ...io, json: values.json === true };
  return runClientCommand(io, () => fetchAndReport(io, command));
}

/** `.s<N>p` for N ports: a file named for another count would be read wrongly. */
function checkExtension(path: string, ports: number): void {
  const named = /\.s(\d+)p$/i.exec(path);
  if (named && Number(named[1]) !== ports) {
    throw new CliError(
      `${path}: this S-matrix has ${ports} ports (port@mode), so its Touchstone file must end in ${touchstoneExtension(ports)}`,
      EXIT.usage,
    );
  }
}

/** Fetches the matrix (and the Touchstone text when written), writes the files, reports. */
async function fetchAndReport(io: CommandIo, c: SparamsCommand): Promise<number> {
  const { client } = await connect();
  const sm = await client.sParameters(c.jobId);
  const written: string[] = [];
  if (c.format === "touchstone") {
    const path = c.out ?? `emsim-${c.jobId}${touchstoneExtension(sm.ports.length)}`;
    checkExtension(path, sm.ports.length);
    await writeFile(path, await client.sParameters(c.jobId, { format: "touchstone" }));
    written.push(path);
  } else if (c.format === "json" && c.out !== undefined) {
    await writeFile(c.out, `${JSON.stringify(sm, null, 2)}\n`);
    written.push(c.out);
  }
  if (c.plot !== undefined) {
    await writeFile(c.plot, sParametersPng(sm, `S-parameters of job ${c.jobId.slice(0, 8)}`));
    written.push(c.plot);
  }
  if (io.json) {
    printJson(io, { job_id: c.jobId, s_matrix: sm, files: written });
    return EXIT.ok;
  }
  if (c.format === "json" && c.out === undefined) printJson(io, sm);
  else if (c.format === "table") io.stdout.write(`${table(sParameterTable(sm))}\n`);
  io.stderr.write(`${describe(sm)}\n`);
  for (const path of written) io.stderr.write(`wrote ${path}\n`);
  return EXIT.ok;
}

/** One line: the ports, which inputs ran and which did not (and what fills their columns). */
function describe(sm: SMatrix): string {
  const { empty, whole, part } = notRunInputs(sm);
  const notRun = [
    ...(whole.length > 0 ? [`not run, filled from port_symmetries: ${whole.join(", ")}`] : []),
    ...(part.length > 0 ? [`not run, partly filled: ${part.join(", ")}`] : []),
    ...(empty.length > 0 ? [`not run: ${empty.join(", ")}`] : []),
  ];
  return `${sm.ports.length} ports (${sm.ports.join(", ")}), ${sm.wavelengths_m.length} wavelengths; ${
    notRun.length > 0 ? notRun.join("; ") : "every input run"
  }`;
}
