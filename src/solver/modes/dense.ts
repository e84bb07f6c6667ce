/**
 * Small dense complex matrices: LU solve, the complex Schur form and eigenvectors. The
 * Arnoldi iteration (arnoldi.ts) needs the Schur form of its projected matrix (a few tens of
 * rows), and the tests check the sparse solvers against these.
 *
 * Schur form: Householder reduction to Hessenberg form, then the single-shift complex QR
 * algorithm with Wilkinson shifts, Givens rotations and deflation on negligible subdiagonals
 * (Golub & Van Loan, Matrix Computations, 4th ed., §7.4–7.5). Eigenvectors come from back
 * substitution on the triangular factor (§7.6.4). Reordering (§7.6.2) swaps neighbouring
 * eigenvalues with one rotation each.
 */

/** An n × n complex matrix, row-major, parts apart. */
export interface DenseComplex {
  n: number;
  re: Float64Array;
  im: Float64Array;
}

export function denseZeros(n: number): DenseComplex {
  return { n, re: new Float64Array(n * n), im: new Float64Array(n * n) };
}

export function denseIdentity(n: number): DenseComplex {
  const a = denseZeros(n);
  for (let i = 0; i < n; i++) a.re[i * n + i] = 1;
  return a;
}

/** x = A⁻¹b by LU with partial pivoting (A is copied). */
export function denseSolve(
  a: DenseComplex,
  bRe: Float64Array,
  bIm: Float64Array,
): { re: Float64Array; im: Float64Array } {
  const n = a.n;
  const re = a.re.slice();
  const im = a.im.slice();
  const xr = bRe.slice();
  const xi = bIm.slice();
  for (let k = 0; k < n; k++) {
    let best = k;
    for (let i = k + 1; i < n; i++) {
      if (abs2(re[i * n + k], im[i * n + k]) > abs2(re[best * n + k], im[best * n + k])) best = i;
    }
    swapRows(re, im, n, k, best);
    [xr[k], xr[best]] = [xr[best], xr[k]];
    [xi[k], xi[best]] = [xi[best], xi[k]];
    const d = abs2(re[k * n + k], im[k * n + k]);
    const pr = re[k * n + k] / d;
    const pi = -im[k * n + k] / d;
    for (let i = k + 1; i < n; i++) {
      const lr = re[i * n + k] * pr - im[i * n + k] * pi;
      const li = re[i * n + k] * pi + im[i * n + k] * pr;
      for (let j = k; j < n; j++) {
        re[i * n + j] -= lr * re[k * n + j] - li * im[k * n + j];
        im[i * n + j] -= lr * im[k * n + j] + li * re[k * n + j];
      }
      xr[i] -= lr * xr[k] - li * xi[k];
      xi[i] -= lr * xi[k] + li * xr[k];
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    let sr = xr[i];
    let si = xi[i];
    for (let j = i + 1; j < n; j++) {
      sr -= re[i * n + j] * xr[j] - im[i * n + j] * xi[j];
      si -= re[i * n + j] * xi[j] + im[i * n + j] * xr[j];
    }
    const d = abs2(re[i * n + i], im[i * n + i]);
    xr[i] = (sr * re[i * n + i] + si * im[i * n + i]) / d;
    xi[i] = (si * re[i * n + i] - sr * im[i * n + i]) / d;
  }
  return { re: xr, im: xi };
}

function abs2(r: number, i: number): number {
  return r * r + i * i;
}

function swapRows(re: Float64Array, im: Float64Array, n: number, a: number, b: number): void {
  if (a === b) return;
  for (let j = 0; j < n; j++) {
    [re[a * n + j], re[b * n + j]] = [re[b * n + j], re[a * n + j]];
    [im[a * n + j], im[b * n + j]] = [im[b * n + j], im[a * n + j]];
  }
}

/**
 * A rotation G = [[c, s], [−s̄, c]] (c real) with G·[a; b] = [r; 0]: applied to rows k, k+1
 * from the left and its conjugate transpose to columns k, k+1 from the right.
 */
interface Rotation {
  c: number;
  sr: number;
  si: number;
}

function rotationFor(ar: number, ai: number, br: number, bi: number): Rotation {
  const na = Math.hypot(ar, ai);
  const nu = Math.hypot(na, Math.hypot(br, bi));
  if (nu === 0) return { c: 1, sr: 0, si: 0 };
  if (na === 0) return { c: 0, sr: 1, si: 0 };
  // s = (a/|a|)·conj(b)/ν
  const ur = ar / na;
  const ui = ai / na;
  return { c: na / nu, sr: (ur * br + ui * bi) / nu, si: (ui * br - ur * bi) / nu };
}

/** Rows k, k+1 ← G·[row k; row k+1] over columns j0 … n−1. */
function rotateRows(m: DenseComplex, g: Rotation, k: number, j0: number): void {
  const { n, re, im } = m;
  for (let j = j0; j < n; j++) {
    const xr = re[k * n + j];
    const xi = im[k * n + j];
    const yr = re[(k + 1) * n + j];
    const yi = im[(k + 1) * n + j];
    re[k * n + j] = g.c * xr + g.sr * yr - g.si * yi;
    im[k * n + j] = g.c * xi + g.sr * yi + g.si * yr;
    re[(k + 1) * n + j] = -(g.sr * xr + g.si * xi) + g.c * yr;
    im[(k + 1) * n + j] = -(g.sr * xi - g.si * xr) + g.c * yi;
  }
}

/** Columns k, k+1 ← [col k, col k+1]·Gᴴ over rows 0 … i1−1. */
function rotateCols(m: DenseComplex, g: Rotation, k: number, i1: number): void {
  const { n, re, im } = m;
  for (let i = 0; i < i1; i++) {
    const xr = re[i * n + k];
    const xi = im[i * n + k];
    const yr = re[i * n + k + 1];
    const yi = im[i * n + k + 1];
    // x' = c·x + s̄·y, y' = −s·x + c·y
    re[i * n + k] = g.c * xr + g.sr * yr + g.si * yi;
    im[i * n + k] = g.c * xi + g.sr * yi - g.si * yr;
    re[i * n + k + 1] = -(g.sr * xr - g.si * xi) + g.c * yr;
    im[i * n + k + 1] = -(g.sr * xi + g.si * xr) + g.c * yi;
  }
}

/** Reduces A (in place) to upper Hessenberg form H = Qᴴ·A·Q, accumulating Q (in place). */
function toHessenberg(a: DenseComplex, q: DenseComplex): void {
  const n = a.n;
  // Givens rotations rather than Householder reflectors: the matrices here have a few tens
  // of rows, where the factor-of-two saving of reflectors does not matter.
  for (let k = 0; k + 2 < n; k++) {
    for (let i = n - 1; i > k + 1; i--) {
      const g = rotationFor(
        a.re[(i - 1) * n + k],
        a.im[(i - 1) * n + k],
        a.re[i * n + k],
        a.im[i * n + k],
      );
      rotateRows(a, g, i - 1, k);
      rotateCols(a, g, i - 1, n);
      rotateCols(q, g, i - 1, n);
      a.re[i * n + k] = 0;
      a.im[i * n + k] = 0;
    }
  }
}

/** The complex Schur form A = Z·T·Zᴴ (T upper triangular); A is not changed. */
export function schur(a: DenseComplex): { t: DenseComplex; z: DenseComplex } {
  const n = a.n;
  const t: DenseComplex = { n, re: a.re.slice(), im: a.im.slice() };
  const z = denseIdentity(n);
  toHessenberg(t, z);
  let hi = n - 1;
  let iter = 0;
  while (hi > 0) {
    const lo = deflationStart(t, hi);
    if (lo === hi) {
      hi--;
      iter = 0;
      continue;
    }
    if (++iter > 300) throw new Error("QR algorithm did not converge");
    const [mr, mi] = iter % 11 === 10 ? exceptionalShift(t, hi) : wilkinsonShift(t, hi);
    qrStep(t, z, lo, hi, mr, mi);
  }
  return { t, z };
}

/** The first row of the unreduced block ending at `hi` (negligible subdiagonals set to 0). */
function deflationStart(t: DenseComplex, hi: number): number {
  const n = t.n;
  let l = hi;
  while (l > 0) {
    const sub = Math.hypot(t.re[l * n + l - 1], t.im[l * n + l - 1]);
    const diag =
      Math.hypot(t.re[l * n + l], t.im[l * n + l]) +
      Math.hypot(t.re[(l - 1) * n + l - 1], t.im[(l - 1) * n + l - 1]);
    if (sub <= Number.EPSILON * (diag || 1)) {
      t.re[l * n + l - 1] = 0;
      t.im[l * n + l - 1] = 0;
      break;
    }
    l--;
  }
  return l;
}

/** The eigenvalue of the trailing 2 × 2 block closer to its last diagonal entry. */
function wilkinsonShift(t: DenseComplex, hi: number): [number, number] {
  const n = t.n;
  const ar = t.re[(hi - 1) * n + hi - 1];
  const ai = t.im[(hi - 1) * n + hi - 1];
  const br = t.re[(hi - 1) * n + hi];
  const bi = t.im[(hi - 1) * n + hi];
  const cr = t.re[hi * n + hi - 1];
  const ci = t.im[hi * n + hi - 1];
  const dr = t.re[hi * n + hi];
  const di = t.im[hi * n + hi];
  // λ = (a+d)/2 ± √(((a−d)/2)² + b·c)
  const hr = (ar - dr) / 2;
  const hI = (ai - di) / 2;
  const discR = hr * hr - hI * hI + (br * cr - bi * ci);
  const discI = 2 * hr * hI + (br * ci + bi * cr);
  const [sr, si] = complexSqrt(discR, discI);
  const mr = (ar + dr) / 2;
  const mi = (ai + di) / 2;
  const d1 = Math.hypot(mr + sr - dr, mi + si - di);
  const d2 = Math.hypot(mr - sr - dr, mi - si - di);
  return d1 <= d2 ? [mr + sr, mi + si] : [mr - sr, mi - si];
}

function exceptionalShift(t: DenseComplex, hi: number): [number, number] {
  const n = t.n;
  const s = Math.hypot(t.re[hi * n + hi - 1], t.im[hi * n + hi - 1]);
  return [t.re[hi * n + hi] + 1.5 * s, t.im[hi * n + hi] + 0.5 * s];
}

export function complexSqrt(re: number, im: number): [number, number] {
  const r = Math.hypot(re, im);
  if (r === 0) return [0, 0];
  const a = Math.sqrt((r + Math.abs(re)) / 2);
  if (re >= 0) return [a, im / (2 * a)];
  return [Math.abs(im) / (2 * a), im >= 0 ? a : -a];
}

/** One shifted QR step on rows/columns lo … hi of the Hessenberg T, accumulated into Z. */
function qrStep(
  t: DenseComplex,
  z: DenseComplex,
  lo: number,
  hi: number,
  mr: number,
  mi: number,
): void {
  const n = t.n;
  // Implicit single shift: the first rotation is that of (H − μI)e_lo; the bulge it makes
  // at (k+2, k) is chased down by the next ones.
  let xr = t.re[lo * n + lo] - mr;
  let xi = t.im[lo * n + lo] - mi;
  let yr = t.re[(lo + 1) * n + lo];
  let yi = t.im[(lo + 1) * n + lo];
  for (let k = lo; k < hi; k++) {
    const g = rotationFor(xr, xi, yr, yi);
    rotateRows(t, g, k, k > lo ? k - 1 : lo);
    rotateCols(t, g, k, Math.min(k + 3, hi + 1));
    rotateCols(z, g, k, n);
    if (k > lo) {
      t.re[(k + 1) * n + k - 1] = 0;
      t.im[(k + 1) * n + k - 1] = 0;
    }
    if (k + 1 < hi) {
      xr = t.re[(k + 1) * n + k];
      xi = t.im[(k + 1) * n + k];
      yr = t.re[(k + 2) * n + k];
      yi = t.im[(k + 2) * n + k];
    }
  }
}

/** Eigenvalues (T's diagonal) of a Schur form. */
export function schurEigenvalues(t: DenseComplex): { re: Float64Array; im: Float64Array } {
  const n = t.n;
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    re[i] = t.re[i * n + i];
    im[i] = t.im[i * n + i];
  }
  return { re, im };
}

