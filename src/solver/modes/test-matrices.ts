/**
 * Matrices for the tests of the sparse solvers: seeded random sparse matrices and a shifted
 * 2-D Helmholtz-like grid operator with complex (absorbing) entries, as dense copies too.
 */
import type { DenseComplex } from "./dense.js";
import { TripletBuilder, type ComplexCsr } from "./sparse.js";

/** A seeded uniform generator on [0, 1) (mulberry32), so failures reproduce. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random n × n complex sparse matrix with about `perRow` off-diagonal entries per row and
 * a diagonal of size `diagonal` (0 leaves the diagonal empty, forcing pivoting).
 */
export function randomSparse(
  n: number,
  perRow: number,
  diagonal: number,
  seed: number,
): ComplexCsr {
  const rnd = seededRandom(seed);
  const b = new TripletBuilder(n, n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < perRow; k++) {
      b.push(i, Math.floor(rnd() * n), rnd() * 2 - 1, rnd() * 2 - 1);
    }
    if (diagonal !== 0) b.push(i, i, diagonal * (1 + rnd()), diagonal * (rnd() - 0.5));
  }
  return b.toCsr();
}

/**
 * −∇² − k² (1 + iα(x)) on an nx × ny grid with unit steps and Dirichlet ends (5-point
 * stencil, x-major), α growing towards the edges like a PML's loss; the unknown at (i, j) is
 * i·ny + j, with coordinates returned for orderings.
 */
export function helmholtzGrid(
  nx: number,
  ny: number,
  k2: number,
): { a: ComplexCsr; x: Float64Array; y: Float64Array } {
  const n = nx * ny;
  const b = new TripletBuilder(n, n);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < nx; i++) {
    for (let j = 0; j < ny; j++) {
      const r = i * ny + j;
      x[r] = i;
      y[r] = j;
      const edge = Math.max(0, 3 - Math.min(i, nx - 1 - i, j, ny - 1 - j)) / 3;
      b.push(r, r, 4 - k2, -k2 * edge * edge);
      if (i > 0) b.push(r, r - ny, -1);
      if (i + 1 < nx) b.push(r, r + ny, -1);
      if (j > 0) b.push(r, r - 1, -1);
      if (j + 1 < ny) b.push(r, r + 1, -1);
    }
  }
  return { a: b.toCsr(), x, y };
}

/** The dense copy of a sparse matrix. */
export function toDense(a: ComplexCsr): DenseComplex {
  const n = a.rows;
  const re = new Float64Array(n * n);
  const im = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let k = a.rowPtr[i]; k < a.rowPtr[i + 1]; k++) {
      re[i * n + a.colIdx[k]] += a.re[k];
      im[i * n + a.colIdx[k]] += a.im[k];
    }
  }
  return { n, re, im };
}

/** ‖b − A·x‖₂ / (‖A‖_max·‖x‖₂·n + ‖b‖₂): a scaled residual that is O(ε) for a good solve. */
export function scaledResidual(
  a: DenseComplex,
  x: { re: Float64Array; im: Float64Array },
  b: { re: Float64Array; im: Float64Array },
): number {
  const n = a.n;
  let r2 = 0;
  let amax = 0;
  for (let q = 0; q < a.re.length; q++) amax = Math.max(amax, Math.hypot(a.re[q], a.im[q]));
  let x2 = 0;
  let b2 = 0;
  for (let i = 0; i < n; i++) {
    let sr = b.re[i];
    let si = b.im[i];
    for (let j = 0; j < n; j++) {
      sr -= a.re[i * n + j] * x.re[j] - a.im[i * n + j] * x.im[j];
      si -= a.re[i * n + j] * x.im[j] + a.im[i * n + j] * x.re[j];
    }
    r2 += sr * sr + si * si;
    x2 += x.re[i] ** 2 + x.im[i] ** 2;
    b2 += b.re[i] ** 2 + b.im[i] ** 2;
  }
  return Math.sqrt(r2) / (amax * Math.sqrt(x2) * n + Math.sqrt(b2));
}
