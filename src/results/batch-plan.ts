/**
 * What a batch's result file can stack (batch-merge.ts writes it): the variants' result files
 * are opened one after another, and for every group that stacks (`/monitors/<name>`,
 * `/s_matrix`) the datasets of the first completed variant are compared with every other's.
 *
 * A group stacks when every completed variant has it with the same datasets, shapes, types and
 * scale attachments. Its datasets then fall in two kinds, told apart as netCDF readers tell
 * them: coordinates (dimension scales, and the auxiliary coordinates data variables name in
 * their CF `coordinates` attribute, such as `frequency`) and data variables (the rest: the
 * fields, spectra, patterns, amplitudes and S). Data variables gain the sweep's dimensions; a
 * coordinate is written once, unless its values differ between variants (a swept source
 * wavelength, a swept monitor position), and then it gains the sweep's dimensions too.
 * Group attributes that differ between variants are left out and named.
 */
import h5wasm, { type Dataset, type Dtype, type File as H5File, type Group } from "h5wasm/node";
import { RESULT_FORMAT, RESULT_FORMAT_VERSION } from "./hdf5.js";
import { assertHdf5File } from "./read.js";

/** A batch result that cannot be written: the message says which variant or parameter. */
export class BatchMergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BatchMergeError";
  }
}

/** An attribute as read, to be written again as it was. */
export interface AttrCopy {
  name: string;
  value: unknown;
  shape: number[] | null;
  dtype: Dtype;
}

/** One dataset of a stacking group, as the first completed variant has it. */
export interface DatasetPlan {
  name: string;
  kind: "data" | "coordinate";
  /** Its shape in one variant's file ([] for a scalar). */
  shape: number[];
  dtype: Dtype;
  /** Bytes of one element. */
  elementBytes: number;
  /** One element of NaN (every member NaN for a complex compound), or null: not a float type. */
  nan: Uint8Array | null;
  /** Its dimension scale name, or null when it is not a scale. */
  scaleName: string | null;
  /** Per axis, the name (in the same group) of the scale attached to it. */
  attached: string[];
  attrs: AttrCopy[];
  /** The first completed variant's values (coordinates only, written when they do not vary). */
  value: unknown;
  /** A coordinate whose values differ between completed variants. */
  varies: boolean;
}

/** A group that stacks: its datasets, and the attributes every completed variant agrees on. */
export interface GroupPlan {
  /** "monitors/<name>" or "s_matrix". */
  path: string;
  attrs: AttrCopy[];
  /** Attributes left out because they differ between completed variants. */
  varyingAttrs: string[];
  datasets: DatasetPlan[];
}

/** What one completed variant's run report says (its file's /solver attributes). */
export interface VariantRun {
  solverVersion: string;
  stepsRun: number;
  converged: boolean;
  wallSeconds: number;
}

export interface BatchPlan {
  groups: GroupPlan[];
  /** Groups that do not stack, each with the reason. */
  dropped: { group: string; reason: string }[];
  /** The first completed variant: its index, and its request with defaults filled in. */
  first: { index: number; requestJson: string };
  /** Per variant, its run report, or null where it did not complete. */
  runs: (VariantRun | null)[];
}

/** Attributes of the HDF5 Dimension Scale and netCDF-4 machinery: rebuilt, never copied. */
const MACHINERY = new Set([
  "CLASS",
  "NAME",
  "DIMENSION_LIST",
  "REFERENCE_LIST",
  "_Netcdf4Dimid",
  "_Netcdf4Coordinates",
]);

/** The groups of a result file that stack: every monitor, and the S-matrix. */
function stackingGroups(file: H5File): string[] {
  const monitors = file.get("monitors") as Group | null;
  const names = (monitors?.keys() ?? []).map((name) => `monitors/${name}`);
  return file.get("s_matrix") ? [...names, "s_matrix"] : names;
}

export function readAttrs(entity: Group | Dataset): AttrCopy[] {
  return Object.entries(entity.attrs)
    .filter(([name]) => !MACHINERY.has(name))
    .map(([name, a]) => ({ name, value: a.value, shape: a.shape, dtype: a.dtype }));
}

