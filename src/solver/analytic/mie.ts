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
 * The scattering amplitudes S1(θ), S2(θ) and the differential scattering cross-section
 * (§4.4) sum the same a_n, b_n against the angular functions π_n, τ_n (below).
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

/** The Mie coefficients a_n, b_n, n = 1 … N (index n − 1), of a homogeneous sphere. */
export interface MieCoefficients {
  a: Complex[];
  b: Complex[];
}

/** Checks m and x and returns m as a complex number. */
function checkedIndex(relativeIndex: Complex | number, x: number): Complex {
  const m = typeof relativeIndex === "number" ? cx(relativeIndex) : relativeIndex;
  if (!(Number.isFinite(x) && x > 0)) {
    throw new RangeError(`size parameter must be finite and > 0, got ${x}`);
  }
  if (!(Number.isFinite(m.re) && Number.isFinite(m.im) && m.re > 0 && m.im >= 0)) {
    throw new RangeError(
      `relative index must have Re m > 0 and Im m ≥ 0 (exp(−iωt) convention), got ${m.re} + ${m.im}i`,
    );
  }
  return m;
}

/**
 * The Mie coefficients a_n, b_n (Bohren & Huffman §4.4, in the §4.8 form above) up to the truncation order
 * N = mieTermCount(x).
 * @param relativeIndex m = n_sphere / n_medium, complex with Im m ≥ 0 for absorption
 * @param sizeParameter x = 2π r n_medium / λ0 (λ0 the vacuum wavelength), x > 0
 * @throws RangeError for x ≤ 0 or non-finite, Re m ≤ 0, or Im m < 0 (gain)
 */
export function mieCoefficients(
  relativeIndex: Complex | number,
  sizeParameter: number,
): MieCoefficients {
  const x = sizeParameter;
  const m = checkedIndex(relativeIndex, x);
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

  const out: MieCoefficients = { a: [], b: [] };
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
    out.a.push(div(sub(scale(fa, psi), cx(psiPrev)), sub(mul(fa, xi), xiPrev)));
    const fb = add(mul(m, d), nx);
    out.b.push(div(sub(scale(fb, psi), cx(psiPrev)), sub(mul(fb, xi), xiPrev)));
    xiPrev = xi;
  }
  return out;
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
  const x = sizeParameter;
  const { a: aN, b: bN } = mieCoefficients(relativeIndex, x);
  let sumExt = 0;
  let sumSca = 0;
  let sumBack = cx(0);
  let sumG = 0;
  for (let n = 1; n <= aN.length; n++) {
    const a = aN[n - 1];
    const b = bN[n - 1];
    const w = 2 * n + 1;
    sumExt += w * (a.re + b.re);
    sumSca += w * (abs2(a) + abs2(b));
    sumBack = add(sumBack, scale(sub(a, b), n % 2 === 0 ? w : -w));
    // Bohren & Huffman eq. 4.74: cross terms between orders n−1 and n, and a_n b_n*.
    if (n > 1) {
      const k = n - 1;
      const aPrev = aN[n - 2];
      const bPrev = bN[n - 2];
      sumG +=
        ((k * (k + 2)) / (k + 1)) *
        (aPrev.re * a.re + aPrev.im * a.im + bPrev.re * b.re + bPrev.im * b.im);
    }
    sumG += (w / (n * (n + 1))) * (a.re * b.re + a.im * b.im);
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
    terms: aN.length,
  };
}

/** The scattering amplitudes S1(θ), S2(θ) at each angle (Bohren & Huffman §4.4). */
export interface MieAmplitudes {
  s1: Complex[];
  s2: Complex[];
}

