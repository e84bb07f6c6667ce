/**
 * Moving one variant's datasets into the batch file's stacked datasets, as raw bytes: each is
 * read from the variant's file in its own HDF5 type and written, in the same type, at the
 * variant's position along the sweep's dimensions. No value passes through a JS number, so the
 * batch file holds every variant's numbers to the last bit (NaN payloads and -0 included).
 *
 * Stacked datasets are chunked. A large one is filled one variant at a time, so that neither
 * the batch nor one large monitor is ever whole in memory (h5wasm's heap is a WebAssembly
 * memory of at most a few GiB): a copy moves at most SLAB_BYTES at a time. A small one
 * (IN_MEMORY_STACK_BYTES) is assembled in memory and written once.
 */
import type { Dataset, Dtype, Group } from "h5wasm/node";
import { createDataset } from "./h5-create.js";
import { type LowLevelModule, ResultFileError } from "./read-back.js";

/** Bytes moved per read and write: large enough to be fast, small next to the heap. */
const SLAB_BYTES = 8 << 20;

/**
 * Bytes a stacked dataset's chunk aims at, at most. A stacked dataset whose whole sweep is
 * small (IN_MEMORY_STACK_BYTES) is assembled in memory and written at once, in chunks shared by
 * many variants, so that a reader gets a sweep of spectra in a few reads. A larger one is
 * written a variant at a time, each variant's part its own chunks (split when larger than
 * this): h5wasm opens and closes the dataset for every write, which empties HDF5's chunk
 * cache, so a chunk shared by several variants would be read and rewritten for each of them.
 */
const CHUNK_BYTES = 512 << 10;

/** A stacked dataset up to this size is assembled in memory and written once. */
export const IN_MEMORY_STACK_BYTES = 16 << 20;

/** Where a slab lies: per axis, its first index and its length. */
export interface Selection {
  offset: number[];
  count: number[];
}

/** One slab of a variant's dataset: where it lies in that dataset and in the batch's. */
export interface Slab {
  /** In the variant's dataset; null: the whole of a scalar. */
  source: Selection | null;
  target: Selection;
  bytes: number;
}

const product = (ns: readonly number[]) => ns.reduce((a, b) => a * b, 1);

/**
 * The slabs that move a dataset shaped `own` (one element `elementBytes`) to `sweepIndex` of
 * the stacked dataset shaped (sweep…, own…): whole rows along its first axis.
 */
export function* slabs(sweepIndex: number[], own: number[], elementBytes: number): Generator<Slab> {
  const ones = sweepIndex.map(() => 1);
  if (own.length === 0) {
    yield { source: null, target: { offset: sweepIndex, count: ones }, bytes: elementBytes };
    return;
  }
  const rowBytes = elementBytes * product(own.slice(1));
  if (rowBytes === 0) return;
  const rows = Math.max(1, Math.floor(SLAB_BYTES / rowBytes));
  for (let start = 0; start < own[0]!; start += rows) {
    const stop = Math.min(own[0]!, start + rows);
    const source = {
      offset: [start, ...own.slice(1).map(() => 0)],
      count: [stop - start, ...own.slice(1)],
    };
    yield {
      source,
      target: { offset: [...sweepIndex, ...source.offset], count: [...ones, ...source.count] },
      bytes: rowBytes * (stop - start),
    };
  }
}

/**
 * A chunk shape for a dataset shaped (sweep…, own…): one variant's part, split along its first
 * axes to at most CHUNK_BYTES, and with `shared`, as many variants along the last sweep
 * dimension as fit in CHUNK_BYTES.
 */
