/**
 * `emsim plot result.h5 [--monitor M] [--component C] [--wavelength W] [--part abs|real|imag]
 * [--slice I] [--out plot.png]`: a PNG of one field component — a heat map with axes in µm
 * and a colour bar for plane and volume monitors, a line plot for line monitors, and the
 * spectrum of flux monitors (one named with --monitor, or all of them with --spectrum or when the
 * file has no field monitor to draw), and a far-field monitor's radiation pattern as a polar plot
 * (--far-field, plot-far-field.ts).
 */
import { writeFile } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import {
  readFarFields,
  readFieldMap,
  readResultInfo,
  readSpectra,
  type FieldMap,
  type MonitorInfo,
  type ResultInfo,
  type Spectrum,
} from "../../results/read.js";
import { FIELD_PARTS, fieldPlotPng, type FieldPart } from "../../plot/field-plot.js";
import { spectraPng } from "../../plot/spectrum.js";
import {
  CliError,
  defaultIo,
  EXIT,
  formatMicrons,
  printJson,
  runClientCommand,
  type CommandIo,
} from "../output.js";
import type { StructureSpec } from "../../solver/index.js";
import { checkOutputPath } from "../output-path.js";
import { parse, UsageError } from "../usage.js";
import { parsePhi, plotFarField, type FarFieldRequest } from "./plot-far-field.js";
import { chosenWavelengthIndex, parseWavelength } from "./plot-wavelength.js";

export { parseWavelength } from "./plot-wavelength.js";

export const PLOT_USAGE =
  "emsim plot <result.h5> [--monitor M] [--spectrum] [--component Ex|Ey|Ez|Hx|Hy|Hz] [--wavelength W] [--part abs|real|imag] [--slice INDEX] [--far-field] [--phi DEG ...] [--db] [--out FILE.png] [--no-outline] [--json]";

function monitorKind(m: MonitorInfo): string {
  const extended = m.shape.filter((n) => n > 1).length;
  return ["point", "line", "plane", "volume"][extended]!;
}

/** What `emsim plot` was asked for, its options read and checked. */
interface PlotRequest {
  file: string;
  out: string;
  part: FieldPart;
  /** --wavelength in metres; null: the source's wavelength (or the monitor's first). */
  wavelengthM: number | null;
  sliceIndex: number | undefined;
  monitor: string | undefined;
  component: string | undefined;
  spectrum: boolean;
  outline: boolean;
  /** --far-field (or --phi, --db): a far-field monitor's pattern. */
  farField: boolean;
  phiDeg: number[];
  db: boolean;
}

type FieldMapOptions = { wavelengthIndex: number; sliceIndex?: number };

export async function runPlot(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      monitor: { type: "string", short: "m" },
      component: { type: "string", short: "c" },
      wavelength: { type: "string", short: "w" },
      part: { type: "string" },
      slice: { type: "string" },
      out: { type: "string", short: "o" },
      "no-outline": { type: "boolean" },
      spectrum: { type: "boolean" },
      "far-field": { type: "boolean" },
      phi: { type: "string", multiple: true },
      db: { type: "boolean" },
      json: { type: "boolean" },
    },
    true,
  );
  if (positionals.length !== 1)
    throw new UsageError(`plot takes one result file\nusage: ${PLOT_USAGE}`);
  const part = (values.part ?? "abs") as FieldPart;
  if (!FIELD_PARTS.includes(part)) {
    throw new UsageError(`--part must be one of ${FIELD_PARTS.join(", ")}, got '${values.part}'`);
  }
  const file = positionals[0]!;
  const out = values.out ?? join(dirname(file), `${basename(file, extname(file))}.png`);
  checkOutputPath(out);
  const request: PlotRequest = {
    file,
    part,
    wavelengthM: values.wavelength !== undefined ? parseWavelength(values.wavelength) : null,
    sliceIndex: parseSlice(values.slice),
    out,
    monitor: values.monitor,
    component: values.component,
    spectrum: values.spectrum === true,
    outline: !values["no-outline"],
    farField: values["far-field"] === true || values.phi !== undefined || values.db === true,
    phiDeg: parsePhi(values.phi),
    db: values.db === true,
  };
  if (request.spectrum && request.farField) {
    throw new UsageError("--spectrum and --far-field (--phi, --db) draw different plots: pick one");
  }
  io = { ...io, json: values.json === true };
  return runClientCommand(io, () => plotResultFile(io, request));
}

