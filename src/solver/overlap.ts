/**
 * How much of a cube's extent along one axis lies in an interval, and how that changes as the
 * cube moves: the 1-D factors of the smoothing's fill fractions and normals for boxes
 * (geometry.ts) and for a polyslab's z range (polyslab.ts).
 */

/** The fraction of the interval [c − h/2, c + h/2] inside [lo, hi]. */
export function overlap1d(c: number, h: number, lo: number, hi: number): number {
  const a = Math.max(c - h / 2, lo);
  const b = Math.min(c + h / 2, hi);
  return b > a ? Math.min((b - a) / h, 1) : 0;
}

/** d(overlap)/dc · h: +1 when only the upper end of the cube is cut, −1 for the lower. */
export function overlapSlope(c: number, h: number, lo: number, hi: number): number {
  let s = 0;
  if (c + h / 2 > hi && c - h / 2 < hi) s -= 1;
  if (c - h / 2 < lo && c + h / 2 > lo) s += 1;
  return s;
}
