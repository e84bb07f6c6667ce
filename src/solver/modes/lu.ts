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
 *
 * Memory. The factors, the front being factored, the update stack (sized in advance by a
 * dry run over the supernodes) and the solve's vectors share one WebAssembly memory, so that
 * the dense work (kernels.ts) runs on them in place: the front kernels, the extend-add, the
 * copies into the store and the solves' dot products and row updates.
 */
import { factorFront } from "./dense-front.js";
import { kernelMemory, type KernelArray } from "./kernel-memory.js";
import type { KernelExports } from "./kernels.js";
import { naturalOrdering, type Pattern } from "./ordering.js";
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
  /**
   * A factorisation of the same analysis that is no longer needed: its kernel memory is
   * reused (and it can no longer solve). A fresh memory's pages fault in on first touch, a
   * quarter of a small plane's factorisation time.
   */
  recycle?: SparseLu;
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
    private factor: FactorStore | null,
    private readonly ws: Workspace,
    perturbed: number,
  ) {
    this.perturbedPivots = perturbed;
    this.factorEntries = symbolic.factorEntries;
  }

  /**
   * The symbolic analysis of a matrix's pattern under an ordering (natural if absent);
   * `pattern`, when the caller has it already, is A + Aᵀ's (sparse.ts's symmetricPattern).
   */
  static analyse(a: ComplexCsr, ordering?: Int32Array, pattern?: Pattern): Symbolic {
    return analyse(pattern ?? symmetricPattern(a), ordering ?? naturalOrdering(a.rows));
  }

  /** Factors a square complex matrix. */
  static factor(a: ComplexCsr, options: LuOptions = {}): SparseLu {
    if (a.rows !== a.cols) throw new RangeError(`LU of a ${a.rows} × ${a.cols} matrix`);
    const symbolic = options.symbolic ?? SparseLu.analyse(a, options.ordering);
    const smallPivot = Math.sqrt(Number.EPSILON) * Math.max(csrMaxAbs(a), Number.MIN_VALUE);
    const memory = options.recycle?.takeMemory(symbolic) ?? newStore(symbolic);
    const perturbed = factorNumeric(a, symbolic, smallPivot, memory);
    return new SparseLu(a, symbolic, memory.store, memory.ws, perturbed);
  }

  /**
   * Gives this factorisation's kernel memory back for a later solve (kernel-memory.ts); it
   * can no longer solve.
   */
  release(): void {
    this.factor?.release();
    this.factor = null;
  }

  /** This factorisation's memory for another of the same analysis; this one is spent. */
  private takeMemory(symbolic: Symbolic): { store: FactorStore; ws: Workspace } | undefined {
    if (symbolic !== this.symbolic || !this.factor) return undefined;
    const store = this.factor;
    this.factor = null;
    return { store, ws: this.ws };
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
    const factor = this.factor;
    if (!factor) throw new Error("SparseLu: this factorisation's memory was recycled or released");
    const { perm } = this.symbolic;
    const n = perm.length;
    const { y } = factor;
    for (let k = 0; k < n; k++) {
      y.re[k] = b.re[perm[k]];
      y.im[k] = b.im[perm[k]];
    }
    forwardSolve(this.symbolic, factor);
    backwardSolve(this.symbolic, factor);
    const x = complexVector(n);
    for (let k = 0; k < n; k++) {
      x.re[perm[k]] = y.re[k];
      x.im[perm[k]] = y.im[k];
    }
    return x;
  }
}

/**
 * Where supernode s's factors live: rows 0 … p−1 of its factored front (L11 below the
 * diagonal, U11 and U12) at upperOff[s], p × m; L21ᵀ (p × q) at lowerOff[s]; its row swaps at
 * pivots[snStart[s] …]. The factors, the front being factored, the solve's vector and a
 * scratch vector share one kernel memory (kernels.ts).
 */
