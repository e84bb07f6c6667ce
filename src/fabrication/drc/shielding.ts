/**
 * Shielding, as KLayout's default "shielded" mode has it: a width or space violation is
 * dropped when a third edge near either edge of the pair runs between them.
 *
 * KLayout's test is not symmetric when an edge merely touches a line joining the pair's ends:
 * it depends on which edge of the pair comes first. A pair between two polygons is checked
 * in both polygons' contexts with the subject's edge first, and survives if either leaves it
 * unshielded. Within one polygon the order is the box scanner's: for up to 100 edges in the
 * context (its brute-force threshold) insertion order, i.e. the outline's order (ours are the
 * same loops, each from its lowest-leftmost vertex); above that, the edge whose box starts
 * further right first. A width check's context is one polygon; a space check's is the
 * subject polygon plus the edges of others that meet its box grown by d.
 */

import {
  edgeAt,
  forEachEntryInBox,
  type EdgeIndex,
  type EdgeViolation,
  type GrownBoxes,
  type LayerEdges,
} from "./edge-index.js";
import { normalisePair, shields, type Edge, type Relation } from "./relation.js";

/** KLayout's box scanner compares every pair up to this many edges, and sorts above it. */
const BRUTE_FORCE_EDGES = 100;

/** The shielding test for one check (a relation at distance d) over one layer's edges. */
export class Shielding {
  /** Per edge, the last `token` that visited it: each look-up sees an edge once. */
  private readonly stamp: Int32Array;
  private token = 0;
  /** Per polygon: its box [x0, y0, x1, y1] and its number of edges. */
  private readonly polygonBox = new Map<number, [number, number, number, number, number]>();
  private readonly contextMemo = new Map<number, number>();

  constructor(
    private readonly e: LayerEdges,
    private readonly relation: Relation,
    private readonly d: number,
    private readonly index: EdgeIndex,
    private readonly box: GrownBoxes,
  ) {
    this.stamp = new Int32Array(e.count).fill(-1);
    for (let i = 0; i < e.count; i += 1) {
      const pg = e.polygon[i]!;
      const b = this.polygonBox.get(pg) ?? [Infinity, Infinity, -Infinity, -Infinity, 0];
      b[0] = Math.min(b[0], e.x1[i]!, e.x2[i]!);
      b[1] = Math.min(b[1], e.y1[i]!, e.y2[i]!);
      b[2] = Math.max(b[2], e.x1[i]!, e.x2[i]!);
      b[3] = Math.max(b[3], e.y1[i]!, e.y2[i]!);
      b[4] += 1;
      this.polygonBox.set(pg, b);
    }
  }

  /** Is the violation shielded (so not reported)? */
  shielded(v: EdgeViolation): boolean {
    const candidates = this.candidates(v);
    if (candidates.length === 0) return false;
    const shieldedWith = (firstIsA: boolean): boolean => {
      const pair = normalisePair(
        firstIsA ? v.pair : { first: v.pair.second, second: v.pair.first },
      );
      return candidates.some((q) => shields(pair, q));
    };
    // The order matters only in rare touching cases: settle it only when the answers differ.
    const shieldedAFirst = shieldedWith(true);
    const shieldedBFirst = shieldedWith(false);
    if (shieldedAFirst === shieldedBFirst) return shieldedAFirst;
    const pa = this.e.polygon[v.a]!;
    const pb = this.e.polygon[v.b]!;
    const inA = this.aFirst(v.a, v.b, pa);
    if (!(inA ? shieldedAFirst : shieldedBFirst)) return false;
    if (pa === pb) return true;
    const inB = this.aFirst(v.a, v.b, pb);
    return inB ? shieldedAFirst : shieldedBFirst;
  }

  /**
   * Edges that may shield the pair: those whose grown boxes meet either edge's grown box
   * (KLayout's scanner pairs), of the same polygon for width.
   */
  private candidates(v: EdgeViolation): Edge[] {
    const { e, box } = this;
    this.token += 1;
    const found: Edge[] = [];
    for (const owner of [v.a, v.b]) {
      const [x0, y0, x1, y1] = [box.x0[owner]!, box.y0[owner]!, box.x1[owner]!, box.y1[owner]!];
      forEachEntryInBox(this.index, x0, y0, x1, y1, (q) => {
        if (q === v.a || q === v.b || this.stamp[q] === this.token) return;
        this.stamp[q] = this.token;
        if (this.relation === "width" && e.polygon[q] !== e.polygon[v.a]) return;
        if (box.x0[q]! > x1 || x0 > box.x1[q]! || box.y0[q]! > y1 || y0 > box.y1[q]!) return;
        found.push(edgeAt(e, q));
      });
    }
    return found;
  }

  /** Does KLayout hand edge a over first, checking in subject polygon pg's context? */
  private aFirst(a: number, b: number, pg: number): boolean {
    const e = this.e;
    // Between polygons the subject's edge always comes first (KLayout swaps intruder edges
    // into second place); within one, insertion order unless the scanner sorted them.
    if (e.polygon[a] !== e.polygon[b]) return e.polygon[a] === pg;
    if (this.contextSize(pg) <= BRUTE_FORCE_EDGES) return a < b;
    const la = Math.min(e.x1[a]!, e.x2[a]!);
    const lb = Math.min(e.x1[b]!, e.x2[b]!);
    return la !== lb ? la > lb : a < b;
  }

  /** Edges in KLayout's check context for subject polygon pg. */
  private contextSize(pg: number): number {
    const b = this.polygonBox.get(pg)!;
    if (this.relation === "width" || b[4] > BRUTE_FORCE_EDGES) return b[4];
    const memo = this.contextMemo.get(pg);
    if (memo !== undefined) return memo;
    const { e, d } = this;
    const half = this.index.reach / 2;
    this.token += 1;
    let count = 0;
    const [x0, y0, x1, y1] = [b[0] - d, b[1] - d, b[2] + d, b[3] + d];
    forEachEntryInBox(this.index, x0 - half, y0 - half, x1 + half, y1 + half, (q) => {
      if (this.stamp[q] === this.token) return;
      this.stamp[q] = this.token;
      if (segmentMeetsBox(e.x1[q]!, e.y1[q]!, e.x2[q]!, e.y2[q]!, x0, y0, x1, y1)) count += 1;
    });
    this.contextMemo.set(pg, count);
    return count;
  }
}

/** Does the closed segment meet the closed box (KLayout's edge-box "interact")? */
function segmentMeetsBox(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): boolean {
  if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1) return false;
  if (Math.max(ay, by) < y0 || Math.min(ay, by) > y1) return false;
  if (ax === bx || ay === by) return true;
  // Some box corner on each side of the line (or on it).
  const side = (x: number, y: number) => Math.sign((bx - ax) * (y - ay) - (by - ay) * (x - ax));
  const s = [side(x0, y0), side(x1, y0), side(x1, y1), side(x0, y1)];
  return Math.min(...s) <= 0 && Math.max(...s) >= 0;
}
