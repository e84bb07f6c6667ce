/**
 * GDS II PATH elements as polygons.
 *
 * A path is a centre line with a width w. Its ends (PATHTYPE): 0 flush, 2 extended by w/2,
 * 4 extended by BGNEXTN at the start and ENDEXTN at the end, 1 round (a half disc of radius w/2).
 * Joins follow KLayout's path-to-polygon rule, so that files drawn in KLayout merge to the
 * same outline here: the two offset edges are extended to their intersection (a mitre) when
 * that point lies within w/2 of the vertex along both edges; otherwise the corner is cut off
 * at w/2 along each edge. A U-turn (antiparallel segments) gets a square cap of w/2.
 *
 * Each outline point is a centre-line point moved by an offset in whole database units, as
 * KLayout makes them: the half-width normal rounded away from the centre line (a 59 nm path is
 * 60 nm wide), a mitre where the offset lines through those rounded normals meet, a type-2
 * extension of half the width truncated (29 nm for 59). Rounding the outline's coordinates
 * instead (.5 up) made a 59 nm path 59 nm wide, and a design-rule check flagged a width
 * KLayout does not.
 *
 * Round ends are approximated by inscribed polygons whose chords deviate from the true half
 * circle by at most `maxSagitta` (default 1 database unit, at least 8 segments a turn; see
 * geometry/circle.ts). KLayout approximates them differently, so areas agree to within that
 * sagitta times the cap's arc length.
 */

import { arcPoints } from "../geometry/circle.js";

export interface PathSpec {
  /** Centre line [x0, y0, x1, y1, …] in database units. */
  points: ArrayLike<number>;
  /** Full width in database units (the absolute value is used). */
  width: number;
  /** 0 flush, 1 round, 2 half-width extension, 4 custom extensions. */
  pathType: number;
  /** Start extension for path type 4, database units. */
  beginExtension: number;
  /** End extension for path type 4, database units. */
  endExtension: number;
  /** Largest chord-to-arc gap for round ends, database units (default 1). */
  maxSagitta?: number;
}

/**
 * The path's outline as a flat [x0, y0, …] ring in database units (each point a centre-line
 * point plus an offset rounded as KLayout rounds it; round caps not rounded), or null when the
 * path has no area (zero width, or a single point with flush ends).
 */
export function pathOutline(spec: PathSpec): Float64Array | null {
  const h = Math.abs(spec.width) / 2;
  if (h === 0) return null;
  const pts = centreLine(spec.points);
  let begin = 0;
  let end = 0;
  // Half the width in whole units, as KLayout reads a type-2 path (59 nm: 29).
  if (spec.pathType === 2) begin = end = Math.trunc(h);
  else if (spec.pathType === 4) {
    begin = spec.beginExtension;
    end = spec.endExtension;
  }
  const round = spec.pathType === 1;
  const sagitta = spec.maxSagitta ?? 1;

  if (pts.length === 1) {
    const [x, y] = pts[0]!;
    if (round) {
      return Float64Array.from(
        arcPoints(x, y, h, 0, 2 * Math.PI, sagitta)
          .slice(0, -1)
          .flat(),
      );
    }
    // A point with extensions: a box along x, as KLayout treats a one-point path.
    if (begin + end <= 0) return null;
    const [b, e, hh] = [away(begin), away(end), away(h)];
    return Float64Array.of(x - b, y - hh, x + e, y - hh, x + e, y + hh, x - b, y + hh);
  }

  const left = offsetSide(pts, h, begin, end, round);
  const reversed = pts.slice().reverse();
  const right = offsetSide(reversed, h, end, begin, round);
  const ring: number[] = [];
  for (const [x, y] of left) ring.push(x, y);
  if (round) capPoints(pts[pts.length - 1]!, pts[pts.length - 2]!, h, sagitta, ring);
  for (const [x, y] of right) ring.push(x, y);
  if (round) capPoints(pts[0]!, pts[1]!, h, sagitta, ring);
  return withoutRepeats(ring);
}

/**
 * The ring without a point equal to the one before it (the last compared with the first): a
 * corner cut at the half-width whose two points round to one, where KLayout has one.
 */
function withoutRepeats(ring: number[]): Float64Array {
  const out: number[] = [];
  const n = ring.length / 2;
  for (let i = 0; i < n; i += 1) {
    const [x, y] = [ring[2 * i]!, ring[2 * i + 1]!];
    const j = (i + n - 1) % n;
    if (n > 1 && x === ring[2 * j] && y === ring[2 * j + 1]) continue;
    out.push(x, y);
  }
  return Float64Array.from(out);
}

/** A length rounded to whole database units, halves away from zero. */
function away(v: number): number {
  return Math.sign(v) * Math.round(Math.abs(v));
}

/** The left normal (−dy, dx) of a unit direction, times h, in whole units as KLayout has it. */
function normal(d: [number, number], h: number): [number, number] {
  return [away(-d[1] * h), away(d[0] * h)];
}

