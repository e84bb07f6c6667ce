/**
 * Complex sparse LU factorisation and solve: a multifrontal method (Duff & Reid, ACM TOMS 9,
 * 302 (1983); Liu, SIAM Rev. 34, 82 (1992)) over the supernodes of symbolic.ts.
 *
 * Pivoting. The matrices are the mode operator shifted near its eigenvalues, A − σI: complex,
 * non-Hermitian, indefinite, nearly singular by design. We use supernode-restricted partial
 * pivoting with static perturbation and iterative refinement (the scheme of PARDISO, Schenk &
 * Gärtner 2004, and SuperLU_DIST's static pivoting, Li & Demmel 2003): inside each front the
 * pivot is the largest entry among the fully summed rows, so the symbolic structure fixed by
 * the fill-reducing ordering never changes (no delayed pivots, predictable memory, dense
 * kernels on whole fronts), and a pivot still below √ε·‖A‖ is perturbed to that size and the
 * error is removed by refinement against A. Why this is enough here: the operator is a
 * discrete vector Helmholtz operator whose diagonal carries the Laplacian's 2/h² terms, far
 * larger than the off-diagonal couplings between unknowns on either side of a separator, so
 * a tiny pivot after the in-front search is rare (zero in every operator of the tests), and
 * ill-conditioning near σ is exactly what shift-invert wants, not a pivoting failure.
 * Threshold partial pivoting across the whole matrix (SuperLU's) would be the more general
 * choice, at the price of a dynamic structure and column-by-column sparse kernels that run
 * several times slower in JavaScript than the dense front kernels.
 */
import { factorFront } from "./dense-front.js";
import { naturalOrdering } from "./ordering.js";
import {
  complexVector,
  csrMaxAbs,
  csrMultiply,
  symmetricPattern,
  type ComplexCsr,
  type ComplexVector,
} from "./sparse.js";
import { analyse, type Symbolic } from "./symbolic.js";

export interface LuOptions {
  /** Fill-reducing ordering (ordering[k]: the unknown eliminated k-th); natural when absent. */
  ordering?: Int32Array;
  /** A precomputed analysis of this matrix's pattern and ordering (reused across shifts). */
  symbolic?: Symbolic;
}

/** The factors of one complex sparse matrix; `solve` gives A⁻¹b. */
export class SparseLu {
  /** Pivots that had to be perturbed (then `solve` refines). */
  readonly perturbedPivots: number;
  /** Complex entries stored in the factors. */
  readonly factorEntries: number;

  private constructor(
    private readonly a: ComplexCsr,
    readonly symbolic: Symbolic,
    private readonly factor: FactorStore,
    perturbed: number,
  ) {
    this.perturbedPivots = perturbed;
    this.factorEntries = symbolic.factorEntries;
  }

  /** The symbolic analysis of a matrix's pattern under an ordering (natural if absent). */
  static analyse(a: ComplexCsr, ordering?: Int32Array): Symbolic {
    return analyse(symmetricPattern(a), ordering ?? naturalOrdering(a.rows));
  }

  /** Factors a square complex matrix. */
  static factor(a: ComplexCsr, options: LuOptions = {}): SparseLu {
    if (a.rows !== a.cols) throw new RangeError(`LU of a ${a.rows} × ${a.cols} matrix`);
    const symbolic = options.symbolic ?? SparseLu.analyse(a, options.ordering);
    const smallPivot = Math.sqrt(Number.EPSILON) * Math.max(csrMaxAbs(a), Number.MIN_VALUE);
    const { store, perturbed } = factorNumeric(a, symbolic, smallPivot);
    return new SparseLu(a, symbolic, store, perturbed);
  }

