/**
 * Eigenvalues of a complex sparse matrix nearest a shift σ: shift-invert Arnoldi with
 * Krylov–Schur restarts (Stewart, SIAM J. Matrix Anal. Appl. 23, 601 (2001)).
 *
 * The Krylov space is built on Op = (A − σI)⁻¹ (one LU, lu.ts, then one solve per step), whose
 * largest eigenvalues θ are A's eigenvalues λ = σ + 1/θ nearest σ, and are well separated
 * from the rest, so a few tens of steps usually suffice. When they do not, the Krylov–Schur
 * restart keeps the Schur vectors of the wanted Ritz values (a reordered Schur form of the
 * projected matrix, dense.ts) and extends from there: the same effect as implicit restarts
 * (ARPACK) with simpler, more stable bookkeeping. Orthogonalisation is classical Gram–Schmidt
 * repeated once (CGS2), which keeps the basis orthogonal to working precision.
 */
import {
  denseZeros,
  reorderSchur,
  schur,
  schurEigenvalues,
  triangularEigenvector,
  type DenseComplex,
} from "./dense.js";
import type { ComplexVector } from "./sparse.js";

export interface ArnoldiOptions {
  /** Eigenvalues wanted (nearest σ). */
  count: number;
  /** Krylov space dimension before a restart (default max(2·count + 10, 20), capped at n). */
  krylovDim?: number;
  /** Relative residual |β_m·y_m| / |θ| below which a Ritz pair counts as converged. */
  tolerance?: number;
  maxRestarts?: number;
  /** The start vector (default: a fixed pseudo-random one, so runs reproduce). */
  start?: ComplexVector;
}

export interface EigenPairs {
  /** Eigenvalues λ of A, nearest σ first. */
  values: { re: number; im: number }[];
  /** Unit eigenvectors of A, in the same order. */
  vectors: ComplexVector[];
  /** Solves with (A − σI) used. */
  solves: number;
}

/** The projected matrix H̄ ((m + 1) × m, row-major with stride m) of Op·V_m = V_{m+1}·H̄. */
interface Projected {
  m: number;
  re: Float64Array;
  im: Float64Array;
}

/**
 * The `count` eigenpairs of A nearest σ, given `applyInverse(x)` = (A − σI)⁻¹x.
 * @throws Error when the pairs do not converge within the restarts
 */
export function shiftInvertArnoldi(
  n: number,
  sigma: { re: number; im: number },
  applyInverse: (x: ComplexVector) => ComplexVector,
  options: ArnoldiOptions,
): EigenPairs {
  const k = Math.min(options.count, n);
  const m = Math.min(options.krylovDim ?? Math.max(2 * k + 10, 20), n);
  const tol = options.tolerance ?? 1e-11;
  const maxRestarts = options.maxRestarts ?? 50;
  let basis: ComplexVector[] = [startVector(n, options.start)];
  let h: Projected = { m, re: new Float64Array((m + 1) * m), im: new Float64Array((m + 1) * m) };
  let kept = 0;
  let solves = 0;
  for (let restart = 0; ; restart++) {
    for (let j = kept; j < m; j++) {
      const w = applyInverse(basis[j]);
      solves++;
      const norm = orthogonalise(basis, w, h, j);
      h.re[(j + 1) * m + j] = norm;
      if (!(norm > 0)) throw new Error("Arnoldi breakdown: the Krylov space is invariant");
      scale(w, 1 / norm);
      basis[j + 1] = w;
    }
    const ritz = ritzPairs(h, k, tol);
    if (ritz.converged) return finish(basis, ritz, sigma, k, solves);
    if (restart === maxRestarts) throw new Error(`Arnoldi: ${k} eigenpairs did not converge`);
    kept = Math.min(m - 1, Math.max(k + ((m - k) >> 1), k + 1));
    ({ basis, h } = restartFrom(basis, ritz, kept, h));
  }
}

function startVector(n: number, given?: ComplexVector): ComplexVector {
  const v = { re: new Float64Array(n), im: new Float64Array(n) };
  if (given) {
    v.re.set(given.re);
    v.im.set(given.im);
  } else {
    let s = 12345;
    for (let i = 0; i < n; i++) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      v.re[i] = s / 0x7fffffff - 0.5;
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      v.im[i] = s / 0x7fffffff - 0.5;
    }
  }
  scale(v, 1 / norm2(v));
  return v;
}

function norm2(v: ComplexVector): number {
  let s = 0;
  for (let i = 0; i < v.re.length; i++) s += v.re[i] * v.re[i] + v.im[i] * v.im[i];
  return Math.sqrt(s);
}

function scale(v: ComplexVector, f: number): void {
  for (let i = 0; i < v.re.length; i++) {
    v.re[i] *= f;
    v.im[i] *= f;
  }
}

/**
 * w ← w − V·(Vᴴw) over basis vectors 0 … col, twice (CGS2); the coefficients are added to
 * column `col` of H̄. Returns ‖w‖.
 */
function orthogonalise(
  basis: ComplexVector[],
  w: ComplexVector,
  h: Projected,
  col: number,
): number {
  const n = w.re.length;
  const wr = w.re;
  const wi = w.im;
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i <= col; i++) {
      const vr = basis[i].re;
      const vi = basis[i].im;
      let cr = 0;
      let ci = 0;
      for (let t = 0; t < n; t++) {
        cr += vr[t] * wr[t] + vi[t] * wi[t];
        ci += vr[t] * wi[t] - vi[t] * wr[t];
      }
      for (let t = 0; t < n; t++) {
        wr[t] -= cr * vr[t] - ci * vi[t];
        wi[t] -= cr * vi[t] + ci * vr[t];
      }
      h.re[i * h.m + col] += cr;
      h.im[i * h.m + col] += ci;
    }
  }
  return norm2(w);
}