/** --slice: a sample index along the axis a volume monitor is cut across. */
function parseSlice(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const sliceIndex = Number(text);
  if (!Number.isInteger(sliceIndex) || sliceIndex < 0) {
    throw new UsageError(`--slice must be a sample index (integer >= 0), got '${text}'`);
  }
  return sliceIndex;
}

/**
 * Plots the spectra when asked for (--spectrum, or a flux monitor named) or when the file has
 * nothing else to draw; otherwise one field monitor's component.
 */
async function plotResultFile(io: CommandIo, p: PlotRequest): Promise<number> {
  const info = await readResult(p.file);
  const farFields = info.monitors.some((m) => m.type === "far_field")
    ? await readFarFields(p.file)
    : [];
  const spectra = await readSpectra(p.file);
  const fluxNames = new Set(spectra.map((s) => s.name));
  const chosenFlux = p.monitor !== undefined && fluxNames.has(p.monitor);
  const plottable = info.monitors.filter(
    (m) => monitorKind(m) !== "point" && !fluxNames.has(m.name),
  );
  if (
    p.farField ||
    farFields.some((m) => m.name === p.monitor) ||
    (p.monitor === undefined &&
      plottable.length === 0 &&
      spectra.length === 0 &&
      farFields.length > 0)
  ) {
    return plotFarField(io, farFieldRequest(p), farFields, info.request);
  }
  if (
    p.spectrum ||
    chosenFlux ||
    (p.monitor === undefined && plottable.length === 0 && spectra.length > 0)
  ) {
    const shown = chosenFlux ? spectra.filter((s) => s.name === p.monitor) : spectra;
    if (shown.length === 0) {
      throw new CliError(
        `${p.file} has no flux monitor (see 'emsim inspect ${p.file}')`,
        EXIT.failure,
      );
    }
    return writeSpectra(io, p.out, shown, `spectra of ${shown.map((s) => s.name).join(", ")}`);
  }
  const monitor = chooseMonitor(p, info.monitors, plottable);
  return plotField(io, p, info, monitor);
}

function farFieldRequest(p: PlotRequest): FarFieldRequest {
  const { file, out, monitor, wavelengthM, phiDeg } = p;
  return { file, out, monitor, wavelengthM, phiDeg, scale: p.db ? "db" : "linear" };
}

/** The monitor named with --monitor, else the first one a field plot can show. */
function chooseMonitor(
  p: PlotRequest,
  monitors: MonitorInfo[],
  plottable: MonitorInfo[],
): MonitorInfo {
  if (p.monitor !== undefined) {
    const named = monitors.find((m) => m.name === p.monitor);
    if (!named) {
      throw new CliError(
        `no monitor '${p.monitor}' in ${p.file}; it has ${monitors.map((m) => m.name).join(", ") || "none"}`,
        EXIT.usage,
      );
    }
    return named;
  }
  const first = plottable[0];
  if (!first) {
    throw new CliError(
      `${p.file} has no line, plane or volume monitor to plot (see 'emsim inspect ${p.file}')`,
      EXIT.failure,
    );
  }
  return first;
}

