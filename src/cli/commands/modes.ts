/**
 * `emsim modes <sim.json> --plane SPEC …`: the waveguide modes of a cross-section of a
 * simulation file's domain and structures (`POST /v1/modes`): a table of n_eff, k_eff, TE
 * fraction and group index per wavelength and mode, the whole answer as JSON with `--out`, and
 * with `--png` a heat map of each mode's |E| over the plane with the structures outlined
 * (src/plot/mode-plot.ts, the drawing of `emsim plot`).
 */
import { writeFile } from "node:fs/promises";
import { extname } from "node:path";
import type { ModeResult, ModesRequest, ModesResponse } from "../../client/index.js";
import { FIELD_PARTS, type FieldPart } from "../../plot/field-plot.js";
import {
  MODE_COMPONENTS,
  modePlotPng,
  NEGLIGIBLE_K_EFF,
  type ModeComponent,
} from "../../plot/mode-plot.js";
import { validateModesRequest } from "../../schema/modes.js";
import { parseLengthText } from "../../schema/plane-spec.js";
import type { StructureSpec } from "../../solver/index.js";
import {
  CliError,
  defaultIo,
  EXIT,
  formatMicrons,
  InvalidRequestError,
  printJson,
  runClientCommand,
  table,
  type CommandIo,
} from "../output.js";
import { connect } from "../profile.js";
import { withLocalGdsUploaded } from "../local-gds.js";
import { readSimulationJson } from "../simulation-file.js";
import { checkOutputPath } from "../output-path.js";
import { parse, UsageError } from "../usage.js";
import { parsePlane, parseWavelengthRange, PLANE_SYNTAX } from "./modes-plane.js";
import { parseWavelength } from "./plot-wavelength.js";

export const MODES_USAGE =
  "emsim modes <sim.json> --plane SPEC [--wavelength W | --wavelengths A:B:N] [--modes N] [--target-neff N] [--pol te|tm] [--bend-radius R [--bend-axis 0|1]] [--group-index] [--out modes.json] [--png mode.png] [--component E|H|Ex|…|Hz] [--part abs|real|imag] [--json]";

export const MODES_HELP = `usage: ${MODES_USAGE}

The waveguide modes of one plane of the simulation file's domain, structures and materials,
solved by the server (POST /v1/modes) on the grid a run of that file would use.

  --plane SPEC        ${PLANE_SYNTAX}.
                      One axis at one position is the plane's normal; a transverse axis
                      without a range spans the whole domain. Lengths take nm, um or µm (a
                      plain number is metres).
  --wavelength W      one wavelength (1.55um, 1550nm, 1.55e-6); default the file's
                      source wavelength
  --wavelengths A:B:N N wavelengths from A to B (at most 32), modes tracked across them
  --modes N           modes per wavelength, highest n_eff first (1–20, default 1)
  --target-neff N     look for modes near this effective index (default the plane's
                      largest refractive index)
  --pol te|tm         put the modes of this polarisation first (te: E mostly along the
                      plane's first transverse axis)
  --bend-radius R     the guide bent with radius R (2um, 5000nm; negative: curving the
                      other way) about the plane's transverse axis --bend-axis (0: the
                      first, 1: the second, default 1; the other is radial). A bend radiates
                      into absorber on the plane's outer side past its caustic; a note says
                      when the plane ends too soon for its k_eff to mean anything
  --group-index       also each mode's group index
  --out FILE.json     write the server's whole answer (with the fields when --png is given)
  --png FILE.png      a heat map of each mode over the plane, with the structures
                      outlined; with several modes, FILE-mode<k>.png, at the first
                      wavelength
  --component C       what --png draws: E (|E|, default), H (|H|), or Ex … Hz
  --part P            abs (default), real or imag, for a single component
  --json              the answer (without fields) and the files written, as JSON

Example: emsim modes wg.json --plane y=0,x=-0.8um:0.8um,z=-0.7um:0.9um --modes 2 --png mode.png
`;

/** What `emsim modes` was asked for, its options read and checked. */
interface ModesCommand {
  file: string;
  plane: string;
  wavelength:
    { single: number } | { range: { start: number; stop: number; points: number } } | null;
  numModes: number | undefined;
  targetNeff: number | undefined;
  pol: "te" | "tm" | undefined;
  bend: { radius: number; axis: 0 | 1 } | undefined;
  groupIndex: boolean;
  out: string | undefined;
  png: string | undefined;
  component: ModeComponent;
  part: FieldPart;
}

