/**
 * The E components' material indices as the `webgpu` backend stores them: per cell and E
 * component the entry of the coefficient table (medium.ts), packed into 32-bit words (WGSL has
 * no 8- or 16-bit storage), the three components one after another in one buffer, or, where
 * that buffer would be more than one binding holds (a grid past about 710³ at 16 bits), in
 * three buffers, one per component, bound apart (`split`: the E pass then binds ten storage
 * buffers, not eight). Eight bits
 * where the table has at most 256 entries (a grid of a few materials; smoothing a curved
 * surface makes hundreds to thousands of entries), else sixteen: the E pass reads 3 or 6 B of
 * indices per cell-update.
 */
import type { YeeLayout } from "../grid.js";
import type { Medium } from "../medium-types.js";

/** Bits per index: 8 where the table has at most 256 entries, else 16. */
export type IndexBits = 8 | 16;

/** The index width a medium's table needs. */
export function indexBits(medium: Pick<Medium, "ca">): IndexBits {
  return medium.ca.length <= 256 ? 8 : 16;
}

/** 32-bit words per E component. */
export function indexWords(layout: YeeLayout, bits: IndexBits): number {
  return Math.ceil((layout.paddedCells * bits) / 32);
}

/** The three E components' indices, `bits` wide, one component after another. */
export function packIndices(medium: Medium, layout: YeeLayout, bits: IndexBits): Uint32Array {
  const words = indexWords(layout, bits);
  const out = new Uint32Array(3 * words);
  const perWord = 32 / bits;
  const lanes = bits === 8 ? new Uint8Array(out.buffer) : new Uint16Array(out.buffer);
  for (let c = 0; c < 3; c++) lanes.set(medium.index[c], perWord * c * words);
  return out;
}

/**
 * WGSL: `materialOf(c, p)`, the index of E component c at padded cell p: from `idx` at c ×
 * IDX_WORDS words in, or, `split`, from `idx0`, `idx1` or `idx2`.
 */
export function materialOfWgsl(bits: IndexBits, split = false): string {
  const shift = bits === 8 ? 2 : 1;
  const lane = bits === 8 ? 3 : 1;
  const mask = bits === 8 ? "0xffu" : "0xffffu";
  const at = `p >> ${shift}u`;
  // Branches, not select (which would load all three): c is a literal where the E pass calls it.
  const word = split
    ? `var word: u32;
  if (c == 0u) { word = idx0[${at}]; } else if (c == 1u) { word = idx1[${at}]; } else { word = idx2[${at}]; }`
    : `let word = idx[c * IDX_WORDS + (${at})];`;
  return `
fn materialOf(c: u32, p: u32) -> u32 {
  ${word}
  return (word >> ((p & ${lane}u) * ${bits}u)) & ${mask};
}
`;
}

/** WGSL: the E pass's index bindings from `first` on (one, or three with `split`). */
export function indexBindingsWgsl(first: number, split: boolean): string {
  const names = split ? ["idx0", "idx1", "idx2"] : ["idx"];
  return names
    .map((n, b) => `@group(0) @binding(${first + b}) var<storage, read> ${n}: array<u32>;`)
    .join("\n");
}

/** Storage buffers the E pass binds with `split` indices (device.ts asks for them). */
export const SPLIT_INDEX_STORAGE_BUFFERS = 10;

/** Whether a grid's indices need three bindings: one buffer of them past `bindingLimit`. */
export function needsSplitIndices(layout: YeeLayout, bits: IndexBits, bindingLimit: number) {
  return 3 * 4 * indexWords(layout, bits) > bindingLimit;
}
