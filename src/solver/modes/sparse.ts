/**
 * Complex sparse matrices in compressed sparse row (CSR) form, real and imaginary parts in
 * separate Float64Arrays: the mode operator, its shifted copies and the LU's input.
 *
 * Separate parts (rather than interleaved re, im) keep every hot loop on plain Float64Array
 * reads with one index, which V8 compiles to its tightest code; the column indices are
 * sorted within each row and unique, which the LU's assembly and the tests rely on.
 */

/** A complex n × m matrix in CSR form: row i's entries are rowPtr[i] … rowPtr[i+1]−1. */
export interface ComplexCsr {
  rows: number;
  cols: number;
  rowPtr: Int32Array;
  colIdx: Int32Array;
  re: Float64Array;
  im: Float64Array;
}

/** A complex vector as two parts of equal length. */
export interface ComplexVector {
  re: Float64Array;
  im: Float64Array;
}

/** A zero complex vector of length n. */
export function complexVector(n: number): ComplexVector {
  return { re: new Float64Array(n), im: new Float64Array(n) };
}

/**
 * Collects (row, col, value) triplets in growing typed arrays; duplicates are summed by
 * `toCsr`. Building the mode operator pushes a few entries per unknown, so a triplet list is
 * the cheapest way to assemble it without per-entry objects.
 */
export class TripletBuilder {
  private count = 0;
  private ri = new Int32Array(64);
  private ci = new Int32Array(64);
  private vr = new Float64Array(64);
  private vi = new Float64Array(64);

  constructor(
    readonly rows: number,
    readonly cols: number,
  ) {}

  /** Adds value (re + i·im) at (row, col); zero values are skipped. */
  push(row: number, col: number, re: number, im = 0): void {
    if (re === 0 && im === 0) return;
    if (this.count === this.ri.length) this.grow();
    const k = this.count++;
    this.ri[k] = row;
    this.ci[k] = col;
    this.vr[k] = re;
    this.vi[k] = im;
  }

  private grow(): void {
    const n = this.ri.length * 2;
    const ri = new Int32Array(n);
    const ci = new Int32Array(n);
    const vr = new Float64Array(n);
    const vi = new Float64Array(n);
    ri.set(this.ri);
    ci.set(this.ci);
    vr.set(this.vr);
    vi.set(this.vi);
    this.ri = ri;
    this.ci = ci;
    this.vr = vr;
    this.vi = vi;
  }

  /** The CSR matrix of the triplets: rows bucketed, columns sorted, duplicates summed. */
  toCsr(): ComplexCsr {
    const { rows, count } = this;
    const start = new Int32Array(rows + 1);
    for (let k = 0; k < count; k++) start[this.ri[k] + 1]++;
    for (let i = 0; i < rows; i++) start[i + 1] += start[i];
    const fill = start.slice(0, rows);
    const order = new Int32Array(count);
    for (let k = 0; k < count; k++) order[fill[this.ri[k]]++] = k;
    const rowPtr = new Int32Array(rows + 1);
    const colIdx = new Int32Array(count);
    const re = new Float64Array(count);
    const im = new Float64Array(count);
    let nnz = 0;
    for (let i = 0; i < rows; i++) {
      // Rows hold a handful of entries: insertion sort by column, in place.
      for (let a = start[i] + 1; a < start[i + 1]; a++) {
        const k = order[a];
        const c = this.ci[k];
        let b = a - 1;
        while (b >= start[i] && this.ci[order[b]] > c) {
          order[b + 1] = order[b];
          b--;
        }
        order[b + 1] = k;
      }
      const rowStart = nnz;
      for (let a = start[i]; a < start[i + 1]; a++) {
        const k = order[a];
        const c = this.ci[k];
        if (nnz > rowStart && colIdx[nnz - 1] === c) {
          re[nnz - 1] += this.vr[k];
          im[nnz - 1] += this.vi[k];
        } else {
          colIdx[nnz] = c;
          re[nnz] = this.vr[k];
          im[nnz] = this.vi[k];
          nnz++;
        }
      }
      rowPtr[i + 1] = nnz;
    }
    return {
      rows,
      cols: this.cols,
      rowPtr,
      colIdx: colIdx.slice(0, nnz),
      re: re.slice(0, nnz),
      im: im.slice(0, nnz),
    };
  }
}

/** y = A·x for complex A and x (y is overwritten). */
export function csrMultiply(a: ComplexCsr, x: ComplexVector, y: ComplexVector): void {
  const { rowPtr, colIdx, re, im } = a;
  const xr = x.re;
  const xi = x.im;
  for (let i = 0; i < a.rows; i++) {
    let sr = 0;
    let si = 0;
    for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
      const c = colIdx[k];
      const ar = re[k];
      const ai = im[k];
      sr += ar * xr[c] - ai * xi[c];
      si += ar * xi[c] + ai * xr[c];
    }
    y.re[i] = sr;
    y.im[i] = si;
  }
}

/** A − σ·I for a square A (a new matrix). */
export function csrShift(a: ComplexCsr, sigmaRe: number, sigmaIm: number): ComplexCsr {
  const b = new TripletBuilder(a.rows, a.cols);
  for (let i = 0; i < a.rows; i++) {
    for (let k = a.rowPtr[i]; k < a.rowPtr[i + 1]; k++) b.push(i, a.colIdx[k], a.re[k], a.im[k]);
    b.push(i, i, -sigmaRe, -sigmaIm);
  }
  return b.toCsr();
}

