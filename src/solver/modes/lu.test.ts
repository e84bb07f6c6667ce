/**
 * Sparse LU against dense LU: random complex sparse matrices (with and without a diagonal,
 * so pivoting and perturbation are exercised) and a shifted Helmholtz grid operator with
 * absorbing edges under nested dissection. A wrong factor, ordering, assembly or pivot
 * bookkeeping gives residuals of order 1, not the 1e-13 asserted here.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { denseSolve } from "./dense.js";
import { SparseLu } from "./lu.js";
import { nestedDissection, naturalOrdering } from "./ordering.js";
import { symmetricPattern, TripletBuilder, type ComplexCsr } from "./sparse.js";
import {
  helmholtzGrid,
  randomSparse,
  scaledResidual,
  seededRandom,
  toDense,
} from "./test-matrices.js";

function randomRhs(n: number, seed: number) {
  const rnd = seededRandom(seed);
  return { re: new Float64Array(n).map(rnd), im: new Float64Array(n).map(rnd) };
}

function maxRelDiff(x: { re: Float64Array; im: Float64Array }, y: typeof x): number {
  let d = 0;
  let s = 0;
  for (let i = 0; i < x.re.length; i++) {
    d = Math.max(d, Math.hypot(x.re[i] - y.re[i], x.im[i] - y.im[i]));
    s = Math.max(s, Math.hypot(y.re[i], y.im[i]));
  }
  return d / s;
}

function checkAgainstDense(a: ComplexCsr, lu: SparseLu, seed: number, tol = 1e-13): void {
  const b = randomRhs(a.rows, seed);
  const x = lu.solve(b);
  const dense = toDense(a);
  const res = scaledResidual(dense, x, b);
  assert.ok(res < tol, `scaled residual ${res}`);
  const xd = denseSolve(dense, b.re, b.im);
  const diff = maxRelDiff(x, xd);
  assert.ok(diff < 1e-8, `differs from the dense solve by ${diff}`);
}

describe("complex sparse LU", () => {
  it("solves random sparse matrices with a strong diagonal", () => {
    for (const seed of [1, 2, 3]) {
      const a = randomSparse(80, 3, 4, seed);
      checkAgainstDense(a, SparseLu.factor(a), seed + 10);
    }
  });

  it("pivots within supernodes when the diagonal is zero", () => {
    // Dense 6 × 6 blocks with zero diagonals, coupled weakly: each block is one supernode
    // and every pivot comes from a row swap inside it.
    const rnd = seededRandom(7);
    const n = 48;
    const b = new TripletBuilder(n, n);
    for (let i = 0; i < n; i++) {
      const blk = i - (i % 6);
      for (let j = blk; j < blk + 6; j++) if (j !== i) b.push(i, j, rnd() * 2 - 1, rnd() * 2 - 1);
      if (blk + 6 < n) b.push(i, blk + 6 + (i % 6), 0.1 * rnd(), 0);
    }
    const a = b.toCsr();
    const lu = SparseLu.factor(a);
    assert.equal(lu.perturbedPivots, 0);
    checkAgainstDense(a, lu, 8);
  });

  it("perturbs a pivot that no swap can fix, and refinement removes the error", () => {
    // Columns 0 and 1 both have column 2 as parent, so column 0 (diagonal 1e-10) is a
    // supernode of its own: its pivot is perturbed to √ε·max|a|, and the solve of A + E is
    // refined against A (det A = −1: the matrix itself is harmless).
    const b = new TripletBuilder(3, 3);
    b.push(0, 0, 1e-10);
    b.push(0, 2, 1, 0.5);
    b.push(2, 0, 1, -0.25);
    b.push(1, 1, 1);
    b.push(1, 2, 1);
    b.push(2, 1, 1);
    b.push(2, 2, 1, 1);
    const a = b.toCsr();
    const lu = SparseLu.factor(a);
    assert.equal(lu.perturbedPivots, 1);
    const rhs = randomRhs(3, 9);
    const unrefined = scaledResidual(toDense(a), lu.solve(rhs, 0), rhs);
    assert.ok(unrefined > 1e-12, `unrefined residual ${unrefined}`);
    checkAgainstDense(a, lu, 9, 1e-15);
  });

  it("solves a random sparse matrix with a weak diagonal", () => {
    const a = randomSparse(80, 4, 0.3, 5);
    checkAgainstDense(a, SparseLu.factor(a), 6, 1e-12);
  });

  it("solves a random matrix under a nested-dissection ordering", () => {
    const a = randomSparse(120, 2, 3, 11);
    const rnd = seededRandom(12);
    const x = new Float64Array(120).map(rnd);
    const y = new Float64Array(120).map(rnd);
    const lu = SparseLu.factor(a, { ordering: nestedDissection(symmetricPattern(a), x, y, 8) });
    checkAgainstDense(a, lu, 13);
  });

  it("solves a shifted absorbing Helmholtz grid operator with less fill under dissection", () => {
    const { a, x, y } = helmholtzGrid(24, 17, 0.7);
    const nd = SparseLu.factor(a, {
      ordering: nestedDissection(symmetricPattern(a), x, y, 16),
    });
    checkAgainstDense(a, nd, 21);
    const natural = SparseLu.factor(a, { ordering: naturalOrdering(a.rows) });
    checkAgainstDense(a, natural, 22);
    assert.equal(nd.perturbedPivots, 0);
    assert.ok(
      nd.factorEntries < natural.factorEntries,
      `nested dissection ${nd.factorEntries} vs band ${natural.factorEntries}`,
    );
  });

  it("gives a permutation and reuses a symbolic analysis for a new shift", () => {
    const { a, x, y } = helmholtzGrid(30, 30, 0.5);
    const ordering = nestedDissection(symmetricPattern(a), x, y);
    assert.deepEqual(
      Array.from(ordering).sort((p, q) => p - q),
      Array.from({ length: a.rows }, (_, k) => k),
    );
    const symbolic = SparseLu.analyse(a, ordering);
    const shifted = { ...a, re: a.re.slice() };
    for (let i = 0; i < a.rows; i++) {
      for (let k = a.rowPtr[i]; k < a.rowPtr[i + 1]; k++)
        if (a.colIdx[k] === i) shifted.re[k] -= 0.3;
    }
    checkAgainstDense(shifted, SparseLu.factor(shifted, { symbolic }), 31);
  });

  it("factors into a spent factorisation's memory, and the spent one refuses to solve", () => {
    const { a, x, y } = helmholtzGrid(30, 30, 0.5);
    const symbolic = SparseLu.analyse(a, nestedDissection(symmetricPattern(a), x, y));
    const first = SparseLu.factor(a, { symbolic });
    checkAgainstDense(a, first, 41);
    const shifted = { ...a, re: a.re.slice(), im: a.im.slice() };
    for (let i = 0; i < a.rows; i++) {
      for (let k = a.rowPtr[i]; k < a.rowPtr[i + 1]; k++) {
        if (a.colIdx[k] === i) [shifted.re[k], shifted.im[k]] = [a.re[k] - 0.8, a.im[k] + 0.2];
      }
    }
    const second = SparseLu.factor(shifted, { symbolic, recycle: first });
    checkAgainstDense(shifted, second, 42);
    assert.throws(() => first.solve(randomRhs(a.rows, 43)), /recycled/);
    // A factorisation of another analysis keeps its own memory.
    const other = SparseLu.factor(a);
    const third = SparseLu.factor(a, { symbolic, recycle: other });
    checkAgainstDense(a, third, 44);
    checkAgainstDense(a, other, 45);
  });
});
