/**
 * Curved features in merged outlines, for the `min_radius` rule. KLayout has no such check;
 * the semantics are ours (docs/fabrication.md):
 *
 * - An arc is a run of at least 3 consecutive vertices of one outline where the outline turns
 *   the same way by a small angle (|turn| ≤ 30°, plus the grid's rounding noise below), i.e.
 *   an arc drawn with at least 4 segments
 *   of at most 30° each (a circle with 12 or more vertices), turning 10° or more in all.
 *   Turns smaller than the grid's rounding noise (about 1 nm divided by the edge length) may
 *   have either sign, so a finely segmented arc snapped to 1 nm stays one run. Manhattan
 *   corners (90°) and 45° chamfers never qualify; a taper's two bends are too few.
 * - Its radius is a least-squares circle through the run's vertices (Kåsa's algebraic fit);
 *   runs whose vertices stray from that circle by more than max(1 nm, 2 % of the radius) are
 *   not arcs (e.g. a spline that changes curvature).
 * - A convex arc (the shape's inside is towards the centre) and a concave arc of the same
 *   polygon around the same centre are the outer and inner edges of one bend or ring: the
 *   feature's radius is their mean, the centre-line radius that PDK bend rules state. A lone
 *   convex arc (a disc, a rounded corner) or lone concave arc (a fillet) has its own radius.
 * - A feature violates `min_radius` when its radius is below the rule by more than 0.5 nm (the
 *   fit's resolution on a 1 nm grid: a circle drawn at exactly the rule radius passes).
 */

import type { MergeResult } from "../geometry/merge.js";

const MAX_TURN_RAD = (30 * Math.PI) / 180;
/** The most the grid's rounding is taken to add to a 30° turn. */
const MAX_ROUNDING_RAD = (2 * Math.PI) / 180;
const MIN_RUN_VERTICES = 3;
/** An arc turns by at least 10° in all. */
const MIN_SPAN_RAD = (10 * Math.PI) / 180;

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
    const turns = loopTurns(loop);
    const edgeLength = (i: number): number => {
      const j = (i + 1) % n;
      return Math.hypot(loop[2 * j]! - loop[2 * i]!, loop[2 * j + 1]! - loop[2 * i + 1]!);
    };
    for (const run of turnRuns(turns)) {
      for (const part of splitAtLengthJumps(run, edgeLength, run.length === n)) {
        const arc = fitArc(loop, part, turns.turn, merge.loopPolygon[li]!);
        if (arc) arcs.push(arc);
      }
    }
  });
  return arcs;
}

/** A loop's turn at each vertex, and which turns are small and which have a definite sign. */
interface LoopTurns {
  n: number;
  turn: Float64Array;
  small(i: number): boolean;
  /** +1 or −1, or 0 for a turn within the grid's rounding noise. */
  definite(i: number): number;
}

function loopTurns(loop: ArrayLike<number>): LoopTurns {
  const n = loop.length >> 1;
  const turn = new Float64Array(n);
  // Turns within rounding noise (a vertex moved by up to ½ nm turns its edges by about
  // 1 nm / length) carry no sign; a definite turn must agree with the run's sign.
  const noise = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    const p = (i + n - 1) % n;
    const q = (i + 1) % n;
    const ax = loop[2 * i]! - loop[2 * p]!;
    const ay = loop[2 * i + 1]! - loop[2 * p + 1]!;
    const bx = loop[2 * q]! - loop[2 * i]!;
    const by = loop[2 * q + 1]! - loop[2 * i + 1]!;
    turn[i] = Math.atan2(ax * by - ay * bx, ax * bx + ay * by);
    noise[i] = 1 / Math.min(Math.hypot(ax, ay), Math.hypot(bx, by));
  }
  return {
    n,
    turn,
    // A turn of 30° is small however the grid rounded it (a 12-gon snapped to 1 nm): each of
    // the three vertices moved by up to √½ nm turns it by up to about 3 nm / length, never
    // taken as more than 2° (a 45° chamfer stays a corner).
    small: (i) => Math.abs(turn[i]!) <= MAX_TURN_RAD + Math.min(3 * noise[i]!, MAX_ROUNDING_RAD),
    definite: (i) => (Math.abs(turn[i]!) <= noise[i]! ? 0 : turn[i]! > 0 ? 1 : -1),
  };
}

/**
 * Runs of small turns of one sign, as vertex indices. The scan starts where a run cannot
 * continue across the start: at a sharp corner, else at a definite turn opposite to the
 * previous definite one; a loop that is all one arc (a circle) is one run.
 */
