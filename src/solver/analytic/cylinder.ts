/**
 * Scattering by an infinite homogeneous cylinder of real relative index m under a plane wave
 * normal to its axis: the 2-D analogue of the Mie series (mie.ts), the reference a 2-D
 * cross-section's far field (far-field-cross-section.ts) is validated against.
 *
 * Bohren & Huffman, "Absorption and Scattering of Light by Small Particles", §8.4, with
 * x = k·r (k the medium's wavenumber) and H_n = J_n + i·Y_n (outgoing for e^{−iωt}):
 *
 *   E along the axis:   b_n = [J_n(mx) J_n′(x) − m J_n′(mx) J_n(x)] / [J_n(mx) H_n′(x) − m J_n′(mx) H_n(x)]
 *   H along the axis:   a_n = [m J_n′(x) J_n(mx) − J_n(x) J_n′(mx)] / [m J_n(mx) H_n′(x) − J_n′(mx) H_n(x)]
 *
 * with c_{−n} = c_n. The scattered field far away is E0·√(2/(πkρ))·e^{i(kρ − π/4)}·T(θ), with
 * T(θ) = c_0 + 2 Σ_{n≥1} c_n cos(nθ) and θ the angle from the incident direction, so the
 * differential scattering width (per unit length of the cylinder) is dσ/dθ = 2|T(θ)|²/(πk) and
 * its integral σ_sca = (4/k) Σ_{all n} |c_n|² = Q_sca·2r; extinction, by the optical theorem,
 * σ_ext = (4/k) Re T(0).
 *
 * Bessel functions of real argument: J_n by Miller's downward recurrence normalised with
 * J_0 + 2 Σ J_{2k} = 1; Y_0 and Y_1 from their integral representations (Watson §6.21),
 * Y_n = (1/π)∫_0^π sin(x sin τ − nτ) dτ − (1/π)∫_0^∞ (e^{nt} + (−1)^n e^{−nt}) e^{−x sinh t} dt,
 * by Simpson's rule, and Y_n upwards (stable for Y).
 */
import { type Complex, abs2, add, cx, div, scale, sub } from "./complex.js";

/** J_0(x) … J_count−1(x) for real x > 0. */
export function besselJ(x: number, count: number): Float64Array {
  const start = 2 * Math.ceil((Math.max(count, x) + 20 + Math.sqrt(40 * Math.max(count, x))) / 2);
  const j = new Float64Array(start + 2);
  j[start] = 1e-30;
  for (let k = start; k >= 1; k--) {
    j[k - 1] = ((2 * k) / x) * j[k]! - j[k + 1]!;
    if (Math.abs(j[k - 1]!) > 1e250) for (let q = k - 1; q <= start; q++) j[q]! *= 1e-250;
  }
  let norm = j[0]!;
  for (let k = 2; k <= start; k += 2) norm += 2 * j[k]!;
  return Float64Array.from({ length: count }, (_, k) => j[k]! / norm);
}

/** ∫_a^b f by Simpson's rule over `intervals` (even) pieces. */
function simpson(f: (t: number) => number, a: number, b: number, intervals: number): number {
  const h = (b - a) / intervals;
  let sum = f(a) + f(b);
  for (let i = 1; i < intervals; i++) sum += (i % 2 === 1 ? 4 : 2) * f(a + i * h);
  return (sum * h) / 3;
}

/** Y_0(x) or Y_1(x) for real x > 0 from the integral representation (header). */
function besselYLow(n: 0 | 1, x: number): number {
  const oscillating = simpson((t) => Math.sin(x * Math.sin(t) - n * t), 0, Math.PI, 4000);
  // e^{nt − x sinh t} < e^{−60} past T.
  let end = 1;
  while (x * Math.sinh(end) - n * end < 60) end *= 1.25;
  const sign = n === 0 ? 1 : -1;
  const decaying = simpson(
    (t) => (Math.exp(n * t) + sign * Math.exp(-n * t)) * Math.exp(-x * Math.sinh(t)),
    0,
    end,
    8000,
  );
  return (oscillating - decaying) / Math.PI;
}

/** Y_0(x) … Y_count−1(x) for real x > 0. */
export function besselY(x: number, count: number): Float64Array {
  const y = new Float64Array(Math.max(count, 2));
  y[0] = besselYLow(0, x);
  y[1] = besselYLow(1, x);
  for (let n = 1; n + 1 < count; n++) y[n + 1] = ((2 * n) / x) * y[n]! - y[n - 1]!;
  return y.subarray(0, count);
}

/** f_n′ = f_{n−1} − (n/x)·f_n, with f_0′ = −f_1 (J and Y alike); f has one order to spare. */
function derivatives(f: Float64Array, x: number, count: number): Float64Array {
  return Float64Array.from({ length: count }, (_, n) =>
    n === 0 ? -f[1]! : f[n - 1]! - (n / x) * f[n]!,
  );
}

export type CylinderPolarization = "e_parallel" | "h_parallel";

export interface CylinderScattering {
  /** c_0 … c_N: b_n for E along the axis, a_n for H along it. */
  coefficients: Complex[];
  /** k·r. */
  sizeParameter: number;
  /** Scattering and extinction widths per unit length (m). */
  scatteringWidthM: number;
  extinctionWidthM: number;
  /** dσ/dθ (m/rad) at the scattering angle θ (rad) from the incident direction. */
  differentialWidth(thetaRad: number): number;
}

/**
 * The series for a cylinder of radius r (m) and relative index m (n_cylinder / n_medium) at
 * the wavelength λ in the medium (m).
 */
export function cylinderScattering(
  radiusM: number,
  relativeIndex: number,
  mediumWavelengthM: number,
  polarization: CylinderPolarization,
): CylinderScattering {
  const k = (2 * Math.PI) / mediumWavelengthM;
  const x = k * radiusM;
  const m = relativeIndex;
  const count = Math.round(x + 4 * Math.cbrt(x) + 2) + 1;
  const [jx, yx, jmx] = [besselJ(x, count + 1), besselY(x, count + 1), besselJ(m * x, count + 1)];
  const [djx, dyx, djmx] = [
    derivatives(jx, x, count),
    derivatives(yx, x, count),
    derivatives(jmx, m * x, count),
  ];
  const coefficients = Array.from({ length: count }, (_, n) => {
    const h = cx(jx[n]!, yx[n]!);
    const dh = cx(djx[n]!, dyx[n]!);
    if (polarization === "e_parallel") {
      const num = jmx[n]! * djx[n]! - m * djmx[n]! * jx[n]!;
      return div(cx(num), sub(scale(dh, jmx[n]!), scale(h, m * djmx[n]!)));
    }
    const num = m * djx[n]! * jmx[n]! - jx[n]! * djmx[n]!;
    return div(cx(num), sub(scale(dh, m * jmx[n]!), scale(h, djmx[n]!)));
  });
  const amplitude = (theta: number) =>
    coefficients.reduce(
      (t, c, n) => add(t, scale(c, n === 0 ? 1 : 2 * Math.cos(n * theta))),
      cx(0),
    );
  const sumSquares = coefficients.reduce((s, c, n) => s + (n === 0 ? 1 : 2) * abs2(c), 0);
  return {
    coefficients,
    sizeParameter: x,
    scatteringWidthM: (4 / k) * sumSquares,
    extinctionWidthM: (4 / k) * amplitude(0).re,
    differentialWidth: (theta) => (2 * abs2(amplitude(theta))) / (Math.PI * k),
  };
}
