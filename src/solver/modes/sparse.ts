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

/**
 * A − σ·I for a square A (a new matrix), with A's exact zeros dropped as TripletBuilder
 * drops them (the pattern, and so the LU's ordering, is that of the triplet assembly).
 */
export function csrShift(a: ComplexCsr, sigmaRe: number, sigmaIm: number): ComplexCsr {
  const out = new CsrWriter(a.rows, a.cols, a.colIdx.length + a.rows);
  const acc = new RowAccumulator(a.cols);
  for (let i = 0; i < a.rows; i++) {
    for (let k = a.rowPtr[i]; k < a.rowPtr[i + 1]; k++) acc.add(a.colIdx[k], a.re[k], a.im[k]);
    acc.add(i, -sigmaRe, -sigmaIm);
    acc.flush(out);
  }
  return out.finish();
}

/** The largest |a_ij| of a matrix (0 for an empty one). */
export function csrMaxAbs(a: ComplexCsr): number {
  // The largest |a|² first, one square root at the end: Math.hypot per entry took 2 ms of
  // each factorisation of a port plane's 5 890 unknowns.
  let m = 0;
  for (let k = 0; k < a.re.length; k++) {
    const s = a.re[k] * a.re[k] + a.im[k] * a.im[k];
    if (s > m) m = s;
  }
  return Math.sqrt(m);
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
      if (rowScale) {
        const sr = rowScale.re[i];
        const si = rowScale.im[i];
        const t = sr * r - si * m;
        m = sr * m + si * r;
        r = t;
      }
      if (colScale) {
        const sr = colScale.re[a.colIdx[k]];
        const si = colScale.im[a.colIdx[k]];
        const t = sr * r - si * m;
        m = sr * m + si * r;
        r = t;
      }
      re[k] = r;
      im[k] = m;
    }
  }
  return { ...a, re, im };
}

/**
 * Rows of a CSR matrix written in order into preallocated arrays (a bound on the entries),
 * for the products and sums that build the mode operator: a TripletBuilder would push every
 * entry through a growing list and a bucket sort (a third of the operator's build time).
 */
class CsrWriter {
  private readonly rowPtr: Int32Array;
  private readonly colIdx: Int32Array;
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  private row = 0;
  private nnz = 0;

  constructor(
    readonly rows: number,
    readonly cols: number,
    capacity: number,
  ) {
    this.rowPtr = new Int32Array(rows + 1);
    this.colIdx = new Int32Array(capacity);
    this.re = new Float64Array(capacity);
    this.im = new Float64Array(capacity);
  }

  entry(col: number, re: number, im: number): void {
    const k = this.nnz++;
    this.colIdx[k] = col;
    this.re[k] = re;
    this.im[k] = im;
  }

  endRow(): void {
    this.rowPtr[++this.row] = this.nnz;
  }

  finish(): ComplexCsr {
    const { nnz } = this;
    return {
      rows: this.rows,
      cols: this.cols,
      rowPtr: this.rowPtr,
      colIdx: this.colIdx.slice(0, nnz),
      re: this.re.slice(0, nnz),
      im: this.im.slice(0, nnz),
    };
  }
}

/**
 * One row's sum of contributions by column (Gustavson's dense accumulator). A column enters
 * the row when a non-zero contribution reaches it (as TripletBuilder skips zero pushes);
 * `flush` writes the row sorted by column and clears it.
 */
class RowAccumulator {
  private readonly accRe: Float64Array;
  private readonly accIm: Float64Array;
  private readonly mark: Uint8Array;
  private readonly touched: Int32Array;
  private count = 0;

  constructor(cols: number) {
    this.accRe = new Float64Array(cols);
    this.accIm = new Float64Array(cols);
    this.mark = new Uint8Array(cols);
    this.touched = new Int32Array(cols);
  }

  add(col: number, re: number, im: number): void {
    if (re === 0 && im === 0) return;
    if (this.mark[col] === 0) {
      this.mark[col] = 1;
      this.accRe[col] = re;
      this.accIm[col] = im;
      this.touched[this.count++] = col;
      return;
    }
    this.accRe[col] += re;
    this.accIm[col] += im;
  }

