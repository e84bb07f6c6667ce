/**
 * Reading a freshly written result file's bytes back, to find out whether they reached the
 * disk (why: `verifyResultFile` in hdf5.ts). The bytes are read with h5wasm's low-level module
 * a slab at a time into its heap, and compared with the arrays that were written.
 */
import h5wasm from "h5wasm/node";
import { closeSync, fsyncSync, openSync } from "node:fs";

/** A result file that did not reach the disk as written (full disk, I/O error). */
export class ResultFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ResultFileError";
  }
}

/** Raw bytes (`bytes` of them) of a dataset's first-axis rows [start, stop). */
export type RawReader = (
  path: string,
  shape: number[],
  start: number,
  stop: number,
  bytes: number,
) => Uint8Array;

type H5File = InstanceType<typeof h5wasm.File>;

/**
 * The parts of h5wasm's Emscripten module that read a hyperslab into its heap, or write one
 * from it, in the dataset's own type (batch-merge.ts copies slabs between files this way).
 */
export interface LowLevelModule {
  get_dataset_data(
    fileId: bigint,
    path: string,
    count: bigint[] | null,
    offset: bigint[] | null,
    strides: bigint[] | null,
    ptr: bigint,
  ): number;
  set_dataset_data(
    fileId: bigint,
    path: string,
    count: bigint[] | null,
    offset: bigint[] | null,
    strides: bigint[] | null,
    ptr: bigint,
  ): number;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  HEAPU8: Uint8Array;
}

/** h5wasm's module, once it has loaded. */
export async function lowLevelModule(): Promise<LowLevelModule> {
  return (await h5wasm.ready) as unknown as LowLevelModule;
}

/** Flushes the file to the disk, so that a write the disk refused shows when it is read. */
export function syncToDisk(path: string): void {
  try {
    const fd = openSync(path, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new ResultFileError(`the result file could not be synced: ${(err as Error).message}`);
  }
}

/** Opens the written file again, read-only. */
export function reopen(path: string): H5File {
  try {
    return new h5wasm.File(path, "r");
  } catch (err) {
    throw new ResultFileError(`the result file does not open: ${(err as Error).message}`);
  }
}

/** Reads slabs of `file`'s datasets as raw bytes, as HDF5 stores them. */
export function rawReader(module: LowLevelModule, file: H5File): RawReader {
  const fileId = (file as unknown as { file_id: bigint }).file_id;
  return (dsPath, shape, start, stop, bytes) => {
    const count = shape.map((n, i) => BigInt(i === 0 ? stop - start : n));
    const offset = shape.map((_, i) => BigInt(i === 0 ? start : 0));
    const ptr = module._malloc(Math.max(1, bytes));
    if (!ptr) throw new ResultFileError(`no memory to read ${dsPath} back`);
    try {
      module.get_dataset_data(
        fileId,
        dsPath,
        count,
        offset,
        count.map(() => 1n),
        BigInt(ptr),
      );
      return module.HEAPU8.slice(ptr, ptr + bytes);
    } finally {
      module._free(ptr);
    }
  };
}

/**
 * The bytes of an array as written: coordinates are float64 and fields complex64 ({r, i}
 * float32 pairs), so in memory they are exactly the arrays that were written, interleaved as
 * HDF5 stores them.
 */
export function bytesOf(a: Float64Array | Float32Array | Uint8Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Compares the bytes of one dataset with what was meant to be written, a slab at a time. */
export function compareDataset(
  read: RawReader,
  path: string,
  shape: number[],
  expected: Uint8Array,
) {
  const rowBytes = expected.byteLength / (shape[0] || 1);
  // About 8 MiB per read, so that checking a large monitor does not double the memory.
  const rowsPerSlab = Math.max(1, Math.floor((8 << 20) / Math.max(1, rowBytes)));
  for (let start = 0; start < shape[0]!; start += rowsPerSlab) {
    const stop = Math.min(shape[0]!, start + rowsPerSlab);
    const want = expected.subarray(start * rowBytes, stop * rowBytes);
    const got = read(path, shape, start, stop, want.byteLength);
    if (got.byteLength !== want.byteLength || Buffer.compare(got, want) !== 0) {
      throw new ResultFileError(`dataset ${path} reads back different from what was written`);
    }
  }
}
