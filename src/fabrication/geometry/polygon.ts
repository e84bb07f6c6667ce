/**
 * Polygon primitives shared by the GDS reader, the geometry engine and the design-rule checks.
 *
 * A ring is a closed outline stored flat as [x0, y0, x1, y1, …] in integer nanometres, the
 * first vertex not repeated at the end. Rings from files may run either way round; rings
 * produced by {@link mergePolygons} follow KLayout's convention: the interior lies to the
 * right of each edge (outer outlines clockwise, holes counter-clockwise).
 */
import { boundsOf } from "../../solver/index.js";

export type Ring = Int32Array;

/** Axis-aligned box [xmin, ymin, xmax, ymax] in nanometres. */
export type BoxNm = [number, number, number, number];

/**
 * Twice the signed area of a ring (shoelace), positive when counter-clockwise, in nm². Exact
 * while the partial sums stay below 2⁵³ (rings under about 60 mm across); computed relative to
 * the first vertex to keep the products small.
 */
export function ringArea2(ring: ArrayLike<number>): number {
  const n = ring.length >> 1;
  if (n < 3) return 0;
  const x0 = ring[0]!;
  const y0 = ring[1]!;
  let sum = 0;
  let px = 0;
  let py = 0;
  for (let i = 1; i < n; i += 1) {
    const x = ring[2 * i]! - x0;
    const y = ring[2 * i + 1]! - y0;
    sum += px * y - x * py;
    px = x;
    py = y;
  }
  return sum;
}

/** Bounding box of rings, or null when there are none. */
export function ringsBox(rings: readonly ArrayLike<number>[]): BoxNm | null {
  const box = boundsOf(rings);
  return box[0] === Infinity ? null : box;
}

/** A ring for the rectangle [x1, x2] × [y1, y2], counter-clockwise. */
export function rectangleRing(x1: number, y1: number, x2: number, y2: number): Ring {
  return Int32Array.of(x1, y1, x2, y1, x2, y2, x1, y2);
}

/**
 * Removes repeated consecutive vertices (and a last vertex equal to the first); returns the
 * input when nothing changes. Rings left with fewer than 3 vertices come back as they are; the
 * caller decides whether a degenerate ring matters.
 */
export function dropRepeatedVertices(ring: Ring): Ring {
  const n = ring.length >> 1;
  let keep = 0;
  for (let i = 0; i < n; i += 1) {
    const j = (i + 1) % n;
    if (ring[2 * i] !== ring[2 * j] || ring[2 * i + 1] !== ring[2 * j + 1]) keep += 1;
  }
  if (keep === n) return ring;
  const out = new Int32Array(2 * keep);
  let k = 0;
  for (let i = 0; i < n; i += 1) {
    const j = (i + 1) % n;
    if (ring[2 * i] !== ring[2 * j] || ring[2 * i + 1] !== ring[2 * j + 1]) {
      out[k++] = ring[2 * i]!;
      out[k++] = ring[2 * i + 1]!;
    }
  }
  return out;
}
