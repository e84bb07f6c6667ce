/**
 * Width and space checks over a merged layer, as KLayout's `width` and `space` (flat mode,
 * default options: merged input, `ignore_angle` 90°, shielded, no projection limits):
 *
 * - width: pairs of edges of the same merged polygon facing each other across its interior;
 * - space: pairs of edges facing each other across the exterior, within one polygon (notches)
 *   and between polygons;
 * - shielding: a violation is dropped when another edge within reach runs between the two
 *   edges (crosses both lines joining their ends), as KLayout's default "shielded" mode does.
 *
 * Candidate pairs come from a uniform grid: each edge is entered in the cells it passes
 * through and looks for partners in the cells within d of it, so the work is proportional to
 * the number of edge pairs closer than about a cell, not to n².
 */

import type { MergeResult } from "../geometry/merge.js";
import { sortIndicesByKeys } from "../geometry/sort.js";
import {
  checkEdgePair,
  normalisePair,
  shields,
  type Edge,
  type EdgePair,
  type Metric,
  type Relation,
} from "./relation.js";

/** A merged layer's edges (interior to the right), with the polygon each belongs to. */
export interface LayerEdges {
  count: number;
  x1: Int32Array;
  y1: Int32Array;
  x2: Int32Array;
  y2: Int32Array;
  polygon: Int32Array;
}

export function edgesOfMerge(merge: MergeResult): LayerEdges {
  let count = 0;
  for (const loop of merge.loops) count += loop.length >> 1;
  const e: LayerEdges = {
    count,
    x1: new Int32Array(count),
    y1: new Int32Array(count),
    x2: new Int32Array(count),
    y2: new Int32Array(count),
    polygon: new Int32Array(count),
  };
  let k = 0;
  merge.loops.forEach((loop, li) => {
    const n = loop.length >> 1;
    for (let i = 0; i < n; i += 1) {
      const j = i + 1 === n ? 0 : i + 1;
      e.x1[k] = loop[2 * i]!;
      e.y1[k] = loop[2 * i + 1]!;
      e.x2[k] = loop[2 * j]!;
      e.y2[k] = loop[2 * j + 1]!;
      e.polygon[k] = merge.loopPolygon[li]!;
      k += 1;
    }
  });
  return e;
}

export interface EdgeViolation {
  pair: EdgePair;
  /** Indices of the two edges in the layer's edge list. */
  a: number;
  b: number;
}

/**
 * A uniform grid over a layer's edges for finding pairs closer than `reach`: each edge is
 * entered in the cells its box, grown by reach/2 on every side, covers, so two edges whose
 * boxes come within `reach` of each other share a cell. A pair is examined only in the cell
 * that holds the lower-left corner of the overlap of their grown boxes, so each pair is seen
 * once without a dedupe table. Cells are compressed rows over typed arrays (a Map of arrays
 * cost 60 % of the check time at 4·10⁵ edges, mostly in the garbage collector).
 */
export interface EdgeIndex {
  reach: number;
  cell: number;
  originX: number;
  originY: number;
  /** Cell keys (row · columns + column) in ascending order, and their entries. */
  keys: Float64Array;
  start: Uint32Array;
  members: Int32Array;
  columns: number;
}