  /**
   * x = A⁻¹·b. With perturbed pivots, or when `refineSteps` asks, the answer is refined
   * (x += A⁻¹(b − A·x)) until the residual stops falling or the steps run out.
   */
  solve(b: ComplexVector, refineSteps = this.perturbedPivots > 0 ? 4 : 0): ComplexVector {
    const x = this.solveOnce(b);
    if (refineSteps === 0) return x;
    const n = this.a.rows;
    const ax = complexVector(n);
    const r = complexVector(n);
    let lastNorm = Infinity;
    for (let step = 0; step < refineSteps; step++) {
      csrMultiply(this.a, x, ax);
      let norm = 0;
      for (let i = 0; i < n; i++) {
        r.re[i] = b.re[i] - ax.re[i];
        r.im[i] = b.im[i] - ax.im[i];
        norm += r.re[i] ** 2 + r.im[i] ** 2;
      }
      if (!(norm < lastNorm * 0.25)) break;
      lastNorm = norm;
      const dx = this.solveOnce(r);
      for (let i = 0; i < n; i++) {
        x.re[i] += dx.re[i];
        x.im[i] += dx.im[i];
      }
    }
    return x;
  }

  private solveOnce(b: ComplexVector): ComplexVector {
    const { perm } = this.symbolic;
    const n = perm.length;
    const yr = new Float64Array(n);
    const yi = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      yr[k] = b.re[perm[k]];
      yi[k] = b.im[perm[k]];
    }
    forwardSolve(this.symbolic, this.factor, yr, yi);
    backwardSolve(this.symbolic, this.factor, yr, yi);
    const x = complexVector(n);
    for (let k = 0; k < n; k++) {
      x.re[perm[k]] = yr[k];
      x.im[perm[k]] = yi[k];
    }
    return x;
  }
}

/**
 * Where supernode s's factors live: rows 0 … p−1 of its factored front (L11 below the
 * diagonal, U11 and U12) at upperOff[s], p × m; L21 (q × p) at lowerOff[s]; its row swaps at
 * pivots[snStart[s] …].
 */
interface FactorStore {
  re: Float64Array;
  im: Float64Array;
  upperOff: Float64Array;
  lowerOff: Float64Array;
  pivots: Int32Array;
}

/** Columns of A (rows of Aᵀ) as CSR, for assembling a front's fully summed columns. */
function transpose(a: ComplexCsr): ComplexCsr {
  const n = a.cols;
  const rowPtr = new Int32Array(n + 1);
  for (let k = 0; k < a.colIdx.length; k++) rowPtr[a.colIdx[k] + 1]++;
  for (let i = 0; i < n; i++) rowPtr[i + 1] += rowPtr[i];
  const fill = rowPtr.slice(0, n);
  const colIdx = new Int32Array(a.colIdx.length);
  const re = new Float64Array(a.colIdx.length);
  const im = new Float64Array(a.colIdx.length);
  for (let i = 0; i < a.rows; i++) {
    for (let k = a.rowPtr[i]; k < a.rowPtr[i + 1]; k++) {
      const t = fill[a.colIdx[k]]++;
      colIdx[t] = i;
      re[t] = a.re[k];
      im[t] = a.im[k];
    }
  }
  return { rows: n, cols: a.rows, rowPtr, colIdx, re, im };
}

/** Per-factorisation scratch: the front, the global→local map and the update stack. */
interface Workspace {
  fre: Float64Array;
  fim: Float64Array;
  local: Int32Array;
  stackRe: Float64Array;
  stackIm: Float64Array;
  stackTop: number;
}

