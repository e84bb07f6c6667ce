/**
 * Dense complex kernels: LU solve residuals and the Schur form A = Z·T·Zᴴ (Z unitary, T upper
 * triangular) with its eigenvectors and reordering, on seeded random matrices and on a
 * matrix with known eigenvalues (a diagonal one under a random unitary similarity).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  denseSolve,
  reorderSchur,
  schur,
  schurEigenvalues,
  triangularEigenvector,
  type DenseComplex,
} from "./dense.js";
import { scaledResidual, seededRandom } from "./test-matrices.js";

function randomDense(n: number, seed: number): DenseComplex {
  const rnd = seededRandom(seed);
  const re = new Float64Array(n * n).map(() => rnd() * 2 - 1);
  const im = new Float64Array(n * n).map(() => rnd() * 2 - 1);
  return { n, re, im };
}

/** ‖A·Z − Z·T‖ / ‖A‖ (max norms) and ‖ZᴴZ − I‖. */
function schurErrors(a: DenseComplex, z: DenseComplex, t: DenseComplex): [number, number] {
  const n = a.n;
  let err = 0;
  let orth = 0;
  let amax = 0;
  for (let q = 0; q < n * n; q++) amax = Math.max(amax, Math.hypot(a.re[q], a.im[q]));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let azr = 0,
        azi = 0,
        ztr = 0,
        zti = 0,
        gr = 0,
        gi = 0;
      for (let k = 0; k < n; k++) {
        azr += a.re[i * n + k] * z.re[k * n + j] - a.im[i * n + k] * z.im[k * n + j];
        azi += a.re[i * n + k] * z.im[k * n + j] + a.im[i * n + k] * z.re[k * n + j];
        ztr += z.re[i * n + k] * t.re[k * n + j] - z.im[i * n + k] * t.im[k * n + j];
        zti += z.re[i * n + k] * t.im[k * n + j] + z.im[i * n + k] * t.re[k * n + j];
        // (ZᴴZ)_ij = Σ conj(z_ki) z_kj
        gr += z.re[k * n + i] * z.re[k * n + j] + z.im[k * n + i] * z.im[k * n + j];
        gi += z.re[k * n + i] * z.im[k * n + j] - z.im[k * n + i] * z.re[k * n + j];
      }
      err = Math.max(err, Math.hypot(azr - ztr, azi - zti));
      orth = Math.max(orth, Math.hypot(gr - (i === j ? 1 : 0), gi));
      if (i > j) assert.equal(Math.hypot(t.re[i * n + j], t.im[i * n + j]), 0, "T triangular");
    }
  }
  return [err / amax, orth];
}

describe("dense complex kernels", () => {
  it("solves a random system to a residual of order ε", () => {
    const a = randomDense(40, 1);
    const rnd = seededRandom(2);
    const b = { re: new Float64Array(40).map(rnd), im: new Float64Array(40).map(rnd) };
    const x = denseSolve(a, b.re, b.im);
    assert.ok(scaledResidual(a, x, b) < 1e-14);
  });

  it("gives a Schur form of random matrices, and eigenvectors with small residuals", () => {
    for (const [n, seed] of [
      [1, 3],
      [2, 4],
      [7, 5],
      [33, 6],
    ]) {
      const a = randomDense(n, seed);
      const { t, z } = schur(a);
      const [err, orth] = schurErrors(a, z, t);
      assert.ok(err < 1e-13 && orth < 1e-13, `n ${n}: ${err} ${orth}`);
      const lam = schurEigenvalues(t);
      for (let k = 0; k < n; k++) {
        const [vr, vi] = triangularEigenvector(t, k);
        // Residual of T·v − λ v.
        let r = 0;
        for (let i = 0; i < n; i++) {
          let sr = -(lam.re[k] * vr[i] - lam.im[k] * vi[i]);
          let si = -(lam.re[k] * vi[i] + lam.im[k] * vr[i]);
          for (let j = 0; j < n; j++) {
            sr += t.re[i * n + j] * vr[j] - t.im[i * n + j] * vi[j];
            si += t.re[i * n + j] * vi[j] + t.im[i * n + j] * vr[j];
          }
          r = Math.max(r, Math.hypot(sr, si));
        }
        assert.ok(r < 1e-12, `eigenvector ${k}: ${r}`);
      }
    }
  });

  it("finds known eigenvalues and reorders them to the front", () => {
    const n = 12;
    // A = Q·diag(λ)·Qᴴ with Q from the Schur form of a random matrix (unitary).
    const q = schur(randomDense(n, 9)).z;
    const lam = Array.from({ length: n }, (_, k) => [k - 5.5, 0.25 * k] as const);
    const a: DenseComplex = { n, re: new Float64Array(n * n), im: new Float64Array(n * n) };
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        for (let k = 0; k < n; k++) {
          // q_ik λ_k conj(q_jk)
          const pr = q.re[i * n + k] * lam[k][0] - q.im[i * n + k] * lam[k][1];
          const pi = q.re[i * n + k] * lam[k][1] + q.im[i * n + k] * lam[k][0];
          a.re[i * n + j] += pr * q.re[j * n + k] + pi * q.im[j * n + k];
          a.im[i * n + j] += pi * q.re[j * n + k] - pr * q.im[j * n + k];
        }
      }
    }
    const { t, z } = schur(a);
    const found = schurEigenvalues(t);
    for (const [lr, li] of lam) {
      const d = Math.min(...Array.from(found.re, (r, k) => Math.hypot(r - lr, found.im[k] - li)));
      assert.ok(d < 1e-12, `λ ${lr}+${li}i missed by ${d}`);
    }
    // Bring the three of largest real part to the front.
    const order = Array.from(found.re)
      .map((r, k) => [r, k])
      .sort((u, v) => v[0] - u[0]);
    const wanted = Array.from({ length: n }, () => false);
    for (let k = 0; k < 3; k++) wanted[order[k][1]] = true;
    reorderSchur(t, z, wanted);
    const after = schurEigenvalues(t);
    const front = Array.from(after.re.subarray(0, 3)).sort((u, v) => v - u);
    assert.deepEqual(
      front.map((r) => Math.round(r * 1e9) / 1e9),
      [5.5, 4.5, 3.5],
    );
    const [err, orth] = schurErrors(a, z, t);
    assert.ok(err < 1e-13 && orth < 1e-13, `after reordering: ${err} ${orth}`);
  });
});
