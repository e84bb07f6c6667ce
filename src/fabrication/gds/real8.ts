/**
 * GDS II 8-byte reals ("excess-64" hexadecimal floating point, the IBM System/360 format):
 * one sign bit, a 7-bit exponent E (power of 16, biased by 64) and a 56-bit fraction F with
 * 1/16 ≤ F/2⁵⁶ < 1 for normalised non-zero values:  value = ±(F / 2⁵⁶) · 16^(E − 64).
 *
 * Both directions are exact where the arithmetic allows it:
 * - Encoding: a double has 53 significant bits, so F = |v| · 2⁵⁶ / 16^(E−64) is a power-of-two
 *   scaling of v and therefore an integer (its top bit sits at 2⁵²…2⁵⁵, its lowest set bit no
 *   lower than 2⁰). F itself can exceed 2⁵³ but still holds only 53 significant bits, so it is
 *   exact as a double; it is split into a 28-bit high and a 28-bit low part (each exact) to
 *   produce the bytes.
 * - Decoding: F can have 56 significant bits, more than a double holds; it is assembled as
 *   high · 2²⁸ + low, whose single rounding is the correctly rounded nearest double, and the
 *   power-of-two scaling that follows is exact.
 *
 * Verified bytes (shared/NOTES.md): 1e-3 → 3E 41 89 37 4B C6 A7 F0, 1e-9 → 39 44 B8 2F A0 9B 5A 54,
 * 1 → 41 10 00…, −0.5 → C0 80 00….
 */

const TWO_28 = 2 ** 28;
const TWO_56 = 2 ** 56;

/** Largest magnitude representable: (1 − 2⁻⁵⁶) · 16⁶³. */
export const REAL8_MAX = (1 - 2 ** -56) * 16 ** 63;

/**
 * Encodes `value` as a GDS II 8-byte real into `out` at `offset`. Throws a RangeError for NaN,
 * ±∞ or magnitudes above {@link REAL8_MAX}; magnitudes below 16⁻⁶⁵ (the smallest normalised
 * value) become 0.
 */
export function encodeReal8(value: number, out: Uint8Array, offset: number): void {
  if (!Number.isFinite(value)) throw new RangeError(`cannot encode ${value} as a GDS II real`);
  let magnitude = Math.abs(value);
  if (magnitude === 0 || magnitude < 16 ** -65) {
    out.fill(0, offset, offset + 8);
    return;
  }
  if (magnitude > REAL8_MAX) throw new RangeError(`${value} is too large for a GDS II real`);
  // Find E with 1/16 ≤ magnitude / 16^(E−64) < 1.
  let exponent = 64;
  while (magnitude >= 1) {
    magnitude /= 16;
    exponent += 1;
  }
  while (magnitude < 1 / 16) {
    magnitude *= 16;
    exponent -= 1;
  }
  // Exact: multiplying by a power of two only moves the binary point.
  let fraction = magnitude * TWO_56;
  if (fraction >= TWO_56) {
    // Cannot happen for magnitude < 1 (the product is exact), kept as a guard.
    fraction /= 16;
    exponent += 1;
  }
  const high = Math.floor(fraction / TWO_28);
  const low = fraction - high * TWO_28;
  out[offset] = (value < 0 ? 0x80 : 0) | exponent;
  out[offset + 1] = (high >>> 20) & 0xff;
  out[offset + 2] = (high >>> 12) & 0xff;
  out[offset + 3] = (high >>> 4) & 0xff;
  out[offset + 4] = ((high & 0x0f) << 4) | ((low >>> 24) & 0x0f);
  out[offset + 5] = (low >>> 16) & 0xff;
  out[offset + 6] = (low >>> 8) & 0xff;
  out[offset + 7] = low & 0xff;
}

/**
 * Decodes a GDS II 8-byte real from `bytes` at `offset` into the nearest double. Unnormalised
 * fractions (below 1/16, which some writers produce) are accepted as the value they denote.
 */
export function decodeReal8(bytes: Uint8Array, offset: number): number {
  const first = bytes[offset]!;
  const exponent = (first & 0x7f) - 64;
  const high =
    bytes[offset + 1]! * 2 ** 20 +
    bytes[offset + 2]! * 2 ** 12 +
    bytes[offset + 3]! * 2 ** 4 +
    (bytes[offset + 4]! >>> 4);
  const low =
    (bytes[offset + 4]! & 0x0f) * 2 ** 24 +
    bytes[offset + 5]! * 2 ** 16 +
    bytes[offset + 6]! * 2 ** 8 +
    bytes[offset + 7]!;
  const fraction = high * TWO_28 + low;
  if (fraction === 0) return 0;
  // 16^exponent / 2^56 = 2^(4·exponent − 56): one exact power-of-two scaling.
  const magnitude = fraction * 2 ** (4 * exponent - 56);
  return first & 0x80 ? -magnitude : magnitude;
}
