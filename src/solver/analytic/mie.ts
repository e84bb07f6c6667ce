/**
 * Mie series for a homogeneous sphere in a lossless medium: the analytic reference that
 * scattering and absorption cross-sections from the FDTD solver are validated against.
 *
 * Formulation of C. F. Bohren & D. R. Huffman, "Absorption and Scattering of Light by Small
 * Particles" (Wiley, 1983), §4.4 and §4.8 (their program BHMIE, rewritten here):
 *
 *   a_n = [(D_n(mx)/m + n/x) ψ_n(x) − ψ_{n−1}(x)] / [(D_n(mx)/m + n/x) ξ_n(x) − ξ_{n−1}(x)]
 *   b_n = [(m D_n(mx) + n/x) ψ_n(x) − ψ_{n−1}(x)] / [(m D_n(mx) + n/x) ξ_n(x) − ξ_{n−1}(x)]
 *
 *   Q_sca = (2/x²) Σ (2n+1)(|a_n|² + |b_n|²),   Q_ext = (2/x²) Σ (2n+1) Re(a_n + b_n),
 *
 * with ψ_n(ρ) = ρ j_n(ρ), ξ_n(ρ) = ρ h⁽¹⁾_n(ρ) the Riccati–Bessel functions and
 * D_n(ρ) = ψ_n′(ρ)/ψ_n(ρ) the logarithmic derivative.
 *
 * Why this way:
 * - D_n(mx) by downward recurrence D_{n−1} = n/ρ − 1/(D_n + n/ρ), started at 0: upward
 *   recurrence of D_n loses all accuracy when Im(mx) is large (metal spheres), downward
 *   recurrence converges to the right solution from any start value (Bohren & Huffman §4.8;
 *   W. J. Wiscombe, Appl. Opt. 19, 1505 (1980)) — provided it starts far enough beyond
 *   n ≈ |mx|, where D_n turns from oscillating to monotonic over a width ∝ |mx|^{1/3}.
 *   BHMIE's start, max(N, |mx|) + 15, is too close for large, weakly absorbing spheres: for
 *   m = 1.33 + 10⁻⁵i, x = 10⁴ (Wiscombe's test case 11) it gives Q_sca = 1.71803 instead of
 *   1.72386. Starting a further 16 |mx|^{1/3} out reproduces all of Wiscombe's cases.
 * - ψ_n, χ_n of the real argument x by upward recurrence, which is stable for n ≲ x and is only
 *   carried to the truncation order N = x + 4 x^{1/3} + 2 (Wiscombe's criterion), past which
 *   the terms are negligible.
 *
 * Conventions: exp(−iωt) time dependence, so the relative index m = n + i k has k ≥ 0 for an
 * absorbing sphere (Wiscombe's MIEV0 uses n − i k; the efficiencies are the same).
 */
import { type Complex, abs2, add, cx, div, mul, scale, sub } from "./complex.js";

export interface MieEfficiencies {
  /** Extinction efficiency Q_ext = C_ext / (π r²). */
  qExt: number;
  /** Scattering efficiency Q_sca. */
  qSca: number;
  /** Absorption efficiency Q_abs = Q_ext − Q_sca (0 for a lossless sphere). */
  qAbs: number;
  /** Backscattering efficiency Q_back = |Σ (2n+1)(−1)ⁿ (a_n − b_n)|² / x² (Bohren & Huffman). */
  qBack: number;
  /** Asymmetry parameter g = ⟨cos θ⟩ of the scattered light. */
  asymmetry: number;
  /** Number of terms N summed. */
  terms: number;
}

export interface MieSphere extends MieEfficiencies {
  /** Size parameter x = 2π r n_medium / λ. */
  sizeParameter: number;
  /** Relative index m = n_sphere / n_medium. */
  relativeIndex: Complex;
  /** Cross-sections Q π r² in m². */
  cExtM2: number;
  cScaM2: number;
  cAbsM2: number;
}

/** Series truncation order (Wiscombe 1980): N = x + 4 x^{1/3} + 2, rounded. */
export function mieTermCount(sizeParameter: number): number {
  return Math.round(sizeParameter + 4 * Math.cbrt(sizeParameter) + 2);
}

/**
 * Mie efficiencies of a homogeneous sphere.
 * @param relativeIndex m = n_sphere / n_medium, complex with Im m ≥ 0 for absorption
 * @param sizeParameter x = 2π r n_medium / λ0 (λ0 the vacuum wavelength), x > 0
 * @throws RangeError for x ≤ 0 or non-finite, Re m ≤ 0, or Im m < 0 (gain)
 */