/**
 * Eigenvector of the upper triangular T for its k-th diagonal entry (back substitution,
 * tiny denominators replaced by ε‖T‖), as a unit vector of length n.
 */
export function triangularEigenvector(t: DenseComplex, k: number): Float64Array[] {
  const n = t.n;
  const vr = new Float64Array(n);
  const vi = new Float64Array(n);
  vr[k] = 1;
  let norm = 0;
  for (let q = 0; q < t.re.length; q++) norm = Math.max(norm, Math.hypot(t.re[q], t.im[q]));
  const small = Number.EPSILON * (norm || 1);
  const lr = t.re[k * n + k];
  const li = t.im[k * n + k];
  for (let i = k - 1; i >= 0; i--) {
    let sr = 0;
    let si = 0;
    for (let j = i + 1; j <= k; j++) {
      sr -= t.re[i * n + j] * vr[j] - t.im[i * n + j] * vi[j];
      si -= t.re[i * n + j] * vi[j] + t.im[i * n + j] * vr[j];
    }
    let dr = t.re[i * n + i] - lr;
    let di = t.im[i * n + i] - li;
    if (Math.hypot(dr, di) < small) {
      dr = small;
      di = 0;
    }
    const d = dr * dr + di * di;
    vr[i] = (sr * dr + si * di) / d;
    vi[i] = (si * dr - sr * di) / d;
  }
  let s = 0;
  for (let i = 0; i <= k; i++) s += vr[i] * vr[i] + vi[i] * vi[i];
  s = Math.sqrt(s);
  for (let i = 0; i <= k; i++) {
    vr[i] /= s;
    vi[i] /= s;
  }
  return [vr, vi];
}

