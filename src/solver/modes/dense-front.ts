/**
 * The dense kernel of the multifrontal LU (lu.ts): partial LU of one frontal matrix.
 *
 * A front F is m × m (row-major, real and imaginary parts apart) whose first p rows and
 * columns are fully summed. The kernel factors the m × p panel with partial pivoting
 * restricted to the p fully summed rows (row swaps stay inside the supernode, so the symbolic
 * structure holds), solves U12 = L11⁻¹·F12, and leaves the Schur complement
 * F22 − L21·U12 in the trailing q × q block, where q = m − p. A pivot smaller than
 * `smallPivot` even after the swap is replaced by `smallPivot` with the same phase (static
 * pivot perturbation, Li & Demmel, ACM TOMS 29, 110 (2003); Schenk & Gärtner, FGCS 20, 475
 * (2004)); the solver corrects for it by iterative refinement.
 *
 * The Schur update is the i-k-j loop (a row of F22 stays in cache while rows of U12 stream
 * past), rather than m rank-1 updates of the whole trailing block, which would stream the
 * whole front through the cache p times.
 */

/** Partial LU of a front in place; pivots[k] is the row swapped with row k. Returns the
 * number of perturbed pivots. */
export function factorFront(
  re: Float64Array,
  im: Float64Array,
  m: number,
  p: number,
  pivots: Int32Array,
  smallPivot: number,
): number {
  const perturbed = factorPanel(re, im, m, p, pivots, smallPivot);
  solveU12(re, im, m, p);
  schurUpdate(re, im, m, p);
  return perturbed;
}

/** Factors columns 0 … p−1 of all m rows, updating only those columns. */
function factorPanel(
  re: Float64Array,
  im: Float64Array,
  m: number,
  p: number,
  pivots: Int32Array,
  smallPivot: number,
): number {
  let perturbed = 0;
  for (let k = 0; k < p; k++) {
    let best = k;
    let bestAbs = -1;
    for (let i = k; i < p; i++) {
      const a = re[i * m + k] ** 2 + im[i * m + k] ** 2;
      if (a > bestAbs) {
        bestAbs = a;
        best = i;
      }
    }
    pivots[k] = best;
    if (best !== k) swapRows(re, im, m, k, best);
    const kk = k * m + k;
    if (Math.sqrt(bestAbs) < smallPivot) {
      const mag = Math.sqrt(bestAbs);
      re[kk] = mag > 0 ? (re[kk] / mag) * smallPivot : smallPivot;
      im[kk] = mag > 0 ? (im[kk] / mag) * smallPivot : 0;
      perturbed++;
    }
    const d = re[kk] * re[kk] + im[kk] * im[kk];
    const invR = re[kk] / d;
    const invI = -im[kk] / d;
    for (let i = k + 1; i < m; i++) {
      const ik = i * m + k;
      const lr = re[ik] * invR - im[ik] * invI;
      const li = re[ik] * invI + im[ik] * invR;
      re[ik] = lr;
      im[ik] = li;
      if (lr === 0 && li === 0) continue;
      for (let j = k + 1; j < p; j++) {
        const kj = k * m + j;
        re[i * m + j] -= lr * re[kj] - li * im[kj];
        im[i * m + j] -= lr * im[kj] + li * re[kj];
      }
    }
  }
  return perturbed;
}

function swapRows(re: Float64Array, im: Float64Array, m: number, a: number, b: number): void {
  for (let j = 0; j < m; j++) {
    const tr = re[a * m + j];
    re[a * m + j] = re[b * m + j];
    re[b * m + j] = tr;
    const ti = im[a * m + j];
    im[a * m + j] = im[b * m + j];
    im[b * m + j] = ti;
  }
}

/** F12 ← L11⁻¹·F12 (unit lower triangular, forward by rows). */
function solveU12(re: Float64Array, im: Float64Array, m: number, p: number): void {
  for (let i = 1; i < p; i++) {
    for (let k = 0; k < i; k++) {
      const lr = re[i * m + k];
      const li = im[i * m + k];
      if (lr === 0 && li === 0) continue;
      const ro = i * m;
      const ko = k * m;
      for (let j = p; j < m; j++) {
        re[ro + j] -= lr * re[ko + j] - li * im[ko + j];
        im[ro + j] -= lr * im[ko + j] + li * re[ko + j];
      }
    }
  }
}

/** F22 ← F22 − L21·U12. */
function schurUpdate(re: Float64Array, im: Float64Array, m: number, p: number): void {
  for (let i = p; i < m; i++) {
    const ro = i * m;
    for (let k = 0; k < p; k++) {
      const lr = re[ro + k];
      const li = im[ro + k];
      if (lr === 0 && li === 0) continue;
      const ko = k * m;
      for (let j = p; j < m; j++) {
        const ur = re[ko + j];
        const ui = im[ko + j];
        re[ro + j] -= lr * ur - li * ui;
        im[ro + j] -= lr * ui + li * ur;
      }
    }
  }
}
