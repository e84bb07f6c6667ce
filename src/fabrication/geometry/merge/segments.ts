/**
 * The merge's input as directed segments: every edge of every ring with non-zero area, with
 * the side its ring's interior lies on.
 */

/** Directed segments with the side their polygon's interior lies on. */
export interface Segments {
  count: number;
  ax: Float64Array;
  ay: Float64Array;
  bx: Float64Array;
  by: Float64Array;
  /** +1: interior to the left of a→b; −1: to the right. */
  side: Int8Array;
}

/** The edges of the rings (zero-length edges and rings of zero area left out). */
export function collectSegments(rings: readonly ArrayLike<number>[]): Segments {
  let total = 0;
  for (const r of rings) total += r.length >> 1;
  const ax = new Float64Array(total);
  const ay = new Float64Array(total);
  const bx = new Float64Array(total);
  const by = new Float64Array(total);
  const side = new Int8Array(total);
  let count = 0;
  for (const r of rings) {
    const n = r.length >> 1;
    if (n < 3) continue;
    const orientation = ringOrientation(r);
    if (orientation === 0) continue;
    for (let i = 0; i < n; i += 1) {
      const j = i + 1 === n ? 0 : i + 1;
      const x1 = r[2 * i]!;
      const y1 = r[2 * i + 1]!;
      const x2 = r[2 * j]!;
      const y2 = r[2 * j + 1]!;
      if (x1 === x2 && y1 === y2) continue;
      ax[count] = x1;
      ay[count] = y1;
      bx[count] = x2;
      by[count] = y2;
      side[count] = orientation;
      count += 1;
    }
  }
  return { count, ax, ay, bx, by, side };
}

/** +1 counter-clockwise, −1 clockwise, 0 for zero area (exact). */
export function ringOrientation(r: ArrayLike<number>): number {
  const n = r.length >> 1;
  const x0 = r[0]!;
  const y0 = r[1]!;
  let sum = 0;
  let big = false;
  let px = 0;
  let py = 0;
  for (let i = 1; i < n; i += 1) {
    const x = r[2 * i]! - x0;
    const y = r[2 * i + 1]! - y0;
    const a = px * y;
    const b = x * py;
    if (Math.abs(a) >= 2 ** 52 || Math.abs(b) >= 2 ** 52) big = true;
    sum += a - b;
    px = x;
    py = y;
  }
  // A double sum can lose its sign only when it is tiny next to its terms or they overflowed.
  if (big || Math.abs(sum) < 1e6) {
    let exact = 0n;
    for (let i = 0; i < n; i += 1) {
      const j = i + 1 === n ? 0 : i + 1;
      exact +=
        BigInt(r[2 * i]!) * BigInt(r[2 * j + 1]!) - BigInt(r[2 * j]!) * BigInt(r[2 * i + 1]!);
    }
    return exact > 0n ? 1 : exact < 0n ? -1 : 0;
  }
  return sum > 0 ? 1 : -1;
}