/** Draws one component of a field monitor, writes the PNG and says what it shows. */
async function plotField(
  io: CommandIo,
  p: PlotRequest,
  info: ResultInfo,
  monitor: MonitorInfo,
): Promise<number> {
  const options: FieldMapOptions = {
    wavelengthIndex: chosenWavelengthIndex(monitor, p.wavelengthM, info.request),
    ...(p.sliceIndex !== undefined ? { sliceIndex: p.sliceIndex } : {}),
  };
  if (p.component !== undefined && !monitor.components.includes(p.component)) {
    throw new CliError(
      `monitor '${monitor.name}' did not record ${p.component}; it has ${monitor.components.join(", ")}`,
      EXIT.usage,
    );
  }
  const { component, map } =
    p.component === undefined
      ? await strongestComponent(p.file, monitor, options)
      : {
          component: p.component,
          map: await readFieldMap(p.file, monitor.name, p.component, options),
        };
  const structures = (info.request as { structures?: StructureSpec[] }).structures ?? [];
  const geometry = { structures, fixed: monitorPosition(monitor, map) };
  const png = fieldPlotPng(map, { part: p.part, ...(p.outline ? { geometry } : {}) });
  await writeFile(p.out, png);
  if (io.json) {
    printJson(io, {
      out: p.out,
      bytes: png.length,
      monitor: monitor.name,
      component,
      part: p.part,
      wavelength_m: map.wavelengthM,
      axes: map.axes,
      samples: [map.u.length, map.v.length],
      slice: map.slice,
    });
  } else {
    const shown = p.part === "abs" ? `|${component}|` : `${p.part} part of ${component}`;
    io.stderr.write(
      `plotted ${shown} of monitor '${monitor.name}' at ${formatMicrons(map.wavelengthM)}\n`,
    );
    io.stdout.write(`${p.out}\n`);
  }
  return EXIT.ok;
}

/**
 * The strongest recorded E component (H if no E was recorded), by its peak magnitude: for a
 * plane wave that is the polarisation direction, not a component that is zero everywhere.
 */
async function strongestComponent(
  file: string,
  monitor: MonitorInfo,
  options: FieldMapOptions,
): Promise<{ component: string; map: FieldMap }> {
  const electric = monitor.components.filter((c) => c.startsWith("E"));
  let best = -1;
  let component: string | undefined;
  let map: FieldMap | undefined;
  for (const c of electric.length > 0 ? electric : monitor.components) {
    const candidate = await readFieldMap(file, monitor.name, c, options);
    let peak = 0;
    for (let i = 0; i < candidate.re.length; i++) {
      peak = Math.max(peak, Math.hypot(candidate.re[i]!, candidate.im[i]!));
    }
    if (peak > best) {
      best = peak;
      map = candidate;
      component = c;
    }
  }
  return { component: component!, map: map! };
}

/**
 * Where the plotted plane lies: the coordinates of the axes the monitor does not span, and of
 * a volume's slice, so that the structures are drawn cut there.
 */
function monitorPosition(
  monitor: MonitorInfo,
  map: FieldMap,
): Partial<Record<"x" | "y" | "z", number>> {
  const fixed: Partial<Record<"x" | "y" | "z", number>> = {};
  for (const axis of ["x", "y", "z"] as const) {
    if (monitor[axis].length === 1) fixed[axis] = monitor[axis][0]!;
  }
  if (map.slice) fixed[map.slice.axis as "x" | "y" | "z"] = map.slice.coordinate;
  return fixed;
}

/** Writes the spectra's PNG and says so (or, with --json, what it holds). */
async function writeSpectra(
  io: CommandIo,
  out: string,
  spectra: Spectrum[],
  title: string,
): Promise<number> {
  const png = spectraPng(spectra, title);
  await writeFile(out, png);
  if (io.json) {
    printJson(io, {
      out,
      bytes: png.length,
      spectra: spectra.map((s) => ({
        monitor: s.name,
        quantity: s.quantity,
        points: s.flux.length,
      })),
    });
  } else {
    io.stderr.write(`plotted ${title}\n`);
    io.stdout.write(`${out}\n`);
  }
  return EXIT.ok;
}

/** Opens a result file with messages that say what is wrong with it. */
export async function readResult(file: string) {
  try {
    return await readResultInfo(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const message = (err as Error).message;
    if (code === "ENOENT") throw new CliError(`cannot open ${file}: no such file`, EXIT.usage);
    if (code === "EISDIR") throw new CliError(`cannot open ${file}: not a file`, EXIT.usage);
    if (/not an HDF5 file|unable to open/i.test(message)) {
      throw new CliError(`cannot open ${file}: not an HDF5 file`, EXIT.usage);
    }
    if (/ is truncated: /.test(message)) throw new CliError(message, EXIT.failure);
    throw new CliError(`cannot read ${file}: ${message}`, EXIT.failure);
  }
}
