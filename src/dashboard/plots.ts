/**
 * Field plots of a completed job: what its result file holds (monitors, structures to outline)
 * and one field quantity of one monitor at one wavelength as a compact payload for the page's
 * canvas. Large monitors are downsampled here (readFieldMap's `maxSamples`), never shipped
 * whole, and samples travel as 16-bit integers scaled by the largest magnitude (base64): a
 * 320 × 320 map of one complex component is ≈ 550 kB of JSON instead of several MB of decimal
 * text, and 1/32767 of full scale is far finer than a colour map or a line plot can show.
 * Result files never change, so payloads are cached (bounded by bytes).
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, rename, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { readFieldMap, readResultInfo, type FieldMap, type MonitorInfo } from "../results/read.js";
import { structureShape } from "../plot/structures.js";
import type { SimulationSpec, StructureSpec } from "../solver/index.js";
import type { StorageBackend } from "../storage/types.js";
import { DashboardError } from "./context.js";

/** Samples per axis sent to the browser at most. */
export const PLOT_MAX_SAMPLES = 320;
/**
 * readFieldMap reads only the strided slab it plots, so any monitor can be shown; this bound
 * only guards against a malformed file that declares an absurd shape.
 */
export const PLOT_MAX_DATASET_SAMPLES = 2 ** 40;
const CACHE_BYTES = 48 * 1024 * 1024;

export type MonitorKind = "point" | "line" | "plane" | "volume";

export interface MonitorSummary {
  name: string;
  kind: MonitorKind;
  /** Axes with more than one sample, e.g. ["x", "z"]. */
  axes: string[];
  shape: [number, number, number];
  components: string[];
  wavelengths_m: number[];
  center_m: number[];
  size_m: number[];
  /** Quantities the page can show: "E" (|E|), "H" (|H|), then each recorded component. */
  quantities: string[];
  /** Volume monitors: the axis cut and how many slices there are. */
  slice: { axis: string; count: number; coordinates_um: number[] } | null;
  plottable: boolean;
}

export interface StructureOutline {
  type: string;
  material: string;
  center_m?: number[];
  size_m?: number[];
  radius_m?: number;
  height_m?: number;
  axis?: string;
  /** A polyslab's extent along z. */
  z_min_m?: number;
  z_max_m?: number;
  /**
   * A polyslab's rings (outline, then holes) at z_min and z_max, vertex for vertex, the
   * sidewall angle applied (the plotting core blends them; src/plot/sections.ts). Left out past
   * OUTLINE_MAX_VERTICES vertices in all, so a large imported layout does not swell the page.
   */
  rings_m?: { bottom: [number, number][][]; top: [number, number][][] };
}

/** Polyslab vertices (all structures together) the summary sends for drawing outlines. */
export const OUTLINE_MAX_VERTICES = 20_000;

export interface ResultSummary {
  job_id: string;
  source_wavelength_m: number | null;
  domain_size_m: number[] | null;
  monitors: MonitorSummary[];
  structures: StructureOutline[];
}

export interface FieldPayload {
  monitor: string;
  quantity: string;
  wavelength_m: number;
  kind: MonitorKind;
  /** Plotted axes: two for a map (horizontal, vertical), one for a line. */
  axes: string[];
  /** Coordinates along each plotted axis, µm. */
  coords_um: number[][];
  /** Samples per plotted axis as sent, and in the file. */
  shape: number[];
  full_shape: number[];
  slice: { axis: string; index: number; count: number; coordinate_um: number } | null;
  /** Components that went into |E| or |H|. */
  from_components: string[];
  encoding: "int16le-base64";
  /** value = integer × scale. */
  scale: number;
  max_abs: number;
  /** Row-major over `shape` (first axis slowest). |E| maps carry `abs`; components `re`, `im`. */
  abs?: string;
  re?: string;
  im?: string;
}

const AXES = ["x", "y", "z"];
const E_COMPONENTS = ["Ex", "Ey", "Ez"];
const H_COMPONENTS = ["Hx", "Hy", "Hz"];

