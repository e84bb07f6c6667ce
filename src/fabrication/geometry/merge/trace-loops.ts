/**
 * The union's boundary traced into closed loops (merge.ts, point 4), grouped into merged
 * polygons.
 */

import type { MergeResult } from "../merge.js";
import type { Ring } from "../polygon.js";
import { orient } from "../predicates.js";
import { sortIndicesByKeys } from "../sort.js";
import type { BoundaryEdges } from "./sweep.js";
import { find, union } from "./union-find.js";

/**
 * Traces the boundary edges into loops and numbers the merged polygons; `parent` is the
 * sweep's union–find over the edges' nodes, which the tracing joins further.
 */
export function traceLoops(edges: BoundaryEdges, parent: Int32Array): MergeResult {
  const tracer = new LoopTracer(edges, parent);
  // Shapes touching at a vertex are one polygon (maximum coherence).
  tracer.joinSharedStarts();
  const loops: Ring[] = [];
  const loopRoot: number[] = [];
  for (const first of tracer.byStart) {
    if (tracer.used[first]) continue;
    const ring = tracer.trace(first);
    if (ring) {
      loops.push(ring);
      loopRoot.push(find(parent, edges.node[first]!));
    }
  }
  const ids = new Map<number, number>();
  const loopPolygon = new Int32Array(loops.length);
  for (let i = 0; i < loops.length; i += 1) {
    const root = find(parent, loopRoot[i]!);
    let id = ids.get(root);
    if (id === undefined) {
      id = ids.size;
      ids.set(root, id);
    }
    loopPolygon[i] = id;
  }
  return { loops, loopPolygon, polygonCount: ids.size };
}

/** Walks boundary edges end to start, marking each edge used once it is on a loop. */
class LoopTracer {
  /** Edges ordered by start point (y, x). */
  readonly byStart: Uint32Array;
  readonly used: Uint8Array;
  /** The loop being traced: its vertices, and whether the boundary touches itself there. */
  private readonly xs: number[] = [];
  private readonly ys: number[] = [];
  private readonly junction: boolean[] = [];

  constructor(
    private readonly edges: BoundaryEdges,
    private readonly parent: Int32Array,
  ) {
    const m = edges.sx.length;
    this.byStart = sortIndicesByKeys(m, edges.sy, edges.sx);
    this.used = new Uint8Array(m);
  }

  /** Joins the polygons of edges that start at the same point. */
  joinSharedStarts(): void {
    const { sx, sy, node } = this.edges;
    const byStart = this.byStart;
    for (let k = 0; k + 1 < byStart.length; k += 1) {
      const a = byStart[k]!;
      const b = byStart[k + 1]!;
      if (sx[a] === sx[b] && sy[a] === sy[b]) union(this.parent, node[a]!, node[b]!);
    }
  }

  /** The loop through edge `first`, simplified (null when it has no area left). */
  trace(first: number): Ring | null {
    const { sx, sy, tx, ty, node } = this.edges;
    const { xs, ys, junction, used } = this;
    xs.length = 0;
    ys.length = 0;
    junction.length = 0;
    let e = first;
    while (!used[e]) {
      used[e] = 1;
      xs.push(sx[e]!);
      ys.push(sy[e]!);
      const [here0, here1] = this.startsAt(sx[e]!, sy[e]!);
      junction.push(here1 - here0 > 1);
      const next = this.nextEdge(e, first, ...this.startsAt(tx[e]!, ty[e]!));
      if (next < 0) break;
      union(this.parent, node[e]!, node[next]!);
      e = next;
    }
    return simplifyLoop(xs, ys, junction);
  }

  /**
   * The edge to follow edge e with, among those starting where it ends (byStart[lo … hi − 1]):
   * where there are several ways on, the first counter-clockwise from the way back. −1 when
   * none is left.
   */
  private nextEdge(e: number, first: number, lo: number, hi: number): number {
    if (hi - lo === 1) return this.byStart[lo]!;
    const { sx, sy, tx, ty } = this.edges;
    const backAngle = Math.atan2(sy[e]! - ty[e]!, sx[e]! - tx[e]!);
    let best = Infinity;
    let next = -1;
    for (let q = lo; q < hi; q += 1) {
      const c = this.byStart[q]!;
      if (this.used[c] && c !== first) continue;
      let a = Math.atan2(ty[c]! - sy[c]!, tx[c]! - sx[c]!) - backAngle;
      while (a <= 0) a += 2 * Math.PI;
      while (a > 2 * Math.PI) a -= 2 * Math.PI;
      if (a < best) {
        best = a;
        next = c;
      }
    }
    return next;
  }

  /** Range [lo, hi) of byStart whose edges start at (x, y). */
  private startsAt(x: number, y: number): [number, number] {
    const { sx, sy } = this.edges;
    const byStart = this.byStart;
    const m = byStart.length;
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const e = byStart[mid]!;
      if (sy[e]! < y || (sy[e] === y && sx[e]! < x)) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < m && sy[byStart[end]!] === y && sx[byStart[end]!] === x) end += 1;
    return [lo, end];
  }
}

/**
 * Drops vertices where the loop goes straight on, except where the boundary touches itself
 * (a junction: KLayout keeps the edges on either side of such a point separate); null when
 * fewer than 3 vertices remain.
 */
function simplifyLoop(xs: number[], ys: number[], junction: boolean[]): Ring | null {
  const n = xs.length;
  const keepX: number[] = [];
  const keepY: number[] = [];
  for (let i = 0; i < n; i += 1) {
    if (junction[i]) {
      keepX.push(xs[i]!);
      keepY.push(ys[i]!);
      continue;
    }
    const px = i === 0 ? xs[n - 1]! : xs[i - 1]!;
    const py = i === 0 ? ys[n - 1]! : ys[i - 1]!;
    const nx = xs[(i + 1) % n]!;
    const ny = ys[(i + 1) % n]!;
    if (orient(px, py, xs[i]!, ys[i]!, nx, ny) === 0) continue;
    keepX.push(xs[i]!);
    keepY.push(ys[i]!);
  }
  if (keepX.length < 3) return null;
  const ring = new Int32Array(2 * keepX.length);
  for (let i = 0; i < keepX.length; i += 1) {
    ring[2 * i] = keepX[i]!;
    ring[2 * i + 1] = keepY[i]!;
  }
  return ring;
}
