/**
 * How the webgpu backend stores the six field components: float32 (the default) or float16,
 * the arithmetic in float32 either way (issue #32). Float16 halves what the bulk passes move
 * per cell-update (36 B of fields against 72) at the cost of the fields' precision: 11
 * significant bits, a relative rounding of 2⁻¹¹ ≈ 4.9e-4 each time a value is stored, normal
 * values from 6.1e-5 to 65 504 (docs/benchmarks.md states which physics checks still hold).
 *
 * The values are packed two to a 32-bit word with WGSL's pack2x16float, which every adapter has
 * (WebGPU's `shader-f16` feature is not offered by Dawn on NVIDIA's Vulkan driver, nor by
 * Mesa's llvmpipe): a word holds the values of one (y, z) position in two neighbouring padded
 * x-planes 2m and 2m + 1, so that the neighbours along y and z of a word's two values are the
 * two values of one word too. Padded index p (i' = p / SX the padded plane) lies in word
 * (i' >> 1)·SX + p − i'·SX, half i' & 1 (the low half first).
 *
 * A word is written by one thread in a dispatch: the bulk passes take a word (two nodes along
 * x) per thread (packed-bulk.ts); the passes that write single values (ghost copies, the
 * dispersive cells' pass) read the word, replace their half and write it back, and the engine
 * splits them so that no dispatch writes both halves of a word.
 *
 * So that the values use the middle of float16's range whatever the source's strength, E is
 * stored as about E/A and H as about η0·H/A, A being the field scale of the source
 * (Source.fieldScaleVPerM: a plane wave's or beam's amplitude, a dipole's near field one cell
 * away; a plane wave's η0·H equals its E): each factor is the power of two nearest it, so that
 * a value's trip between float32 and its stored form is exact. With η0 itself the trip through
 * float32 products (x·(A/η0))·(η0/A) is off by an ulp of float32 for some x, and on a 1-D grid
 * at 30 cells per wavelength that alone grew the field energy by 6 % in 1000 steps (0.2 % with
 * 256 or 512, the rounding to float16 left). The absorber's ψ and the monitors' running sums stay float32; the dispersive
 * cells' state is linear in E and, float32 too, takes the stored E's scale.
 */
import { ETA0 } from "../constants.js";
import type { FieldStorage } from "../field-storage-setting.js";

export type { FieldStorage };

/**
 * The smallest relative change of the monitors' phasors between checks that float16 storage
 * resolves (Stepper.changeFloor). Rounding leaves a static residue in the fields after the
 * pulse has gone (about 3e-3 of the source's amplitude on a 1-D grid at 30 cells per
 * wavelength; float32's is below 1e-6), whose running DFT keeps the change between checks near
 * 1e-4 however long the run: the default threshold (1e-6) would never be met.
 */
export const FLOAT16_CHANGE_FLOOR = 1e-3;

/** Whether the fields are packed two float16 values to a word. */
export function isPacked(storage: FieldStorage): boolean {
  return storage === "float16";
}

/** Bytes of a component's buffer on a padded grid of `planes` x-planes of `sx` values. */
export function fieldBufferBytes(storage: FieldStorage, planes: number, sx: number): number {
  return isPacked(storage) ? 4 * Math.ceil(planes / 2) * sx : 4 * planes * sx;
}

/** Bytes one stored field value takes (for the byte counts). */
export function fieldValueBytes(storage: FieldStorage): 2 | 4 {
  return isPacked(storage) ? 2 : 4;
}

/** What a stored value is of the field's value, for E and for H (the module comment). */
export interface StorageScales {
  e: number;
  h: number;
}

/** The power of two nearest x (in log2), so that scaling by it is exact in binary floating point. */
function powerOfTwo(x: number): number {
  return 2 ** Math.round(Math.log2(x));
}