/**
 * Reorders a Schur form A = Z·T·Zᴴ in place so that the diagonal entries for which
 * `wanted(i)` (their original positions) holds come first, in their original relative
 * order, by swapping neighbours with one rotation each (Golub & Van Loan §7.6.2).
 */
export function reorderSchur(t: DenseComplex, z: DenseComplex, wanted: boolean[]): void {
  const n = t.n;
  const flag = wanted.slice();
  let placed = 0;
  for (let i = 0; i < n; i++) {
    if (!flag[i]) continue;
    for (let k = i - 1; k >= placed; k--) {
      swapDiagonal(t, z, k);
      [flag[k], flag[k + 1]] = [flag[k + 1], flag[k]];
    }
    placed++;
  }
}

/** Swaps T's diagonal entries k and k+1 keeping T triangular. */
function swapDiagonal(t: DenseComplex, z: DenseComplex, k: number): void {
  const n = t.n;
  const a = k * n + k;
  const b = (k + 1) * n + k + 1;
  // The rotation that takes [t_{k,k+1}; t_{k+1,k+1} − t_{k,k}] to [r; 0].
  const g = rotationFor(
    t.re[k * n + k + 1],
    t.im[k * n + k + 1],
    t.re[b] - t.re[a],
    t.im[b] - t.im[a],
  );
  rotateRows(t, g, k, k);
  rotateCols(t, g, k, k + 2);
  rotateCols(z, g, k, n);
  t.re[(k + 1) * n + k] = 0;
  t.im[(k + 1) * n + k] = 0;
}