/** A value as comparable text: typed arrays by their bytes (NaN payloads and -0 included). */
function valueKey(value: unknown): string {
  if (ArrayBuffer.isView(value)) {
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
  }
  return JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
}

/** One NaN element of a float type or a compound of floats; null for anything else. */
function nanElement(d: Dataset): Uint8Array | null {
  const m = d.metadata;
  const FLOAT = 1; // H5T_FLOAT
  const members = m.compound_type
    ? m.compound_type.members.map((c) => ({ offset: c.offset, size: c.size, type: c.type }))
    : [{ offset: 0, size: m.size, type: m.type }];
  if (!members.every((c) => c.type === FLOAT && (c.size === 4 || c.size === 8))) return null;
  const element = new Uint8Array(m.size);
  const view = new DataView(element.buffer);
  for (const c of members) {
    if (c.size === 8) view.setFloat64(c.offset, Number.NaN, true);
    else view.setFloat32(c.offset, Number.NaN, true);
  }
  return element;
}

/** The names of the scales attached to each axis, or null if one lies outside the group. */
function attachedScales(d: Dataset, group: string, rank: number): string[] | null {
  const names: string[] = [];
  for (let axis = 0; axis < rank; axis++) {
    const [path] = d.get_attached_scales(axis);
    if (!path || path.slice(0, path.lastIndexOf("/")) !== `/${group}`) return null;
    names.push(path.slice(path.lastIndexOf("/") + 1));
  }
  return names;
}

/** A group's datasets as the first completed variant has them, or why it cannot stack. */
function planGroup(file: H5File, path: string): GroupPlan | string {
  const group = file.get(path) as Group;
  const datasets: DatasetPlan[] = [];
  const auxiliary = new Set<string>();
  for (const name of group.keys()) {
    const d = group.get(name);
    if (!(d instanceof h5wasm.Dataset)) return `it holds ${name}, which is not a dataset`;
    const shape = d.shape ?? [];
    const attached = attachedScales(d, path, shape.length);
    const scaleName = d.get_scale_name();
    if (!attached && !scaleName) return `${name} has an axis without a dimension scale`;
    const coordinates = d.attrs.coordinates?.value;
    if (typeof coordinates === "string") coordinates.split(/\s+/).forEach((c) => auxiliary.add(c));
    datasets.push({
      name,
      kind: scaleName ? "coordinate" : "data",
      shape,
      dtype: d.dtype,
      elementBytes: d.metadata.size,
      nan: nanElement(d),
      scaleName,
      attached: scaleName ? [] : attached!,
      attrs: readAttrs(d),
      value: null,
      varies: false,
    });
  }
  for (const d of datasets) {
    if (auxiliary.has(d.name)) d.kind = "coordinate";
    if (d.kind === "data" && !d.nan) return `${d.name} is not of a floating-point type`;
    // Only coordinates are read whole here: a field monitor's data can be large.
    if (d.kind === "coordinate") d.value = (group.get(d.name) as Dataset).value;
  }
  return { path, attrs: readAttrs(group), varyingAttrs: [], datasets };
}

/**
 * Why this variant's group does not stack with the plan (the first completed variant's, named
 * `first`), or null if it does; marks the coordinates and attributes that differ.
 */
function compareGroup(file: H5File, plan: GroupPlan, first: string): string | null {
  const group = file.get(plan.path) as Group | null;
  if (!group) return "absent";
  const names = group.keys();
  const expected = plan.datasets.map((d) => d.name);
  const extra = names.filter((n) => !expected.includes(n));
  if (extra.length > 0) return `it has ${extra.join(", ")} as well`;
  for (const d of plan.datasets) {
    const other = group.get(d.name);
    if (!(other instanceof h5wasm.Dataset)) return `${d.name} is absent`;
    const shape = other.shape ?? [];
    if (valueKey(shape) !== valueKey(d.shape)) {
      return `${d.name} is shaped (${shape.join(", ")}) where ${first}'s is (${d.shape.join(", ")})`;
    }
    if (valueKey(other.dtype) !== valueKey(d.dtype)) return `${d.name} has another type`;
    // Which datasets are scales, and what they are attached to, is not compared: the writer
    // of one format version makes them from the names and shapes compared here, and reading
    // them costs more than all the rest (h5wasm dereferences each axis's scale anew): about a
    // millisecond a dataset, seconds for a sweep of thousands.
    if (d.kind === "coordinate" && valueKey(other.value) !== valueKey(d.value)) d.varies = true;
  }
  const attrs = new Map(readAttrs(group).map((a) => [a.name, valueKey(a.value)]));
  for (const a of plan.attrs) {
    if (attrs.get(a.name) !== valueKey(a.value) && !plan.varyingAttrs.includes(a.name)) {
      plan.varyingAttrs.push(a.name);
    }
  }
  return null;
}

