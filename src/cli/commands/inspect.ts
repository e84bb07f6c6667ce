/**
 * `emsim inspect result.h5 [--json]`: what a result file holds — the set-up and the solver
 * report (in the dashboard's words: src/plot/job-setup.ts, src/plot/run-report.ts), the
 * materials, and each monitor's kind, shape, components and wavelengths (with the values of
 * point monitors, and the spectrum of flux monitors: the normalised flux, and a box's
 * cross-sections).
 */
import { jobSetupRows } from "../../plot/job-setup.js";
import { reportOfResultFile } from "../../plot/result-file-report.js";
import { runReportRows } from "../../plot/run-report.js";
import { spectrumTable } from "../../plot/spectrum-table.js";
import {
  readFieldMap,
  readModeMonitors,
  readSpectra,
  type ModeDecomposition,
  type MonitorInfo,
  type ResultInfo,
  type Spectrum,
} from "../../results/read.js";
import type { SimulationSpec } from "../../solver/index.js";
import {
  defaultIo,
  EXIT,
  fields,
  printJson,
  runClientCommand,
  table,
  type CommandIo,
} from "../output.js";
import { parse, UsageError } from "../usage.js";
import { readResult } from "./plot.js";

/** A field monitor by its extent (point … volume); the others by their type. */
function kind(m: MonitorInfo, spectrum?: Spectrum): string {
  if (spectrum) return `flux (${spectrum.quantity})`;
  if (m.type === "far_field") return "far field";
  if (m.type !== "field") return m.type;
  return ["point", "line", "plane", "volume"][m.shape.filter((n) => n > 1).length]!;
}

/** A field monitor's samples along x, y, z; the others have none (null). */
const sampleShape = (m: MonitorInfo) => (m.type === "field" ? m.shape : null);

const vec = (v: number[]) => `(${v.map((x) => Number((x * 1e6).toPrecision(4))).join(", ")})`;
const num = (v: unknown) => (typeof v === "number" ? v : Number(v));

/** |value| of every component at every wavelength of a point monitor. */
async function pointValues(file: string, m: MonitorInfo): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (const c of m.components) {
    out[c] = [];
    for (let w = 0; w < m.wavelengthsM.length; w++) {
      const map = await readFieldMap(file, m.name, c, { wavelengthIndex: w });
      out[c].push(Math.hypot(map.re[0]!, map.im[0]!));
    }
  }
  return out;
}

/** Lowercase labels, as the CLI's other label: value blocks have them (`GPU` stays). */
const cliLabel = (label: string) =>
  /^.[a-z]/.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label;

const block = (rows: { label: string; value: string }[]) =>
  fields(rows.map((r): [string, string] => [cliLabel(r.label), r.value]));

/**
 * The set-up (the monitors have their own table below) and the solver report, in the
 * dashboard's words (src/plot/job-setup.ts, src/plot/run-report.ts).
 */
function setupAndReport(info: ResultInfo): string[] {
  const spec = info.request as unknown as SimulationSpec;
  const setup = jobSetupRows(spec).filter((r) => r.key !== "monitors");
  return [
    "Setup",
    block(setup),
    "",
    "Solver report",
    block(runReportRows(reportOfResultFile(info))),
  ];
}

/** A flux monitor's spectrum in `inspect --json`. */
function spectrumJson(s: Spectrum | undefined): Record<string, unknown> {
  if (!s) return {};
  return {
    quantity: s.quantity,
    flux: s.flux,
    ...(s.crossSections
      ? {
          scattering_cross_section_m2: s.crossSections.scattering,
          absorption_cross_section_m2: s.crossSections.absorption,
        }
      : {}),
  };
}

/** What a file holds, read once for either output. */
interface Inspection {
  file: string;
  info: ResultInfo;
  spectra: Map<string, Spectrum>;
  /** Point monitors' |value| per component and wavelength. */
  points: Map<string, Record<string, number[]>>;
  modes: Map<string, ModeDecomposition>;
}

async function inspectFile(file: string): Promise<Inspection> {
  const info = await readResult(file);
  const spectra = new Map((await readSpectra(file)).map((s) => [s.name, s]));
  const points = new Map<string, Record<string, number[]>>();
  for (const m of info.monitors)
    if (kind(m, spectra.get(m.name)) === "point") points.set(m.name, await pointValues(file, m));
  const modes = new Map((await readModeMonitors(file)).map((m) => [m.name, m]));
  return { file, info, spectra, points, modes };
}

/** A mode monitor's --json fields: n_eff and the power along ± normal, [wavelength][mode]. */
function modesJson(m: ModeDecomposition | undefined): Record<string, unknown> {
  if (!m) return {};
  return { n_eff: m.nEff, forward_power: m.forwardPower, backward_power: m.backwardPower };
}

