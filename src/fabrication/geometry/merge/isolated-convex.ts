/**
 * The merge's fast path: a convex polygon whose box touches no other box is its own union, so
 * it needs no rounding and no sweep (merge.ts says how often that is).
 */

import type { Ring } from "../polygon.js";
import { orient } from "../predicates.js";
import { ringOrientation } from "./segments.js";

/**
 * Separates convex rings whose bounding boxes touch no other ring's box (returned as merged
 * loops: clockwise, collinear vertices dropped, starting at the lowest-leftmost vertex) from
 * the rest. Boxes are compared through a uniform grid; a box spanning more than 64 cells is
 * simply left to the general path.
 */
export function splitIsolatedConvex(rings: readonly ArrayLike<number>[]): {
  isolated: Ring[];
  rest: ArrayLike<number>[];
} {
  const n = rings.length;
  if (n === 0) return { isolated: [], rest: [] };
  const boxes = new RingBoxes(rings);
  const tooBig = new Uint8Array(n);
  for (let k = 0; k < n; k += 1) {
    if (boxes.tooBig(k)) tooBig[k] = 1;
    else boxes.enter(k);
  }
  const touched = touchedByTooBig(boxes, tooBig);
  const isolated: Ring[] = [];
  const rest: ArrayLike<number>[] = [];
  for (let k = 0; k < n; k += 1) {
    const alone = !tooBig[k] && !touched[k] && !boxes.touchesAnother(k);
    const loop = alone ? convexLoop(rings[k]!) : null;
    if (loop) isolated.push(loop);
    else if (alone && ringOrientation(rings[k]!) === 0) continue;
    else rest.push(rings[k]!);
  }
  return { isolated, rest };
}

/**
 * A too-big box may touch anything: those shapes, and every shape their box touches, take
 * the general path; found by testing the few big boxes against all others.
 */
function touchedByTooBig(boxes: RingBoxes, tooBig: Uint8Array): Uint8Array {
  const n = tooBig.length;
  const touched = new Uint8Array(n);
  const bigOnes: number[] = [];
  for (let k = 0; k < n; k += 1) if (tooBig[k]) bigOnes.push(k);
  if (bigOnes.length > 0) {
    for (let k = 0; k < n; k += 1) {
      for (const b of bigOnes) if (b !== k && boxes.overlap(k, b)) touched[k] = 1;
    }
  }
  return touched;
}

/**
 * The rings' bounding boxes, and a uniform grid of cells about twice the median box size in
 * which boxes are entered.
 */
class RingBoxes {
  /** [x0, y0, x1, y1] of ring k at 4k. */
  private readonly box: Float64Array;
  private readonly cell: number;
  private readonly cells = new Map<number, number[]>();

  constructor(rings: readonly ArrayLike<number>[]) {
    const n = rings.length;
    this.box = new Float64Array(4 * n);
    const sizes: number[] = [];
    for (let k = 0; k < n; k += 1) {
      const r = rings[k]!;
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -Infinity;
      let y1 = -Infinity;
      for (let i = 0; i < r.length; i += 2) {
        x0 = Math.min(x0, r[i]!);
        x1 = Math.max(x1, r[i]!);
        y0 = Math.min(y0, r[i + 1]!);
        y1 = Math.max(y1, r[i + 1]!);
      }
      this.box.set([x0, y0, x1, y1], 4 * k);
      if (k % Math.max(1, Math.floor(n / 1000)) === 0) sizes.push(Math.max(x1 - x0, y1 - y0));
    }
    sizes.sort((a, b) => a - b);
    this.cell = Math.max(16, 2 * (sizes[sizes.length >> 1] ?? 1));
  }

  /** Is box k left out of the grid: spanning more than 64 cells, or a corner beyond 2³⁰ nm? */
  tooBig(k: number): boolean {
    const { box, cell } = this;
    const spanX = Math.floor(box[4 * k + 2]! / cell) - Math.floor(box[4 * k]! / cell) + 1;
    const spanY = Math.floor(box[4 * k + 3]! / cell) - Math.floor(box[4 * k + 1]! / cell) + 1;
    return (
      spanX * spanY > 64 || Math.abs(box[4 * k]!) > 2 ** 30 || Math.abs(box[4 * k + 1]!) > 2 ** 30
    );
  }

