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
 * The front lives in a kernel memory (kernels.ts) and the row operations run there as
 * WebAssembly SIMD: the Schur update is the i-k-j loop (a row of F22 stays in cache while
 * rows of U12 stream past, two at a time), rather than p rank-1 updates of the whole
 * trailing block, which would stream the whole front through the cache p times; the panel's
 * rank-1 updates touch only its p columns. The pivot search, the swaps and the multipliers
 * stay in JavaScript (a column each, p per front).
 */
import type { KernelArray } from "./kernel-memory.js";
import type { KernelExports } from "./kernels.js";

/** Partial LU of a front in place; pivots[k] is the row swapped with row k. Returns the
 * number of perturbed pivots. */
export function factorFront(
  front: KernelArray,
  kernels: KernelExports,
  m: number,
  p: number,
  pivots: Int32Array,
  smallPivot: number,
): number {
  const perturbed = factorPanel(front, kernels, m, p, pivots, smallPivot);
  if (p < m) {
    // U12 ← L11⁻¹·F12, then F22 ← F22 − L21·U12 (rows of U12 stream past a row of F22).
    kernels.rowUpdate(front.reOff, front.imOff, m, 1, p, 0, 0, 1, p, m);
    kernels.rowUpdate(front.reOff, front.imOff, m, p, m, 0, p, 0, p, m);
  }
  return perturbed;
}
/**
 * Factors columns 0 … p−1 of all m rows, updating only those columns: at step k, the pivot
 * search and swap among the fully summed rows, the multipliers L[i, k] = F[i, k]/F[k, k],
 * then the rank-1 update of the panel's columns right of k (a kernel call).
 */
function factorPanel(
  front: KernelArray,
  kernels: KernelExports,
  m: number,
  p: number,
  pivots: Int32Array,
  smallPivot: number,
): number {
  const { re, im } = front;
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
    for (let ik = kk + m; ik < m * m; ik += m) {
      const lr = re[ik] * invR - im[ik] * invI;
      const li = re[ik] * invI + im[ik] * invR;
      re[ik] = lr;
      im[ik] = li;
    }
    if (k + 1 < p) kernels.rowUpdate(front.reOff, front.imOff, m, k + 1, m, k, k + 1, 0, k + 1, p);
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