const OPTIONS = {
  plane: { type: "string", short: "p" },
  wavelength: { type: "string", short: "w" },
  wavelengths: { type: "string" },
  modes: { type: "string", short: "n" },
  "target-neff": { type: "string" },
  pol: { type: "string" },
  "bend-radius": { type: "string" },
  "bend-axis": { type: "string" },
  "group-index": { type: "boolean" },
  out: { type: "string", short: "o" },
  png: { type: "string" },
  component: { type: "string", short: "c" },
  part: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function runModes(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(args, OPTIONS, true);
  if (values.help) {
    io.stdout.write(MODES_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1) {
    throw new UsageError(`modes takes one simulation file\nusage: ${MODES_USAGE}`);
  }
  if (values.plane === undefined) {
    throw new UsageError(`modes needs --plane ${PLANE_SYNTAX}\nusage: ${MODES_USAGE}`);
  }
  const command = readCommand(positionals[0]!, values.plane, values);
  io = { ...io, json: values.json === true };
  return runClientCommand(io, () => solveAndReport(io, command));
}

/** The options into a command, each checked (usage errors say which and why). */
function readCommand(
  file: string,
  plane: string,
  values: Partial<Record<keyof typeof OPTIONS, string | boolean>>,
): ModesCommand {
  const text = (name: keyof typeof OPTIONS) => values[name] as string | undefined;
  if (text("wavelength") !== undefined && text("wavelengths") !== undefined) {
    throw new UsageError("--wavelength and --wavelengths: give one");
  }
  const pol = text("pol");
  if (pol !== undefined && pol !== "te" && pol !== "tm") {
    throw new UsageError(`--pol must be te or tm, got '${pol}'`);
  }
  const component = (text("component") ?? "E") as ModeComponent;
  if (!MODE_COMPONENTS.includes(component)) {
    throw new UsageError(`--component must be one of ${MODE_COMPONENTS.join(", ")}`);
  }
  const part = (text("part") ?? "abs") as FieldPart;
  if (!FIELD_PARTS.includes(part)) {
    throw new UsageError(`--part must be one of ${FIELD_PARTS.join(", ")}, got '${part}'`);
  }
  if (part !== "abs" && (component === "E" || component === "H")) {
    throw new UsageError(`--part ${part} needs a single component, e.g. --component ${component}x`);
  }
  const wavelength = text("wavelength");
  const range = text("wavelengths");
  checkOutputPath(text("out"));
  checkOutputPath(text("png"), "--png");
  return {
    file,
    plane,
    wavelength:
      wavelength !== undefined
        ? { single: parseWavelength(wavelength) }
        : range !== undefined
          ? { range: parseWavelengthRange(range) }
          : null,
    numModes: optionalNumber(text("modes"), "--modes", Number.isInteger),
    targetNeff: optionalNumber(text("target-neff"), "--target-neff", (n) => n > 0),
    pol,
    bend: readBend(text("bend-radius"), text("bend-axis")),
    groupIndex: values["group-index"] === true,
    out: text("out"),
    png: text("png"),
    component,
    part,
  };
}

/** --bend-radius (a length, signed) and --bend-axis (0 or 1, only with a radius). */
function readBend(radius: string | undefined, axis: string | undefined): ModesCommand["bend"] {
  if (radius === undefined) {
    if (axis !== undefined) throw new UsageError("--bend-axis needs --bend-radius");
    return undefined;
  }
  let radiusM: number;
  try {
    radiusM = parseLengthText(radius);
  } catch (err) {
    throw new UsageError(`--bend-radius: ${(err as Error).message}`);
  }
  if (axis !== undefined && axis !== "0" && axis !== "1") {
    throw new UsageError(`--bend-axis must be 0 or 1, got '${axis}'`);
  }
  return { radius: radiusM, axis: axis === "0" ? 0 : 1 };
}

function optionalNumber(
  text: string | undefined,
  option: string,
  ok: (n: number) => boolean,
): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n) || !ok(n)) {
    throw new UsageError(`${option}: cannot use '${text}'`);
  }
  return n;
}

/** The file's domain, structures and materials with the plane, wavelengths and mode_spec. */
function modesRequestOf(sim: Record<string, unknown>, c: ModesCommand): ModesRequest {
  const domain = sim.domain as { size?: unknown } | undefined;
  if (!domain || !Array.isArray(domain.size)) {
    throw new CliError(`${c.file} has no domain.size: is it a simulation request?`, EXIT.invalid);
  }
  const sourceWavelength = (sim.source as { wavelength?: unknown } | undefined)?.wavelength;
  let wavelengths: ModesRequest["wavelengths"];
  if (c.wavelength === null) {
    if (typeof sourceWavelength !== "number") {
      throw new UsageError(`${c.file} has no source wavelength: give --wavelength`);
    }
    wavelengths = [sourceWavelength];
  } else {
    wavelengths = "single" in c.wavelength ? [c.wavelength.single] : c.wavelength.range;
  }
  return {
    domain: sim.domain as ModesRequest["domain"],
    ...(sim.structures !== undefined
      ? { structures: sim.structures as ModesRequest["structures"] }
      : {}),
    ...(sim.materials !== undefined
      ? { materials: sim.materials as ModesRequest["materials"] }
      : {}),
    plane: parsePlane(c.plane, domain.size as number[]),
    wavelengths,
    mode_spec: {
      ...(c.numModes !== undefined ? { num_modes: c.numModes } : {}),
      ...(c.targetNeff !== undefined ? { target_neff: c.targetNeff } : {}),
      ...(c.pol !== undefined ? { filter_pol: c.pol } : {}),
      ...(c.bend ? { bend_radius: c.bend.radius, bend_axis: c.bend.axis } : {}),
    },
    ...(c.groupIndex ? { group_index: true } : {}),
    ...(c.png !== undefined ? { include_fields: true } : {}),
  };
}

