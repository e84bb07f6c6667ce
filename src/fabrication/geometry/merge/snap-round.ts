/**
 * Snap rounding of the merge's segments (merge.ts, point 1): crossings are rounded to their
 * hot pixels and segments routed through them, so that the rounded segments neither cross nor
 * have a vertex inside another segment.
 */

import { IntColumns } from "./columns.js";
import { buildGrid, forEachCellGroup, type SegmentGrid } from "./segment-grid.js";
import type { Segments } from "./segments.js";
import { cross, divExact, orient } from "../predicates.js";
import { sortIndicesByKeys } from "../sort.js";

/**
 * Snap rounding, as lazily as KLayout's edge processor does it. Crossings are rounded to
 * their nearest grid point ("hot pixels"); a segment is split at every crossing pixel it
 * passes through and at every vertex lying exactly on it. A vertex whose pixel a segment
 * merely passes near (not through the vertex itself) bends that segment only when the segment
 * is being bent anyway (`full` = false), so a corner 0.6 nm from an edge stays a 0.6 nm gap, as
 * in KLayout. Bending can, rarely, make a rounded piece cross another edge; the result is then
 * checked and, if any crossing or vertex-on-edge is left, recomputed with full snap rounding
 * (every pixel bends every segment through it), which Hobby's theorem makes crossing-free.
 */
export function snapRound(s: Segments): Segments {
  const lazy = snapRoundPass(s, false);
  if (!lazy.bent || isPlanar(lazy.result)) return lazy.result;
  return snapRoundPass(s, true).result;
}

/** One pass: hot pixels, the pixels each segment must pass through, the segments split there. */
function snapRoundPass(s: Segments, full: boolean): { result: Segments; bent: boolean } {
  const grid = buildGrid(s);
  const pixels = uniquePixelsByCell(hotPixels(s, grid), grid);
  const hits = pixelHits(s, grid, pixels, full);
  return splitAtPixels(s, hits, pixels);
}

/**
 * Hot pixels, by their centres: every vertex (kind 1), and the rounded point of every crossing
 * (kind 2); a point may come more than once.
 */
function hotPixels(s: Segments, grid: SegmentGrid): IntColumns {
  const { coverY, coverX, coverSeg, coverOrder } = grid;
  const hot = new IntColumns(3, Math.max(1024, 2 * s.count));
  for (let i = 0; i < s.count; i += 1) hot.push3(s.ax[i]!, s.ay[i]!, 1);
  forEachCellGroup(coverOrder, coverY, coverX, (start, end) => {
    for (let p = start; p < end; p += 1) {
      const i = coverSeg[coverOrder[p]!]!;
      for (let q = p + 1; q < end; q += 1) {
        const j = coverSeg[coverOrder[q]!]!;
        if (properlyCross(s, i, j)) {
          const [x, y] = crossingPoint(s, i, j);
          hot.push3(x, y, 2);
        }
      }
    }
  });
  return hot;
}

/** Unique hot pixels, grouped by the grid cell of their centre. */
interface PixelsByCell {
  x: Float64Array;
  y: Float64Array;
  /** 1: a vertex, 2: a crossing, 3: both. */
  kind: Uint8Array;
  /** Per distinct cell (ascending key): its key and its range of unique pixels. */
  cellKeys: number[];
  /** Where each cell's pixels start, and (last) where the last cell's end. */
  cellFirst: number[];
}

