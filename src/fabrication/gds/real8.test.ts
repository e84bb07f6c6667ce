import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeReal8, encodeReal8 } from "./real8.js";

const hex = (v: number): string => {
  const b = new Uint8Array(8);
  encodeReal8(v, b, 0);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0").toUpperCase()).join(" ");
};

test("8-byte reals: the bytes shared/NOTES.md verified against KLayout-written files", () => {
  assert.equal(hex(1e-3), "3E 41 89 37 4B C6 A7 F0");
  assert.equal(hex(1e-9), "39 44 B8 2F A0 9B 5A 54");
  assert.equal(hex(1), "41 10 00 00 00 00 00 00");
  assert.equal(hex(-0.5), "C0 80 00 00 00 00 00 00");
  assert.equal(hex(0), "00 00 00 00 00 00 00 00");
});

test("8-byte reals: every double in range survives encode → decode exactly", () => {
  const roundTrip = (v: number): number => {
    const b = new Uint8Array(8);
    encodeReal8(v, b, 0);
    return decodeReal8(b, 0);
  };
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e70, max: 1e70 }), (v) => {
      // Below 16⁻⁶⁵ the format has no normalised values; those encode as zero.
      const expected = Math.abs(v) < 16 ** -65 ? 0 : v;
      assert.equal(roundTrip(v), expected === 0 ? 0 : expected);
    }),
    { numRuns: 20000 },
  );
  // The 56-bit fraction holds all 53 bits of a double even when it needs the top nibble.
  for (const v of [1e-3, 1e-9, 0.1, 1 / 3, 2 ** 52 + 1, 123456.789, 15.999999999999998]) {
    assert.equal(roundTrip(v), v);
  }
});

test("8-byte reals: decoding a 56-bit fraction rounds once, to the nearest double", () => {
  // Fraction bytes 10 00 00 00 00 00 01: 2⁵² + 1, a 53-bit integer.
  const b = Uint8Array.of(0x41, 0x10, 0, 0, 0, 0, 0, 0x01);
  // Value 16 · (2⁵² + 1)/2⁵⁶ = 1 + 2⁻⁵², exactly representable.
  assert.equal(decodeReal8(b, 0), 1 + 2 ** -52);
  const c = Uint8Array.of(0x41, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
  // (2⁵⁶ − 1)/2⁵⁶ · 16 rounds to 16 in double precision.
  assert.equal(decodeReal8(c, 0), 16);
});

test("8-byte reals: NaN, infinities and overflow are refused", () => {
  const b = new Uint8Array(8);
  assert.throws(() => encodeReal8(NaN, b, 0), RangeError);
  assert.throws(() => encodeReal8(Infinity, b, 0), RangeError);
  assert.throws(() => encodeReal8(1e80, b, 0), RangeError);
});