/**
 * The storage scales of a run whose source drives fields of about `amplitudeVPerM`
 * (Source.fieldScaleVPerM): 1/A for E and η0/A for H in float16, each rounded to a power of two,
 * and 1 in float32.
 */
export function storageScales(storage: FieldStorage, amplitudeVPerM: number): StorageScales {
  if (!isPacked(storage)) return { e: 1, h: 1 };
  const a = Math.abs(amplitudeVPerM);
  const amplitude = Number.isFinite(a) && a > 0 ? a : 1;
  return { e: powerOfTwo(1 / amplitude), h: powerOfTwo(ETA0 / amplitude) };
}

/**
 * The unit in which the energy reduction squares the fields (energyShader): the source's field
 * scale rounded to a power of two, so that the float32 squares stay in range for every
 * amplitude the API allows.
 */
export function energyUnit(amplitudeVPerM: number): number {
  const a = Math.abs(amplitudeVPerM);
  return Number.isFinite(a) && a > 0 ? powerOfTwo(a) : 1;
}

/** The WGSL element type of the field arrays. */
export function fieldWgslType(storage: FieldStorage): "f32" | "u32" {
  return isPacked(storage) ? "u32" : "f32";
}

/**
 * WGSL: what a shader that reads or writes single stored values by padded index needs (the
 * word and half of p, module comment), `sx` being the padded x-plane's values; none in float32.
 */
export function fieldAccessWgsl(storage: FieldStorage, sx: number): string {
  if (!isPacked(storage)) return "";
  return `
const PLANE: u32 = ${Math.trunc(sx)}u;
fn wordOf(p: u32) -> u32 {
  let plane = p / PLANE;
  return (plane >> 1u) * PLANE + (p - plane * PLANE);
}
fn halfOf(p: u32) -> u32 {
  return (p / PLANE) & 1u;
}
`;
}

/** WGSL: the stored value (H's scale included) at padded index `p` of `array`, as f32. */
export function loadAtWgsl(storage: FieldStorage, array: string, p: string): string {
  if (!isPacked(storage)) return `${array}[${p}]`;
  return `unpack2x16float(${array}[wordOf(${p})])[halfOf(${p})]`;
}

/** WGSL statements storing the f32 `value` (a name) at padded index `p` of `array`. */
export function storeAtWgsl(
  storage: FieldStorage,
  array: string,
  p: string,
  value: string,
): string {
  if (!isPacked(storage)) return `${array}[${p}] = ${value};`;
  return `{
    let word = wordOf(${p});
    var pair = unpack2x16float(${array}[word]);
    pair[halfOf(${p})] = ${value};
    ${array}[word] = pack2x16float(pair);
  }`;
}

/** Float32 values of every float16 bit pattern, made at the first read-back. */
let halfTable: Float32Array | null = null;

/** The value of an IEEE 754 binary16 bit pattern. */
export function float16Value(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction === 0 ? sign * Infinity : NaN;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/**
 * A component's buffer read back from the GPU into float32 `out` (padded cells, `sx` a plane),
 * times `scale` (1/η0 for H stored as float16).
 */
export function decodeFieldValues(
  storage: FieldStorage,
  bytes: ArrayBuffer,
  out: Float32Array,
  sx: number,
  scale: number,
): void {
  if (!isPacked(storage)) {
    out.set(new Float32Array(bytes, 0, out.length));
    return;
  }
  if (!halfTable) {
    halfTable = new Float32Array(65536);
    for (let b = 0; b < 65536; b++) halfTable[b] = float16Value(b);
  }
  const bits = new Uint16Array(bytes);
  const planes = out.length / sx;
  for (let plane = 0; plane < planes; plane++) {
    // Plane 2m + h: half h of the words from m·sx on, at 16-bit lane 2·word + h.
    const lane = 2 * (plane >> 1) * sx + (plane & 1);
    const at = plane * sx;
    for (let r = 0; r < sx; r++) out[at + r] = halfTable[bits[lane + 2 * r]] * scale;
  }
}
