/**
 * A uniform grid over segments for finding the pairs that may meet (crossings, vertices on
 * segments, hot pixels): each segment is entered, as (row, column, segment) entries sorted by
 * cell, in every cell it comes within 1 nm of. Cells are about twice the median segment
 * length, so a cell holds a few segments (merge.ts explains why a grid and not a sweep).
 */

import { IntColumns } from "./columns.js";
import type { Segments } from "./segments.js";
import { sortIndicesByKeys } from "../sort.js";

export interface SegmentGrid {
  /** Cell side, nm; cell (column, row) starts at (originX + column·cell, originY + row·cell). */
  cell: number;
  originX: number;
  originY: number;
  /** Columns of cells: a cell's key is row · columns + column. */
  columns: number;
  /** The entries: row, column and segment of each (cell, segment) pair. */
  coverY: Float64Array;
  coverX: Float64Array;
  coverSeg: Float64Array;
  /** The entries in cell order (row, then column). */
  coverOrder: Uint32Array;
}

/** Which grid cells each segment (thickened by 1 nm) covers, sorted by cell. */
export function buildGrid(s: Segments): SegmentGrid {
  const n = s.count;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  for (let i = 0; i < n; i += 1) {
    minX = Math.min(minX, s.ax[i]!, s.bx[i]!);
    maxX = Math.max(maxX, s.ax[i]!, s.bx[i]!);
    minY = Math.min(minY, s.ay[i]!, s.by[i]!);
  }
  const cell = chooseCellSize(s);
  const originX = minX - 2;
  const originY = minY - 2;
  const columns = Math.floor((maxX + 2 - originX) / cell) + 1;
  const cover = new IntColumns(3, Math.max(1024, 2 * n));
  for (let i = 0; i < n; i += 1) {
    coverCells(s.ax[i]!, s.ay[i]!, s.bx[i]!, s.by[i]!, originX, originY, cell, (cx, cy) =>
      cover.push3(cy, cx, i),
    );
  }
  const coverY = cover.column(0);
  const coverX = cover.column(1);
  return {
    cell,
    originX,
    originY,
    columns,
    coverY,
    coverX,
    coverSeg: cover.column(2),
    coverOrder: sortIndicesByKeys(cover.length, coverY, coverX),
  };
}

/** About twice the median segment extent, at least 8 nm: a few segments per cell. */
function chooseCellSize(s: Segments): number {
  const n = s.count;
  const samples = Math.min(n, 2001);
  const ext: number[] = [];
  for (let k = 0; k < samples; k += 1) {
    const i = Math.floor((k * n) / samples);
    ext.push(Math.max(Math.abs(s.bx[i]! - s.ax[i]!), Math.abs(s.by[i]! - s.ay[i]!)));
  }
  ext.sort((a, b) => a - b);
  const median = ext[ext.length >> 1] ?? 1;
  return Math.max(8, Math.ceil(2 * median));
}

/** Calls `visit(cx, cy)` for every grid cell within 1 nm (L∞) of the segment a–b. */
function coverCells(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  originX: number,
  originY: number,
  cell: number,
  visit: (cx: number, cy: number) => void,
): void {
  const ylo = Math.min(ay, by);
  const yhi = Math.max(ay, by);
  const r0 = Math.floor((ylo - 1 - originY) / cell);
  const r1 = Math.floor((yhi + 1 - originY) / cell);
  for (let r = r0; r <= r1; r += 1) {
    const bandLo = Math.max(ylo, originY + r * cell - 1);
    const bandHi = Math.min(yhi, originY + (r + 1) * cell + 1);
    let xa: number;
    let xb: number;
    if (ay === by) {
      xa = Math.min(ax, bx);
      xb = Math.max(ax, bx);
    } else {
      const t1 = (bandLo - ay) / (by - ay);
      const t2 = (bandHi - ay) / (by - ay);
      const x1 = ax + (bx - ax) * t1;
      const x2 = ax + (bx - ax) * t2;
      xa = Math.min(x1, x2);
      xb = Math.max(x1, x2);
    }
    const c0 = Math.floor((xa - 1 - originX) / cell);
    const c1 = Math.floor((xb + 1 - originX) / cell);
    for (let c = c0; c <= c1; c += 1) visit(c, r);
  }
}

/**
 * Calls `visit(start, end)` for each run [start, end) of `order` whose entries have the same
 * (ys, xs): with a grid's cover columns, the entries of one cell.
 */
export function forEachCellGroup(
  order: Uint32Array,
  ys: Float64Array,
  xs: Float64Array,
  visit: (start: number, end: number) => void,
): void {
  let g = 0;
  while (g < order.length) {
    const gy = ys[order[g]!]!;
    const gx = xs[order[g]!]!;
    let e = g + 1;
    while (e < order.length && ys[order[e]!] === gy && xs[order[e]!] === gx) e += 1;
    visit(g, e);
    g = e;
  }
}