/** The largest |a_ij| of a matrix (0 for an empty one). */
export function csrMaxAbs(a: ComplexCsr): number {
  let m = 0;
  for (let k = 0; k < a.re.length; k++) m = Math.max(m, Math.hypot(a.re[k], a.im[k]));
  return m;
}

/** The sparsity pattern of A + Aᵀ without the diagonal, as CSR row pointers and columns. */
export function symmetricPattern(a: ComplexCsr): { rowPtr: Int32Array; colIdx: Int32Array } {
  const n = a.rows;
  const count = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    for (let k = a.rowPtr[i]; k < a.rowPtr[i + 1]; k++) {
      const j = a.colIdx[k];
      if (j === i) continue;
      count[i + 1]++;
      count[j + 1]++;
    }
  }
  for (let i = 0; i < n; i++) count[i + 1] += count[i];
  const fill = count.slice(0, n);
  const cols = new Int32Array(count[n]);
  for (let i = 0; i < n; i++) {
    for (let k = a.rowPtr[i]; k < a.rowPtr[i + 1]; k++) {
      const j = a.colIdx[k];
      if (j === i) continue;
      cols[fill[i]++] = j;
      cols[fill[j]++] = i;
    }
  }
  return dedupeRows(n, count, cols);
}

/** Sorts each row's columns and drops repeats. */
function dedupeRows(
  n: number,
  ptr: Int32Array,
  cols: Int32Array,
): { rowPtr: Int32Array; colIdx: Int32Array } {
  const rowPtr = new Int32Array(n + 1);
  const out = new Int32Array(cols.length);
  let nnz = 0;
  for (let i = 0; i < n; i++) {
    const seg = cols.subarray(ptr[i], ptr[i + 1]).sort();
    for (let k = 0; k < seg.length; k++) {
      if (k === 0 || seg[k] !== seg[k - 1]) out[nnz++] = seg[k];
    }
    rowPtr[i + 1] = nnz;
  }
  return { rowPtr, colIdx: out.slice(0, nnz) };
}

/** D·A·E for diagonal D (per row) and E (per column), complex; either may be null (identity). */
export function csrScale(
  a: ComplexCsr,
  rowScale: ComplexVector | null,
  colScale: ComplexVector | null,
): ComplexCsr {
  const re = a.re.slice();
  const im = a.im.slice();
  for (let i = 0; i < a.rows; i++) {
    for (let k = a.rowPtr[i]; k < a.rowPtr[i + 1]; k++) {
      let r = re[k];
      let m = im[k];
      if (rowScale) [r, m] = mul(rowScale.re[i], rowScale.im[i], r, m);
      if (colScale) [r, m] = mul(colScale.re[a.colIdx[k]], colScale.im[a.colIdx[k]], r, m);
      re[k] = r;
      im[k] = m;
    }
  }
  return { ...a, re, im };
}

function mul(ar: number, ai: number, br: number, bi: number): [number, number] {
  return [ar * br - ai * bi, ar * bi + ai * br];
}

/** The product A·B of two complex sparse matrices (Gustavson's row-by-row algorithm). */
export function csrProduct(a: ComplexCsr, b: ComplexCsr): ComplexCsr {
  const out = new TripletBuilder(a.rows, b.cols);
  const accRe = new Float64Array(b.cols);
  const accIm = new Float64Array(b.cols);
  const mark = new Int32Array(b.cols).fill(-1);
  const touched = new Int32Array(b.cols);
  for (let i = 0; i < a.rows; i++) {
    let count = 0;
    for (let ka = a.rowPtr[i]; ka < a.rowPtr[i + 1]; ka++) {
      const j = a.colIdx[ka];
      const ar = a.re[ka];
      const ai = a.im[ka];
      for (let kb = b.rowPtr[j]; kb < b.rowPtr[j + 1]; kb++) {
        const c = b.colIdx[kb];
        if (mark[c] !== i) {
          mark[c] = i;
          accRe[c] = 0;
          accIm[c] = 0;
          touched[count++] = c;
        }
        accRe[c] += ar * b.re[kb] - ai * b.im[kb];
        accIm[c] += ar * b.im[kb] + ai * b.re[kb];
      }
    }
    for (let t = 0; t < count; t++) out.push(i, touched[t], accRe[touched[t]], accIm[touched[t]]);
  }
  return out.toCsr();
}

/** Adds factor·block into `target` with its (0, 0) entry at (rowOffset, colOffset). */
export function addBlocks(
  target: TripletBuilder,
  block: ComplexCsr,
  rowOffset: number,
  colOffset: number,
  factor = 1,
): void {
  for (let i = 0; i < block.rows; i++) {
    for (let k = block.rowPtr[i]; k < block.rowPtr[i + 1]; k++) {
      target.push(
        i + rowOffset,
        block.colIdx[k] + colOffset,
        factor * block.re[k],
        factor * block.im[k],
      );
    }
  }
}

/** The submatrix of rows and columns `keep` (keep[k]: the original index of new index k). */
export function csrRestrict(a: ComplexCsr, keep: Int32Array): ComplexCsr {
  const newIndex = new Int32Array(a.cols).fill(-1);
  for (let k = 0; k < keep.length; k++) newIndex[keep[k]] = k;
  const out = new TripletBuilder(keep.length, keep.length);
  for (let r = 0; r < keep.length; r++) {
    const i = keep[r];
    for (let k = a.rowPtr[i]; k < a.rowPtr[i + 1]; k++) {
      const c = newIndex[a.colIdx[k]];
      if (c >= 0) out.push(r, c, a.re[k], a.im[k]);
    }
  }
  return out.toCsr();
}