/** The hot pixels with repeats merged (kinds OR-ed together), grouped by cell. */
function uniquePixelsByCell(hot: IntColumns, grid: SegmentGrid): PixelsByCell {
  const { cell, originX, originY, columns } = grid;
  const hx0 = hot.column(0);
  const hy0 = hot.column(1);
  const hk0 = hot.column(2);
  const hotCellX = new Int32Array(hot.length);
  const hotCellY = new Int32Array(hot.length);
  for (let i = 0; i < hot.length; i += 1) {
    hotCellX[i] = Math.floor((hx0[i]! - originX) / cell);
    hotCellY[i] = Math.floor((hy0[i]! - originY) / cell);
  }
  // Two stable radix sorts: by (y, x), then by cell, leave each cell's pixels in (y, x) order
  // with duplicates adjacent (a comparator sort per cell cost a third of the merge in the GC).
  const byPoint = sortIndicesByKeys(hot.length, hy0, hx0);
  const cellYSorted = new Int32Array(hot.length);
  const cellXSorted = new Int32Array(hot.length);
  for (let i = 0; i < hot.length; i += 1) {
    cellYSorted[i] = hotCellY[byPoint[i]!]!;
    cellXSorted[i] = hotCellX[byPoint[i]!]!;
  }
  const byCell = sortIndicesByKeys(hot.length, cellYSorted, cellXSorted);
  const x = new Float64Array(hot.length);
  const y = new Float64Array(hot.length);
  const kind = new Uint8Array(hot.length);
  const cellKeys: number[] = [];
  const cellFirst: number[] = [];
  let count = 0;
  let lastKey = NaN;
  for (let k = 0; k < byCell.length; k += 1) {
    const m = byPoint[byCell[k]!]!;
    const key = hotCellY[m]! * columns + hotCellX[m]!;
    if (key !== lastKey) {
      cellKeys.push(key);
      cellFirst.push(count);
      lastKey = key;
    } else if (x[count - 1] === hx0[m] && y[count - 1] === hy0[m]) {
      kind[count - 1]! |= hk0[m]!;
      continue;
    }
    x[count] = hx0[m]!;
    y[count] = hy0[m]!;
    kind[count] = hk0[m]!;
    count += 1;
  }
  cellFirst.push(count);
  return { x, y, kind, cellKeys, cellFirst };
}

/**
 * For each segment, the pixels it must pass through, as (segment, pixel, strong) hits:
 * strong = 1 for a crossing pixel it meets or a vertex exactly on it (or any pixel it meets,
 * with `full`), 0 for an attractor (a vertex pixel it only passes).
 */
function pixelHits(
  s: Segments,
  grid: SegmentGrid,
  pixels: PixelsByCell,
  full: boolean,
): IntColumns {
  const { columns, coverY, coverX, coverSeg, coverOrder } = grid;
  const { cellKeys, cellFirst } = pixels;
  const hits = new IntColumns(3, Math.max(1024, 2 * s.count));
  // Cover groups and hot-pixel cells are both in ascending key order: walk them together.
  let cursor = 0;
  forEachCellGroup(coverOrder, coverY, coverX, (start, end) => {
    const key = coverY[coverOrder[start]!]! * columns + coverX[coverOrder[start]!]!;
    while (cursor < cellKeys.length && cellKeys[cursor]! < key) cursor += 1;
    if (cursor === cellKeys.length || cellKeys[cursor] !== key) return;
    for (let p = start; p < end; p += 1) {
      const i = coverSeg[coverOrder[p]!]!;
      addHits(s, i, pixels, cellFirst[cursor]!, cellFirst[cursor + 1]!, full, hits);
    }
  });
  return hits;
}

/** Adds the hits of segment i among pixels h0 … h1 − 1 (one cell's). */
function addHits(
  s: Segments,
  i: number,
  pixels: PixelsByCell,
  h0: number,
  h1: number,
  full: boolean,
  hits: IntColumns,
): void {
  const ax = s.ax[i]!;
  const ay = s.ay[i]!;
  const bx = s.bx[i]!;
  const by = s.by[i]!;
  const xlo = Math.min(ax, bx);
  const xhi = Math.max(ax, bx);
  const ylo = Math.min(ay, by);
  const yhi = Math.max(ay, by);
  const reach = Math.abs(bx - ax) + Math.abs(by - ay);
  for (let h = h0; h < h1; h += 1) {
    const px = pixels.x[h]!;
    const py = pixels.y[h]!;
    // Pixel [px ± ½] × [py ± ½] meets the segment's box iff the integer centre is inside it.
    if (px < xlo || px > xhi || py < ylo || py > yhi) continue;
    // The line meets the closed square iff |2·f(centre)| ≤ |dx| + |dy|.
    const f = cross(ax, ay, bx, by, px, py);
    if (2 * Math.abs(f) > reach) continue;
    const strong = f === 0 || (pixels.kind[h]! & 2) !== 0 || full;
    hits.push3(i, h, strong ? 1 : 0);
  }
}

