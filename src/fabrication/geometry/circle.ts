/**
 * Polygon approximation of circles and circular arcs.
 *
 * Vertices lie on the circle (an inscribed polygon). With N segments over a full turn, each
 * chord's sagitta (the largest gap between chord and arc) is r·(1 − cos(π/N)); we choose the
 * smallest N whose sagitta is at most `maxSagitta`, with at least 8 segments a turn, rounded
 * up to a multiple of 4 so the polygon keeps the circle's mirror symmetries about x and y (a
 * circle's extremes then fall on vertices, and its bounding box is exact before snapping).
 * After snapping vertices to the grid, each vertex moves by at most half a grid step per axis,
 * so the outline stays within maxSagitta + grid/√2 of the true circle.
 */

/** Segments for a full circle of radius r so that the sagitta is at most maxSagitta. */
export function circleSegments(radius: number, maxSagitta: number, maxSegments = 4096): number {
  if (!(radius > 0) || !(maxSagitta > 0)) return 8;
  if (maxSagitta >= radius) return 8;
  const n = Math.ceil(Math.PI / Math.acos(1 - maxSagitta / radius));
  const rounded = Math.max(8, Math.ceil(n / 4) * 4);
  return Math.min(rounded, maxSegments);
}

/**
 * Vertices of a circle (counter-clockwise, starting at angle 0) as a flat [x0, y0, …] array,
 * snapped to multiples of `grid` (nm); duplicate vertices after snapping are dropped.
 */
export function circleRing(
  cx: number,
  cy: number,
  radius: number,
  maxSagitta: number,
  grid = 1,
): Int32Array {
  const n = circleSegments(radius, maxSagitta);
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const a = (2 * Math.PI * i) / n;
    // Exact values at the quadrant points so the extremes are exactly r from the centre.
    const c = i % (n / 4) === 0 ? [1, 0, -1, 0][(4 * i) / n]! : Math.cos(a);
    const s = i % (n / 4) === 0 ? [0, 1, 0, -1][(4 * i) / n]! : Math.sin(a);
    const x = snap(cx + radius * c, grid);
    const y = snap(cy + radius * s, grid);
    const k = out.length;
    if (k >= 2 && out[k - 2] === x && out[k - 1] === y) continue;
    out.push(x, y);
  }
  if (out.length >= 4 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) {
    out.length -= 2;
  }
  return Int32Array.from(out);
}

/** Rounds v (nm) to the nearest multiple of grid (nm), halves away from zero. */
export function snap(v: number, grid: number): number {
  const q = v / grid;
  const r = q < 0 ? -Math.floor(-q + 0.5) : Math.floor(q + 0.5);
  return r * grid;
}

/**
 * Points of an arc around (cx, cy) from angle a0 to a1 (radians, a1 may be below a0 for a
 * clockwise arc), both ends included, as [x, y] pairs in unrounded coordinates.
 */
export function arcPoints(
  cx: number,
  cy: number,
  radius: number,
  a0: number,
  a1: number,
  maxSagitta: number,
): Array<[number, number]> {
  const perTurn = circleSegments(radius, maxSagitta);
  const steps = Math.max(1, Math.ceil((Math.abs(a1 - a0) / (2 * Math.PI)) * perTurn));
  const pts: Array<[number, number]> = [];
  for (let i = 0; i <= steps; i += 1) {
    const a = a0 + ((a1 - a0) * i) / steps;
    pts.push([cx + radius * Math.cos(a), cy + radius * Math.sin(a)]);
  }
  return pts;
}
