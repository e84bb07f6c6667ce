/**
 * Shift-invert Arnoldi against the dense Schur form: the eigenvalues nearest σ of a complex
 * absorbing Helmholtz grid operator and of a random sparse matrix, with and without
 * Krylov–Schur restarts, and residuals ‖Ax − λx‖ of the eigenvectors.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { shiftInvertArnoldi } from "./arnoldi.js";
import { schur, schurEigenvalues } from "./dense.js";
import { SparseLu } from "./lu.js";
import { csrMultiply, csrShift, complexVector, type ComplexCsr } from "./sparse.js";
import { helmholtzGrid, randomSparse, toDense } from "./test-matrices.js";

function nearestDense(a: ComplexCsr, sigma: { re: number; im: number }, k: number) {
  const lam = schurEigenvalues(schur(toDense(a)).t);
  return Array.from(lam.re, (re, i) => ({ re, im: lam.im[i] }))
    .sort(
      (p, q) =>
        Math.hypot(p.re - sigma.re, p.im - sigma.im) - Math.hypot(q.re - sigma.re, q.im - sigma.im),
    )
    .slice(0, k);
}

function check(a: ComplexCsr, sigma: { re: number; im: number }, k: number, krylovDim?: number) {
  const lu = SparseLu.factor(csrShift(a, sigma.re, sigma.im));
  const found = shiftInvertArnoldi(a.rows, sigma, (x) => lu.solve(x), { count: k, krylovDim });
  const expected = nearestDense(a, sigma, k);
  for (let i = 0; i < k; i++) {
    const d = Math.hypot(found.values[i].re - expected[i].re, found.values[i].im - expected[i].im);
    assert.ok(d < 1e-9 * (1 + Math.hypot(expected[i].re, expected[i].im)), `λ${i}: off by ${d}`);
    const ax = complexVector(a.rows);
    const x = found.vectors[i];
    csrMultiply(a, x, ax);
    let r = 0;
    for (let t = 0; t < a.rows; t++) {
      const { re, im } = found.values[i];
      r += (ax.re[t] - (re * x.re[t] - im * x.im[t])) ** 2;
      r += (ax.im[t] - (re * x.im[t] + im * x.re[t])) ** 2;
    }
    assert.ok(Math.sqrt(r) < 1e-8, `residual of pair ${i}: ${Math.sqrt(r)}`);
  }
  return found;
}

describe("shift-invert Arnoldi", () => {
  it("finds the eigenvalues nearest σ of an absorbing grid operator", () => {
    const { a } = helmholtzGrid(14, 11, 0.6);
    check(a, { re: 1.2, im: -0.05 }, 6);
  });

  it("converges through Krylov–Schur restarts with a small Krylov space", () => {
    const { a } = helmholtzGrid(14, 11, 0.6);
    const found = check(a, { re: 2.0, im: 0 }, 5, 12);
    assert.ok(found.solves > 12, `restarted (${found.solves} solves)`);
  });

  it("finds eigenvalues of a random complex sparse matrix", () => {
    const a = randomSparse(90, 4, 2, 3);
    check(a, { re: 2.5, im: 0.3 }, 4);
  });
});