export function chunkShape(
  sweep: number[],
  own: number[],
  elementBytes: number,
  shared: boolean,
): number[] {
  const ownChunk = own.map((n) => Math.max(1, n));
  let bytes = elementBytes * product(ownChunk);
  // A monitor larger than a chunk: split along its first axes (each variant writes whole ones).
  for (let axis = 0; axis < ownChunk.length && bytes > CHUNK_BYTES; axis++) {
    while (bytes > CHUNK_BYTES && ownChunk[axis]! > 1) {
      ownChunk[axis] = Math.ceil(ownChunk[axis]! / 2);
      bytes = elementBytes * product(ownChunk);
    }
  }
  const sweepChunk = sweep.map(() => 1);
  const last = sweep.length - 1;
  if (shared) {
    sweepChunk[last] = Math.min(sweep[last]!, Math.max(1, Math.floor(CHUNK_BYTES / bytes)));
  }
  return [...sweepChunk, ...ownChunk];
}

/** No elements, in `dtype` (a float or a compound of floats): what a chunked dataset starts as. */
function emptyOf(
  dtype: Dtype,
): Float32Array | Float64Array | Map<string, Float32Array | Float64Array> {
  const typed = (t: Dtype) => (t === "<f" ? new Float32Array(0) : new Float64Array(0));
  if (Array.isArray(dtype)) {
    return new Map((dtype as [string, Dtype][]).map(([name, t]) => [name, typed(t)]));
  }
  return typed(dtype);
}

/**
 * A stacked dataset shaped (sweep…, own…) in `dtype`, chunked, its elements not yet written.
 * It is made empty along the first sweep dimension and then extended, since h5wasm creates a
 * dataset only from data, and the data of a whole sweep need not fit in memory.
 */
export function createStacked(
  group: Group,
  name: string,
  sweep: number[],
  own: number[],
  dtype: Dtype,
  elementBytes: number,
  shared: boolean,
): Dataset {
  const shape = [...sweep, ...own];
  const dataset = createDataset(group, {
    name,
    data: emptyOf(dtype),
    shape: [0, ...shape.slice(1)],
    maxshape: shape,
    chunks: chunkShape(sweep, own, elementBytes, shared),
    dtype,
  });
  dataset.resize(shape);
  return dataset;
}

/** Reads a selection of a dataset of the open file `fileId` as raw bytes. */
export function readSlab(
  module: LowLevelModule,
  fileId: bigint,
  path: string,
  at: Selection | null,
  bytes: number,
): Uint8Array {
  return withHeap(module, bytes, (ptr) => {
    const status = module.get_dataset_data(fileId, path, ...selection(at), BigInt(ptr));
    if (status < 0) throw new ResultFileError(`${path} does not read`);
    return module.HEAPU8.slice(ptr, ptr + bytes);
  });
}

/**
 * Writes raw bytes, in the dataset's own type, to a selection of a dataset of `fileId` (null:
 * the whole dataset).
 */
export function writeSlab(
  module: LowLevelModule,
  fileId: bigint,
  path: string,
  at: Selection | null,
  data: Uint8Array,
): void {
  withHeap(module, data.byteLength, (ptr) => {
    module.HEAPU8.set(data, ptr);
    const status = module.set_dataset_data(fileId, path, ...selection(at), BigInt(ptr));
    if (status < 0) throw new ResultFileError(`${path} could not be written`);
  });
}

/** `element` repeated to `bytes` bytes: a slab of NaN for a variant that did not complete. */
export function repeated(element: Uint8Array, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  for (let at = 0; at < bytes; at += element.byteLength) out.set(element, at);
  return out;
}

function selection(at: Selection | null): [bigint[] | null, bigint[] | null, bigint[] | null] {
  if (!at) return [null, null, null];
  return [at.count.map(BigInt), at.offset.map(BigInt), at.count.map(() => 1n)];
}

function withHeap<T>(module: LowLevelModule, bytes: number, use: (ptr: number) => T): T {
  const ptr = module._malloc(Math.max(1, bytes));
  if (!ptr) throw new ResultFileError(`no memory for ${bytes} bytes in h5wasm's heap`);
  try {
    return use(ptr);
  } finally {
    module._free(ptr);
  }
}
