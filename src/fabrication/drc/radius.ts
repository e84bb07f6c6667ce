/**
 * Curved features in merged outlines, for the `min_radius` rule. KLayout has no such check;
 * the semantics are ours (docs/fabrication.md):
 *
 * - An arc is a run of at least 3 consecutive vertices of one outline where the outline turns
 *   the same way by a small angle (0° < |turn| ≤ 30°), i.e. an arc drawn with at least 4
 *   segments of at most 30° each (a circle with 12 or more vertices). Manhattan corners (90°)
 *   and 45° chamfers never qualify; a taper's two bends are too few.
 * - Its radius is a least-squares circle through the run's vertices (Kåsa's algebraic fit);
 *   runs whose vertices stray from that circle by more than max(1 nm, 2 % of the radius) are
 *   not arcs (e.g. a spline that changes curvature).
 * - A convex arc (the shape's inside is towards the centre) and a concave arc of the same
 *   polygon around the same centre are the outer and inner edges of one bend or ring: the
 *   feature's radius is their mean, the centre-line radius that PDK bend rules state. A lone
 *   convex arc (a disc, a rounded corner) or lone concave arc (a fillet) has its own radius.
 * - A feature violates `min_radius` when its radius is strictly below the rule.
 */

import type { MergeResult } from "../geometry/merge.js";

const MAX_TURN_RAD = (30 * Math.PI) / 180;
const MIN_RUN_VERTICES = 3;

export interface Arc {
  /** Merged polygon the arc belongs to. */
  polygon: number;
  /** True when the shape's interior lies towards the centre. */
  convex: boolean;
  centre: [number, number];
  radiusNm: number;
  /** Vertex at the middle of the run. */
  middle: [number, number];
  /** First and last edges of the run, [x1, y1, x2, y2] in nm. */
  firstEdge: [number, number, number, number];
  lastEdge: [number, number, number, number];
  /** Angle the arc spans, radians. */
  spanRad: number;
}

export interface CurvedFeature {
  /** "bend" for a matched convex/concave pair (radius = mean), else "arc". */
  kind: "bend" | "arc";
  radiusNm: number;
  location: [number, number];
  arcs: Arc[];
}

/** Finds the arcs of every loop of a merged layer. */
export function findArcs(merge: MergeResult): Arc[] {
  const arcs: Arc[] = [];
  merge.loops.forEach((loop, li) => {
    const n = loop.length >> 1;
    if (n < MIN_RUN_VERTICES + 1) return;
    const turn = new Float64Array(n);
    for (let i = 0; i < n; i += 1) {
      const p = (i + n - 1) % n;
      const q = (i + 1) % n;
      const ax = loop[2 * i]! - loop[2 * p]!;
      const ay = loop[2 * i + 1]! - loop[2 * p + 1]!;
      const bx = loop[2 * q]! - loop[2 * i]!;
      const by = loop[2 * q + 1]! - loop[2 * i + 1]!;
      turn[i] = Math.atan2(ax * by - ay * bx, ax * bx + ay * by);
    }
    const arcLike = (i: number): number => {
      const t = turn[i]!;
      if (t === 0 || Math.abs(t) > MAX_TURN_RAD) return 0;
      return t > 0 ? 1 : -1;
    };
    // Start scanning at a vertex that is not arc-like (or with a sign change), so that a run
    // never straddles the scan start; a loop that is all one arc (a circle) is one run.
    let start = -1;
    for (let i = 0; i < n; i += 1) {
      if (arcLike(i) === 0 || arcLike(i) !== arcLike((i + n - 1) % n)) {
        start = i;
        break;
      }
    }
    const runs: number[][] = [];
    if (start < 0) {
      runs.push(Array.from({ length: n }, (_, i) => i));
    } else {
      let current: number[] = [];
      let sign = 0;
      for (let k = 0; k < n; k += 1) {
        const i = (start + k) % n;
        const s = arcLike(i);
        if (s !== 0 && s === sign) {
          current.push(i);
        } else {
          if (current.length >= MIN_RUN_VERTICES) runs.push(current);
          current = s !== 0 ? [i] : [];
          sign = s;
        }
      }
      if (current.length >= MIN_RUN_VERTICES) runs.push(current);
    }
    for (const run of runs) {
      const arc = fitArc(loop, run, turn, merge.loopPolygon[li]!);
      if (arc) arcs.push(arc);
    }
  });
  return arcs;
}