function factorNumeric(
  a: ComplexCsr,
  sym: Symbolic,
  smallPivot: number,
): { store: FactorStore; perturbed: number } {
  const ns = sym.snStart.length - 1;
  const store: FactorStore = {
    re: new Float64Array(sym.factorEntries),
    im: new Float64Array(sym.factorEntries),
    upperOff: new Float64Array(ns),
    lowerOff: new Float64Array(ns),
    pivots: new Int32Array(sym.n),
  };
  const at = transpose(a);
  const mf = sym.maxFront;
  const ws: Workspace = {
    fre: new Float64Array(mf * mf),
    fim: new Float64Array(mf * mf),
    local: new Int32Array(sym.n).fill(-1),
    stackRe: new Float64Array(Math.max(16, mf * mf)),
    stackIm: new Float64Array(Math.max(16, mf * mf)),
    stackTop: 0,
  };
  const pendingUpdates: number[] = [];
  let offset = 0;
  let perturbed = 0;
  for (let s = 0; s < ns; s++) {
    const c0 = sym.snStart[s];
    const p = sym.snStart[s + 1] - c0;
    const q = sym.snRowPtr[s + 1] - sym.snRowPtr[s];
    const m = p + q;
    const rows = sym.snRows.subarray(sym.snRowPtr[s], sym.snRowPtr[s + 1]);
    for (let t = 0; t < p; t++) ws.local[c0 + t] = t;
    for (let t = 0; t < q; t++) ws.local[rows[t]] = p + t;
    ws.fre.fill(0, 0, m * m);
    ws.fim.fill(0, 0, m * m);
    assembleOriginal(a, at, sym, ws, c0, p, m);
    for (let c = 0; c < sym.snChildren[s]; c++) popUpdate(ws, sym, pendingUpdates.pop()!, m);
    const piv = store.pivots.subarray(c0, c0 + p);
    perturbed += factorFront(ws.fre, ws.fim, m, p, piv, smallPivot);
    store.upperOff[s] = offset;
    store.re.set(ws.fre.subarray(0, p * m), offset);
    store.im.set(ws.fim.subarray(0, p * m), offset);
    offset += p * m;
    store.lowerOff[s] = offset;
    for (let i = 0; i < q; i++) {
      const src = (p + i) * m;
      store.re.set(ws.fre.subarray(src, src + p), offset + i * p);
      store.im.set(ws.fim.subarray(src, src + p), offset + i * p);
    }
    offset += q * p;
    if (q > 0) {
      pushUpdate(ws, m, p, q);
      pendingUpdates.push(s);
    }
    for (let t = 0; t < p; t++) ws.local[c0 + t] = -1;
    for (let t = 0; t < q; t++) ws.local[rows[t]] = -1;
  }
  return { store, perturbed };
}

/** Adds A's entries of the fully summed rows and columns c0 … c0+p−1 into the front. */
function assembleOriginal(
  a: ComplexCsr,
  at: ComplexCsr,
  sym: Symbolic,
  ws: Workspace,
  c0: number,
  p: number,
  m: number,
): void {
  const { perm, iperm } = sym;
  for (let t = 0; t < p; t++) {
    const orig = perm[c0 + t];
    // Row c0+t: every entry right of the supernode's first column.
    for (let k = a.rowPtr[orig]; k < a.rowPtr[orig + 1]; k++) {
      const j = iperm[a.colIdx[k]];
      if (j < c0) continue;
      const pos = t * m + ws.local[j];
      ws.fre[pos] += a.re[k];
      ws.fim[pos] += a.im[k];
    }
    // Column c0+t: the entries below the supernode's columns (those within are in its rows).
    for (let k = at.rowPtr[orig]; k < at.rowPtr[orig + 1]; k++) {
      const i = iperm[at.colIdx[k]];
      if (i < c0 + p) continue;
      const pos = ws.local[i] * m + t;
      ws.fre[pos] += at.re[k];
      ws.fim[pos] += at.im[k];
    }
  }
}

/** Pushes the front's trailing q × q Schur complement onto the update stack. */
function pushUpdate(ws: Workspace, m: number, p: number, q: number): void {
  const need = ws.stackTop + q * q;
  if (need > ws.stackRe.length) {
    const size = Math.max(need, ws.stackRe.length * 2);
    const re = new Float64Array(size);
    const im = new Float64Array(size);
    re.set(ws.stackRe.subarray(0, ws.stackTop));
    im.set(ws.stackIm.subarray(0, ws.stackTop));
    ws.stackRe = re;
    ws.stackIm = im;
  }
  for (let i = 0; i < q; i++) {
    const src = (p + i) * m + p;
    ws.stackRe.set(ws.fre.subarray(src, src + q), ws.stackTop + i * q);
    ws.stackIm.set(ws.fim.subarray(src, src + q), ws.stackTop + i * q);
  }
  ws.stackTop = need;
}

