/**
 * The share of one smoothing cube each of several overlapping structures holds, later ones over
 * earlier ones (medium.ts), when more than one of them cuts the cube.
 *
 * Each structure's part of the cube is taken as the half-space behind its surface: the plane
 * with the surface's outward normal that leaves the structure's fill fraction of the cube on
 * its inner side. What lies in no part is the base (what filled the cube before the first of
 * them). Where two structures share a face (a slab and the rib on it, a strip on its
 * substrate) their planes coincide, and the shares are exact: the rule of one structure at a
 * time, (1 − f)·X + f·s, would take the part outside the later structure as the cube's
 * average so far, counting the earlier structure's half twice.
 *
 * A box's part is the box itself (its corner in a cube is no half-space). Boxes and planes
 * normal to an axis (a polyslab's top and bottom, walls along the grid) cut the cube exactly;
 * where a slanted plane is among them, every part is measured on SLANT_SAMPLES³ points (shares
 * to 1/512: such corners are few, and the rule they replace is further off).
 */
import type { Vec3 } from "./types.js";

/**
 * One structure's part: its fill fraction of the cube (0 … 1) and its outward normal, and,
 * where the shape gives it (Shape.clip: a box), the part itself as a box in the cube's unit
 * coordinates.
 */
export interface CubePart {
  fill: number;
  normal: Readonly<Vec3>;
  box?: [Readonly<Vec3>, Readonly<Vec3>];
}

/** Points per axis that place and measure a slanted plane. */
const SLANT_SAMPLES = 8;

/** The axis a unit normal lies along (±), or −1 for a slanted one. */
function axisOf(n: Readonly<Vec3>): number {
  for (let a = 0; a < 3; a++) if (Math.abs(n[a]!) > 1 - 1e-9) return a;
  return -1;
}

/**
 * A part as a test on points of the unit cube [0, 1]³, and the planes along the axes that
 * bound it (null for a slanted plane).
 */
interface Region {
  inside(x: Readonly<Vec3>): boolean;
  cuts: { axis: number; at: number }[] | null;
}

function region(part: CubePart, samples: readonly Vec3[]): Region {
  const { fill, normal: n, box } = part;
  if (box) {
    const [lo, hi] = box;
    return {
      inside: (x) => x.every((v, a) => v >= lo[a]! && v <= hi[a]!),
      cuts: [0, 1, 2].flatMap((axis) => [
        { axis, at: lo[axis]! },
        { axis, at: hi[axis]! },
      ]),
    };
  }
  const a = axisOf(n);
  if (a >= 0) {
    // Outward along +a: the structure holds the low side.
    const at = n[a]! > 0 ? fill : 1 - fill;
    return { inside: (x) => (n[a]! > 0 ? x[a]! <= at : x[a]! >= at), cuts: [{ axis: a, at }] };
  }
  const t = (x: Readonly<Vec3>) => n[0]! * x[0]! + n[1]! * x[1]! + n[2]! * x[2]!;
  const sorted = samples.map(t).sort((p, q) => p - q);
  const k = Math.round(fill * sorted.length);
  const d = k <= 0 ? -Infinity : sorted[k - 1]!;
  return { inside: (x) => t(x) <= d, cuts: null };
}

/**
 * Midpoints of a grid of `m` cells per axis over the unit cube, each moved by a small fixed
 * offset (a thousandth of a cell or less) so that no two lie in one plane of a slanted normal
 * and a plane can hold exactly its share of them.
 */
function gridSamples(m: number): Vec3[] {
  const out: Vec3[] = [];
  const jitter = (i: number, axis: number) =>
    ((((i * 0.6180339887 + axis * 0.4142135623) % 1) - 0.5) * 1e-3) / m;
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < m; j++) {
      for (let k = 0; k < m; k++) {
        const q = out.length + 1;
        out.push([
          (i + 0.5) / m + jitter(q, 0),
          (j + 0.5) / m + jitter(q, 1),
          (k + 0.5) / m + jitter(q, 2),
        ]);
      }
    }
  }
  return out;
}

const SAMPLES = gridSamples(SLANT_SAMPLES);

/**
 * What each holder of a cube has: shares[0] for the base, shares[1 + q] for parts[q], the
 * fractions of the cube each holds (summing to 1), later parts over earlier ones; and the
 * first moment of each one's share about the cube's centre, moments[3k … 3k + 2] (the shares'
 * moments sum to zero), from which a mixture's interface normal follows (medium.ts).
 */
export interface CubeShares {
  shares: Float64Array;
  moments: Float64Array;
}

export function cubeShares(parts: readonly CubePart[]): CubeShares {
  const spaces = parts.map((p) => region(p, SAMPLES));
  const shares = new Float64Array(parts.length + 1);
  const moments = new Float64Array(3 * (parts.length + 1));
  const add = (x: Readonly<Vec3>, volume: number) => {
    let owner = 0;
    spaces.forEach((s, q) => {
      if (s.inside(x)) owner = q + 1;
    });
    shares[owner] += volume;
    for (let a = 0; a < 3; a++) moments[3 * owner + a] += volume * (x[a]! - 0.5);
  };
  if (spaces.some((s) => s.cuts === null)) {
    for (const x of SAMPLES) add(x, 1 / SAMPLES.length);
    return { shares, moments };
  }
  // Planes along the axes only: the boxes between their cuts, each wholly in or out of each.
  const cuts = [0, 1, 2].map((axis) => {
    const at = new Set<number>([0, 1]);
    for (const cut of spaces.flatMap((s) => s.cuts!)) {
      if (cut.axis === axis) at.add(Math.min(1, Math.max(0, cut.at)));
    }
    return [...at].sort((p, q) => p - q);
  });
  const [cx, cy, cz] = cuts as [number[], number[], number[]];
  const mid: Vec3 = [0, 0, 0];
  for (let i = 0; i + 1 < cx.length; i++) {
    mid[0] = (cx[i]! + cx[i + 1]!) / 2;
    for (let j = 0; j + 1 < cy.length; j++) {
      mid[1] = (cy[j]! + cy[j + 1]!) / 2;
      for (let k = 0; k + 1 < cz.length; k++) {
        mid[2] = (cz[k]! + cz[k + 1]!) / 2;
        add(mid, (cx[i + 1]! - cx[i]!) * (cy[j + 1]! - cy[j]!) * (cz[k + 1]! - cz[k]!));
      }
    }
  }
  return { shares, moments };
}