/** Reads the file, checks the request as the server would, solves, writes and reports. */
async function solveAndReport(io: CommandIo, c: ModesCommand): Promise<number> {
  const sim = await readSimulationJson(c.file);
  if (typeof sim !== "object" || sim === null || Array.isArray(sim)) {
    throw new CliError(`${c.file} is not a JSON object`, EXIT.invalid);
  }
  const request = modesRequestOf(sim as Record<string, unknown>, c);
  // The server's own checks, so that a plane outside the domain or over the cell limit is
  // told before anything is sent; gds structures name files on the server, which checks those.
  if (!(request.structures ?? []).some((s) => s.type === "gds")) {
    const checked = validateModesRequest(request);
    if (!checked.ok) {
      throw new InvalidRequestError(
        `${c.file} with --plane ${c.plane}`,
        checked.errors,
        "mode request",
      );
    }
  }
  const { client } = await connect();
  const answer = await client.modes(await withLocalGdsUploaded(request, c.file, client, io));
  if (c.out !== undefined) await writeFile(c.out, `${JSON.stringify(answer)}\n`);
  const drawable = (request.structures ?? []).filter((s) => s.type !== "gds") as StructureSpec[];
  const pngs = c.png !== undefined ? await writeModePngs(answer, c, drawable) : [];
  if (io.json) {
    const modes = answer.modes.map(({ fields: _fields, ...mode }) => mode);
    printJson(io, { ...answer, modes, grid: undefined, out: c.out ?? null, png: pngs });
    return EXIT.ok;
  }
  io.stdout.write(`${modesTable(answer, c.groupIndex)}\n`);
  const { plane } = answer;
  io.stderr.write(
    `plane ${plane.normal} = ${formatMicrons(plane.position_m)}: ${plane.cells.join(" × ")} cells along ${plane.axes.join(", ")}, ${answer.unknowns.toLocaleString("en-US")} unknowns, solved in ${answer.solve_seconds.toFixed(2)} s\n`,
  );
  for (const note of answer.notes ?? []) io.stderr.write(`note: ${note}\n`);
  for (const path of [...(c.out !== undefined ? [c.out] : []), ...pngs]) {
    io.stderr.write(`wrote ${path}\n`);
  }
  return EXIT.ok;
}

/** One row per wavelength and mode. */
export function modesTable(answer: ModesResponse, groupIndex: boolean): string {
  const header = ["λ (µm)", "mode", "n_eff", "k_eff", "TE fraction"];
  if (groupIndex) header.push("group index");
  const rows = answer.modes.map((m) => {
    const row = [
      `${Number((m.wavelength_m * 1e6).toPrecision(6))}`,
      String(m.mode_index),
      m.n_eff.toFixed(5),
      Math.abs(m.k_eff) < NEGLIGIBLE_K_EFF ? "0" : m.k_eff.toExponential(3),
      m.te_fraction.toFixed(3),
    ];
    if (groupIndex) row.push(m.group_index !== undefined ? m.group_index.toFixed(4) : "-");
    return row;
  });
  return table([header, ...rows]);
}

/**
 * A PNG per mode at the first wavelength: the path given when there is one mode, else
 * `<stem>-mode<k><ext>`.
 */
async function writeModePngs(
  answer: ModesResponse,
  c: ModesCommand,
  structures: StructureSpec[],
): Promise<string[]> {
  const first = answer.wavelengths_m[0];
  const shown: ModeResult[] = answer.modes.filter((m) => m.wavelength_m === first);
  const paths: string[] = [];
  for (const mode of shown) {
    const path = shown.length === 1 ? c.png! : withSuffix(c.png!, `-mode${mode.mode_index}`);
    const png = modePlotPng(answer, mode, { component: c.component, part: c.part, structures });
    await writeFile(path, png);
    paths.push(path);
  }
  return paths;
}

function withSuffix(path: string, suffix: string): string {
  const ext = extname(path);
  return ext ? `${path.slice(0, -ext.length)}${suffix}${ext}` : `${path}${suffix}`;
}
