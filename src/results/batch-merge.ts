/**
 * A batch's result file (DESIGN §11, docs/result-format.md "Batch result file"): the
 * variants' result files stacked along the sweep's dimensions, so that one
 * `xarray.open_dataset(…, group="monitors/T")` gives T(thickness, wavelength). Layout:
 *   /                  attrs format="emsim-batch-result", format_version, batch_id, created_at,
 *                      solver_version, units, combine, dimensions, parameters_json, notes,
 *                      dropped_groups
 *   /simulation        attrs request_json (the first completed variant's), job_id
 *   /jobs              job_id, status, error_detail, solver_version, steps_run, converged,
 *                      wall_seconds, each shaped as the sweep
 *   /monitors/<name>   every data variable of the job files' group (fields, spectra, patterns,
 *   /s_matrix          amplitudes, S) with the sweep's dimensions first; NaN where a variant
 *                      did not complete; the group's own coordinates once, or along the sweep
 *                      where they differ between variants
 * Every group that has the sweep's dimensions holds them as its own dimension scales (and, for
 * a zip, the other parameters as coordinates along the one dimension), as each monitor group
 * of a job's file holds its x, y, z: xarray opens one group at a time and sees only the
 * scales in it.
 *
 * What stacks and what does not: batch-plan.ts. How the numbers move: batch-slabs.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import h5wasm, { type Dataset, type File as H5File, type Group } from "h5wasm/node";
import {
  BatchMergeError,
  planBatch,
  type AttrCopy,
  type BatchPlan,
  type DatasetPlan,
  type GroupPlan,
} from "./batch-plan.js";
import {
  createStacked,
  readSlab,
  repeated,
  slabs,
  IN_MEMORY_STACK_BYTES,
  writeSlab,
  type Slab,
} from "./batch-slabs.js";
import { createDataset, createFile, createGroup } from "./h5-create.js";
import { BATCH_RESULT_FORMAT } from "./hdf5.js";
import { lowLevelModule, reopen, ResultFileError, syncToDisk } from "./read-back.js";
import type { LowLevelModule } from "./read-back.js";
import { sweepNameProblem } from "./sweep-names.js";

export { BatchMergeError } from "./batch-plan.js";
export { RESERVED_SWEEP_NAMES, sweepNameProblem } from "./sweep-names.js";

export { BATCH_RESULT_FORMAT };
export const BATCH_RESULT_FORMAT_VERSION = 1;

/** A parameter's value: what a JSON Pointer into the simulation may be set to. */
export type SweepValue = number | string | boolean;

/** One swept parameter: the dimension's name, its JSON Pointer, its values in order. */
export interface SweepParameter {
  name: string;
  path: string;
  values: SweepValue[];
  /** The unit of what `path` sets ("m"; schema/pointer-unit.ts), null or absent for none. */
  unit?: string | null;
}

/**
 * The batch's parameters and how they combine. "product": one dimension per parameter, in
 * this order; "zip": one dimension, named after the first parameter, the others coordinates
 * along it (as many values each).
 */
export interface BatchSweep {
  combine: "product" | "zip";
  parameters: SweepParameter[];
}

/** One variant of the batch: its job's result file (a path or its bytes), or why it has none. */
export type BatchVariantResult =
  | { jobId: string; status: "COMPLETED"; result: string | Uint8Array }
  | { jobId: string; status: "FAILED" | "CANCELLED"; errorDetail: string };

export interface BatchResultInput {
  batchId: string;
  sweep: BatchSweep;
  /**
   * One per variant, row-major over the sweep's dimensions (the last parameter fastest; a
   * zip's in the order of its values).
   */
  variants: BatchVariantResult[];
}

export interface BatchResultOptions {
  /**
   * A stacked dataset up to this many bytes (all variants) is assembled in memory and written
   * at once, in chunks shared by variants; a larger one a variant at a time (batch-slabs.ts).
   * Default 16 MiB.
   */
  inMemoryBytes?: number;
}