/** The point `p` moved by (ox, oy), the offset rounded as KLayout rounds it (away from p). */
function at(p: [number, number], ox: number, oy: number): [number, number] {
  return [p[0] + away(ox), p[1] + away(oy)];
}

/** Distinct points with collinear pass-through points removed. */
function centreLine(points: ArrayLike<number>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < points.length; i += 2) {
    const p: [number, number] = [points[i]!, points[i + 1]!];
    const last = out[out.length - 1];
    if (last && last[0] === p[0] && last[1] === p[1]) continue;
    // Drop the previous point when it lies on the straight segment from its predecessor to p.
    if (out.length >= 2) {
      const a = out[out.length - 2]!;
      const b = last!;
      const crossAbp = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
      const forward = (b[0] - a[0]) * (p[0] - b[0]) + (b[1] - a[1]) * (p[1] - b[1]) > 0;
      if (crossAbp === 0 && forward) out.pop();
    }
    out.push(p);
  }
  return out;
}

/**
 * The left offset side of the centre line (at distance h), from its start (pulled back by
 * `begin`) to its end (pushed on by `end`); for round ends without the extension, since the cap
 * supplies it.
 */
function offsetSide(
  pts: Array<[number, number]>,
  h: number,
  begin: number,
  end: number,
  round: boolean,
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const n = pts.length;
  const dir = (i: number): [number, number] => {
    const dx = pts[i + 1]![0] - pts[i]![0];
    const dy = pts[i + 1]![1] - pts[i]![1];
    const l = Math.hypot(dx, dy);
    return [dx / l, dy / l];
  };
  const d0 = dir(0);
  const b = round ? 0 : begin;
  const start = normal(d0, h);
  out.push(at(pts[0]!, start[0] - d0[0] * b, start[1] - d0[1] * b));
  for (let i = 1; i < n - 1; i += 1) {
    const p = pts[i]!;
    const d1 = dir(i - 1);
    const d2 = dir(i);
    // The offset lines run through the vertex moved by the (rounded) left normals.
    const n1 = normal(d1, h);
    const n2 = normal(d2, h);
    const det = d1[0] * d2[1] - d1[1] * d2[0];
    if (Math.abs(det) < 1e-12) {
      // Antiparallel (a U-turn; parallel pass-through points were removed): square cap.
      out.push(at(p, n1[0] + d1[0] * h, n1[1] + d1[1] * h));
      out.push(at(p, n2[0] - d2[0] * h, n2[1] - d2[1] * h));
      continue;
    }
    // Offset lines p + n1 + t·d1 and p + n2 − u·d2 meet where t·d1 + u·d2 = n2 − n1.
    const vx = n2[0] - n1[0];
    const vy = n2[1] - n1[1];
    const t = (vx * d2[1] - vy * d2[0]) / det;
    const u = (d1[0] * vy - d1[1] * vx) / det;
    const len1 = Math.hypot(p[0] - pts[i - 1]![0], p[1] - pts[i - 1]![1]);
    const len2 = Math.hypot(pts[i + 1]![0] - p[0], pts[i + 1]![1] - p[1]);
    const eps = 1e-9;
    if (t < -eps !== u < -eps) {
      out.push(at(p, n1[0], n1[1]));
      out.push(at(p, n2[0], n2[1]));
    } else if (t < -len1 - h - eps || u < -len2 - h - eps) {
      // Segments too short for the inner offset lines to meet: go round through the vertex.
      out.push(at(p, n1[0], n1[1]));
      out.push([p[0], p[1]]);
      out.push(at(p, n2[0], n2[1]));
    } else if (t < h + eps && u < h + eps) {
      out.push(at(p, n1[0] + d1[0] * t, n1[1] + d1[1] * t));
    } else {
      const tc = Math.min(h, t);
      const uc = Math.min(h, u);
      out.push(at(p, n1[0] + d1[0] * tc, n1[1] + d1[1] * tc));
      out.push(at(p, n2[0] - d2[0] * uc, n2[1] - d2[1] * uc));
    }
  }
  const dl = dir(n - 2);
  const e = round ? 0 : end;
  const pl = pts[n - 1]!;
  const last = normal(dl, h);
  out.push(at(pl, last[0] + dl[0] * e, last[1] + dl[1] * e));
  return out;
}

/** Inner points of a half-disc cap at `tip`, coming from `before`, left side to right side. */
function capPoints(
  tip: [number, number],
  before: [number, number],
  h: number,
  sagitta: number,
  ring: number[],
): void {
  const a = Math.atan2(tip[1] - before[1], tip[0] - before[0]);
  // From the left normal (a + π/2) clockwise through the tip direction to the right (a − π/2).
  const pts = arcPoints(tip[0], tip[1], h, a + Math.PI / 2, a - Math.PI / 2, sagitta);
  for (let i = 1; i < pts.length - 1; i += 1) ring.push(pts[i]![0], pts[i]![1]);
}