/** Splits each segment at its pixels, ordered along it; `bent` when any piece left the line. */
function splitAtPixels(
  s: Segments,
  hits: IntColumns,
  pixels: PixelsByCell,
): { result: Segments; bent: boolean } {
  const hitSeg = hits.column(0);
  const hitPix = hits.column(1);
  const hitStrong = hits.column(2);
  const zeros = new Int32Array(hits.length);
  const hitOrder = sortIndicesByKeys(hits.length, hitSeg, zeros);
  const out = new IntColumns(4, Math.max(1024, hits.length));
  const outSide = new Int8Array(hits.length);
  const along = new PixelsAlong();
  let bent = false;
  let k = 0;
  while (k < hitOrder.length) {
    const i = hitSeg[hitOrder[k]!]!;
    along.start(s.ax[i]!, s.ay[i]!, s.bx[i]! - s.ax[i]!, s.by[i]! - s.ay[i]!);
    for (; k < hitOrder.length && hitSeg[hitOrder[k]!] === i; k += 1) {
      const h = hitPix[hitOrder[k]!]!;
      along.add(pixels.x[h]!, pixels.y[h]!, hitStrong[hitOrder[k]!]!);
    }
    if (along.bends) bent = true;
    along.addPieces(out, outSide, s.side[i]!);
  }
  return {
    result: {
      count: out.length,
      ax: out.column(0),
      ay: out.column(1),
      bx: out.column(2),
      by: out.column(3),
      side: outSide.subarray(0, out.length),
    },
    bent,
  };
}

/**
 * The pixels one segment meets, with their parameter along it: scratch columns reused from
 * segment to segment (most segments meet only their two ends).
 */
class PixelsAlong {
  /** Does a strong pixel lie off the segment's line, so that the segment bends? */
  bends = false;
  private tParam = new Float64Array(64);
  private tX = new Float64Array(64);
  private tY = new Float64Array(64);
  private tStrong = new Uint8Array(64);
  private tOrder: number[] = [];
  private count = 0;
  private ax = 0;
  private ay = 0;
  private dx = 0;
  private dy = 0;

  /** Starts the segment from (ax, ay) along (dx, dy). */
  start(ax: number, ay: number, dx: number, dy: number): void {
    this.ax = ax;
    this.ay = ay;
    this.dx = dx;
    this.dy = dy;
    this.bends = false;
    this.count = 0;
  }

  add(px: number, py: number, strong: number): void {
    if (this.count === this.tParam.length) this.grow();
    const { ax, ay, dx, dy, count } = this;
    // A strong pixel off the line bends the segment; then its attractors count too.
    if (strong && cross(ax, ay, ax + dx, ay + dy, px, py) !== 0) this.bends = true;
    this.tParam[count] = (px - ax) * dx + (py - ay) * dy;
    this.tX[count] = px;
    this.tY[count] = py;
    this.tStrong[count] = strong;
    this.count += 1;
  }

  /**
   * Adds the segment's pieces, with interior side `side`, to `out`: from its start through
   * its pixels in order along it, every strong one and, if the segment bends, every other.
   */
  addPieces(out: IntColumns, outSide: Int8Array, side: number): void {
    this.sortAlong();
    let prevX = this.ax;
    let prevY = this.ay;
    for (const t of this.tOrder) {
      const x = this.tX[t]!;
      const y = this.tY[t]!;
      if (!this.tStrong[t] && !this.bends) continue;
      if (x === prevX && y === prevY) continue;
      outSide[out.length] = side;
      out.push4(prevX, prevY, x, y);
      prevX = x;
      prevY = y;
    }
  }

  private sortAlong(): void {
    const { count, tParam } = this;
    this.tOrder.length = 0;
    for (let t = 0; t < count; t += 1) this.tOrder.push(t);
    if (count > 2) this.tOrder.sort((u, v) => tParam[u]! - tParam[v]!);
    else if (count === 2 && tParam[1]! < tParam[0]!) this.tOrder = [1, 0];
  }

  private grow(): void {
    const grow = <T extends Float64Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2);
      b.set(a);
      return b;
    };
    this.tParam = grow(this.tParam);
    this.tX = grow(this.tX);
    this.tY = grow(this.tY);
    this.tStrong = grow(this.tStrong);
  }
}

