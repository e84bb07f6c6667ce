/**
 * The edge-to-edge relation behind width and space checks, with KLayout's semantics (measured
 * on Debian's KLayout 0.28.5 and written down in docs/fabrication.md; shared/NOTES.md has the
 * headline facts). Edges belong to merged polygons whose interior lies to the right of each
 * edge. For two edges a and b and a distance d:
 *
 * 1. Only edges that face each other count: the angle between their directions must exceed 90°
 *    (KLayout's default `ignore_angle` of 90°: perpendicular and same-way edges are skipped).
 * 2. For a width check each edge must look into the interior towards the other, for a space
 *    check into the exterior. Parts of the other edge on the wrong side of an edge's line, or
 *    on the line itself, are cut off (zero distance is excluded), except when the two edges
 *    are collinear and touch: that is the "kissing corner" case, which counts at distance 0.
 * 3. What remains of the other edge is cut down to its part within distance d:
 *    - Euclidean metric: points closer than d to the edge (a strip of width d along it plus
 *      discs of radius d round its end points);
 *    - projection metric: points closer than d whose perpendicular foot falls on the edge.
 *    Strict less-than throughout (a 150 nm line passes a 150 nm rule), with KLayout's one
 *    exception kept: a point-like remainder at exactly d in the Euclidean metric counts.
 * 4. The pair violates when both edges keep a non-empty part; the violation is that pair of
 *    parts ("edge pair"), coordinates rounded to the 1 nm grid as KLayout rounds them.
 *
 * Arithmetic follows KLayout's: exact integer predicates for sides and parallelism, doubles for
 * the parameters along an edge.
 */

import { divExact } from "../geometry/predicates.js";