/** What the file holds: the groups stacked, and those left out with the reason. */
export interface BatchResultSummary {
  stacked: string[];
  dropped: { group: string; reason: string }[];
}

/** The sweep's shape: one length per dimension. @throws BatchMergeError for a bad sweep. */
export function sweepShape(sweep: BatchSweep, variants: number): number[] {
  const { parameters } = sweep;
  if (parameters.length === 0) throw new BatchMergeError("the batch has no parameters");
  for (const p of parameters) {
    const problem = sweepNameProblem(p.name);
    if (problem) throw new BatchMergeError(`parameter "${p.name}" ${problem}`);
    if (p.values.length === 0) throw new BatchMergeError(`parameter "${p.name}" has no values`);
    if (new Set(p.values.map((v) => typeof v)).size !== 1) {
      throw new BatchMergeError(`parameter "${p.name}" mixes kinds of values`);
    }
  }
  if (new Set(parameters.map((p) => p.name)).size !== parameters.length) {
    throw new BatchMergeError("two parameters have the same name");
  }
  const zip = sweep.combine === "zip";
  if (zip && parameters.some((p) => p.values.length !== parameters[0]!.values.length)) {
    throw new BatchMergeError("zipped parameters need as many values each");
  }
  const shape = zip ? [parameters[0]!.values.length] : parameters.map((p) => p.values.length);
  const count = shape.reduce((a, b) => a * b, 1);
  if (count !== variants) {
    throw new BatchMergeError(`the sweep has ${count} variants but ${variants} were given`);
  }
  return shape;
}

/** Variant `index`'s position along each dimension (row-major: the last fastest). */
function sweepIndex(index: number, shape: number[]): number[] {
  const at = new Array<number>(shape.length);
  for (let k = shape.length - 1; k >= 0; k--) {
    at[k] = index % shape[k]!;
    index = Math.floor(index / shape[k]!);
  }
  return at;
}

/** "job <id> (gap=2e-7, width=5e-7)": a variant as messages name it. */
function variantLabel(input: BatchResultInput, shape: number[], index: number): string {
  const at = sweepIndex(index, shape);
  const { parameters } = input.sweep;
  const values = parameters.map((p, k) => {
    const i = input.sweep.combine === "zip" ? at[0]! : at[k]!;
    return `${p.name}=${String(p.values[i])}`;
  });
  return `job ${input.variants[index]!.jobId} (${values.join(", ")})`;
}

function str(target: Pick<Group, "create_attribute">, name: string, value: string): void {
  target.create_attribute(name, value);
}

function i64(target: Pick<Group, "create_attribute">, name: string, value: number): void {
  target.create_attribute(name, BigInt64Array.from([BigInt(value)]), null, "<q");
}

function copyAttrs(target: Pick<Group, "create_attribute">, attrs: AttrCopy[], skip: string[]) {
  for (const a of attrs) {
    if (skip.includes(a.name)) continue;
    if (typeof a.value === "string") str(target, a.name, a.value);
    else if (Array.isArray(a.value)) target.create_attribute(a.name, a.value as string[], a.shape);
    else target.create_attribute(a.name, a.value as Float64Array, a.shape, a.dtype);
  }
}

/**
 * Writes the batch's result file at `path` from its variants' result files, and reads it back
 * (as a job's file is: a full disk leaves a file that opens fine).
 * @throws BatchMergeError for a sweep that does not match the variants, a variant's file that
 *   is not a current result file, or no completed variant; ResultFileError when the written
 *   file does not read back (it is then removed).
 */