/**
 * The rounded crossing point of two properly crossing segments, computed as KLayout computes
 * it: from the start of the smaller of the two edges (points ordered by y, then x), with the
 * edges directed as KLayout stores polygon edges (clockwise outlines, interior on the right).
 */
function crossingPoint(s: Segments, i: number, j: number): [number, number] {
  const e = (k: number): [number, number, number, number] =>
    s.side[k]! > 0
      ? [s.bx[k]!, s.by[k]!, s.ax[k]!, s.ay[k]!]
      : [s.ax[k]!, s.ay[k]!, s.bx[k]!, s.by[k]!];
  let c1 = e(i);
  let c2 = e(j);
  const less = (p: number[], q: number[]): boolean =>
    p[1]! < q[1]! ||
    (p[1] === q[1] &&
      (p[0]! < q[0]! || (p[0] === q[0] && (p[3]! < q[3]! || (p[3] === q[3] && p[2]! < q[2]!)))));
  if (less(c2, c1)) [c1, c2] = [c2, c1];
  const vxa = Math.abs(cross(c2[0], c2[1], c2[2], c2[3], c1[0], c1[1]));
  const vxb = Math.abs(cross(c2[0], c2[1], c2[2], c2[3], c1[2], c1[3]));
  return [
    c1[0] + divExact(c1[2] - c1[0], vxa, vxa + vxb),
    c1[1] + divExact(c1[3] - c1[1], vxa, vxa + vxb),
  ];
}

/** Do segments i and j cross at a single point interior to both? */
function properlyCross(s: Segments, i: number, j: number): boolean {
  const ax = s.ax[i]!;
  const ay = s.ay[i]!;
  const bx = s.bx[i]!;
  const by = s.by[i]!;
  const cx = s.ax[j]!;
  const cy = s.ay[j]!;
  const dx = s.bx[j]!;
  const dy = s.by[j]!;
  if (Math.max(cx, dx) < Math.min(ax, bx) || Math.min(cx, dx) > Math.max(ax, bx)) return false;
  if (Math.max(cy, dy) < Math.min(ay, by) || Math.min(cy, dy) > Math.max(ay, by)) return false;
  const o1 = orient(ax, ay, bx, by, cx, cy);
  const o2 = orient(ax, ay, bx, by, dx, dy);
  if (o1 * o2 >= 0) return false;
  const o3 = orient(cx, cy, dx, dy, ax, ay);
  const o4 = orient(cx, cy, dx, dy, bx, by);
  return o3 * o4 < 0;
}

/** Is segment j's end point (px, py) in the interior of segment i? */
function interiorPoint(s: Segments, i: number, px: number, py: number): boolean {
  const ax = s.ax[i]!;
  const ay = s.ay[i]!;
  const bx = s.bx[i]!;
  const by = s.by[i]!;
  if ((px === ax && py === ay) || (px === bx && py === by)) return false;
  if (
    px < Math.min(ax, bx) ||
    px > Math.max(ax, bx) ||
    py < Math.min(ay, by) ||
    py > Math.max(ay, by)
  )
    return false;
  return orient(ax, ay, bx, by, px, py) === 0;
}

/** True when no two segments cross and no end point lies inside another segment. */
function isPlanar(s: Segments): boolean {
  const { coverY, coverX, coverSeg, coverOrder } = buildGrid(s);
  let planar = true;
  forEachCellGroup(coverOrder, coverY, coverX, (start, end) => {
    if (!planar) return;
    for (let p = start; p < end && planar; p += 1) {
      const i = coverSeg[coverOrder[p]!]!;
      for (let q = p + 1; q < end; q += 1) {
        const j = coverSeg[coverOrder[q]!]!;
        if (
          properlyCross(s, i, j) ||
          interiorPoint(s, i, s.ax[j]!, s.ay[j]!) ||
          interiorPoint(s, i, s.bx[j]!, s.by[j]!) ||
          interiorPoint(s, j, s.ax[i]!, s.ay[i]!) ||
          interiorPoint(s, j, s.bx[i]!, s.by[i]!)
        ) {
          planar = false;
          break;
        }
      }
    }
  });
  return planar;
}