function kindOf(shape: [number, number, number]): MonitorKind {
  return (["point", "line", "plane", "volume"] as const)[shape.filter((n) => n > 1).length]!;
}

/** The axis readFieldMap cuts a volume along: the one with fewest samples (first on a tie). */
function sliceAxis(shape: [number, number, number]): number {
  let best = 0;
  for (let a = 1; a < 3; a++) if (shape[a]! < shape[best]!) best = a;
  return best;
}

const um = (m: number) => Math.round(m * 1e12) / 1e6;

export function summarizeMonitor(m: MonitorInfo): MonitorSummary {
  const kind = kindOf(m.shape);
  const quantities = [
    ...(m.components.some((c) => E_COMPONENTS.includes(c)) ? ["E"] : []),
    ...(m.components.some((c) => H_COMPONENTS.includes(c)) ? ["H"] : []),
    ...m.components,
  ];
  const cut = kind === "volume" ? sliceAxis(m.shape) : -1;
  const samples = m.shape[0] * m.shape[1] * m.shape[2] * Math.max(1, m.wavelengthsM.length);
  return {
    name: m.name,
    kind,
    axes: AXES.filter((_, a) => m.shape[a]! > 1),
    shape: m.shape,
    components: m.components,
    wavelengths_m: m.wavelengthsM,
    center_m: m.center,
    size_m: m.size,
    quantities,
    slice:
      cut >= 0
        ? {
            axis: AXES[cut]!,
            count: m.shape[cut]!,
            coordinates_um: Array.from([m.x, m.y, m.z][cut]!, um),
          }
        : null,
    plottable: samples <= PLOT_MAX_DATASET_SAMPLES,
  };
}

/** What of a structure the browser draws; a polyslab's rings only while the total allows. */
function outlineOf(
  s: StructureSpec,
  rings: StructureOutline["rings_m"] | undefined,
): StructureOutline {
  const common = { type: s.type, material: s.material };
  switch (s.type) {
    case "box":
      return { ...common, center_m: s.center, size_m: s.size };
    case "sphere":
      return { ...common, center_m: s.center, radius_m: s.radius };
    case "cylinder":
      return {
        ...common,
        center_m: s.center,
        radius_m: s.radius,
        height_m: s.height,
        axis: s.axis,
      };
    case "polyslab":
      return {
        ...common,
        z_min_m: s.z_min,
        z_max_m: s.z_max,
        ...(rings ? { rings_m: rings } : {}),
      };
    default:
      return common; // a kind this version does not draw
  }
}

function structuresOf(spec: SimulationSpec): StructureOutline[] {
  let vertices = 0;
  return spec.structures.map((s) => {
    const ends = s.type === "polyslab" ? structureShape(s).ends : undefined;
    const count = ends ? ends.bottom.reduce((n, ring) => n + ring.length, 0) : 0;
    const drawn = ends !== undefined && vertices + count <= OUTLINE_MAX_VERTICES;
    if (drawn) vertices += count;
    return outlineOf(s, drawn ? (ends as StructureOutline["rings_m"]) : undefined);
  });
}

/** The file lists monitors alphabetically; show them in the order the request gave. */
function inRequestOrder(monitors: MonitorInfo[], spec: SimulationSpec): MonitorInfo[] {
  const names = spec.monitors.map((m) => m.name);
  const rank = (name: string) => {
    const i = names.indexOf(name);
    return i < 0 ? names.length : i;
  };
  return [...monitors].sort((a, b) => rank(a.name) - rank(b.name));
}

/** Little-endian int16 samples scaled so the largest magnitude maps to ±32767. */
function encode(values: Float32Array | Float64Array, scale: number): string {
  const buf = Buffer.alloc(values.length * 2);
  for (let i = 0; i < values.length; i++) {
    const q = scale > 0 ? Math.round(values[i]! / scale) : 0;
    buf.writeInt16LE(Math.max(-32767, Math.min(32767, Number.isFinite(q) ? q : 0)), i * 2);
  }
  return buf.toString("base64");
}

