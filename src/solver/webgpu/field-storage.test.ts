/**
 * The float16 side of field-storage.ts that runs on the CPU: the bit patterns a GPU writes read
 * back as their values in padded order (H divided by its storage scale), and the worker's
 * setting. The GPU side, float16 runs against the reference, is in agreement.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fieldStorageFromEnv } from "../field-storage-setting.js";
import {
  decodeFieldValues,
  float16Value,
  fieldBufferBytes,
  storageScales,
} from "./field-storage.js";

describe("float16 field values", () => {
  it("decodes IEEE 754 binary16 patterns: normal, subnormal, signed, infinite, NaN", () => {
    assert.equal(float16Value(0x3c00), 1);
    assert.equal(float16Value(0xc000), -2);
    assert.equal(float16Value(0x3555), 0.333251953125);
    assert.equal(float16Value(0x7bff), 65504);
    assert.equal(float16Value(0x0400), 2 ** -14);
    assert.equal(float16Value(0x0001), 2 ** -24);
    assert.equal(float16Value(0x03ff), 1023 * 2 ** -24);
    assert.ok(Object.is(float16Value(0x8000), -0));
    assert.equal(float16Value(0x7c00), Infinity);
    assert.equal(float16Value(0xfc00), -Infinity);
    assert.ok(Number.isNaN(float16Value(0x7e00)));
  });

  // Three padded x-planes of two values: planes 0 and 1 share words 0 and 1 (plane 0 in the
  // low halves), plane 2 has the low halves of words 2 and 3, the high halves unused.
  it("reads back words of two x-planes' values, scaled, in padded order", () => {
    const bits = new Uint16Array([0x3c00, 0xc000, 0x3800, 0x4200, 0x4400, 0x1234, 0x4500, 0x1234]);
    assert.equal(fieldBufferBytes("float16", 3, 2), bits.byteLength);
    const out = new Float32Array(6);
    decodeFieldValues("float16", bits.buffer, out, 2, 2);
    assert.deepEqual([...out], [2, 1, -4, 6, 8, 10]);
    const f32 = new Float32Array([1.5, -3]);
    const same = new Float32Array(2);
    decodeFieldValues("float32", f32.buffer, same, 2, 1);
    assert.deepEqual([...same], [1.5, -3]);
    assert.equal(fieldBufferBytes("float32", 3, 2), 24);
  });

  it("stores E/A and η0·H/A, A the source's field scale, each to the nearest power of two", () => {
    assert.deepEqual(storageScales("float32", 1e5), { e: 1, h: 1 });
    // Powers of two near 1/A and η0/A (η0 ≈ 376.7: 2⁹ = 512 is nearer in log2 than 256).
    assert.deepEqual(storageScales("float16", 1), { e: 1, h: 512 });
    assert.deepEqual(storageScales("float16", -4), { e: 0.25, h: 128 });
    assert.deepEqual(storageScales("float16", 0), { e: 1, h: 512 });
    assert.deepEqual(storageScales("float16", 3e-3), { e: 256, h: 131072 });
  });

  it("takes the worker's setting from EMSIM_WEBGPU_FIELD_STORAGE", () => {
    assert.equal(fieldStorageFromEnv(undefined), "float32");
    assert.equal(fieldStorageFromEnv(""), "float32");
    assert.equal(fieldStorageFromEnv(" float16 "), "float16");
    assert.throws(() => fieldStorageFromEnv("half"), /must be float32 or float16, not "half"/);
  });
});
