/**
 * The mode solver's spare kernel memories: a memory given back is what the next solve gets
 * (not a new one), zeroed where it is handed out, never grown, and a released LU cannot
 * solve; and a factorisation in a reused memory gives the same bits as in a fresh one.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  kernelMemory,
  reserveKernelMemory,
  spareKernelBytes,
  SPARE_COUNT,
  SPARE_MAX_BYTES,
} from "./kernel-memory.js";
import { SparseLu } from "./lu.js";
import { nestedDissection } from "./ordering.js";
import { symmetricPattern } from "./sparse.js";
import { helmholtzGrid, seededRandom } from "./test-matrices.js";

/** Takes every spare memory this thread keeps, so that a test starts from none. */
function drain(): void {
  while (spareKernelBytes().length > 0) kernelMemory([1]);
}

describe("spare kernel memories", () => {
  it("hands a released memory out again, zeroed, and a new one when it is too small", () => {
    drain();
    const first = kernelMemory([1000, 10]);
    first.arrays[0]!.re.fill(7);
    first.arrays[1]!.im.fill(-3);
    const buffer = first.arrays[0]!.re.buffer;
    first.release();
    first.release(); // a second release keeps it once
    assert.equal(spareKernelBytes().length, 1);
    const second = kernelMemory([900]);
    assert.equal(second.arrays[0]!.re.buffer, buffer, "the same memory, not a new one");
    assert.ok(second.arrays[0]!.re.every((v) => v === 0));
    assert.ok(second.arrays[0]!.im.every((v) => v === 0));
    second.arrays[0]!.re.fill(1);
    second.release();
    // Larger than the spare: a new memory, the spare kept as it is (never grown: growing
    // would detach its buffer, kernel-memory.ts).
    const third = kernelMemory([200_000]);
    assert.notEqual(third.arrays[0]!.re.buffer, buffer);
    assert.equal(spareKernelBytes().length, 1);
    assert.ok(buffer.byteLength > 0, "the spare's buffer is not detached");
    third.release();
  });

  it("keeps at most SPARE_COUNT, the largest, and none above SPARE_MAX_BYTES", () => {
    drain();
    const held = [10, 20, 30, 40].map((k) => kernelMemory([k * 8192]));
    held.forEach((m) => m.release());
    const kept = spareKernelBytes();
    assert.equal(kept.length, SPARE_COUNT);
    assert.ok(Math.min(...kept) > 20 * 8192 * 16, `the smallest went: ${kept.join(", ")}`);
    drain();
    const big = kernelMemory([SPARE_MAX_BYTES / 16 + 1]);
    big.release();
    assert.deepEqual(spareKernelBytes(), []);
  });

  it("reserves a touched memory that a later solve of that size takes", () => {
    drain();
    reserveKernelMemory([4 * 2 ** 20, 2 ** 20]);
    const [small, large] = spareKernelBytes();
    assert.ok(large! >= 4 * 2 ** 20 && small! >= 2 ** 20 && small! < 4 * 2 ** 20);
    // A solve of 1.6 MB takes the larger, one of 0.8 MB the smaller.
    const m = kernelMemory([100_000]);
    assert.deepEqual(spareKernelBytes(), [small]);
    const n = kernelMemory([50_000]);
    assert.deepEqual(spareKernelBytes(), []);
    m.release();
    n.release();
  });

  it("factors in a reused memory to the same bits as in a fresh one", () => {
    const { a, x, y } = helmholtzGrid(24, 20, 0.7);
    const symbolic = SparseLu.analyse(a, nestedDissection(symmetricPattern(a), x, y));
    const rnd = seededRandom(5);
    const b = { re: new Float64Array(a.rows).map(rnd), im: new Float64Array(a.rows).map(rnd) };
    drain();
    const fresh = SparseLu.factor(a, { symbolic });
    const expected = fresh.solve(b);
    // Its memory, dirtied by its factors, given back and taken by the next factorisation.
    fresh.release();
    assert.throws(() => fresh.solve(b), /released/);
    assert.equal(spareKernelBytes().length, 1);
    const reused = SparseLu.factor(a, { symbolic });
    assert.equal(spareKernelBytes().length, 0, "the spare memory was taken");
    const got = reused.solve(b);
    assert.deepEqual(got.re, expected.re);
    assert.deepEqual(got.im, expected.im);
    reused.release();
  });
});