export async function writeBatchResultFile(
  path: string,
  input: BatchResultInput,
  options: BatchResultOptions = {},
): Promise<BatchResultSummary> {
  const shape = sweepShape(input.sweep, input.variants.length);
  const scratch = mkdtempSync(join(tmpdir(), "emsim-batch-"));
  try {
    // Variants given as bytes are put in files: h5wasm opens files.
    const paths = input.variants.map((v, i) => {
      if (v.status !== "COMPLETED") return null;
      if (typeof v.result === "string") return v.result;
      const file = join(scratch, `${i}.h5`);
      writeFileSync(file, v.result);
      return file;
    });
    const plan = await planBatch(paths, (i) => variantLabel(input, shape, i));
    checkNames(input.sweep, plan);
    const module = await lowLevelModule();
    const inMemoryBytes = options.inMemoryBytes ?? IN_MEMORY_STACK_BYTES;
    try {
      const stacks = writeBatchFile(path, input, shape, plan, paths, { inMemoryBytes, module });
      verify(path, shape, stacks, paths, module);
    } catch (err) {
      rmSync(path, { force: true }); // never a half-written file where the batch's should be
      throw err;
    }
    return { stacked: plan.groups.map((g) => g.path), dropped: plan.dropped };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A parameter named like a dataset of a group it would join would hide it. */
function checkNames(sweep: BatchSweep, plan: BatchPlan): void {
  for (const g of plan.groups) {
    const names = new Set(g.datasets.flatMap((d) => [d.name, `${d.name}_index`]));
    for (const p of sweep.parameters) {
      if (names.has(p.name)) {
        throw new BatchMergeError(`parameter "${p.name}" has the name of ${g.path}/${p.name}`);
      }
    }
  }
}

/** One stacked dataset: where it is (the same path in the variants' files and the batch's). */
interface Stack {
  path: string;
  own: number[];
  elementBytes: number;
  nan: Uint8Array;
  /** The whole stack, for a small one, assembled in memory and written at once. */
  whole: Uint8Array | null;
}

/** Writes the whole file; returns its stacks, for `verify`. */
function writeBatchFile(
  path: string,
  input: BatchResultInput,
  shape: number[],
  plan: BatchPlan,
  paths: (string | null)[],
  options: { inMemoryBytes: number; module: LowLevelModule },
): Stack[] {
  const file = createFile(path);
  try {
    writeRoot(file, input, plan);
    const simulation = createGroup(file, "simulation");
    str(simulation, "request_json", plan.first.requestJson);
    str(simulation, "job_id", input.variants[plan.first.index]!.jobId);
    writeJobs(createGroup(file, "jobs"), input, shape, plan);
    createGroup(file, "monitors");
    const layout = { sweep: input.sweep, shape, inMemoryBytes: options.inMemoryBytes };
    const stacks = plan.groups.flatMap((g) => writeGroupLayout(file, g, layout));
    fillStacks(file, stacks, shape, paths, options.module);
    return stacks;
  } finally {
    file.close();
  }
}

/** The root's attributes: what the file is, its batch, its parameters, what was left out. */
function writeRoot(file: H5File, input: BatchResultInput, plan: BatchPlan): void {
  const { sweep } = input;
  str(file, "format", BATCH_RESULT_FORMAT);
  i64(file, "format_version", BATCH_RESULT_FORMAT_VERSION);
  str(file, "batch_id", input.batchId);
  str(file, "created_at", new Date().toISOString());
  const versions = new Set(plan.runs.flatMap((r) => (r ? [r.solverVersion] : [])));
  str(file, "solver_version", [...versions].join(", "));
  str(file, "units", "SI");
  str(file, "combine", sweep.combine);
  const dims = sweep.combine === "zip" ? [sweep.parameters[0]!] : sweep.parameters;
  str(file, "dimensions", dims.map((p) => p.name).join(","));
  // As result-format.md lists them (the units are on each coordinate, as `units`).
  const listed = sweep.parameters.map(({ name, path, values }) => ({ name, path, values }));
  str(file, "parameters_json", JSON.stringify(listed));
  str(file, "dropped_groups", plan.dropped.map((d) => d.group).join(","));
  const notes = plan.dropped.map(
    (d) => `${d.group} is not stacked: ${d.reason}; each job's own result file has it`,
  );
  str(file, "notes", notes.join("\n"));
}

/**
 * A parameter's values as a dataset: numbers as float64, strings as strings, booleans as int8
 * with attribute dtype="bool" (how xarray stores booleans, and reads them back as such).
 */
function parameterDataset(g: Group, p: SweepParameter): Dataset {
  const kind = typeof p.values[0]; // one kind for all (sweepShape)
  let d: Dataset;
  if (kind === "number") {
    d = createDataset(g, { name: p.name, data: new Float64Array(p.values as number[]) });
  } else if (kind === "boolean") {
    const data = Int8Array.from(p.values, (v) => (v ? 1 : 0));
    d = createDataset(g, { name: p.name, data, dtype: "<b" });
    str(d, "dtype", "bool");
  } else {
    d = createDataset(g, { name: p.name, data: p.values as string[] });
  }
  str(d, "long_name", `the value at ${p.path} in the simulation`);
  str(d, "path", p.path);
  if (p.unit) str(d, "units", p.unit);
  return d;
}

/**
 * The sweep's coordinates in a group: each dimension's values as a dimension scale, and for a
 * zip the other parameters along it. Returns the scales' paths and the zip's other names.
 */
function writeSweepCoordinates(g: Group, sweep: BatchSweep): { scales: string[]; along: string[] } {
  const zip = sweep.combine === "zip";
  const dims = zip ? [sweep.parameters[0]!] : sweep.parameters;
  const scales = dims.map((p) => {
    const d = parameterDataset(g, p);
    d.make_scale(p.name);
    return d.path;
  });
  const along = zip ? sweep.parameters.slice(1) : [];
  for (const p of along) parameterDataset(g, p).attach_scale(0, scales[0]!);
  return { scales, along: along.map((p) => p.name) };
}

/** The columns of /jobs: name, values (one per variant), units, long name. */
function jobColumns(input: BatchResultInput, plan: BatchPlan) {
  const runs = plan.runs;
  const detail = (v: BatchVariantResult) => (v.status === "COMPLETED" ? "" : v.errorDetail);
  const converged = (r: BatchPlan["runs"][number]) => (r ? (r.converged ? 1n : 0n) : -1n);
  return [
    ["job_id", input.variants.map((v) => v.jobId), "1", "the variant's job"],
    ["status", input.variants.map((v) => v.status), "1", "the job's status"],
    ["error_detail", input.variants.map(detail), "1", "why the job did not complete"],
    ["solver_version", runs.map((r) => r?.solverVersion ?? ""), "1", "the solver that ran it"],
    [
      "steps_run",
      BigInt64Array.from(runs, (r) => BigInt(r?.stepsRun ?? -1)),
      "1",
      "time steps run (-1: did not complete)",
    ],
    [
      "converged",
      BigInt64Array.from(runs, converged),
      "1",
      "1 if the run converged, 0 if it ran to time_steps, -1: did not complete",
    ],
    [
      "wall_seconds",
      Float64Array.from(runs, (r) => r?.wallSeconds ?? Number.NaN),
      "s",
      "the run's wall time",
    ],
  ] as const;
}

/**
 * /jobs: which job each variant is, how it ended, and what its run report says, as the sweep
 * is shaped: steps_run and converged -1 and wall_seconds NaN where a variant did not complete.
 * Strings are variable-length UTF-8.
 */
function writeJobs(g: Group, input: BatchResultInput, shape: number[], plan: BatchPlan): void {
  const { scales, along } = writeSweepCoordinates(g, input.sweep);
  for (const [name, data, units, longName] of jobColumns(input, plan)) {
    const d =
      data instanceof BigInt64Array
        ? createDataset(g, { name, data, shape, dtype: "<q" })
        : createDataset(g, { name, data, shape });
    scales.forEach((scale, axis) => d.attach_scale(axis, scale));
    str(d, "units", units);
    str(d, "long_name", longName);
    if (along.length > 0) str(d, "coordinates", along.join(" "));
  }
}

/** Creates `path` ("monitors/T", "s_matrix") with the group attributes every variant shares. */
function createPlannedGroup(file: H5File, plan: GroupPlan): Group {
  const g = createGroup(file, plan.path);
  copyAttrs(g, plan.attrs, plan.varyingAttrs);
  if (plan.varyingAttrs.length > 0) {
    // Left out: each variant's own value is in its job's file.
    str(g, "varying_attributes", plan.varyingAttrs.join(","));
  }
  return g;
}

/** What every stacking group's layout depends on. */
interface Layout {
  sweep: BatchSweep;
  /** The sweep's shape. */
  shape: number[];
  /** Stacks up to this many bytes are assembled in memory and written at once. */
  inMemoryBytes: number;
}

/**
 * A stacking group's layout: the sweep's scales, the group's own scales (a scale whose values
 * vary becomes `<name>_index`, 0…n-1, with `<name>` a coordinate over (sweep…, <name>_index)),
 * the coordinates that do not vary as they are, and everything else stacked over (sweep…,
 * own…), each axis with its scale. Returns the stacked datasets, to be filled.
 */
function writeGroupLayout(file: H5File, plan: GroupPlan, layout: Layout): Stack[] {
  const g = createPlannedGroup(file, plan);
  const sweepScales = writeSweepCoordinates(g, layout.sweep);
  const dimensionOf = writeOwnScales(g, plan);
  return plan.datasets.flatMap((d) => {
    if (d.scaleName && !d.varies) return [];
    const stack = writeDataset(g, d, plan, layout, sweepScales, dimensionOf);
    return stack ? [stack] : [];
  });
}

/**
 * The group's own dimension scales, as in the variants' files, except for one whose values
 * vary: its dimension is then `<name>_index`. Returns, by scale name, its dimension's path.
 */
function writeOwnScales(g: Group, plan: GroupPlan): Map<string, string> {
  const dimensionOf = new Map<string, string>();
  for (const d of plan.datasets) {
    if (!d.scaleName) continue;
    if (d.varies) {
      const index = createDataset(g, {
        name: `${d.name}_index`,
        data: BigInt64Array.from({ length: d.shape[0]! }, (_, k) => BigInt(k)),
        dtype: "<q",
      });
      index.make_scale(`${d.name}_index`);
      str(index, "long_name", `position in the variant's list of ${d.name}`);
      dimensionOf.set(d.name, index.path);
    } else {
      const scale = copyOf(g, d);
      scale.make_scale(d.scaleName);
      copyAttrs(scale, d.attrs, []);
      dimensionOf.set(d.name, scale.path);
    }
  }
  return dimensionOf;
}

/**
 * One dataset of a stacking group other than a scale that does not vary: a coordinate that does
 * not vary as it is, anything else stacked, its CF `coordinates` naming, besides its own, the
 * zip's other parameters and the coordinates that vary along its axes. Returns its stack.
 */
function writeDataset(
  g: Group,
  d: DatasetPlan,
  plan: GroupPlan,
  layout: Layout,
  sweep: { scales: string[]; along: string[] },
  dimensionOf: Map<string, string>,
): Stack | null {
  const { shape } = layout;
  const stacked = d.kind === "data" || d.varies;
  const bytes = d.elementBytes * [...shape, ...d.shape].reduce((a, b) => a * b, 1);
  const inMemory = bytes <= layout.inMemoryBytes;
  const dataset = stacked
    ? createStacked(g, d.name, shape, d.shape, d.dtype, d.elementBytes, inMemory)
    : copyOf(g, d);
  const ownAxes = d.scaleName ? [d.name] : d.attached;
  const axes = [...(stacked ? sweep.scales : []), ...ownAxes.map((n) => dimensionOf.get(n)!)];
  axes.forEach((scale, axis) => dataset.attach_scale(axis, scale));
  copyAttrs(dataset, d.attrs, d.kind === "data" ? ["coordinates"] : []);
  if (d.kind === "data") {
    const varying = d.attached.filter((n) => plan.datasets.some((c) => c.name === n && c.varies));
    const named = String(d.attrs.find((a) => a.name === "coordinates")?.value ?? "");
    const all = new Set([...named.split(/\s+/), ...varying, ...sweep.along]);
    const coordinates = [...all].filter(Boolean);
    if (coordinates.length > 0) str(dataset, "coordinates", coordinates.join(" "));
  }
  if (!stacked) return null;
  const whole = inMemory ? new Uint8Array(bytes) : null;
  return { path: dataset.path, own: d.shape, elementBytes: d.elementBytes, nan: d.nan!, whole };
}

/** A coordinate that does not vary, written as the first completed variant has it. */
function copyOf(g: Group, d: DatasetPlan): Dataset {
  const text =
    typeof d.value === "string" ||
    (Array.isArray(d.value) && d.value.every((v) => typeof v === "string"));
  return createDataset(g, {
    name: d.name,
    data: d.value as Float64Array,
    shape: d.shape,
    ...(text ? {} : { dtype: d.dtype }),
  });
}

/** Bytes of one variant's part of a stack: its file's, or NaN where it did not complete. */
function variantBytes(
  module: LowLevelModule,
  source: H5File | null,
  stack: Stack,
  slab: Slab,
): Uint8Array {
  if (!source) return repeated(stack.nan, slab.bytes);
  return readSlab(module, source.file_id, stack.path, slab.source, slab.bytes);
}

/** Copies each variant's part of every stack, a variant at a time; writes the small ones whole. */
function fillStacks(
  file: H5File,
  stacks: Stack[],
  shape: number[],
  paths: (string | null)[],
  module: LowLevelModule,
): void {
  paths.forEach((path, index) => {
    const source = path === null ? null : new h5wasm.File(path, "r");
    try {
      const at = sweepIndex(index, shape);
      for (const stack of stacks) {
        let offset = index * stack.elementBytes * stack.own.reduce((a, b) => a * b, 1);
        for (const slab of slabs(at, stack.own, stack.elementBytes)) {
          const bytes = variantBytes(module, source, stack, slab);
          if (stack.whole) stack.whole.set(bytes, offset);
          else writeSlab(module, file.file_id, stack.path, slab.target, bytes);
          offset += slab.bytes;
        }
      }
    } finally {
      source?.close();
    }
  });
  for (const stack of stacks) {
    if (!stack.whole) continue;
    writeSlab(module, file.file_id, stack.path, null, stack.whole);
  }
}

/**
 * Reads the written file back and compares every stack with what was meant: the small ones
 * with the bytes assembled for them, the others a variant at a time with the variants' files.
 */
function verify(
  path: string,
  shape: number[],
  stacks: Stack[],
  paths: (string | null)[],
  module: LowLevelModule,
): void {
  syncToDisk(path);
  const file = reopen(path);
  try {
    if (file.attrs.format?.value !== BATCH_RESULT_FORMAT) {
      throw new ResultFileError("the batch result file's format attribute is missing");
    }
    for (const stack of stacks) {
      if (!stack.whole) continue;
      const got = readSlab(module, file.file_id, stack.path, null, stack.whole.byteLength);
      if (Buffer.compare(got, stack.whole) !== 0) throw differs(stack.path);
    }
    paths.forEach((source, index) => {
      const large = stacks.filter((s) => !s.whole);
      if (large.length === 0) return;
      const variant = source === null ? null : new h5wasm.File(source, "r");
      try {
        for (const stack of large) {
          for (const slab of slabs(sweepIndex(index, shape), stack.own, stack.elementBytes)) {
            const want = variantBytes(module, variant, stack, slab);
            const got = readSlab(module, file.file_id, stack.path, slab.target, slab.bytes);
            if (Buffer.compare(got, want) !== 0) throw differs(stack.path);
          }
        }
      } finally {
        variant?.close();
      }
    });
  } finally {
    file.close();
  }
}

function differs(path: string): ResultFileError {
  return new ResultFileError(
    `dataset ${path} of the batch file reads back different from what was written`,
  );
}
