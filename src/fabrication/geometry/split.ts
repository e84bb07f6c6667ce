/**
 * Cutting large polygons into pieces with at most a given number of vertices, for formats
 * that limit them (a GDS II XY record holds at most 8 191 points, the closing one included).
 *
 * The polygon is cut by a vertical or horizontal line through the median vertex coordinate
 * along its longer side; each half is clipped (Sutherland–Hodgman) and cleaned by a merge,
 * which also separates halves that fall apart into several shapes. Pieces with holes (which
 * GDS II cannot represent) are cut again through a hole, which opens it into a notch.
 * Crossing points on a cut line are rounded to the 1 nm grid the same way for both halves,
 * so the pieces meet without gaps or overlaps; a vertex there moves by at most 0.5 nm.
 */

import { mergePolygons } from "./merge.js";
import { ringArea2, ringsBox, type Ring } from "./polygon.js";

/** Splits `ring` into rings of at most `maxVertices` vertices whose union is the ring. */
export function splitRing(ring: Ring, maxVertices: number): Ring[] {
  if (maxVertices < 8) throw new RangeError("maxVertices must be at least 8");
  if (ring.length / 2 <= maxVertices) return [ring];
  const out: Ring[] = [];
  // Each entry: a ring still to cut, and optionally where to cut it (through a hole).
  const pending: Array<{ ring: Ring; cutX?: number }> = [{ ring }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    const r = item.ring;
    const box = ringsBox([r])!;
    let axis: number;
    let cut: number;
    if (item.cutX !== undefined) {
      axis = 0;
      cut = item.cutX;
    } else {
      axis = box[2] - box[0] >= box[3] - box[1] ? 0 : 1;
      const coords = new Float64Array(r.length / 2);
      for (let i = 0; i < coords.length; i += 1) coords[i] = r[2 * i + axis]!;
      coords.sort();
      cut = coords[coords.length >> 1]!;
      if (cut <= box[axis]! || cut >= box[axis + 2]!) {
        cut = Math.floor((box[axis]! + box[axis + 2]!) / 2);
      }
    }
    for (const half of [clipHalf(r, axis, cut, false), clipHalf(r, axis, cut, true)]) {
      if (half.length < 6) continue;
      const merged = mergePolygons([half]);
      // A simple ring clipped by a half-plane has no holes; a self-overlapping one can. GDS II
      // cannot store holes, so cut that half again through the hole, opening it into a notch.
      const hole = merged.loops.find((l) => ringArea2(l) > 0);
      if (hole) {
        const hb = ringsBox([hole])!;
        pending.push({ ring: half, cutX: Math.floor((hb[0] + hb[2]) / 2) });
        continue;
      }
      for (const piece of merged.loops) {
        if (piece.length / 2 <= maxVertices) out.push(piece);
        else pending.push({ ring: piece });
      }
    }
  }
  return out;
}

/**
 * Sutherland–Hodgman clipping of a ring to the half-plane coordinate[axis] ≤ cut (upper =
 * false) or ≥ cut (upper = true). Crossing points are rounded to integers, identically for
 * both halves because both compute them from the edge in its stored direction.
 */
export function clipHalf(ring: ArrayLike<number>, axis: number, cut: number, upper: boolean): Ring {
  return Int32Array.from(clipHalfPoints(ring, axis, cut, upper, Math.round));
}

/**
 * clipHalf's clipping as plain numbers, of any magnitude (a shape past 32 bits is cut before
 * it becomes a ring), the crossing points rounded by `round`.
 */
export function clipHalfPoints(
  ring: ArrayLike<number>,
  axis: number,
  cut: number,
  upper: boolean,
  round: (v: number) => number,
): number[] {
  const n = ring.length >> 1;
  const out: number[] = [];
  const inside = (i: number): boolean =>
    upper ? ring[2 * i + axis]! >= cut : ring[2 * i + axis]! <= cut;
  for (let i = 0; i < n; i += 1) {
    const j = (i + 1) % n;
    const inI = inside(i);
    const inJ = inside(j);
    if (inI) out.push(ring[2 * i]!, ring[2 * i + 1]!);
    if (inI !== inJ) {
      // Compute from the lower-index-to-higher direction regardless of which side is kept.
      const a = ring[2 * i + axis]!;
      const b = ring[2 * j + axis]!;
      if (a !== cut && b !== cut) {
        const other = 1 - axis;
        const oa = ring[2 * i + other]!;
        const ob = ring[2 * j + other]!;
        const t = (cut - a) / (b - a);
        const o = round(oa + (ob - oa) * t);
        if (axis === 0) out.push(cut, o);
        else out.push(o, cut);
      }
    }
  }
  return out;
}
