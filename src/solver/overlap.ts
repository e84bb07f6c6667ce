/**
 * How much of a cube's extent along one axis lies in an interval, and how that changes as the
 * cube moves: the 1-D factors of the smoothing's fill fractions and normals for boxes
 * (geometry.ts) and for a polyslab's z range (polyslab.ts).
 */

/**
 * A face this close to a cube's end (in cells) is taken as on it. A face meant to lie on a grid
 * node misses it by rounding (0.195e-6 − 0.025e-6 is not 17 × 1e-8), by a different amount at
 * its mirror image: the cube then had a cut of 1e-16 of a cell, with a slope, and a normal
 * across the face that put a metal's corner cells on one side of the mirror and not the other
 * (5 % of a dipole's power between mirror images of one gold box).
 */
export const ON_NODE = 1e-9;

/** The fraction of the interval [c − h/2, c + h/2] inside [lo, hi]. */
export function overlap1d(c: number, h: number, lo: number, hi: number): number {
  const a = Math.max(c - h / 2, lo);
  const b = Math.min(c + h / 2, hi);
  const f = (b - a) / h;
  if (f <= ON_NODE) return 0;
  return f >= 1 - ON_NODE ? 1 : f;
}

/** d(overlap)/dc · h: +1 when only the upper end of the cube is cut, −1 for the lower. */
export function overlapSlope(c: number, h: number, lo: number, hi: number): number {
  const top = c + h / 2;
  const bottom = c - h / 2;
  const margin = ON_NODE * h;
  let s = 0;
  if (top > hi + margin && bottom < hi - margin) s -= 1;
  if (bottom < lo - margin && top > lo + margin) s += 1;
  return s;
}
