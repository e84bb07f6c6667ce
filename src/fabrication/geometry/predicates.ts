/**
 * Exact geometric predicates on integer coordinates (nanometres).
 *
 * Layout coordinates are int32, so a difference needs 33 bits and a cross product of two
 * differences up to 66 bits: more than a double's 53-bit mantissa. Each predicate first
 * computes its products in doubles; a product of two integers is exact whenever its magnitude
 * stays below 2⁵³, and the sign of a correctly rounded difference of two exact doubles is
 * the sign of the exact difference. Only when a product could have been rounded do we redo the
 * sum in BigInt. For chips up to 67 mm across (spans below 2²⁶ nm) the BigInt path never runs.
 */

const EXACT = 2 ** 53;

/**
 * Sign of the cross product (b − a) × (c − a): +1 when c lies to the left of the directed line
 * a→b (counter-clockwise turn), −1 to the right, 0 when collinear. Arguments may be any numbers
 * whose doubled values are integers (half-integers are exact too, see {@link orientHalf}).
 */
export function orient(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): number {
  const t1 = (bx - ax) * (cy - ay);
  const t2 = (by - ay) * (cx - ax);
  if (t1 < EXACT && t1 > -EXACT && t2 < EXACT && t2 > -EXACT) {
    const d = t1 - t2;
    return d > 0 ? 1 : d < 0 ? -1 : 0;
  }
  return orientBig(ax, ay, bx, by, cx, cy);
}

function orientBig(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  // Doubling makes half-integer arguments integral; the sign is unchanged.
  const d =
    (BigInt(2 * bx) - BigInt(2 * ax)) * (BigInt(2 * cy) - BigInt(2 * ay)) -
    (BigInt(2 * by) - BigInt(2 * ay)) * (BigInt(2 * cx) - BigInt(2 * ax));
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

/**
 * The cross product (b − a) × (c − a) itself, exact when every product stays below 2⁵³ in
 * magnitude (true for coordinates within a 2²⁶ nm span); otherwise the nearest double.
 */
export function cross(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): number {
  const t1 = (bx - ax) * (cy - ay);
  const t2 = (by - ay) * (cx - ax);
  if (t1 < EXACT && t1 > -EXACT && t2 < EXACT && t2 > -EXACT) return t1 - t2;
  const d =
    (BigInt(bx) - BigInt(ax)) * (BigInt(cy) - BigInt(ay)) -
    (BigInt(by) - BigInt(ay)) * (BigInt(cx) - BigInt(ax));
  return Number(d);
}

/** Sign of the dot product (b − a) · (d − c). */
export function dotSign(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): number {
  const t1 = (bx - ax) * (dx - cx);
  const t2 = (by - ay) * (dy - cy);
  if (t1 < EXACT && t1 > -EXACT && t2 < EXACT && t2 > -EXACT) {
    const s = t1 + t2;
    return s > 0 ? 1 : s < 0 ? -1 : 0;
  }
  const s =
    (BigInt(bx) - BigInt(ax)) * (BigInt(dx) - BigInt(cx)) +
    (BigInt(by) - BigInt(ay)) * (BigInt(dy) - BigInt(cy));
  return s > 0n ? 1 : s < 0n ? -1 : 0;
}

/** Sign of the cross product of two direction vectors u × v. */
export function crossSign(ux: number, uy: number, vx: number, vy: number): number {
  return orient(0, 0, ux, uy, vx, vy);
}

/**
 * Rounds the rational num/den (den > 0 not required) to the nearest integer, halves away from
 * zero, exactly. Used for snapping intersection points to the 1 nm grid.
 */
export function roundRational(num: bigint, den: bigint): number {
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const twice = 2n * num;
  if (num >= 0n) return Number((twice + den) / (2n * den));
  return -Number((-twice + den) / (2n * den));
}

/**
 * KLayout's rounding of a crossing (Edge::intersect_point with div_exact): a·b/d rounded to
 * the nearest integer with halves going down, computed exactly. a is a coordinate difference,
 * b and d are non-negative cross products with b ≤ d.
 */
export function divExact(a: number, b: number, d: number): number {
  const v = (a * b) / d;
  const frac = v - Math.floor(v);
  if (Math.abs(frac - 0.5) > 1e-6 && Math.abs(a * b) < 2 ** 52) return Math.ceil(v - 0.5);
  const ab = BigInt(a) * BigInt(b);
  const bd = BigInt(d);
  // ceil(ab/d − 1/2) = ceil((2ab − d) / 2d)
  const num = 2n * ab - bd;
  const den = 2n * bd;
  const q = num / den; // truncates toward zero
  return Number(num > 0n && num % den !== 0n ? q + 1n : q);
}