function turnRuns({ n, small, definite }: LoopTurns): number[][] {
  let start = -1;
  for (let i = 0; i < n && start < 0; i += 1) if (!small(i)) start = i;
  if (start < 0) {
    let last = 0;
    for (let k = 0; k < 2 * n && start < 0; k += 1) {
      const d = definite(k % n);
      if (d !== 0 && last !== 0 && d !== last && k >= n) start = k % n;
      if (d !== 0) last = d;
    }
  }
  if (start < 0) return [Array.from({ length: n }, (_, i) => i)];
  const runs: number[][] = [];
  let current: number[] = [];
  let sign = 0;
  const close = (): void => {
    if (current.length >= MIN_RUN_VERTICES && sign !== 0) runs.push(current);
    current = [];
    sign = 0;
  };
  for (let k = 0; k < n; k += 1) {
    const i = (start + k) % n;
    if (!small(i)) {
      close();
      continue;
    }
    const d = definite(i);
    if (d !== 0 && sign !== 0 && d !== sign) close();
    current.push(i);
    if (d !== 0) sign = d;
  }
  close();
  return runs;
}

/** Kåsa's algebraic least-squares circle through a run's vertices, or null where none fits. */
function kasaCircle(
  loop: Int32Array,
  run: number[],
): { cx: number; cy: number; radius: number } | null {
  // Centre the coordinates for a well-conditioned fit.
  let mx = 0;
  let my = 0;
  for (const i of run) {
    mx += loop[2 * i]!;
    my += loop[2 * i + 1]!;
  }
  mx /= run.length;
  my /= run.length;
  // Minimise Σ (x² + y² + D x + E y + F)² → normal equations.
  let [sxx, sxy, syy, sx, sy, sz, sxz, syz] = [0, 0, 0, 0, 0, 0, 0, 0];
  for (const i of run) {
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
  const solution = solve3(
    [
      [sxx, sxy, sx],
      [sxy, syy, sy],
      [sx, sy, run.length],
    ],
    [-sxz, -syz, -sz],
  );
  if (!solution) return null;
  const [D, E, F] = solution;
  const r2 = (D * D + E * E) / 4 - F;
  return r2 > 0 ? { cx: mx - D / 2, cy: my - E / 2, radius: Math.sqrt(r2) } : null;
}

/**
 * An arc's segments have similar lengths; a straight side between two rounded corners is much
 * longer, though the outline turns only slightly where it meets an arc. Runs are cut where one
 * edge is more than 3 times as long as the one before (or after), and the pieces share the
 * vertex at the cut (the tangent point lies on both).
 */
function splitAtLengthJumps(
  run: number[],
  edgeLength: (i: number) => number,
  cyclic: boolean,
): number[][] {
  const jump = (a: number, b: number): boolean => a > 3 * b || b > 3 * a;
  let order = run;
  if (cyclic) {
    // Start at a jump if there is one, so no piece wraps round.
    const k = run.findIndex((v, i) =>
      jump(edgeLength(v), edgeLength(run[(i + run.length - 1) % run.length]!)),
    );
    if (k < 0) return [run];
    order = [...run.slice(k), ...run.slice(0, k), run[k]!];
  }
  const parts: number[][] = [];
  let current: number[] = [order[0]!];
  for (let i = 1; i < order.length; i += 1) {
    const v = order[i]!;
    // Edge from order[i−1] to v versus the edge before it.
    if (i >= 2 && jump(edgeLength(order[i - 1]!), edgeLength(order[i - 2]!))) {
      parts.push(current);
      current = [order[i - 1]!];
    }
    current.push(v);
  }
  parts.push(current);
  return parts.filter((p) => p.length >= MIN_RUN_VERTICES);
}

function fitArc(loop: Int32Array, run: number[], turn: Float64Array, polygon: number): Arc | null {
  const n = loop.length >> 1;
  // The run's vertices all lie on the arc, its tangent points included (where a straight side
  // meets the arc the outline turns by a fraction of a segment's angle).
  const circle = kasaCircle(loop, run);
  if (!circle) return null;
  const { cx, cy, radius } = circle;
  let worst = 0;
  for (const i of run) {
    worst = Math.max(
      worst,
      Math.abs(Math.hypot(loop[2 * i]! - cx, loop[2 * i + 1]! - cy) - radius),
    );
  }
  if (worst > Math.max(1, 0.02 * radius)) return null;
  let span = 0;
  for (const i of run) span += turn[i]!;
  span = Math.abs(span);
  // A nearly straight noisy polyline is not an arc.
  if (span < MIN_SPAN_RAD) return null;
  const mid = run[run.length >> 1]!;
  const edge = (i: number): [number, number, number, number] => {
    const j = (i + 1) % n;
    return [loop[2 * i]!, loop[2 * i + 1]!, loop[2 * j]!, loop[2 * j + 1]!];
  };
  const first = (run[0]! + n - 1) % n;
  return {
    polygon,
    // Interior to the right: turning right (negative) bends round the interior.
    convex: run.reduce((a, i) => a + turn[i]!, 0) < 0,
    centre: [cx, cy],
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
