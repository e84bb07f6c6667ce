/**
 * A field slice as a picture: the colour scale of a quantity (magnitudes from zero on the
 * sequential map, signed parts symmetric about zero on the diverging map, so that white means
 * zero), the samples as an RGBA image of one pixel each, and the sample grid's geometry (cell
 * edges, nearest sample). The CLI's PNGs scale that image up by nearest sample (field-plot.ts);
 * the dashboard's canvases scale it smoothly (they load this module compiled; browser.ts).
 * Plain TypeScript, no Node or DOM.
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

/** Edges of the cells around sample coordinates (half a step beyond the first and last). */
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