interface FactorStore {
  factor: KernelArray;
  front: KernelArray;
  y: KernelArray;
  scratch: KernelArray;
  kernels: KernelExports;
  /** Gives the kernel memory back (kernel-memory.ts). */
  release: () => void;
  /** Bytes from any array's real plane to its imaginary plane in the kernel memory. */
  planeGap: number;
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

/**
 * Per-factorisation scratch: the global→local map and the update stack (in the kernel
 * memory, sized by `updateStackPeak`), with the child's row positions for the extend-add.
 */
interface Workspace {
  local: Int32Array;
  stack: KernelArray;
  stackTop: number;
  pos: { view: Int32Array; off: number };
}

/** The most entries the update stack holds at once (children pop before the parent pushes). */
function updateStackPeak(sym: Symbolic): number {
  const ns = sym.snStart.length - 1;
  const sizes: number[] = [];
  let top = 0;
  let peak = 0;
  for (let s = 0; s < ns; s++) {
    for (let c = 0; c < sym.snChildren[s]; c++) top -= sizes.pop()!;
    const q = sym.snRowPtr[s + 1] - sym.snRowPtr[s];
    if (q === 0) continue;
    sizes.push(q * q);
    top += q * q;
    peak = Math.max(peak, top);
  }
  return peak;
}

function newStore(sym: Symbolic): { store: FactorStore; ws: Workspace } {
  const ns = sym.snStart.length - 1;
  const mf = sym.maxFront;
  const lengths = [sym.factorEntries, mf * mf, sym.n, mf, updateStackPeak(sym)];
  const { arrays, k, planeGap, ints, release } = kernelMemory(lengths, mf);
  const store: FactorStore = {
    factor: arrays[0],
    front: arrays[1],
    y: arrays[2],
    scratch: arrays[3],
    kernels: k,
    release,
    planeGap,
    upperOff: new Float64Array(ns),
    lowerOff: new Float64Array(ns),
    pivots: new Int32Array(sym.n),
  };
  const ws: Workspace = {
    local: new Int32Array(sym.n).fill(-1),
    stack: arrays[4],
    stackTop: 0,
    pos: ints,
  };
  return { store, ws };
}

/**
 * Factors `a` into `store` (a fresh or a recycled memory: every entry read is written first,
 * and `ws.local` is all −1 again at the end); returns the count of perturbed pivots.
 */
function factorNumeric(
  a: ComplexCsr,
  sym: Symbolic,
  smallPivot: number,
  { store, ws }: { store: FactorStore; ws: Workspace },
): number {
  const ns = sym.snStart.length - 1;
  ws.stackTop = 0;
  const at = transpose(a);
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
    store.front.re.fill(0, 0, m * m);
    store.front.im.fill(0, 0, m * m);
    assembleOriginal(a, at, sym, ws.local, store.front, c0, p, m);
    for (let c = 0; c < sym.snChildren[s]; c++) {
      popUpdate(ws, store, sym, pendingUpdates.pop()!, m);
    }
    const piv = store.pivots.subarray(c0, c0 + p);
    perturbed += factorFront(store.front, store.kernels, m, p, piv, smallPivot);
    store.upperOff[s] = offset;
    offset = keepFactors(store, offset, m, p, q);
    store.lowerOff[s] = offset - q * p;
    if (q > 0) {
      pushUpdate(ws, store, m, p, q);
      pendingUpdates.push(s);
    }
    for (let t = 0; t < p; t++) ws.local[c0 + t] = -1;
    for (let t = 0; t < q; t++) ws.local[rows[t]] = -1;
  }
  return perturbed;
}

/**
 * Copies a factored front's rows 0 … p−1 and then L21, transposed (p rows of q), into the
 * store from `offset` on. Transposed, the forward solve's update by L21 is p long SIMD rows
 * (kernels.ts's rowsSub) instead of q dot products of length p, which for the many small
 * supernodes cost more in call overhead than in arithmetic (solves 28 → 22 ms on the
 * benchmark's plane).
 */
function keepFactors(store: FactorStore, offset: number, m: number, p: number, q: number): number {
  const { factor, front, kernels, planeGap } = store;
  kernels.copyBlock(0, planeGap, front.reOff, 0, 1, p * m, factor.reOff + 8 * offset);
  const at = offset + p * m;
  if (q > 0) kernels.transposeL21(0, planeGap, front.reOff, m, p, q, factor.reOff + 8 * at);
  return at + q * p;
}

/** Adds A's entries of the fully summed rows and columns c0 … c0+p−1 into the front. */
function assembleOriginal(
  a: ComplexCsr,
  at: ComplexCsr,
  sym: Symbolic,
  local: Int32Array,
  front: KernelArray,
  c0: number,
  p: number,
  m: number,
): void {
  const { perm, iperm } = sym;
  const { re, im } = front;
  for (let t = 0; t < p; t++) {
    const orig = perm[c0 + t];
    // Row c0+t: every entry right of the supernode's first column.
    for (let k = a.rowPtr[orig]; k < a.rowPtr[orig + 1]; k++) {
      const j = iperm[a.colIdx[k]];
      if (j < c0) continue;
      const pos = t * m + local[j];
      re[pos] += a.re[k];
      im[pos] += a.im[k];
    }
    // Column c0+t: the entries below the supernode's columns (those within are in its rows).
    for (let k = at.rowPtr[orig]; k < at.rowPtr[orig + 1]; k++) {
      const i = iperm[at.colIdx[k]];
      if (i < c0 + p) continue;
      const pos = local[i] * m + t;
      re[pos] += at.re[k];
      im[pos] += at.im[k];
    }
  }
}