function fitArc(loop: Int32Array, run: number[], turn: Float64Array, polygon: number): Arc | null {
  const n = loop.length >> 1;
  // The run's vertices all lie on the arc, its tangent points included (where a straight side
  // meets the arc the outline turns by a fraction of a segment's angle).
  const idx = run;
  // Centre the coordinates for a well-conditioned fit.
  let mx = 0;
  let my = 0;
  for (const i of idx) {
    mx += loop[2 * i]!;
    my += loop[2 * i + 1]!;
  }
  mx /= idx.length;
  my /= idx.length;
  // Kåsa fit: minimise Σ (x² + y² + D x + E y + F)² → normal equations.
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  let sx = 0;
  let sy = 0;
  let sz = 0;
  let sxz = 0;
  let syz = 0;
  for (const i of idx) {
    const x = loop[2 * i]! - mx;
    const y = loop[2 * i + 1]! - my;
    const z = x * x + y * y;
    sxx += x * x;
    sxy += x * y;
    syy += y * y;
    sx += x;
    sy += y;
    sz += z;
    sxz += x * z;
    syz += y * z;
  }
  const m = idx.length;
  const solution = solve3(
    [
      [sxx, sxy, sx],
      [sxy, syy, sy],
      [sx, sy, m],
    ],
    [-sxz, -syz, -sz],
  );
  if (!solution) return null;
  const [D, E, F] = solution;
  const cx = -D / 2;
  const cy = -E / 2;
  const r2 = cx * cx + cy * cy - F;
  if (!(r2 > 0)) return null;
  const radius = Math.sqrt(r2);
  let worst = 0;
  for (const i of idx) {
    const d = Math.hypot(loop[2 * i]! - mx - cx, loop[2 * i + 1]! - my - cy) - radius;
    worst = Math.max(worst, Math.abs(d));
  }
  if (worst > Math.max(1, 0.02 * radius)) return null;
  let span = 0;
  for (const i of run) span += Math.abs(turn[i]!);
  const mid = run[run.length >> 1]!;
  const edge = (i: number): [number, number, number, number] => {
    const j = (i + 1) % n;
    return [loop[2 * i]!, loop[2 * i + 1]!, loop[2 * j]!, loop[2 * j + 1]!];
  };
  const first = (run[0]! + n - 1) % n;
  return {
    polygon,
    // Interior to the right: turning right (negative) bends round the interior.
    convex: turn[run[0]!]! < 0,
    centre: [cx + mx, cy + my],
    radiusNm: radius,
    middle: [loop[2 * mid]!, loop[2 * mid + 1]!],
    firstEdge: edge(first),
    lastEdge: edge(run[run.length - 1]!),
    spanRad: span,
  };
}

function solve3(a: number[][], b: number[]): [number, number, number] | null {
  const det = (m: number[][]): number =>
    m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
    m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
    m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
  const d = det(a);
  if (!Number.isFinite(d) || Math.abs(d) < 1e-12) return null;
  const col = (k: number): number[][] =>
    a.map((row, i) => row.map((v, j) => (j === k ? b[i]! : v)));
  return [det(col(0)) / d, det(col(1)) / d, det(col(2)) / d];
}

/**
 * Groups arcs into features: a convex and a concave arc of the same polygon whose centres
 * agree within max(2 nm, 2 % of the radius) form a bend (radius = mean); others stand alone.
 */
export function curvedFeatures(arcs: Arc[]): CurvedFeature[] {
  const used = new Set<number>();
  const features: CurvedFeature[] = [];
  arcs.forEach((a, i) => {
    if (used.has(i) || !a.convex) return;
    let best = -1;
    let bestDistance = Infinity;
    arcs.forEach((b, j) => {
      if (used.has(j) || b.convex || b.polygon !== a.polygon) return;
      const d = Math.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]);
      const tolerance = Math.max(2, 0.02 * Math.max(a.radiusNm, b.radiusNm));
      if (d <= tolerance && d < bestDistance) {
        best = j;
        bestDistance = d;
      }
    });
    if (best >= 0) {
      const b = arcs[best]!;
      used.add(i);
      used.add(best);
      features.push({
        kind: "bend",
        radiusNm: (a.radiusNm + b.radiusNm) / 2,
        location: [(a.middle[0] + b.middle[0]) / 2, (a.middle[1] + b.middle[1]) / 2],
        arcs: [a, b],
      });
    }
  });
  arcs.forEach((a, i) => {
    if (used.has(i)) return;
    features.push({ kind: "arc", radiusNm: a.radiusNm, location: a.middle, arcs: [a] });
  });
  return features;
}