/** Builds the grid for pairs within `reach` nm (the largest rule the index will serve). */
export function indexEdges(e: LayerEdges, reach: number): EdgeIndex {
  const n = e.count;
  const half = reach / 2;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  const lengths: number[] = [];
  const stride = Math.max(1, Math.floor(n / 2000));
  for (let i = 0; i < n; i += 1) {
    minX = Math.min(minX, e.x1[i]!, e.x2[i]!);
    minY = Math.min(minY, e.y1[i]!, e.y2[i]!);
    maxX = Math.max(maxX, e.x1[i]!, e.x2[i]!);
    if (i % stride === 0) {
      lengths.push(Math.max(Math.abs(e.x2[i]! - e.x1[i]!), Math.abs(e.y2[i]! - e.y1[i]!)));
    }
  }
  lengths.sort((p, q) => p - q);
  // Cells of 4 × reach: fewer (cell, edge) entries to sort than with cells of one reach, at the
  // price of more pairs per cell; measured best of 1–8 × reach at 4·10⁵ edges (3.6 s against
  // 4.7 s of CPU for both checks of two layers).
  const cell = Math.max(4 * reach, 2 * (lengths[lengths.length >> 1] ?? 1), 16);
  const originX = (n > 0 ? minX : 0) - half - 1;
  const originY = (n > 0 ? minY : 0) - half - 1;
  const columns = Math.floor((maxX + half + 1 - originX) / cell) + 2;
  // Count, then fill, (cell, edge) entries.
  const cellRange = (i: number): [number, number, number, number] => [
    Math.floor((Math.min(e.x1[i]!, e.x2[i]!) - half - originX) / cell),
    Math.floor((Math.max(e.x1[i]!, e.x2[i]!) + half - originX) / cell),
    Math.floor((Math.min(e.y1[i]!, e.y2[i]!) - half - originY) / cell),
    Math.floor((Math.max(e.y1[i]!, e.y2[i]!) + half - originY) / cell),
  ];
  let total = 0;
  for (let i = 0; i < n; i += 1) {
    const [c0, c1, r0, r1] = cellRange(i);
    total += (c1 - c0 + 1) * (r1 - r0 + 1);
  }
  const entryRow = new Int32Array(total);
  const entryCol = new Int32Array(total);
  const entryEdge = new Int32Array(total);
  let k = 0;
  for (let i = 0; i < n; i += 1) {
    const [c0, c1, r0, r1] = cellRange(i);
    for (let r = r0; r <= r1; r += 1) {
      for (let c = c0; c <= c1; c += 1) {
        entryRow[k] = r;
        entryCol[k] = c;
        entryEdge[k] = i;
        k += 1;
      }
    }
  }
  const order = sortIndicesByKeys(total, entryRow, entryCol);
  const members = new Int32Array(total);
  const keyList: number[] = [];
  const startList: number[] = [];
  let lastKey = -1;
  for (let m = 0; m < total; m += 1) {
    const idx = order[m]!;
    const key = entryRow[idx]! * columns + entryCol[idx]!;
    if (key !== lastKey) {
      keyList.push(key);
      startList.push(m);
      lastKey = key;
    }
    members[m] = entryEdge[idx]!;
  }
  startList.push(total);
  return {
    reach,
    cell,
    originX,
    originY,
    keys: Float64Array.from(keyList),
    start: Uint32Array.from(startList),
    members,
    columns,
  };
}

function edgeAt(e: LayerEdges, i: number): Edge {
  return { x1: e.x1[i]!, y1: e.y1[i]!, x2: e.x2[i]!, y2: e.y2[i]! };
}

/**
 * Exact pre-test before the full relation: can edge b have a part strictly on the side edge a
 * looks into (right for width, left for space)? Collinear edges pass (the kissing-corner case).
 */
function mayFace(e: LayerEdges, a: number, b: number, relation: Relation): boolean {
  const ax = e.x1[a]!;
  const ay = e.y1[a]!;
  const dx = e.x2[a]! - ax;
  const dy = e.y2[a]! - ay;
  const s1 = Math.sign(dx * (e.y1[b]! - ay) - dy * (e.x1[b]! - ax));
  const s2 = Math.sign(dx * (e.y2[b]! - ay) - dy * (e.x2[b]! - ax));
  if (s1 === 0 && s2 === 0) return true;
  return relation === "width" ? s1 < 0 || s2 < 0 : s1 > 0 || s2 > 0;
}

/**
 * Runs a width or space check with distance `d` nm over a merged layer's edges and returns the
 * violating edge pairs, one per offending pair of edges, shielded ones removed. `index` may be
 * shared between checks whose distance is at most its reach.
 */
// eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
export function checkLayer(
  e: LayerEdges,
  relation: Relation,
  metric: Metric,
  d: number,
  index: EdgeIndex = indexEdges(e, d),
): EdgeViolation[] {
  if (!(d > 0) || e.count === 0) return [];
  if (d > index.reach) throw new RangeError("the index was built for a smaller distance");
  const { cell, originX, originY, columns, keys, start, members } = index;
  const half = index.reach / 2;
  const found: EdgeViolation[] = [];
  // Grown boxes of the edges, by the index's reach.
  const bx0 = (i: number) => Math.min(e.x1[i]!, e.x2[i]!) - half;
  const bx1 = (i: number) => Math.max(e.x1[i]!, e.x2[i]!) + half;
  const by0 = (i: number) => Math.min(e.y1[i]!, e.y2[i]!) - half;
  const by1 = (i: number) => Math.max(e.y1[i]!, e.y2[i]!) + half;
  for (let c = 0; c < keys.length; c += 1) {
    const key = keys[c]!;
    const row = Math.floor(key / columns);
    const col = key - row * columns;
    for (let p = start[c]!; p < start[c + 1]!; p += 1) {
      const i = members[p]!;
      const ix0 = bx0(i);
      const ix1 = bx1(i);
      const iy0 = by0(i);
      const iy1 = by1(i);
      const adx = e.x2[i]! - e.x1[i]!;
      const ady = e.y2[i]! - e.y1[i]!;
      for (let q = p + 1; q < start[c + 1]!; q += 1) {
        const j = members[q]!;
        // Facing edges only (directions more than 90° apart): cheapest test first.
        if (adx * (e.x2[j]! - e.x1[j]!) + ady * (e.y2[j]! - e.y1[j]!) >= 0) continue;
        if (relation === "width" && e.polygon[i] !== e.polygon[j]) continue;
        const ox0 = Math.max(ix0, bx0(j));
        const oy0 = Math.max(iy0, by0(j));
        if (ox0 > Math.min(ix1, bx1(j)) || oy0 > Math.min(iy1, by1(j))) continue;
        // Owner cell of the pair: the one holding the overlap's lower-left corner.
        if (
          Math.floor((ox0 - originX) / cell) !== col ||
          Math.floor((oy0 - originY) / cell) !== row
        ) {
          continue;
        }
        // Edges whose boxes are d or more apart along an axis have no points closer than d.
        const gapX = Math.max(ix0, bx0(j)) - Math.min(ix1, bx1(j)) + 2 * half;
        const gapY = oy0 - Math.min(iy1, by1(j)) + 2 * half;
        if (gapX >= d || gapY >= d) continue;
        if (!mayFace(e, i, j, relation) || !mayFace(e, j, i, relation)) continue;
        const [a, b] = i < j ? [i, j] : [j, i];
        const pair = checkEdgePair(edgeAt(e, a), edgeAt(e, b), relation, metric, d);
        if (pair) found.push({ pair, a, b });
      }
    }
  }
  // Shielding: drop a violation when a third edge near either edge runs between them.
  //
  // KLayout's test is not symmetric when an edge merely touches a line joining the pair's ends:
  // it depends on which edge of the pair comes first. A pair between two polygons is checked
  // in both polygons' contexts with the subject's edge first, and survives if either leaves it
  // unshielded. Within one polygon the order is the box scanner's: for up to 100 edges in the
  // context (its brute-force threshold) insertion order, i.e. the outline's order (ours are the
  // same loops, each from its lowest-leftmost vertex); above that, the edge whose box starts
  // further right first. A width check's context is one polygon; a space check's is the
  // subject polygon plus the edges of others that meet its box grown by d.
  //
  // KLayout's space check keeps its results in a set of symmetric edge pairs, so the same pair
  // found from two edge combinations (two corners whose near parts both shrink to the corner
  // points) counts once; its width check appends to a list and keeps both.
  found.sort((u, v) => u.a - v.a || u.b - v.b);
  const seen = new Set<string>();
  const stamp = new Int32Array(e.count).fill(-1);
  let token = 0;
  const polygonBox = new Map<number, [number, number, number, number, number]>();
  for (let i = 0; i < e.count; i += 1) {
    const pg = e.polygon[i]!;
    const b = polygonBox.get(pg) ?? [Infinity, Infinity, -Infinity, -Infinity, 0];
    b[0] = Math.min(b[0], e.x1[i]!, e.x2[i]!);
    b[1] = Math.min(b[1], e.y1[i]!, e.y2[i]!);
    b[2] = Math.max(b[2], e.x1[i]!, e.x2[i]!);
    b[3] = Math.max(b[3], e.y1[i]!, e.y2[i]!);
    b[4] += 1;
    polygonBox.set(pg, b);
  }
  const contextMemo = new Map<number, number>();
  /** Edges in KLayout's check context for subject polygon pg. */
  const contextSize = (pg: number): number => {
    const b = polygonBox.get(pg)!;
    if (relation === "width" || b[4] > 100) return b[4];
    const memo = contextMemo.get(pg);
    if (memo !== undefined) return memo;
    token += 1;
    let count = 0;
    const [x0, y0, x1, y1] = [b[0] - d, b[1] - d, b[2] + d, b[3] + d];
    forCells(x0 - half, y0 - half, x1 + half, y1 + half, (q) => {
      if (stamp[q] === token) return;
      stamp[q] = token;
      if (segmentMeetsBox(e.x1[q]!, e.y1[q]!, e.x2[q]!, e.y2[q]!, x0, y0, x1, y1)) count += 1;
    });
    contextMemo.set(pg, count);
    return count;
  };
  function forCells(
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    visit: (q: number) => void,
  ): void {
    const c0 = Math.floor((x0 - originX) / cell);
    const c1 = Math.floor((x1 - originX) / cell);
    const r0 = Math.floor((y0 - originY) / cell);
    const r1 = Math.floor((y1 - originY) / cell);
    for (let r = r0; r <= r1; r += 1) {
      for (let cc = c0; cc <= c1; cc += 1) {
        const slot = findKey(keys, r * columns + cc);
        if (slot < 0) continue;
        for (let p = start[slot]!; p < start[slot + 1]!; p += 1) visit(members[p]!);
      }
    }
  }
  /** Does KLayout hand edge a over first, checking in subject polygon pg's context? */
  const aFirst = (a: number, b: number, pg: number): boolean => {
    // Between polygons the subject's edge always comes first (KLayout swaps intruder edges
    // into second place); within one, insertion order unless the scanner sorted them.
    if (e.polygon[a] !== e.polygon[b]) return e.polygon[a] === pg;
    if (contextSize(pg) <= 100) return a < b;
    const la = Math.min(e.x1[a]!, e.x2[a]!);
    const lb = Math.min(e.x1[b]!, e.x2[b]!);
    return la !== lb ? la > lb : a < b;
  };
  return found.filter((v) => {
    if (relation === "space") {
      const f = v.pair.first;
      const g = v.pair.second;
      const a = `${f.x1},${f.y1},${f.x2},${f.y2}`;
      const b = `${g.x1},${g.y1},${g.x2},${g.y2}`;
      const key = a < b ? `${a}|${b}` : `${b}|${a}`;
      if (seen.has(key)) return false;
      seen.add(key);
    }
    // Candidates: edges whose grown boxes meet either edge's grown box (KLayout's scanner
    // pairs), of the same polygon for width.
    token += 1;
    const shieldCandidates: Edge[] = [];
    for (const owner of [v.a, v.b]) {
      forCells(bx0(owner), by0(owner), bx1(owner), by1(owner), (q) => {
        if (q === v.a || q === v.b || stamp[q] === token) return;
        stamp[q] = token;
        if (relation === "width" && e.polygon[q] !== e.polygon[v.a]) return;
        if (
          bx0(q) > bx1(owner) ||
          bx0(owner) > bx1(q) ||
          by0(q) > by1(owner) ||
          by0(owner) > by1(q)
        ) {
          return;
        }
        shieldCandidates.push(edgeAt(e, q));
      });
    }
    if (shieldCandidates.length === 0) return true;
    const shieldedWith = (firstIsA: boolean): boolean => {
      const pair = normalisePair(
        firstIsA ? v.pair : { first: v.pair.second, second: v.pair.first },
      );
      return shieldCandidates.some((q) => shields(pair, q));
    };
    // The order matters only in rare touching cases: settle it only when the answers differ.
    const shieldedAFirst = shieldedWith(true);
    const shieldedBFirst = shieldedWith(false);
    if (shieldedAFirst === shieldedBFirst) return !shieldedAFirst;
    const pa = e.polygon[v.a]!;
    const pb = e.polygon[v.b]!;
    const inA = aFirst(v.a, v.b, pa);
    if (!(inA ? shieldedAFirst : shieldedBFirst)) return true;
    if (pa === pb) return false;
    const inB = aFirst(v.a, v.b, pb);
    return !(inB ? shieldedAFirst : shieldedBFirst);
  });
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

function findKey(keys: Float64Array, key: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const k = keys[mid]!;
    if (k === key) return mid;
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