export interface Edge {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface EdgePair {
  first: Edge;
  second: Edge;
}

export type Relation = "width" | "space";
export type Metric = "euclidean" | "projection";

/** KLayout's coordinate rounding: half away from zero. */
export function roundCoord(v: number): number {
  return v > 0 ? Math.floor(v + 0.5) : -Math.floor(-v + 0.5);
}

const reversed = (e: Edge): Edge => ({ x1: e.x2, y1: e.y2, x2: e.x1, y2: e.y1 });
const degenerate = (e: Edge): boolean => e.x1 === e.x2 && e.y1 === e.y2;

/** +1 when p lies left of the edge's line, −1 right, 0 on it (exact for int32 coordinates). */
export function sideOf(e: Edge, px: number, py: number): number {
  if (degenerate(e)) return 0;
  const v = (e.x2 - e.x1) * (py - e.y1) - (e.y2 - e.y1) * (px - e.x1);
  if (Math.abs(v) < 2 ** 53) return v > 0 ? 1 : v < 0 ? -1 : 0;
  const b =
    (BigInt(e.x2) - BigInt(e.x1)) * (BigInt(py) - BigInt(e.y1)) -
    (BigInt(e.y2) - BigInt(e.y1)) * (BigInt(px) - BigInt(e.x1));
  return b > 0n ? 1 : b < 0n ? -1 : 0;
}

function crossSign(ax: number, ay: number, bx: number, by: number): number {
  const v = ax * by - ay * bx;
  if (Math.abs(v) < 2 ** 53) return v > 0 ? 1 : v < 0 ? -1 : 0;
  const b = BigInt(ax) * BigInt(by) - BigInt(ay) * BigInt(bx);
  return b > 0n ? 1 : b < 0n ? -1 : 0;
}

function dotSign(ax: number, ay: number, bx: number, by: number): number {
  const v = ax * bx + ay * by;
  if (Math.abs(v) < 2 ** 53) return v > 0 ? 1 : v < 0 ? -1 : 0;
  const b = BigInt(ax) * BigInt(bx) + BigInt(ay) * BigInt(by);
  return b > 0n ? 1 : b < 0n ? -1 : 0;
}

const parallel = (a: Edge, b: Edge): boolean =>
  crossSign(a.x2 - a.x1, a.y2 - a.y1, b.x2 - b.x1, b.y2 - b.y1) === 0;

/** Does the closed segment contain the point? */
function contains(e: Edge, px: number, py: number): boolean {
  if (degenerate(e)) return px === e.x1 && py === e.y1;
  if (sideOf(e, px, py) !== 0) return false;
  return (
    dotSign(px - e.x1, py - e.y1, e.x2 - e.x1, e.y2 - e.y1) >= 0 &&
    dotSign(px - e.x2, py - e.y2, e.x1 - e.x2, e.y1 - e.y2) >= 0
  );
}

/** Do two collinear segments share at least one point? */
function collinearTouch(a: Edge, b: Edge): boolean {
  return (
    contains(a, b.x1, b.y1) ||
    contains(a, b.x2, b.y2) ||
    contains(b, a.x1, a.y1) ||
    contains(b, a.x2, a.y2)
  );
}

/** Where the line through g crosses the line through e, rounded (KLayout's cut_point). */
function cutPoint(g: Edge, e: Edge): [number, number] {
  const edx = e.x2 - e.x1;
  const edy = e.y2 - e.y1;
  const gdx = g.x2 - g.x1;
  const gdy = g.y2 - g.y1;
  const den = edx * gdy - edy * gdx;
  const num = (e.x1 - g.x1) * gdy - (e.y1 - g.y1) * gdx;
  const t = num / den;
  return [e.x1 - roundCoord(edx * t), e.y1 - roundCoord(edy * t)];
}

/**
 * Signed distance of p from the edge's line (negative on the right), as KLayout's
 * Edge::distance computes it: the cross product divided by the edge length *rounded to an
 * integer*, then rounded. A 19.24 nm edge thus measures with length 19, which decides cases
 * on the rule boundary; we follow it to report the same violations.
 */
function lineDistance(e: Edge, px: number, py: number): number {
  const len = roundCoord(Math.hypot(e.x2 - e.x1, e.y2 - e.y1));
  const v = (e.x2 - e.x1) * (py - e.y1) - (e.y2 - e.y1) * (px - e.x1);
  return roundCoord(v / len);
}

/**
 * Keeps the part of `other` on the inner (right) side of e. Returns null when nothing remains;
 * `includeZero` also keeps points on e's line.
 */
function clipToInside(e: Edge, other: Edge): { g: Edge; includeZero: boolean } | null {
  const s1 = sideOf(e, other.x1, other.y1);
  const s2 = sideOf(e, other.x2, other.y2);
  // Collinear and touching: the kissing-corner case counts at distance zero.
  const includeZero = s1 === 0 && s2 === 0 && collinearTouch(e, other);
  const threshold = includeZero ? 0 : -1;
  if (s1 > threshold && s2 > threshold) return null;
  if (s2 > threshold) {
    const [cx, cy] = cutPoint(other, e);
    return { g: { x1: other.x1, y1: other.y1, x2: cx, y2: cy }, includeZero };
  }
  if (s1 > threshold) {
    const [cx, cy] = cutPoint(other, e);
    return { g: { x1: cx, y1: cy, x2: other.x2, y2: other.y2 }, includeZero };
  }
  return { g: other, includeZero };
}

function partOf(g: Edge, l1: number, l2: number): Edge {
  const dx = g.x2 - g.x1;
  const dy = g.y2 - g.y1;
  return {
    x1: g.x1 + roundCoord(dx * l1),
    y1: g.y1 + roundCoord(dy * l1),
    x2: g.x1 + roundCoord(dx * l2),
    y2: g.y1 + roundCoord(dy * l2),
  };
}

/** The part of `other` on e's inner side and closer than d in the Euclidean metric. */
export function euclideanNearPart(e: Edge, other: Edge, d: number): Edge | null {
  if (degenerate(e)) return null;
  const clipped = clipToInside(e, other);
  if (!clipped) return null;
  const g = clipped.g;
  const edx = e.x2 - e.x1;
  const edy = e.y2 - e.y1;

  if (degenerate(g)) {
    // A point: it counts when the segment e reaches into its disc of radius d (inclusive).
    if (sideOf(e, g.x1, g.y1) >= 0) return null;
    const a = edx * edx + edy * edy;
    const b = (e.x1 - g.x1) * edx + (e.y1 - g.y1) * edy;
    const c = (e.x1 - g.x1) ** 2 + (e.y1 - g.y1) ** 2 - d * d;
    const s = b * b - a * c;
    if (s < 0) return null;
    const l1 = Math.max(0, (-b - Math.sqrt(s)) / a);
    const l2 = Math.min(1, (-b + Math.sqrt(s)) / a);
    return l1 <= l2 ? g : null;
  }

  const gdx = g.x2 - g.x1;
  const gdy = g.y2 - g.y1;
  let l1 = Number.MAX_VALUE;
  let l2 = -Number.MAX_VALUE;
  if (parallel(e, g)) {
    if (Math.abs(lineDistance(e, g.x1, g.y1)) >= d) return null;
  } else {
    // Parameters along g where it crosses e's line and the line d inside it. The expressions
    // follow KLayout's operation order so that boundary cases round the same way.
    const ef = 1 / Math.sqrt(edx * edx + edy * edy);
    const nx = ef * edy;
    const ny = -ef * edx;
    const det = gdx * edy - gdy * edx;
    const e1dx = e.x1 + nx * d;
    const e1dy = e.y1 + ny * d;
    let lp1 = ((e1dx - g.x1) * edy - (e1dy - g.y1) * edx) / det;
    let lp2 = ((e.x1 - g.x1) * edy - (e.y1 - g.y1) * edx) / det;
    if (lp1 > lp2) [lp1, lp2] = [lp2, lp1];
    if (dotSign(edx, edy, gdx, gdy) === 0) {
      if (sideOf(g, e.x1, e.y1) * sideOf(g, e.x2, e.y2) <= 0) {
        l1 = lp1;
        l2 = lp2;
      }
    } else {
      // ... and where it leaves the band spanned by perpendiculars through e's ends.
      const det2 = gdx * ny - gdy * nx;
      let lt1 = ((e.x1 - g.x1) * ny - (e.y1 - g.y1) * nx) / det2;
      let lt2 = ((e.x2 - g.x1) * ny - (e.y2 - g.y1) * nx) / det2;
      if (lt1 > lt2) [lt1, lt2] = [lt2, lt1];
      const ll1 = Math.max(lp1, lt1);
      const ll2 = Math.min(lp2, lt2);
      if (ll1 <= ll2) {
        l1 = ll1;
        l2 = ll2;
      }
    }
  }
  // Discs of radius d round e's end points.
  for (const [ox, oy] of [
    [e.x1, e.y1],
    [e.x2, e.y2],
  ] as const) {
    const a = gdx * gdx + gdy * gdy;
    const b = (g.x1 - ox) * gdx + (g.y1 - oy) * gdy;
    const c = (g.x1 - ox) ** 2 + (g.y1 - oy) ** 2 - d * d;
    const s = b * b - a * c;
    if (s >= 0) {
      l1 = Math.min(l1, (-b - Math.sqrt(s)) / a);
      l2 = Math.max(l2, (-b + Math.sqrt(s)) / a);
    }
  }
  l1 = Math.max(0, l1);
  l2 = Math.min(1, l2);
  if (l1 >= l2) return null;
  return partOf(g, l1, l2);
}

/** The part of `other` on e's inner side, closer than d, whose perpendicular foot is on e. */
export function projectionNearPart(e: Edge, other: Edge, d: number): Edge | null {
  if (degenerate(e)) return null;
  const clipped = clipToInside(e, other);
  if (!clipped) return null;
  const g = clipped.g;
  const edx = e.x2 - e.x1;
  const edy = e.y2 - e.y1;

  if (degenerate(g)) {
    const gd = lineDistance(e, g.x1, g.y1);
    if (gd <= -d || gd >= 0) return null;
    if (dotSign(g.x1 - e.x1, g.y1 - e.y1, edx, edy) < 0) return null;
    if (dotSign(e.x2 - g.x1, e.y2 - g.y1, edx, edy) < 0) return null;
    return g;
  }

  const gdx = g.x2 - g.x1;
  const gdy = g.y2 - g.y1;
  // KLayout's operation order (see euclideanNearPart).
  const ef = 1 / Math.sqrt(edx * edx + edy * edy);
  const nx = ef * edy;
  const ny = -ef * edx;
  let l1 = Number.MIN_VALUE;
  let l2 = Number.MAX_VALUE;
  if (parallel(e, g)) {
    if (Math.abs(lineDistance(e, g.x1, g.y1)) >= d) return null;
  } else {
    const det = gdx * edy - gdy * edx;
    const e1dx = e.x1 + nx * d;
    const e1dy = e.y1 + ny * d;
    let lp1 = ((e1dx - g.x1) * edy - (e1dy - g.y1) * edx) / det;
    let lp2 = ((e.x1 - g.x1) * edy - (e.y1 - g.y1) * edx) / det;
    if (lp1 > lp2) [lp1, lp2] = [lp2, lp1];
    l1 = lp1;
    l2 = lp2;
  }
  if (dotSign(edx, edy, gdx, gdy) === 0) {
    if (
      dotSign(g.x1 - e.x1, g.y1 - e.y1, edx, edy) < 0 ||
      dotSign(e.x2 - g.x1, e.y2 - g.y1, edx, edy) < 0
    ) {
      return null;
    }
  } else {
    const det2 = gdx * ny - gdy * nx;
    let lt1 = ((e.x1 - g.x1) * ny - (e.y1 - g.y1) * nx) / det2;
    let lt2 = ((e.x2 - g.x1) * ny - (e.y2 - g.y1) * nx) / det2;
    if (lt1 > lt2) [lt1, lt2] = [lt2, lt1];
    l1 = Math.max(l1, lt1);
    l2 = Math.min(l2, lt2);
  }
  l1 = Math.max(0, l1);
  l2 = Math.min(1, l2);
  if (l1 >= l2) return null;
  return partOf(g, l1, l2);
}

/**
 * Checks edges a and b (interior to their right) against distance d. Returns the violating
 * edge pair (the near parts of a and of b, in their original directions) or null.
 */
export function checkEdgePair(
  a: Edge,
  b: Edge,
  relation: Relation,
  metric: Metric,
  d: number,
): EdgePair | null {
  // Facing edges only: directions more than 90° apart.
  if (dotSign(a.x2 - a.x1, a.y2 - a.y1, b.x2 - b.x1, b.y2 - b.y1) >= 0) return null;
  // Normalise to "width" orientation: the side to look into is on the right.
  const an = relation === "space" ? reversed(a) : a;
  const bn = relation === "space" ? reversed(b) : b;
  const near = metric === "euclidean" ? euclideanNearPart : projectionNearPart;
  const partB = near(an, bn, d);
  if (!partB) return null;
  const partA = near(bn, an, d);
  if (!partA) return null;
  return relation === "space"
    ? { first: reversed(partA), second: reversed(partB) }
    : { first: partA, second: partB };
}

/** Smallest distance between two segments (0 when they touch or cross), in nm. */
export function segmentDistance(a: Edge, b: Edge): number {
  if (segmentsIntersect(a, b)) return 0;
  return Math.min(
    pointSegmentDistance(a.x1, a.y1, b),
    pointSegmentDistance(a.x2, a.y2, b),
    pointSegmentDistance(b.x1, b.y1, a),
    pointSegmentDistance(b.x2, b.y2, a),
  );
}

function pointSegmentDistance(px: number, py: number, e: Edge): number {
  const dx = e.x2 - e.x1;
  const dy = e.y2 - e.y1;
  const l2 = dx * dx + dy * dy;
  if (l2 === 0) return Math.hypot(px - e.x1, py - e.y1);
  const t = Math.max(0, Math.min(1, ((px - e.x1) * dx + (py - e.y1) * dy) / l2));
  return Math.hypot(px - (e.x1 + t * dx), py - (e.y1 + t * dy));
}

/** Do two closed segments share a point? */
export function segmentsIntersect(a: Edge, b: Edge): boolean {
  if (degenerate(a)) return contains(b, a.x1, a.y1);
  if (degenerate(b)) return contains(a, b.x1, b.y1);
  const s1 = sideOf(a, b.x1, b.y1);
  const s2 = sideOf(a, b.x2, b.y2);
  const s3 = sideOf(b, a.x1, a.y1);
  const s4 = sideOf(b, a.x2, a.y2);
  if (s1 === 0 && s2 === 0) return collinearTouch(a, b);
  return s1 * s2 <= 0 && s3 * s4 <= 0;
}

/**
 * Where two closed segments meet, rounded (one of the shared points for overlapping collinear
 * segments), or null. Mirrors KLayout's Edge::intersect_point for the shielding test.
 */
export function intersectionPoint(a: Edge, b: Edge): [number, number] | null {
  if (!segmentsIntersect(a, b)) return null;
  if (degenerate(a)) return [a.x1, a.y1];
  if (degenerate(b)) return [b.x1, b.y1];
  const s1 = sideOf(a, b.x1, b.y1);
  const s2 = sideOf(a, b.x2, b.y2);
  const s3 = sideOf(b, a.x1, a.y1);
  const s4 = sideOf(b, a.x2, a.y2);
  if (s1 === 0 || s2 === 0 || s3 === 0 || s4 === 0) {
    if (contains(a, b.x1, b.y1)) return [b.x1, b.y1];
    if (contains(a, b.x2, b.y2)) return [b.x2, b.y2];
    if (contains(b, a.x1, a.y1)) return [a.x1, a.y1];
    return [a.x2, a.y2];
  }
  const adx = a.x2 - a.x1;
  const ady = a.y2 - a.y1;
  const va = Math.abs((b.x2 - b.x1) * (a.y1 - b.y1) - (b.y2 - b.y1) * (a.x1 - b.x1));
  const vb = Math.abs((b.x2 - b.x1) * (a.y2 - b.y1) - (b.y2 - b.y1) * (a.x2 - b.x1));
  return [a.x1 + divExact(adx, va, va + vb), a.y1 + divExact(ady, va, va + vb)];
}

/**
 * KLayout's edge-pair normalisation: orders the two edges' directions so that the pair
 * outlines a consistently oriented quadrilateral (first.p1 → first.p2 → second.p1 →
 * second.p2), which the shielding test needs.
 */
export function normalisePair(p: EdgePair): EdgePair {
  let f = p.first;
  let s = p.second;
  let a1 = (f.x2 - s.x2) * (f.y1 - s.y1) - (f.y2 - s.y2) * (f.x1 - s.x1);
  const a2 = (f.x1 - s.x2) * (f.y2 - s.y1) - (f.y1 - s.y2) * (f.x2 - s.x1);
  if (Math.abs(a2) > Math.abs(a1)) {
    f = reversed(f);
    a1 = a2;
  }
  if (a1 < 0) {
    f = reversed(f);
    s = reversed(s);
  } else if (a1 === 0) {
    if (dotSign(f.x2 - f.x1, f.y2 - f.y1, s.x2 - s.x1, s.y2 - s.y1) > 0) f = reversed(f);
    if (sideOf(f, s.x1, s.y1) > 0 || sideOf(s, f.x1, f.y1) > 0) {
      f = reversed(f);
      s = reversed(s);
    }
  }
  return { first: f, second: s };
}

/**
 * Does edge q shield the violation `pair` (normalised)? True when q crosses both lines that
 * join the pair's ends, i.e. q runs between the two edges: KLayout's default "shielded" mode
 * drops such violations because the two edges do not see each other.
 */
export function shields(pair: EdgePair, q: Edge): boolean {
  const f = pair.first;
  const s = pair.second;
  const pe1: Edge = { x1: f.x1, y1: f.y1, x2: s.x2, y2: s.y2 };
  const pe2: Edge = { x1: s.x1, y1: s.y1, x2: f.x2, y2: f.y2 };
  const ip1 = intersectionPoint(pe1, q);
  if (!ip1) return false;
  const ip2 = intersectionPoint(pe2, q);
  if (!ip2) return false;
  return (
    ip1[0] !== ip2[0] ||
    ip1[1] !== ip2[1] ||
    (sideOf(pe1, q.x1, q.y1) !== 0 && sideOf(pe2, q.x2, q.y2) !== 0)
  );
}