/** A variant's result file, checked to be one this writer can stack. */
export function openVariant(path: string, label: string): H5File {
  let file: H5File | null = null;
  let format: unknown;
  let version: number;
  try {
    // Checked first: h5wasm given anything but HDF5 prints pages of diagnostics, then fails.
    assertHdf5File(path);
    file = new h5wasm.File(path, "r");
    format = file.attrs.format?.value;
    version = Number(file.attrs.format_version?.value);
  } catch (err) {
    file?.close();
    const why = (err as Error).message;
    throw new BatchMergeError(`${label}: its result file does not open (${why})`);
  }
  if (format !== RESULT_FORMAT || version !== RESULT_FORMAT_VERSION) {
    file.close();
    throw new BatchMergeError(
      `${label}: its result file is not an ${RESULT_FORMAT} file of format_version ${RESULT_FORMAT_VERSION}`,
    );
  }
  return file;
}

/** The run report of a completed variant's file. */
function variantRun(file: H5File): VariantRun {
  const solver = file.get("solver") as Group | null;
  const attr = (name: string) => Number(solver?.attrs[name]?.value ?? Number.NaN);
  return {
    solverVersion: String(file.attrs.solver_version?.value ?? ""),
    stepsRun: attr("steps_run"),
    converged: attr("converged") === 1,
    wallSeconds: attr("wall_seconds"),
  };
}

/**
 * Reads every completed variant's file (`paths[i]`, null where variant i did not complete)
 * and decides what stacks. `label(i)` names variant i in messages (its job and parameters).
 * @throws BatchMergeError when no variant completed or a file is not a current result file.
 */
export async function planBatch(
  paths: (string | null)[],
  label: (index: number) => string,
): Promise<BatchPlan> {
  await h5wasm.ready;
  const firstIndex = paths.findIndex((p) => p !== null);
  if (firstIndex < 0) throw new BatchMergeError("no variant of the batch completed");
  const groups = new Map<string, GroupPlan>();
  const dropped = new Map<string, string>();
  const runs: (VariantRun | null)[] = paths.map(() => null);
  let requestJson = "";
  for (const [index, path] of paths.entries()) {
    if (path === null) continue;
    const file = openVariant(path, label(index));
    try {
      runs[index] = variantRun(file);
      if (index === firstIndex) {
        requestJson = String((file.get("simulation") as Group).attrs.request_json?.value ?? "");
        for (const name of stackingGroups(file)) {
          const plan = planGroup(file, name);
          if (typeof plan === "string") dropped.set(name, plan);
          else groups.set(name, plan);
        }
        continue;
      }
      for (const name of stackingGroups(file)) {
        if (!groups.has(name) && !dropped.has(name)) {
          dropped.set(
            name,
            `it is absent from ${label(firstIndex)}'s result but in ${label(index)}'s`,
          );
        }
      }
      for (const [name, plan] of groups) {
        const why = compareGroup(file, plan, label(firstIndex));
        if (why === null) continue;
        groups.delete(name);
        dropped.set(name, `in ${label(index)}'s result ${why === "absent" ? "it is absent" : why}`);
      }
    } finally {
      file.close();
    }
  }
  for (const [name, plan] of groups) {
    // A coordinate that varies gains the sweep's dimensions and is NaN where a variant failed:
    // only a floating-point one can (port names, strings, cannot).
    const bad = plan.datasets.find((d) => d.varies && !d.nan);
    if (!bad) continue;
    groups.delete(name);
    dropped.set(name, `its ${bad.name} differs between variants and is not a number`);
  }
  return {
    groups: [...groups.values()],
    dropped: [...dropped].map(([group, reason]) => ({ group, reason })),
    first: { index: firstIndex, requestJson },
    runs,
  };
}
