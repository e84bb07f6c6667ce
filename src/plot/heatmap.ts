/**
 * A field slice as a picture: the colour scale of a quantity (magnitudes from zero on the
 * sequential map, signed parts symmetric about zero on the diverging map, so that white means
 * zero), the samples as an RGBA image, and the sample grid's geometry (cell edges, nearest
 * sample). Samples are placed by their coordinates, not their indices: on a graded grid (mesh
 * overrides) they are closer together where the grid is finer, and one pixel per sample would
 * stretch that part of the slice. The CLI's PNGs take an image at the plot's own size, each
 * pixel its nearest sample (gridImage; field-plot.ts); the dashboard's canvases take one of
 * equally wide pixels, one per sample on an equally spaced grid, blended between samples by
 * coordinate on a graded one (smoothGridImage), and scale it smoothly (they load this module
 * compiled; browser.ts). Plain TypeScript, no Node or DOM.
 */
import { diverging, paint, sequential, type Colormap } from "./colormap.js";

export interface ColourScale {
  map: Colormap;
  /** Values mapped to the map's ends. */
  lo: number;
  hi: number;
}

/** The largest finite magnitude among `values` (0 when there is none). */
export function maxAbsOf(values: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isFinite(v)) max = Math.max(max, Math.abs(v));
  }
  return max;
}

/**
 * [0, maxAbs] on the sequential map for a magnitude, [−maxAbs, maxAbs] on the diverging map for
 * a signed quantity; an all-zero field gets a scale of 1 rather than a division by zero.
 */
export function colourScale(signed: boolean, maxAbs: number): ColourScale {
  const max = maxAbs > 0 ? maxAbs : 1;
  return signed ? { map: diverging, lo: -max, hi: max } : { map: sequential, lo: 0, hi: max };
}

/**
 * The samples (row-major over (u, v), u slowest, as result files and the dashboard's payloads
 * hold them) as RGBA pixels, `nu` wide and `nv` high, the largest v in the top row.
 */
export function sampleImage(
  values: ArrayLike<number>,
  nu: number,
  nv: number,
  scale: ColourScale,
): Uint8ClampedArray<ArrayBuffer> {
  const pixels = new Uint8ClampedArray(nu * nv * 4);
  const span = scale.hi - scale.lo;
  for (let a = 0; a < nu; a++) {
    for (let b = 0; b < nv; b++) {
      const t = (values[a * nv + b]! - scale.lo) / span;
      paint(scale.map, t, pixels, ((nv - 1 - b) * nu + a) * 4);
    }
  }
  return pixels;
}

/**
 * Edges of the cells around sample coordinates: half the first step before the first sample and
 * half the last step after the last, as a cell reaches halfway to its neighbour (on a graded
 * grid the end cells' steps, not a step of the whole axis).
 */
export function cellEdges(coords: ArrayLike<number>): [number, number] {
  const n = coords.length;
  const first = n > 1 ? coords[1]! - coords[0]! : 0;
  const last = n > 1 ? coords[n - 1]! - coords[n - 2]! : 0;
  return [coords[0]! - first / 2, coords[n - 1]! + last / 2];
}

/** Index of the sample nearest to `x` in increasing `coords`. */
export function nearestIndex(coords: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = coords.length - 1;
  if (hi <= 0) return 0;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (coords[mid]! <= x) lo = mid;
    else hi = mid;
  }
  return Math.abs(coords[hi]! - x) < Math.abs(coords[lo]! - x) ? hi : lo;
}

/**
 * For each of `n` equally wide pixels from `from` to `to` (either way round: a raster's rows run
 * down from the largest coordinate), the index of the sample whose cell holds the pixel's
 * centre, a cell reaching halfway to each neighbour: the nearest sample by coordinate.
 */
export function pixelSamples(
  coords: ArrayLike<number>,
  from: number,
  to: number,
  n: number,
): Int32Array {
  const out = new Int32Array(n);
  for (let k = 0; k < n; k++) out[k] = nearestIndex(coords, from + ((k + 0.5) / n) * (to - from));
  return out;
}

/**
 * Steps that differ by less than this share of the longest are one step: coordinates arrive
 * rounded (the dashboard's to the picometre), so the steps of an equally spaced axis differ in
 * their last digits. A graded grid's differ by far more; the solver grades by up to 1.2× from
 * one cell to the next.
 */
const EQUAL_STEPS = 0.01;

/**
 * How many equally wide pixels show an axis with each sample at its coordinate and none left
 * out: its sample count when the samples are equally spaced (one pixel each, as before graded
 * grids), else one more than its extent over its shortest step, so that every cell (none is
 * narrower than that step) holds a pixel's centre; at most `limit`, but never fewer than the
 * samples.
 */
export function pixelsPerAxis(coords: ArrayLike<number>, limit = Infinity): number {
  const n = coords.length;
  let shortest = Infinity;
  let longest = 0;
  for (let i = 1; i < n; i++) {
    const step = coords[i]! - coords[i - 1]!;
    shortest = Math.min(shortest, step);
    longest = Math.max(longest, step);
  }
  if (n < 3 || longest - shortest <= EQUAL_STEPS * longest) return Math.max(1, n);
  const [lo, hi] = cellEdges(coords);
  return Math.max(n, Math.min(limit, Math.floor((hi - lo) / shortest) + 1));
}

