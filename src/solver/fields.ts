/**
 * Field storage: structure-of-arrays float32, one padded array per component (layout in
 * grid.ts). Arrays can be carved out of a caller-provided buffer so that a WebAssembly kernel
 * can keep them in its (shared) linear memory.
 */
import type { YeeLayout } from "./grid.js";

/** The six components of one real field set; complex (Bloch) runs hold two sets. */
export interface FieldSet {
  /** [Ex, Ey, Ez, Hx, Hy, Hz], each `layout.paddedCells` long. */
  readonly c: [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
}

/** Bytes one field set needs, each component aligned to 64 bytes. */
export function fieldSetBytes(layout: YeeLayout): number {
  return 6 * alignedBytes(layout.paddedCells * 4);
}

function alignedBytes(bytes: number): number {
  return Math.ceil(bytes / 64) * 64;
}

/**
 * Allocates a zeroed field set. With `buffer`, the arrays are views into it starting at
 * `byteOffset` (must be a multiple of 64 and leave `fieldSetBytes(layout)` bytes); the caller
 * must hand over zeroed memory, since fields the update never touches must start at zero.
 */
export function allocateFieldSet(
  layout: Pick<YeeLayout, "paddedCells">,
  buffer?: ArrayBufferLike,
  byteOffset = 0,
): FieldSet {
  const stride = alignedBytes(layout.paddedCells * 4);
  const buf = buffer ?? new ArrayBuffer(6 * stride);
  const base = buffer ? byteOffset : 0;
  if (base % 64 !== 0) throw new RangeError("field buffer offset must be a multiple of 64");
  if (buf.byteLength < base + 6 * stride) throw new RangeError("field buffer too small");
  const arrays = [0, 1, 2, 3, 4, 5].map(
    (i) => new Float32Array(buf, base + i * stride, layout.paddedCells),
  );
  return { c: arrays as FieldSet["c"] };
}