export function mieEfficiencies(
  relativeIndex: Complex | number,
  sizeParameter: number,
): MieEfficiencies {
  const m = typeof relativeIndex === "number" ? cx(relativeIndex) : relativeIndex;
  const x = sizeParameter;
  if (!(Number.isFinite(x) && x > 0)) {
    throw new RangeError(`size parameter must be finite and > 0, got ${x}`);
  }
  if (!(Number.isFinite(m.re) && Number.isFinite(m.im) && m.re > 0 && m.im >= 0)) {
    throw new RangeError(
      `relative index must have Re m > 0 and Im m ≥ 0 (exp(−iωt) convention), got ${m.re} + ${m.im}i`,
    );
  }
  const nStop = mieTermCount(x);
  const mx = scale(m, x);
  const mxAbs = Math.hypot(mx.re, mx.im);
  const nMax = Math.max(nStop, Math.ceil(mxAbs)) + 15 + Math.ceil(16 * Math.cbrt(mxAbs));

  // D_n(mx), n = 0 … nMax, by downward recurrence from D_nMax = 0.
  const dRe = new Float64Array(nMax + 1);
  const dIm = new Float64Array(nMax + 1);
  for (let n = nMax; n >= 1; n--) {
    const nOverMx = div(cx(n), mx);
    const inv = div(cx(1), add({ re: dRe[n], im: dIm[n] }, nOverMx));
    dRe[n - 1] = nOverMx.re - inv.re;
    dIm[n - 1] = nOverMx.im - inv.im;
  }

  // Riccati–Bessel ψ_{n−1}, ψ_n and χ_{n−1}, χ_n (χ_n = −x y_n), starting at n = −1, 0.
  let psiPrev = Math.cos(x);
  let psi = Math.sin(x);
  let chiPrev = -Math.sin(x);
  let chi = Math.cos(x);
  let xiPrev = cx(psi, -chi); // ξ_0 = ψ_0 − i χ_0

  let sumExt = 0;
  let sumSca = 0;
  let sumBack = cx(0);
  let sumG = 0;
  let aPrev = cx(0);
  let bPrev = cx(0);
  for (let n = 1; n <= nStop; n++) {
    const psiNext = ((2 * n - 1) / x) * psi - psiPrev;
    const chiNext = ((2 * n - 1) / x) * chi - chiPrev;
    psiPrev = psi;
    psi = psiNext;
    chiPrev = chi;
    chi = chiNext;
    const xi = cx(psi, -chi);
    const d = { re: dRe[n], im: dIm[n] };
    const nx = cx(n / x);

    const fa = add(div(d, m), nx);
    const a = div(sub(scale(fa, psi), cx(psiPrev)), sub(mul(fa, xi), xiPrev));
    const fb = add(mul(m, d), nx);
    const b = div(sub(scale(fb, psi), cx(psiPrev)), sub(mul(fb, xi), xiPrev));

    const w = 2 * n + 1;
    sumExt += w * (a.re + b.re);
    sumSca += w * (abs2(a) + abs2(b));
    sumBack = add(sumBack, scale(sub(a, b), n % 2 === 0 ? w : -w));
    // Bohren & Huffman eq. 4.74: cross terms between orders n−1 and n, and a_n b_n*.
    if (n > 1) {
      const k = n - 1;
      sumG +=
        ((k * (k + 2)) / (k + 1)) *
        (aPrev.re * a.re + aPrev.im * a.im + bPrev.re * b.re + bPrev.im * b.im);
    }
    sumG += (w / (n * (n + 1))) * (a.re * b.re + a.im * b.im);
    aPrev = a;
    bPrev = b;
    xiPrev = xi;
  }
  const x2 = x * x;
  const qExt = (2 / x2) * sumExt;
  const qSca = (2 / x2) * sumSca;
  return {
    qExt,
    qSca,
    // The difference of two sums that agree to rounding for a lossless sphere: clamp the
    // rounding residue rather than report a tiny negative absorption.
    qAbs: Math.max(0, qExt - qSca),
    qBack: abs2(sumBack) / x2,
    asymmetry: qSca > 0 ? ((4 / x2) * sumG) / qSca : 0,
    terms: nStop,
  };
}

/**
 * Mie efficiencies and cross-sections of a sphere of given radius in a lossless medium.
 * @param radiusM sphere radius in metres
 * @param wavelengthM vacuum wavelength in metres
 * @param sphereIndex complex index n + i k of the sphere (k ≥ 0)
 * @param mediumIndex real index of the surrounding medium (default 1)
 */
export function mieSphere(
  radiusM: number,
  wavelengthM: number,
  sphereIndex: Complex | number,
  mediumIndex = 1,
): MieSphere {
  if (!(radiusM > 0 && wavelengthM > 0 && mediumIndex > 0)) {
    throw new RangeError("radius, wavelength and medium index must be > 0");
  }
  const index = typeof sphereIndex === "number" ? cx(sphereIndex) : sphereIndex;
  const relativeIndex = scale(index, 1 / mediumIndex);
  const sizeParameter = (2 * Math.PI * radiusM * mediumIndex) / wavelengthM;
  const q = mieEfficiencies(relativeIndex, sizeParameter);
  const area = Math.PI * radiusM * radiusM;
  return {
    ...q,
    sizeParameter,
    relativeIndex,
    cExtM2: q.qExt * area,
    cScaM2: q.qSca * area,
    cAbsM2: q.qAbs * area,
  };
}