/**
 * The samples (as sampleImage takes them, at coordinates `u` and `v`) as RGBA pixels `width`
 * wide and `height` high spanning their cells (cellEdges), the largest v in the top row, each
 * pixel the colour of the sample whose cell holds its centre (pixelSamples). With one pixel per
 * sample of an equally spaced grid this is sampleImage's image.
 */
export function gridImage(
  values: ArrayLike<number>,
  u: ArrayLike<number>,
  v: ArrayLike<number>,
  scale: ColourScale,
  width = pixelsPerAxis(u),
  height = pixelsPerAxis(v),
): Uint8ClampedArray<ArrayBuffer> {
  const nu = u.length;
  const nv = v.length;
  const samples = sampleImage(values, nu, nv, scale);
  const [uLo, uHi] = cellEdges(u);
  const [vLo, vHi] = cellEdges(v);
  const cols = pixelSamples(u, uLo, uHi, width);
  const rows = pixelSamples(v, vHi, vLo, height);
  const pixels = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = (nv - 1 - rows[y]!) * nu;
    for (let x = 0; x < width; x++) {
      const from = (row + cols[x]!) * 4;
      const to = (y * width + x) * 4;
      pixels[to] = samples[from]!;
      pixels[to + 1] = samples[from + 1]!;
      pixels[to + 2] = samples[from + 2]!;
      pixels[to + 3] = samples[from + 3]!;
    }
  }
  return pixels;
}

/**
 * For each of `n` equally wide pixels from `from` to `to` (either way round), where its centre
 * lies among the samples: the sample at or before it (`index`) and how far it lies towards the
 * next (`toward`, 0 to 1), to blend the two linearly by coordinate; the first or last sample,
 * unblended, beyond them (as a canvas holds an image's edge colours when it scales it). With a
 * pixel per sample of an equally spaced axis each pixel is its sample, unblended: the
 * coordinates are rounded, and a blend would mix a trace of a neighbour into every pixel.
 */
export function pixelBlends(
  coords: ArrayLike<number>,
  from: number,
  to: number,
  n: number,
): { index: Int32Array; toward: Float64Array } {
  const index = new Int32Array(n);
  const toward = new Float64Array(n);
  const last = coords.length - 1;
  const oneEach = n === coords.length && pixelsPerAxis(coords) === n;
  for (let k = 0; k < n; k++) {
    const x = from + ((k + 0.5) / n) * (to - from);
    if (oneEach) index[k] = nearestIndex(coords, x);
    else if (x >= coords[last]!) index[k] = last;
    else if (x > coords[0]!) {
      let lo = 0;
      let hi = last;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (coords[mid]! <= x) lo = mid;
        else hi = mid;
      }
      index[k] = lo;
      toward[k] = (x - coords[lo]!) / (coords[hi]! - coords[lo]!);
    }
  }
  return { index, toward };
}

/**
 * Like gridImage, but each pixel blends the (up to) four samples around its centre linearly by
 * coordinate, then takes that value's colour (blending values, not colours, keeps every pixel
 * on the colour map): the picture the dashboard's canvases have always shown of an equally
 * spaced grid, by scaling its one pixel per sample smoothly, now with a graded grid's samples
 * where they lie. With one pixel per sample of an equally spaced grid this is sampleImage's
 * image.
 */
export function smoothGridImage(
  values: ArrayLike<number>,
  u: ArrayLike<number>,
  v: ArrayLike<number>,
  scale: ColourScale,
  width = pixelsPerAxis(u),
  height = pixelsPerAxis(v),
): Uint8ClampedArray<ArrayBuffer> {
  const nv = v.length;
  const [uLo, uHi] = cellEdges(u);
  const [vLo, vHi] = cellEdges(v);
  const cols = pixelBlends(u, uLo, uHi, width);
  const rows = pixelBlends(v, vHi, vLo, height);
  const at = (a: number, b: number) => values[a * nv + b]!;
  // Blended only where a weight is not zero: an unblended pixel is its sample exactly (and a
  // neighbour that is not finite stays out of it).
  const along = (a: number, ta: number, b: number) =>
    ta > 0 ? at(a, b) + (at(a + 1, b) - at(a, b)) * ta : at(a, b);
  const pixels = new Uint8ClampedArray(width * height * 4);
  const span = scale.hi - scale.lo;
  for (let y = 0; y < height; y++) {
    const b = rows.index[y]!;
    const tb = rows.toward[y]!;
    for (let x = 0; x < width; x++) {
      const a = cols.index[x]!;
      const ta = cols.toward[x]!;
      const near = along(a, ta, b);
      const value = tb > 0 ? near + (along(a, ta, b + 1) - near) * tb : near;
      paint(scale.map, (value - scale.lo) / span, pixels, (y * width + x) * 4);
    }
  }
  return pixels;
}
