/**
 * Eigenvalues of a complex sparse matrix nearest a shift σ: shift-invert Arnoldi with
 * Krylov–Schur restarts (Stewart, SIAM J. Matrix Anal. Appl. 23, 601 (2001)).
 *
 * The Krylov space is built on Op = (A − σI)⁻¹ (one LU, lu.ts, then one solve per step), whose
 * largest eigenvalues θ are A's eigenvalues λ = σ + 1/θ nearest σ, and are well separated
 * from the rest, so a few tens of steps usually suffice. When they do not, the Krylov–Schur
 * restart keeps the Schur vectors of the wanted Ritz values (a reordered Schur form of the
 * projected matrix, dense.ts) and extends from there: the same effect as implicit restarts
 * (ARPACK) with simpler, more stable bookkeeping. Orthogonalisation is Gram–Schmidt repeated
 * once (CGS2), which keeps the basis orthogonal to working precision. The Ritz pairs are
 * tested after every step, not only at the end of a Krylov cycle: on the benchmark plane
 * that stops after 21 solves where the cycle of 20 plus a restart took 30.
 */
import {
  denseZeros,
  reorderSchur,
  schur,
  schurEigenvalues,
  triangularEigenvector,
  type DenseComplex,
} from "./dense.js";
import { kernelMemory } from "./kernel-memory.js";
import type { KernelExports } from "./kernels.js";
import type { ComplexVector } from "./sparse.js";

export interface ArnoldiOptions {
  /** Eigenvalues wanted (nearest σ). */
  count: number;
  /**
   * Krylov space dimension before a restart (default max(2·count + 10, 30), capped at n). With
   * the convergence test at every step a larger space costs nothing until it is used, and
   * one mode of the benchmark's plane needs 21 steps: a space of 20 restarted once, and the
   * restart's recombination of the basis cost 80 ms.
   */
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
  const m = Math.min(options.krylovDim ?? Math.max(2 * k + 10, 30), n);
  const tol = options.tolerance ?? 1e-11;
  const maxRestarts = options.maxRestarts ?? 50;
  const krylov = new KrylovBasis(n, m);
  try {
    return iterate(krylov, applyInverse, sigma, { k, m, tol, maxRestarts }, options.start);
  } finally {
    krylov.release();
  }
}

/** The restarted Arnoldi iteration of shiftInvertArnoldi in the given basis. */
function iterate(
  krylov: KrylovBasis,
  applyInverse: (x: ComplexVector) => ComplexVector,
  sigma: { re: number; im: number },
  { k, m, tol, maxRestarts }: { k: number; m: number; tol: number; maxRestarts: number },
  given: ComplexVector | undefined,
): EigenPairs {
  const start = startVector(krylov.n, given);
  krylov.vectors[0].re.set(start.re);
  krylov.vectors[0].im.set(start.im);
  const basis = krylov.vectors;
  let h: Projected = { m, re: new Float64Array((m + 1) * m), im: new Float64Array((m + 1) * m) };
  let kept = 0;
  let solves = 0;
  for (let restart = 0; ; restart++) {
    for (let j = kept; j < m; j++) {
      const w = applyInverse(basis[j]);
      solves++;
      basis[j + 1].re.set(w.re);
      basis[j + 1].im.set(w.im);
      const norm = krylov.orthogonalise(h, j);
      h.re[(j + 1) * m + j] = norm;
      if (!(norm > 0)) throw new Error("Arnoldi breakdown: the Krylov space is invariant");
      scale(basis[j + 1], 1 / norm);
      // Test the Ritz pairs of the leading (j+1)-space at every step (its projected matrix is
      // at most m × m, microseconds to a millisecond against a sparse solve), so that a run
      // stops as soon as the pairs converge rather than at the end of the Krylov cycle.
      if (j + 1 < m && j + 1 > kept && j + 1 > k) {
        const early = ritzPairs(leading(h, j + 1), k, tol);
        if (early.converged) return finish(basis, early, sigma, k, solves);
      }
    }
    const ritz = ritzPairs(h, k, tol);
    if (ritz.converged) return finish(basis, ritz, sigma, k, solves);
    if (restart === maxRestarts) throw new Error(`Arnoldi: ${k} eigenpairs did not converge`);
    kept = Math.min(m - 1, Math.max(k + ((m - k) >> 1), k + 1));
    h = restartFrom(basis, ritz, kept, h);
  }
}

/**
 * The Krylov basis v_0 … v_m in one kernel memory (kernels.ts), so that the Gram–Schmidt
 * sweeps, which touch every basis vector twice per step, run as SIMD kernels: in plain
 * JavaScript they cost as much as the sparse solves (0.3 s of a 2 × 1.5 µm plane's solve).
 */
class KrylovBasis {
  readonly vectors: ComplexVector[] = [];
  private readonly reOff: number[] = [];
  private readonly imMinusRe: number;
  private readonly kernels: KernelExports;
  /** Gives the basis's memory back for the next solve (kernel-memory.ts). */
  readonly release: () => void;

  constructor(
    readonly n: number,
    m: number,
  ) {
    const { arrays, k, release } = kernelMemory([n * (m + 1)]);
    const all = arrays[0];
    this.kernels = k;
    this.release = release;
    this.imMinusRe = all.imOff - all.reOff;
    for (let j = 0; j <= m; j++) {
      this.vectors.push({
        re: all.re.subarray(j * n, (j + 1) * n),
        im: all.im.subarray(j * n, (j + 1) * n),
      });
      this.reOff.push(all.reOff + 8 * j * n);
    }
  }

  /**
   * v_{col+1} ← v_{col+1} − V·(Vᴴv_{col+1}) over v_0 … v_col, twice (CGS2); the coefficients
   * are added to column `col` of H̄. Returns ‖v_{col+1}‖.
   */
  orthogonalise(h: Projected, col: number): number {
    const { kernels, n, reOff } = this;
    const d = this.imMinusRe;
    const w = reOff[col + 1];
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i <= col; i++) {
        const [cr, ci] = kernels.dotc(reOff[i], reOff[i] + d, w, w + d, n);
        kernels.axpy(0, d, w, reOff[i], n, cr, ci);
        h.re[i * h.m + col] += cr;
        h.im[i * h.m + col] += ci;
      }
    }
    return norm2(this.vectors[col + 1]);
  }
}

/**
 * The leading (s + 1) × s part of H̄ with stride s. Valid as an Arnoldi (or Krylov–Schur)
 * relation for any s past the restart's kept columns: row s then holds only β_s at column s−1.
 */
function leading(h: Projected, s: number): Projected {
  const out: Projected = {
    m: s,
    re: new Float64Array((s + 1) * s),
    im: new Float64Array((s + 1) * s),
  };
  for (let i = 0; i <= s; i++) {
    out.re.set(h.re.subarray(i * h.m, i * h.m + s), i * s);
    out.im.set(h.im.subarray(i * h.m, i * h.m + s), i * s);
  }
  return out;
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

/**
 * The Krylov–Schur restart: the first `keep` Schur vectors replace v_0 … v_{keep−1} and
 * v_m moves to v_keep (in place); returns H̄'s matching part.
 */
function restartFrom(basis: ComplexVector[], ritz: Ritz, keep: number, h: Projected): Projected {
  const m = h.m;
  const next = combine(
    basis,
    ritz.z,
    m,
    Array.from({ length: keep }, (_, j) => j),
  );
  basis[keep].re.set(basis[m].re);
  basis[keep].im.set(basis[m].im);
  next.forEach((v, j) => {
    basis[j].re.set(v.re);
    basis[j].im.set(v.im);
  });
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
  return out;
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