function maxAbs(...arrays: (Float32Array | Float64Array)[]): number {
  let max = 0;
  for (const arr of arrays) {
    for (const v of arr) {
      const a = Math.abs(v);
      if (a > max && Number.isFinite(a)) max = a;
    }
  }
  return max;
}

class ByteBoundedCache<T> {
  private readonly entries = new Map<string, { value: T; bytes: number }>();
  private total = 0;
  constructor(private readonly limitBytes: number) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: T, bytes: number): void {
    if (bytes > this.limitBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    while (this.total > this.limitBytes) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.total -= entry.bytes;
    }
  }
}

export interface FieldRequest {
  monitor: string;
  quantity: string;
  wavelengthIndex: number;
  sliceIndex: number | null;
}

export class PlotService {
  private readonly summaries = new ByteBoundedCache<ResultSummary>(4 * 1024 * 1024);
  private readonly fields = new ByteBoundedCache<FieldPayload>(CACHE_BYTES);
  private readonly downloads = new Map<string, Promise<string>>();

  private copies: Promise<string> | null = null;

  constructor(private readonly storage: StorageBackend) {}

  /**
   * Where copies of stored results are kept (storage other than local files): a folder of this
   * process's own, readable by its user alone, made at the first copy. A shared, fixed folder
   * let other local users read every account's results, or plant a file under a result's key.
   */
  copiesDir(): Promise<string> {
    this.copies ??= mkdtemp(join(tmpdir(), "emsim-dashboard-results-"));
    return this.copies;
  }

  /**
   * A local path of the result file: the file itself for local storage, otherwise a copy
   * fetched once into a cache directory.
   */
  private async localPath(resultKey: string): Promise<string> {
    const local = this.storage as StorageBackend & { pathOf?: (key: string) => string };
    if (typeof local.pathOf === "function") return local.pathOf(resultKey);
    let pending = this.downloads.get(resultKey);
    if (!pending) {
      pending = (async () => {
        const path = join(await this.copiesDir(), resultKey.replace(/[^A-Za-z0-9._-]/g, "_"));
        const present = await stat(path).catch(() => null);
        if (!present) {
          const partial = `${path}.${process.pid}.part`;
          await pipeline(await this.storage.read(resultKey), createWriteStream(partial));
          await rename(partial, path);
        }
        return path;
      })();
      pending.catch(() => this.downloads.delete(resultKey));
      this.downloads.set(resultKey, pending);
    }
    return pending;
  }

  async summary(jobId: string, resultKey: string): Promise<ResultSummary> {
    const cached = this.summaries.get(resultKey);
    if (cached) return cached;
    const info = await readResultInfo(await this.localPath(resultKey));
    // The stored request: the validated spec, with its defaults filled in.
    const spec = info.request as unknown as SimulationSpec;
    const summary: ResultSummary = {
      job_id: jobId,
      source_wavelength_m: spec.source.wavelength,
      domain_size_m: spec.domain.size,
      // Only monitors with field samples: a flux or far-field monitor has none to draw here (the
      // job's page shows their spectra and radiation patterns, from the job record).
      monitors: inRequestOrder(
        info.monitors.filter((m) => m.components.length > 0),
        spec,
      ).map(summarizeMonitor),
      structures: structuresOf(spec),
    };
    this.summaries.set(resultKey, summary, JSON.stringify(summary).length);
    return summary;
  }

