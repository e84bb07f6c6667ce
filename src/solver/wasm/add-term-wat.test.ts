/**
 * The kernel's addTerm (add-term-wat.ts) against what JavaScript's `F[p] += w·drive` on a
 * Float32Array gives, bit for bit: contiguous runs of odd and even length (f64x2 pairs and the
 * last cell), strided runs, blocks of rows, over values of many magnitudes (where rounding
 * the product to float32 before the sum would differ).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addTermWat } from "./add-term-wat.js";
import { compileWat } from "./compile.js";
import type { KernelExports } from "./sweep.js";
import { wasm } from "./wasm-api.js";

/** The kernel export under test, as the sweep calls it. */
type AddTerm = KernelExports["addTerm"];

async function kernel(): Promise<{ addTerm: AddTerm; buffer: SharedArrayBuffer }> {
  const memory = new wasm.Memory({ initial: 1, maximum: 1, shared: true });
  const wat = `(module (import "env" "memory" (memory 1 1 shared)) ${addTermWat()})`;
  const module = await compileWat("add-term-test", wat);
  const instance = await wasm.instantiate(module, { env: { memory } });
  return { addTerm: instance.exports.addTerm as AddTerm, buffer: memory.buffer };
}

/** Pseudo-random values spanning many magnitudes (a fixed LCG: the same every run). */
function values(n: number, seed: number): number[] {
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return ((s / 2 ** 31 - 0.5) * 10 ** ((s % 13) - 6)) / 3;
  });
}

describe("wasm addTerm", () => {
  const cases = [
    { name: "contiguous, odd", dp: 1, dw: 1, n: 37, rows: 1 },
    { name: "contiguous, even", dp: 1, dw: 1, n: 64, rows: 1 },
    { name: "one cell", dp: 1, dw: 1, n: 1, rows: 1 },
    { name: "strided field", dp: 7, dw: 1, n: 19, rows: 1 },
    { name: "strided weights", dp: 1, dw: 3, n: 20, rows: 1 },
    { name: "rows of a plane", dp: 1, dw: 1, n: 9, rows: 6, pRow: 13, wRow: 11 },
    { name: "strided rows", dp: 40, dw: 11, n: 6, rows: 9, pRow: 1, wRow: 1 },
    { name: "no rows", dp: 1, dw: 1, n: 9, rows: 0 },
  ];
  for (const c of cases) {
    it(`adds w·drive as F[p] += w·drive in JavaScript does: ${c.name}`, async () => {
      const { addTerm, buffer } = await kernel();
      const fieldAt = 1024;
      const weightAt = 16384;
      const field = new Float32Array(buffer, fieldAt, 2048);
      const weights = new Float64Array(buffer, weightAt, 1024);
      field.set(values(field.length, 7));
      weights.set(values(weights.length, 11));
      const expected = Float32Array.from(field);
      const [p0, w0, drive] = [5, 3, 0.7310582];
      const [pRow, wRow] = [c.pRow ?? 0, c.wRow ?? 0];
      for (let r = 0; r < c.rows; r++) {
        for (let k = 0; k < c.n; k++) {
          expected[p0 + r * pRow + k * c.dp] += weights[w0 + r * wRow + k * c.dw] * drive;
        }
      }
      const [p, w] = [fieldAt + 4 * p0, weightAt + 8 * w0];
      addTerm(p, 4 * c.dp, 4 * pRow, w, 8 * c.dw, 8 * wRow, c.n, c.rows, drive);
      assert.deepEqual(field, expected);
    });
  }
});