  /** Enters box k in the cells it covers. */
  enter(k: number): void {
    this.forCells(k, (key) => {
      let list = this.cells.get(key);
      if (!list) this.cells.set(key, (list = []));
      list.push(k);
    });
  }

  /** Does box k, entered in the grid, touch another entered box? */
  touchesAnother(k: number): boolean {
    let touches = false;
    this.forCells(k, (key) => {
      if (touches) return;
      for (const j of this.cells.get(key)!) {
        if (j !== k && this.overlap(j, k)) {
          touches = true;
          return;
        }
      }
    });
    return touches;
  }

  /** Do boxes a and b meet (closed boxes: touching counts)? */
  overlap(a: number, b: number): boolean {
    const box = this.box;
    return (
      box[4 * a]! <= box[4 * b + 2]! &&
      box[4 * b]! <= box[4 * a + 2]! &&
      box[4 * a + 1]! <= box[4 * b + 3]! &&
      box[4 * b + 1]! <= box[4 * a + 3]!
    );
  }

  private forCells(k: number, visit: (key: number) => void): void {
    const { box, cell } = this;
    const c0 = Math.floor(box[4 * k]! / cell);
    const c1 = Math.floor(box[4 * k + 2]! / cell);
    const r0 = Math.floor(box[4 * k + 1]! / cell);
    const r1 = Math.floor(box[4 * k + 3]! / cell);
    for (let cy = r0; cy <= r1; cy += 1) {
      for (let cx = c0; cx <= c1; cx += 1) visit(cy * 67108864 + cx);
    }
  }
}

/**
 * The ring as a merged loop if it is strictly convex once repeated and collinear vertices are
 * dropped (turning one way, once round); otherwise null.
 */
function convexLoop(r: ArrayLike<number>): Ring | null {
  const xs: number[] = [];
  const ys: number[] = [];
  const n0 = r.length >> 1;
  for (let i = 0; i < n0; i += 1) {
    const x = r[2 * i]!;
    const y = r[2 * i + 1]!;
    const k = xs.length;
    if (k > 0 && xs[k - 1] === x && ys[k - 1] === y) continue;
    xs.push(x);
    ys.push(y);
  }
  while (xs.length > 1 && xs[0] === xs[xs.length - 1] && ys[0] === ys[ys.length - 1]) {
    xs.pop();
    ys.pop();
  }
  const n = xs.length;
  if (n < 3) return null;
  const keepX: number[] = [];
  const keepY: number[] = [];
  let sign = 0;
  let turning = 0;
  for (let i = 0; i < n; i += 1) {
    const p = (i + n - 1) % n;
    const q = (i + 1) % n;
    const o = orient(xs[p]!, ys[p]!, xs[i]!, ys[i]!, xs[q]!, ys[q]!);
    const dot = (xs[i]! - xs[p]!) * (xs[q]! - xs[i]!) + (ys[i]! - ys[p]!) * (ys[q]! - ys[i]!);
    if (o === 0) {
      if (dot < 0) return null; // a spike
      continue;
    }
    if (sign !== 0 && o !== sign) return null;
    sign = o;
    turning += Math.atan2(
      (xs[i]! - xs[p]!) * (ys[q]! - ys[i]!) - (ys[i]! - ys[p]!) * (xs[q]! - xs[i]!),
      dot,
    );
    keepX.push(xs[i]!);
    keepY.push(ys[i]!);
  }
  // Turning one way by a total of ±2π: convex and simple (a star turns 4π or more).
  if (keepX.length < 3 || Math.abs(Math.abs(turning) - 2 * Math.PI) > 1e-6) return null;
  // Clockwise (interior on the right), starting at the lowest, then leftmost vertex.
  if (sign > 0) {
    keepX.reverse();
    keepY.reverse();
  }
  let start = 0;
  for (let i = 1; i < keepX.length; i += 1) {
    if (keepY[i]! < keepY[start]! || (keepY[i] === keepY[start] && keepX[i]! < keepX[start]!))
      start = i;
  }
  const ring = new Int32Array(2 * keepX.length);
  for (let i = 0; i < keepX.length; i += 1) {
    const j = (start + i) % keepX.length;
    ring[2 * i] = keepX[j]!;
    ring[2 * i + 1] = keepY[j]!;
  }
  return ring;
}