/** Pushes the front's trailing q × q Schur complement onto the update stack. */
function pushUpdate(ws: Workspace, store: FactorStore, m: number, p: number, q: number): void {
  const src = store.front.reOff + 8 * (p * m + p);
  const dst = ws.stack.reOff + 8 * ws.stackTop;
  store.kernels.copyBlock(0, store.planeGap, src, 8 * m, q, q, dst);
  ws.stackTop += q * q;
}

/** Pops child supernode c's update off the stack and adds it into the front (extend-add). */
function popUpdate(ws: Workspace, store: FactorStore, sym: Symbolic, c: number, m: number): void {
  const rp = sym.snRowPtr[c];
  const q = sym.snRowPtr[c + 1] - rp;
  const base = ws.stackTop - q * q;
  const pos = ws.pos.view;
  for (let i = 0; i < q; i++) pos[i] = ws.local[sym.snRows[rp + i]];
  const src = ws.stack.reOff + 8 * base;
  store.kernels.extendAdd(0, store.planeGap, store.front.reOff, m, src, q, ws.pos.off);
  ws.stackTop = base;
}

/** y ← L⁻¹·P·y over the supernodes in order (y: the store's vector). */
function forwardSolve(sym: Symbolic, f: FactorStore): void {
  const ns = sym.snStart.length - 1;
  const { y, scratch, factor, kernels } = f;
  const yr = y.re;
  const yi = y.im;
  for (let s = 0; s < ns; s++) {
    const c0 = sym.snStart[s];
    const p = sym.snStart[s + 1] - c0;
    const rp = sym.snRowPtr[s];
    const q = sym.snRowPtr[s + 1] - rp;
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
    const yOff = 8 * c0;
    const u = 8 * f.upperOff[s];
    kernels.lowerSolve(
      factor.reOff + u,
      factor.imOff + u,
      8 * (p + q),
      p,
      y.reOff + yOff,
      y.imOff + yOff,
    );
    if (q === 0) continue;
    scratch.re.fill(0, 0, q);
    scratch.im.fill(0, 0, q);
    const l = 8 * f.lowerOff[s];
    kernels.rowsSub(0, f.planeGap, scratch.reOff, factor.reOff + l, 8 * q, p, q, y.reOff + yOff);
    // The scratch holds −L21·y_p: scatter it onto the rows below.
    for (let i = 0; i < q; i++) {
      const row = sym.snRows[rp + i];
      yr[row] += scratch.re[i];
      yi[row] += scratch.im[i];
    }
  }
}

/** y ← U⁻¹·y over the supernodes in reverse (y: the store's vector). */
function backwardSolve(sym: Symbolic, f: FactorStore): void {
  const ns = sym.snStart.length - 1;
  const { y, scratch, factor, kernels } = f;
  for (let s = ns - 1; s >= 0; s--) {
    const c0 = sym.snStart[s];
    const p = sym.snStart[s + 1] - c0;
    const rp = sym.snRowPtr[s];
    const q = sym.snRowPtr[s + 1] - rp;
    const m = p + q;
    const u = 8 * f.upperOff[s];
    const yOff = 8 * c0;
    if (q > 0) {
      // Gather the solved unknowns below the supernode, then y_p −= U12·x_q.
      for (let t = 0; t < q; t++) {
        const x = sym.snRows[rp + t];
        scratch.re[t] = y.re[x];
        scratch.im[t] = y.im[x];
      }
      kernels.dotSub(
        factor.reOff + u + 8 * p,
        factor.imOff + u + 8 * p,
        8 * m,
        p,
        q,
        scratch.reOff,
        scratch.imOff,
        y.reOff + yOff,
        y.imOff + yOff,
      );
    }
    kernels.upperSolve(
      factor.reOff + u,
      factor.imOff + u,
      8 * m,
      p,
      y.reOff + yOff,
      y.imOff + yOff,
    );
  }
}