/**
 * The scattering amplitudes of a homogeneous sphere (Bohren & Huffman §4.4):
 *
 *   S1(θ) = Σ (2n+1)/(n(n+1)) (a_n π_n + b_n τ_n),   S2(θ) = Σ (2n+1)/(n(n+1)) (a_n τ_n + b_n π_n),
 *
 * with the angular functions π_n = P_n¹(cos θ)/sin θ and τ_n = dP_n¹(cos θ)/dθ by upward
 * recurrence in μ = cos θ (§4.3; stable for all θ, with no division by sin θ):
 *
 *   π_n = ((2n−1)/(n−1)) μ π_{n−1} − (n/(n−1)) π_{n−2},   π_0 = 0, π_1 = 1,
 *   τ_n = n μ π_n − (n+1) π_{n−1}.
 *
 * The scattered field far away is E_∥s = e^{ikr}/(−ikr) S2 E_∥i, E_⊥s = e^{ikr}/(−ikr) S1 E_⊥i
 * (§3.2 and §4.4; ∥ and ⊥ to the scattering plane through the incident direction and r̂).
 * @param relativeIndex m = n_sphere / n_medium (Im m ≥ 0)
 * @param sizeParameter x = 2π r n_medium / λ0
 * @param thetaRad scattering angles from the incident direction (rad)
 */
export function mieAmplitudes(
  relativeIndex: Complex | number,
  sizeParameter: number,
  thetaRad: readonly number[],
): MieAmplitudes {
  return amplitudesFrom(mieCoefficients(relativeIndex, sizeParameter), thetaRad);
}

function amplitudesFrom({ a, b }: MieCoefficients, thetaRad: readonly number[]): MieAmplitudes {
  const out: MieAmplitudes = { s1: [], s2: [] };
  for (const theta of thetaRad) {
    if (!Number.isFinite(theta))
      throw new RangeError(`scattering angle must be finite, got ${theta}`);
    const mu = Math.cos(theta);
    let piPrev = 0;
    let pi = 1;
    let s1 = cx(0);
    let s2 = cx(0);
    for (let n = 1; n <= a.length; n++) {
      if (n > 1) {
        const next = ((2 * n - 1) / (n - 1)) * mu * pi - (n / (n - 1)) * piPrev;
        piPrev = pi;
        pi = next;
      }
      const tau = n * mu * pi - (n + 1) * piPrev;
      const w = (2 * n + 1) / (n * (n + 1));
      const an = a[n - 1];
      const bn = b[n - 1];
      s1 = add(s1, scale(add(scale(an, pi), scale(bn, tau)), w));
      s2 = add(s2, scale(add(scale(an, tau), scale(bn, pi)), w));
    }
    out.s1.push(s1);
    out.s2.push(s2);
  }
  return out;
}

/** A scattering direction about the incident wave, for `mieDifferentialCrossSection`. */
export interface ScatteringDirection {
  /** Angle from the propagation direction (rad). */
  thetaRad: number;
  /** Azimuth about the propagation direction, from the incident E (rad). */
  phiRad: number;
}

/**
 * The differential scattering cross-section dσ/dΩ in m²/sr of a sphere of given radius under
 * a plane wave linearly polarised along φ = 0 (Bohren & Huffman §3.2, §4.4):
 *
 *   dσ/dΩ(θ, φ) = (|S2(θ)|² cos²φ + |S1(θ)|² sin²φ) / k²,   k = 2π n_medium / λ0,
 *
 * the scattered radiant intensity over the incident irradiance. Its integral over the sphere
 * is C_sca (mieSphere's cScaM2).
 * @param radiusM sphere radius in metres
 * @param wavelengthM vacuum wavelength in metres
 * @param sphereIndex complex index n + i k of the sphere (k ≥ 0)
 * @param directions θ from the propagation direction, φ from the incident E (rad)
 * @param mediumIndex real index of the surrounding medium (default 1)
 */
export function mieDifferentialCrossSection(
  radiusM: number,
  wavelengthM: number,
  sphereIndex: Complex | number,
  directions: readonly ScatteringDirection[],
  mediumIndex = 1,
): number[] {
  if (!(radiusM > 0 && wavelengthM > 0 && mediumIndex > 0)) {
    throw new RangeError("radius, wavelength and medium index must be > 0");
  }
  const index = typeof sphereIndex === "number" ? cx(sphereIndex) : sphereIndex;
  const k = (2 * Math.PI * mediumIndex) / wavelengthM;
  const { s1, s2 } = mieAmplitudes(
    scale(index, 1 / mediumIndex),
    k * radiusM,
    directions.map((d) => d.thetaRad),
  );
  return directions.map(({ phiRad }, i) => {
    const c = Math.cos(phiRad);
    const s = Math.sin(phiRad);
    return (abs2(s2[i]) * c * c + abs2(s1[i]) * s * s) / (k * k);
  });
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