  /** As flush, leaving out columns whose sum is exactly zero (csrProduct's rule). */
  flushNonZero(out: CsrWriter): void {
    let kept = 0;
    for (let a = 0; a < this.count; a++) {
      const c = this.touched[a];
      if (this.accRe[c] !== 0 || this.accIm[c] !== 0) this.touched[kept++] = c;
      else this.mark[c] = 0;
    }
    this.count = kept;
    this.flush(out);
  }

  flush(out: CsrWriter): void {
    const t = this.touched;
    // A row holds a handful of columns: insertion sort.
    for (let a = 1; a < this.count; a++) {
      const c = t[a];
      let b = a - 1;
      while (b >= 0 && t[b] > c) {
        t[b + 1] = t[b];
        b--;
      }
      t[b + 1] = c;
    }
    for (let a = 0; a < this.count; a++) {
      out.entry(t[a], this.accRe[t[a]], this.accIm[t[a]]);
      this.mark[t[a]] = 0;
    }
    this.count = 0;
    out.endRow();
  }
}

/**
 * The product A·B of two complex sparse matrices (Gustavson's row-by-row algorithm); exact
 * zero sums are dropped.
 */
export function csrProduct(a: ComplexCsr, b: ComplexCsr): ComplexCsr {
  let bound = 0;
  for (let ka = 0; ka < a.colIdx.length; ka++) {
    bound += b.rowPtr[a.colIdx[ka] + 1] - b.rowPtr[a.colIdx[ka]];
  }
  const out = new CsrWriter(a.rows, b.cols, bound);
  const acc = new RowAccumulator(b.cols);
  for (let i = 0; i < a.rows; i++) {
    for (let ka = a.rowPtr[i]; ka < a.rowPtr[i + 1]; ka++) {
      const j = a.colIdx[ka];
      const ar = a.re[ka];
      const ai = a.im[ka];
      for (let kb = b.rowPtr[j]; kb < b.rowPtr[j + 1]; kb++) {
        acc.add(b.colIdx[kb], ar * b.re[kb] - ai * b.im[kb], ar * b.im[kb] + ai * b.re[kb]);
      }
    }
    acc.flushNonZero(out);
  }
  return out.finish();
}

/** One block of a block sum: factor·block with its (0, 0) entry at (rowOffset, colOffset). */
export interface PlacedBlock {
  block: ComplexCsr;
  rowOffset: number;
  colOffset: number;
  factor: number;
}

/** Σ of placed blocks as one rows × cols matrix (entries with zero contributions left out). */
export function csrBlockSum(rows: number, cols: number, parts: readonly PlacedBlock[]): ComplexCsr {
  const out = new CsrWriter(
    rows,
    cols,
    parts.reduce((n, p) => n + p.block.colIdx.length, 0),
  );
  const acc = new RowAccumulator(cols);
  for (let i = 0; i < rows; i++) {
    for (const { block, rowOffset, colOffset, factor } of parts) {
      const r = i - rowOffset;
      if (r < 0 || r >= block.rows) continue;
      for (let k = block.rowPtr[r]; k < block.rowPtr[r + 1]; k++) {
        acc.add(block.colIdx[k] + colOffset, factor * block.re[k], factor * block.im[k]);
      }
    }
    acc.flush(out);
  }
  return out.finish();
}

/**
 * The submatrix of rows and columns `keep` (keep[k]: the original index of new index k,
 * increasing), exact zeros dropped.
 */
export function csrRestrict(a: ComplexCsr, keep: Int32Array): ComplexCsr {
  const newIndex = new Int32Array(a.cols).fill(-1);
  for (let k = 0; k < keep.length; k++) newIndex[keep[k]] = k;
  const out = new CsrWriter(keep.length, keep.length, a.colIdx.length);
  for (let r = 0; r < keep.length; r++) {
    const i = keep[r];
    for (let k = a.rowPtr[i]; k < a.rowPtr[i + 1]; k++) {
      const c = newIndex[a.colIdx[k]];
      if (c >= 0 && (a.re[k] !== 0 || a.im[k] !== 0)) out.entry(c, a.re[k], a.im[k]);
    }
    out.endRow();
  }
  return out.finish();
}
