/**
 * The rounded segments in the form the sweep (sweep.ts) takes: non-horizontal edges directed
 * from their lower end to their upper end, with the change of winding number across them, and
 * coincident edges merged into one; horizontal edges apart, which carry no winding.
 */

import type { Segments } from "./segments.js";
import { orient } from "../predicates.js";
import { sortIndicesByKeys } from "../sort.js";

/** Rounded edges in canonical form: non-horizontal ones lower → upper, with winding deltas. */
export interface CanonicalEdges {
  /** Non-horizontal, sorted by lower end (y, x) then left to right; deltas ≠ 0. */
  n: number;
  lx: Float64Array;
  ly: Float64Array;
  ux: Float64Array;
  uy: Float64Array;
  /** Change of winding number crossing the edge from its left (west) to its right (east). */
  delta: Int32Array;
  /** Horizontal, sorted by (y, left x), duplicates removed. */
  h: number;
  hlx: Float64Array;
  hux: Float64Array;
  hy: Float64Array;
}

type NonHorizontal = Pick<CanonicalEdges, "n" | "lx" | "ly" | "ux" | "uy" | "delta">;
type Horizontal = Pick<CanonicalEdges, "h" | "hlx" | "hux" | "hy">;

/** The segments (which snap rounding left without crossings) in canonical form. */
export function canonicalise(s: Segments): CanonicalEdges {
  const { nonHorizontal, horizontal } = directEdges(s);
  return { ...mergeCoincident(nonHorizontal), ...uniqueHorizontal(horizontal) };
}

/**
 * Non-horizontal segments directed upwards with their winding deltas, and horizontal ones
 * left to right, both in input order.
 */
function directEdges(s: Segments): { nonHorizontal: NonHorizontal; horizontal: Horizontal } {
  let nh = 0;
  for (let i = 0; i < s.count; i += 1) if (s.ay[i] === s.by[i]) nh += 1;
  const nn = s.count - nh;
  const lx = new Float64Array(nn);
  const ly = new Float64Array(nn);
  const ux = new Float64Array(nn);
  const uy = new Float64Array(nn);
  const delta = new Int32Array(nn);
  const hlx = new Float64Array(nh);
  const hux = new Float64Array(nh);
  const hy = new Float64Array(nh);
  let a = 0;
  let b = 0;
  for (let i = 0; i < s.count; i += 1) {
    const x1 = s.ax[i]!;
    const y1 = s.ay[i]!;
    const x2 = s.bx[i]!;
    const y2 = s.by[i]!;
    if (y1 === y2) {
      hlx[b] = Math.min(x1, x2);
      hux[b] = Math.max(x1, x2);
      hy[b] = y1;
      b += 1;
    } else {
      const up = y2 > y1;
      lx[a] = up ? x1 : x2;
      ly[a] = up ? y1 : y2;
      ux[a] = up ? x2 : x1;
      uy[a] = up ? y2 : y1;
      // Interior on the left going up = west of the edge: crossing eastwards leaves it.
      delta[a] = s.side[i]! * (up ? -1 : 1);
      a += 1;
    }
  }
  return {
    nonHorizontal: { n: nn, lx, ly, ux, uy, delta },
    horizontal: { h: nh, hlx, hux, hy },
  };
}

/**
 * Orders non-horizontal edges by lower end, then left to right above it, and merges identical
 * edges: their deltas add up, and an edge whose sum is 0 is dropped.
 */
function mergeCoincident(e: NonHorizontal): NonHorizontal {
  const { n: nn, lx, ly, ux, uy, delta } = e;
  const order = sortIndicesByKeys(nn, ly, lx);
  const keep: number[] = [];
  const mergedDelta: number[] = [];
  let g = 0;
  while (g < nn) {
    const gx = lx[order[g]!]!;
    const gy = ly[order[g]!]!;
    let end = g + 1;
    while (end < nn && ly[order[end]!] === gy && lx[order[end]!] === gx) end += 1;
    const members = Array.from(order.subarray(g, end));
    if (members.length > 1) {
      // p before q when p runs to the left of q just above the shared lower end.
      members.sort((p, q) => -orient(gx, gy, ux[q]!, uy[q]!, ux[p]!, uy[p]!));
    }
    let m = 0;
    while (m < members.length) {
      const first = members[m]!;
      let sum = delta[first]!;
      let m2 = m + 1;
      while (
        m2 < members.length &&
        orient(gx, gy, ux[first]!, uy[first]!, ux[members[m2]!]!, uy[members[m2]!]!) === 0
      ) {
        sum += delta[members[m2]!]!;
        m2 += 1;
      }
      if (sum !== 0) {
        keep.push(first);
        mergedDelta.push(sum);
      }
      m = m2;
    }
    g = end;
  }
  const n = keep.length;
  const out: NonHorizontal = {
    n,
    lx: new Float64Array(n),
    ly: new Float64Array(n),
    ux: new Float64Array(n),
    uy: new Float64Array(n),
    delta: Int32Array.from(mergedDelta),
  };
  for (let k = 0; k < n; k += 1) {
    const i = keep[k]!;
    out.lx[k] = lx[i]!;
    out.ly[k] = ly[i]!;
    out.ux[k] = ux[i]!;
    out.uy[k] = uy[i]!;
  }
  return out;
}

/**
 * Orders horizontal edges by (y, left x) and drops duplicates (after snap rounding two
 * horizontal edges on one line either coincide or share at most an end point).
 */
function uniqueHorizontal(e: Horizontal): Horizontal {
  const { h: nh, hlx, hux, hy } = e;
  const horder = sortIndicesByKeys(nh, hy, hlx);
  const hk: number[] = [];
  for (let k = 0; k < nh; k += 1) {
    const i = horder[k]!;
    const last = hk.length > 0 ? hk[hk.length - 1]! : -1;
    if (last >= 0 && hy[last] === hy[i] && hlx[last] === hlx[i] && hux[last] === hux[i]) continue;
    hk.push(i);
  }
  return {
    h: hk.length,
    hlx: Float64Array.from(hk, (i) => hlx[i]!),
    hux: Float64Array.from(hk, (i) => hux[i]!),
    hy: Float64Array.from(hk, (i) => hy[i]!),
  };
}