function inspectionJson(inspection: Inspection): Record<string, unknown> {
  const { file, info, spectra, points, modes } = inspection;
  return {
    file,
    job_id: info.jobId,
    format_version: info.formatVersion,
    solver_version: info.solverVersion,
    solver: info.solver,
    materials: info.materials,
    monitors: info.monitors.map((m) => ({
      name: m.name,
      kind: kind(m, spectra.get(m.name)),
      shape: sampleShape(m),
      components: m.components,
      wavelengths_m: m.wavelengthsM,
      center_m: m.center,
      size_m: m.size,
      ...(points.has(m.name) ? { abs_values: points.get(m.name) } : {}),
      ...spectrumJson(spectra.get(m.name)),
      ...modesJson(modes.get(m.name)),
    })),
    request: info.request,
  };
}

/** A material's valid range in µm from the stored `[lo, hi]` metres; `all` when unbounded. */
function validRange(stored: number | string): string {
  try {
    const [lo, hi] = JSON.parse(String(stored)) as number[];
    return hi! > 1
      ? "all"
      : `${Number((lo! * 1e6).toPrecision(3))}–${Number((hi! * 1e6).toPrecision(4))}`;
  } catch {
    return String(stored);
  }
}

/** A material's ε at λ0 and σ as the table shows them; PEC has neither (time_domain says so). */
function permittivityCells(a: Record<string, number | string>): [string, string] {
  if (a.time_domain === "perfect_conductor") return ["— (PEC)", "—"];
  const [re, im] = [num(a.permittivity_real), num(a.permittivity_imag)];
  return [
    `${re.toFixed(4)}${im !== 0 ? ` + ${im.toExponential(2)}i` : ""}`,
    String(num(a.conductivity)),
  ];
}

function materialsTable(info: ResultInfo): string {
  return table([
    ["NAME", "ε AT λ0", "σ (S/m)", "VALID (µm)", "MODEL"],
    ...Object.entries(info.materials).map(([name, a]) => [
      name,
      ...permittivityCells(a),
      validRange(a.valid_range!),
      String(a.model),
    ]),
  ]);
}

const microns = (metres: readonly number[]) =>
  metres.map((w) => Number((w * 1e6).toPrecision(4))).join(" ");

function monitorsTable({ info, spectra }: Inspection): string {
  return table([
    [
      "NAME",
      "KIND",
      "SHAPE (x × y × z)",
      "COMPONENTS",
      "WAVELENGTHS (µm)",
      "CENTER (µm)",
      "SIZE (µm)",
    ],
    ...info.monitors.map((m) => [
      m.name,
      kind(m, spectra.get(m.name)),
      sampleShape(m)?.join(" × ") ?? "—",
      m.components.join(" "),
      microns(m.wavelengthsM),
      vec(m.center),
      vec(m.size),
    ]),
  ]);
}

function pointTable(m: MonitorInfo, byComponent: Record<string, number[]>): string {
  return table([
    ["λ (µm)", ...Object.keys(byComponent).map((c) => `|${c}|`)],
    ...m.wavelengthsM.map((w, i) => [
      microns([w]),
      ...Object.values(byComponent).map((v) => v[i]!.toPrecision(4)),
    ]),
  ]);
}

/** A mode monitor's table: per wavelength and mode, n_eff and the power each way. */
function modeTable(m: ModeDecomposition): string {
  const power = (p: number) => (Number.isNaN(p) ? "—" : p.toExponential(4));
  return table([
    ["λ (µm)", "MODE", "N_EFF", "POWER +", "POWER −"],
    ...m.wavelengthsM.flatMap((w, i) =>
      m.nEff[i]!.map((n, k) => [
        microns([w]),
        String(k),
        n.toFixed(5),
        power(m.forwardPower[i]![k]!),
        power(m.backwardPower[i]![k]!),
      ]),
    ),
  ]);
}

function inspectionText(inspection: Inspection): string {
  const { file, info, spectra, points, modes } = inspection;
  const out = [
    `${file}: emsim result format ${info.formatVersion}, job ${info.jobId}, solver ${info.solverVersion}`,
    "",
    ...setupAndReport(info),
    "",
    "Materials",
    materialsTable(info),
    "",
    "Monitors",
    monitorsTable(inspection),
  ];
  for (const [name, byComponent] of points) {
    const m = info.monitors.find((x) => x.name === name)!;
    out.push("", `Point monitor '${name}' (|value| per wavelength)`, pointTable(m, byComponent));
  }
  for (const spectrum of spectra.values()) {
    out.push("", `Flux monitor '${spectrum.name}' (${spectrum.quantity})`);
    out.push(table(spectrumTable(spectrum)));
  }
  for (const m of modes.values()) {
    out.push("", `Mode monitor '${m.name}' (power in W of a 1 W mode source, each way)`);
    out.push(modeTable(m));
  }
  return `${out.join("\n")}\n`;
}

export async function runInspect(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: "boolean" } }, true);
  if (positionals.length !== 1) throw new UsageError("usage: emsim inspect <result.h5> [--json]");
  io = { ...io, json: values.json === true };
  const file = positionals[0]!;
  return runClientCommand(io, async () => {
    const inspection = await inspectFile(file);
    if (io.json) printJson(io, inspectionJson(inspection));
    else io.stdout.write(inspectionText(inspection));
    return EXIT.ok;
  });
}