/** Pops child supernode c's update off the stack and adds it into the front (extend-add). */
function popUpdate(ws: Workspace, sym: Symbolic, c: number, m: number): void {
  const rows = sym.snRows.subarray(sym.snRowPtr[c], sym.snRowPtr[c + 1]);
  const q = rows.length;
  const base = ws.stackTop - q * q;
  const pos = new Int32Array(q);
  for (let i = 0; i < q; i++) pos[i] = ws.local[rows[i]];
  const { fre, fim, stackRe, stackIm } = ws;
  for (let i = 0; i < q; i++) {
    const ro = pos[i] * m;
    const so = base + i * q;
    for (let j = 0; j < q; j++) {
      fre[ro + pos[j]] += stackRe[so + j];
      fim[ro + pos[j]] += stackIm[so + j];
    }
  }
  ws.stackTop = base;
}

/** y ← L⁻¹·P·y over the supernodes in order. */
function forwardSolve(sym: Symbolic, f: FactorStore, yr: Float64Array, yi: Float64Array): void {
  const ns = sym.snStart.length - 1;
  for (let s = 0; s < ns; s++) {
    const c0 = sym.snStart[s];
    const p = sym.snStart[s + 1] - c0;
    const rp = sym.snRowPtr[s];
    const q = sym.snRowPtr[s + 1] - rp;
    const m = p + q;
    for (let k = 0; k < p; k++) {
      const r = f.pivots[c0 + k];
      if (r === k) continue;
      const tr = yr[c0 + k];
      yr[c0 + k] = yr[c0 + r];
      yr[c0 + r] = tr;
      const ti = yi[c0 + k];
      yi[c0 + k] = yi[c0 + r];
      yi[c0 + r] = ti;
    }
    const u = f.upperOff[s];
    for (let i = 1; i < p; i++) {
      let sr = yr[c0 + i];
      let si = yi[c0 + i];
      for (let k = 0; k < i; k++) {
        const lr = f.re[u + i * m + k];
        const li = f.im[u + i * m + k];
        sr -= lr * yr[c0 + k] - li * yi[c0 + k];
        si -= lr * yi[c0 + k] + li * yr[c0 + k];
      }
      yr[c0 + i] = sr;
      yi[c0 + i] = si;
    }
    const l = f.lowerOff[s];
    for (let i = 0; i < q; i++) {
      const row = sym.snRows[rp + i];
      let sr = 0;
      let si = 0;
      for (let k = 0; k < p; k++) {
        const lr = f.re[l + i * p + k];
        const li = f.im[l + i * p + k];
        sr += lr * yr[c0 + k] - li * yi[c0 + k];
        si += lr * yi[c0 + k] + li * yr[c0 + k];
      }
      yr[row] -= sr;
      yi[row] -= si;
    }
  }
}

/** y ← U⁻¹·y over the supernodes in reverse. */
function backwardSolve(sym: Symbolic, f: FactorStore, yr: Float64Array, yi: Float64Array): void {
  const ns = sym.snStart.length - 1;
  for (let s = ns - 1; s >= 0; s--) {
    const c0 = sym.snStart[s];
    const p = sym.snStart[s + 1] - c0;
    const rp = sym.snRowPtr[s];
    const q = sym.snRowPtr[s + 1] - rp;
    const m = p + q;
    const u = f.upperOff[s];
    for (let i = p - 1; i >= 0; i--) {
      let sr = yr[c0 + i];
      let si = yi[c0 + i];
      const ro = u + i * m;
      for (let j = i + 1; j < p; j++) {
        sr -= f.re[ro + j] * yr[c0 + j] - f.im[ro + j] * yi[c0 + j];
        si -= f.re[ro + j] * yi[c0 + j] + f.im[ro + j] * yr[c0 + j];
      }
      for (let t = 0; t < q; t++) {
        const x = sym.snRows[rp + t];
        sr -= f.re[ro + p + t] * yr[x] - f.im[ro + p + t] * yi[x];
        si -= f.re[ro + p + t] * yi[x] + f.im[ro + p + t] * yr[x];
      }
      const dr = f.re[ro + i];
      const di = f.im[ro + i];
      const d = dr * dr + di * di;
      yr[c0 + i] = (sr * dr + si * di) / d;
      yi[c0 + i] = (si * dr - sr * di) / d;
    }
  }
}
