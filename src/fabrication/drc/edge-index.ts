/**
 * A merged layer's edges as columns of typed arrays, and the uniform grid over them that the
 * width and space checks (checks.ts) and their shielding test (shielding.ts) look up
 * neighbours in.
 */

import type { MergeResult } from "../geometry/merge.js";
import { sortIndicesByKeys } from "../geometry/sort.js";
import type { Edge, EdgePair } from "./relation.js";

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

/** A violating pair of a layer's edges. */
export interface EdgeViolation {
  pair: EdgePair;
  /** Indices of the two edges in the layer's edge list, a < b. */
  a: number;
  b: number;
}

export function edgeAt(e: LayerEdges, i: number): Edge {
  return { x1: e.x1[i]!, y1: e.y1[i]!, x2: e.x2[i]!, y2: e.y2[i]! };
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

/**
 * Calls `visit(q)` for every entry of the cells that the box [x0, x1] × [y0, y1] touches: each
 * edge entered in one of them, once per such cell (callers that need each edge once stamp it).
 */
export function forEachEntryInBox(
  index: EdgeIndex,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  visit: (q: number) => void,
): void {
  const { cell, originX, originY, columns, keys, start, members } = index;
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

/** The edges' boxes grown by `half` on every side (half the index's reach), per edge. */
export interface GrownBoxes {
  x0: Float64Array;
  y0: Float64Array;
  x1: Float64Array;
  y1: Float64Array;
}

export function growBoxes(e: LayerEdges, half: number): GrownBoxes {
  const box: GrownBoxes = {
    x0: new Float64Array(e.count),
    y0: new Float64Array(e.count),
    x1: new Float64Array(e.count),
    y1: new Float64Array(e.count),
  };
  for (let i = 0; i < e.count; i += 1) {
    box.x0[i] = Math.min(e.x1[i]!, e.x2[i]!) - half;
    box.x1[i] = Math.max(e.x1[i]!, e.x2[i]!) + half;
    box.y0[i] = Math.min(e.y1[i]!, e.y2[i]!) - half;
    box.y1[i] = Math.max(e.y1[i]!, e.y2[i]!) + half;
  }
  return box;
}