  async field(jobId: string, resultKey: string, req: FieldRequest): Promise<FieldPayload> {
    const key = `${resultKey}\n${req.monitor}\n${req.quantity}\n${req.wavelengthIndex}\n${req.sliceIndex ?? ""}`;
    const cached = this.fields.get(key);
    if (cached) return cached;
    const summary = await this.summary(jobId, resultKey);
    const monitor = summary.monitors.find((m) => m.name === req.monitor);
    if (!monitor) throw new DashboardError(404, `This result has no monitor '${req.monitor}'.`);
    if (!monitor.quantities.includes(req.quantity)) {
      throw new DashboardError(
        404,
        `Monitor '${monitor.name}' did not record ${req.quantity} (it has ${monitor.components.join(", ")}).`,
      );
    }
    if (req.wavelengthIndex < 0 || req.wavelengthIndex >= monitor.wavelengths_m.length) {
      throw new DashboardError(
        404,
        `Monitor '${monitor.name}' has no wavelength ${req.wavelengthIndex}.`,
      );
    }
    if (!monitor.plottable) {
      throw new DashboardError(
        413,
        `Monitor '${monitor.name}' is too large to plot in the dashboard; download the result file and plot it locally.`,
      );
    }
    const path = await this.localPath(resultKey);
    const options = {
      wavelengthIndex: req.wavelengthIndex,
      maxSamples: PLOT_MAX_SAMPLES,
      ...(req.sliceIndex !== null ? { sliceIndex: req.sliceIndex } : {}),
    };
    const magnitude = req.quantity === "E" || req.quantity === "H";
    const components = magnitude
      ? monitor.components.filter((c) => c.startsWith(req.quantity))
      : [req.quantity];
    const maps: FieldMap[] = [];
    for (const c of components) maps.push(await readFieldMap(path, monitor.name, c, options));
    const payload = toPayload(monitor, req, maps, magnitude);
    this.fields.set(
      key,
      payload,
      (payload.abs?.length ?? 0) + (payload.re?.length ?? 0) * 2 + 4096,
    );
    return payload;
  }
}

function toPayload(
  monitor: MonitorSummary,
  req: FieldRequest,
  maps: FieldMap[],
  magnitude: boolean,
): FieldPayload {
  const first = maps[0]!;
  const nu = first.u.length;
  const nv = first.v.length;
  let axes = [...first.axes];
  let coords = [Array.from(first.u, um), Array.from(first.v, um)];
  let shape = [nu, nv];
  let fullShape = [...first.fullShape];
  if (monitor.kind === "line" || monitor.kind === "point") {
    // readFieldMap pads a line to two axes with a singleton one; keep the real axis only.
    const real = nu > 1 ? 0 : nv > 1 ? 1 : 0;
    axes = [axes[real]!];
    coords = [coords[real]!];
    shape = [shape[real]!];
    fullShape = [fullShape[real]!];
  }
  let slice: FieldPayload["slice"] = null;
  if (first.slice && monitor.slice) {
    const coordinateUm = um(first.slice.coordinate);
    const index = monitor.slice.coordinates_um.findIndex((c) => c === coordinateUm);
    slice = {
      axis: first.slice.axis,
      index: index >= 0 ? index : Math.floor(monitor.slice.count / 2),
      count: monitor.slice.count,
      coordinate_um: coordinateUm,
    };
  }
  const base = {
    monitor: monitor.name,
    quantity: req.quantity,
    wavelength_m: first.wavelengthM,
    kind: monitor.kind,
    axes,
    coords_um: coords,
    shape,
    full_shape: fullShape,
    slice,
    from_components: maps.map((m) => m.component),
    encoding: "int16le-base64" as const,
  };
  if (magnitude) {
    const abs = new Float64Array(nu * nv);
    for (const m of maps) {
      for (let i = 0; i < abs.length; i++) abs[i] = abs[i]! + m.re[i]! ** 2 + m.im[i]! ** 2;
    }
    for (let i = 0; i < abs.length; i++) abs[i] = Math.sqrt(abs[i]!);
    const max = maxAbs(abs);
    const scale = max > 0 ? max / 32767 : 1;
    return { ...base, scale, max_abs: max, abs: encode(abs, scale) };
  }
  const max = maxAbs(first.re, first.im);
  const scale = max > 0 ? max / 32767 : 1;
  return { ...base, scale, max_abs: max, re: encode(first.re, scale), im: encode(first.im, scale) };
}