/** The Schur form of H̄'s square part, reordered so the `keepFirst` largest |θ| lead. */
interface Ritz {
  t: DenseComplex;
  z: DenseComplex;
  /** β_m: H̄'s last row is [0 … 0, β_m]. */
  beta: number;
  converged: boolean;
}

function ritzPairs(h: Projected, k: number, tol: number): Ritz {
  const m = h.m;
  const square = denseZeros(m);
  square.re.set(h.re.subarray(0, m * m));
  square.im.set(h.im.subarray(0, m * m));
  const { t, z } = schur(square);
  const beta = Math.hypot(h.re[m * m + m - 1], h.im[m * m + m - 1]);
  orderByMagnitude(t, z, m);
  let converged = true;
  for (let i = 0; i < k && converged; i++) {
    const [yr, yi] = triangularEigenvector(t, i);
    // Last component of the Ritz vector Z·y.
    let lr = 0;
    let li = 0;
    for (let j = 0; j <= i; j++) {
      lr += z.re[(m - 1) * m + j] * yr[j] - z.im[(m - 1) * m + j] * yi[j];
      li += z.re[(m - 1) * m + j] * yi[j] + z.im[(m - 1) * m + j] * yr[j];
    }
    const theta = Math.hypot(t.re[i * m + i], t.im[i * m + i]);
    converged = beta * Math.hypot(lr, li) <= tol * theta;
  }
  return { t, z, beta, converged };
}

/** Reorders the Schur form so its diagonal runs from the largest |θ| down. */
function orderByMagnitude(t: DenseComplex, z: DenseComplex, m: number): void {
  for (let placed = 0; placed < m - 1; placed++) {
    const diag = schurEigenvalues(t);
    let best = placed;
    for (let i = placed + 1; i < m; i++) {
      if (Math.hypot(diag.re[i], diag.im[i]) > Math.hypot(diag.re[best], diag.im[best])) best = i;
    }
    if (best === placed) continue;
    const wanted = Array.from({ length: m }, (_, i) => i < placed || i === best);
    reorderSchur(t, z, wanted);
  }
}

/** V_m·Z[:, 0 … count−1]: the Schur (or Ritz) vectors in the full space. */
function combine(
  basis: ComplexVector[],
  z: DenseComplex,
  m: number,
  cols: number[],
): ComplexVector[] {
  const n = basis[0].re.length;
  return cols.map((c) => {
    const out = { re: new Float64Array(n), im: new Float64Array(n) };
    for (let i = 0; i < m; i++) {
      const zr = z.re[i * m + c];
      const zi = z.im[i * m + c];
      if (zr === 0 && zi === 0) continue;
      const vr = basis[i].re;
      const vi = basis[i].im;
      for (let t = 0; t < n; t++) {
        out.re[t] += zr * vr[t] - zi * vi[t];
        out.im[t] += zr * vi[t] + zi * vr[t];
      }
    }
    return out;
  });
}

/** The Krylov–Schur restart: keep the first `keep` Schur vectors and H̄'s matching part. */
function restartFrom(
  basis: ComplexVector[],
  ritz: Ritz,
  keep: number,
  h: Projected,
): { basis: ComplexVector[]; h: Projected } {
  const m = h.m;
  const next = combine(
    basis,
    ritz.z,
    m,
    Array.from({ length: keep }, (_, j) => j),
  );
  next.push(basis[m]);
  const out: Projected = {
    m,
    re: new Float64Array((m + 1) * m),
    im: new Float64Array((m + 1) * m),
  };
  for (let i = 0; i < keep; i++) {
    for (let j = 0; j < keep; j++) {
      out.re[i * m + j] = ritz.t.re[i * m + j];
      out.im[i * m + j] = ritz.t.im[i * m + j];
    }
  }
  // Op·V_keep = V_keep·T + v_{m+1}·β_m·(last row of Z)
  const betaRe = h.re[m * m + m - 1];
  const betaIm = h.im[m * m + m - 1];
  for (let j = 0; j < keep; j++) {
    const zr = ritz.z.re[(m - 1) * m + j];
    const zi = ritz.z.im[(m - 1) * m + j];
    out.re[keep * m + j] = betaRe * zr - betaIm * zi;
    out.im[keep * m + j] = betaRe * zi + betaIm * zr;
  }
  return { basis: next, h: out };
}

function finish(
  basis: ComplexVector[],
  ritz: Ritz,
  sigma: { re: number; im: number },
  k: number,
  solves: number,
): EigenPairs {
  const m = ritz.t.n;
  const values: { re: number; im: number }[] = [];
  const y = denseZeros(m);
  for (let i = 0; i < k; i++) {
    const [yr, yi] = triangularEigenvector(ritz.t, i);
    // Column i of Z·y_i, stored in column i of a scratch matrix for combine().
    for (let r = 0; r < m; r++) {
      let sr = 0;
      let si = 0;
      for (let j = 0; j <= i; j++) {
        sr += ritz.z.re[r * m + j] * yr[j] - ritz.z.im[r * m + j] * yi[j];
        si += ritz.z.re[r * m + j] * yi[j] + ritz.z.im[r * m + j] * yr[j];
      }
      y.re[r * m + i] = sr;
      y.im[r * m + i] = si;
    }
    const tr = ritz.t.re[i * m + i];
    const ti = ritz.t.im[i * m + i];
    const d = tr * tr + ti * ti;
    values.push({ re: sigma.re + tr / d, im: sigma.im - ti / d });
  }
  const vectors = combine(
    basis,
    y,
    m,
    Array.from({ length: k }, (_, i) => i),
  );
  for (const v of vectors) scale(v, 1 / norm2(v));
  return { values, vectors, solves };
}
