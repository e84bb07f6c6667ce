/**
 * What keeps a mode source's wave out of the way it came, over the whole band.
 *
 * The source injects one profile P, the mode at λ0, at every frequency. At another frequency
 * the mode m(ω) differs from P (its shape, and most of all its E/H ratio, which follows
 * n_eff), and a pair (E_P, H_P) on the plane launches ¼(eh + he) of m(ω) forward and
 * ¼(he − eh) of it backward, where eh = ∫ E_P × H_m* and he = ∫ E_m* × H_P
 * (modes/overlap.ts overlapHalves). With H_P alone scaled by κ(ω) = eh/he the backward part is
 * gone. Across 1.5–1.6 µm a high-order mode's n_eff moves by a few per cent, and with κ = 1 its
 * backward wave reached −34 dB of the forward one at the band's edges (a 0.48 µm Si slab's
 * fourth mode; −55 dB for its first): it came back through every port upstream of its source
 * and was read as reflection.
 *
 * κ is known at the recorded wavelengths (their modes are solved anyway); the drive applies
 * the polynomial in δ = (ω − ω0)/ω0 fitted to them (least squares, degree up to 2), as
 * derivatives of the pulse's envelope (analytic-drive.ts), and the launched amplitude at each
 * recorded wavelength is the one that polynomial gives, so the monitors' normalisation stays
 * exact whatever is left of the fit's error.
 */
import type { PlaneWeights } from "../modes/fields.js";
import { linearLeastSquares } from "../least-squares.js";
import { overlapHalves } from "../modes/overlap.js";
import type { SolvedMode } from "../modes/solve.js";

/** Complex coefficients [re, im] of κ(δ) = Σ c_k δ^k, constant term first. */
export type SpectralFactor = readonly (readonly [number, number])[];

export interface BackwardFree {
  /** κ(δ) applied to the H terms' drive. */
  factor: SpectralFactor;
  /** ¼(eh + κ(δ)·he) per recorded wavelength, (re, im) interleaved: the mode launched. */
  launched: Float64Array;
}

/**
 * κ's polynomial and the launched amplitudes for the injected fields `injected` and the modes
 * `modes` at angular frequencies `omegas` (in the +normal frame; the ratio is the same turned
 * round).
 */
export function backwardFree(
  injected: SolvedMode["fields"],
  modes: readonly SolvedMode[],
  weights: PlaneWeights,
  omegas: ArrayLike<number>,
  omega0: number,
): BackwardFree {
  const halves = modes.map((m) => overlapHalves(injected, m.fields, weights));
  const deltas = modes.map((_, w) => (omegas[w]! - omega0) / omega0);
  const ratios = halves.map(({ eh, he }) => divide(eh, he));
  const factor = fitPolynomial(deltas, ratios);
  const launched = new Float64Array(2 * modes.length);
  halves.forEach(({ eh, he }, w) => {
    const k = evaluate(factor, deltas[w]!);
    launched[2 * w] = (eh[0] + k[0] * he[0] - k[1] * he[1]) / 4;
    launched[2 * w + 1] = (eh[1] + k[0] * he[1] + k[1] * he[0]) / 4;
  });
  return { factor, launched };
}

/** κ(δ) as [re, im]. */
function evaluate(factor: SpectralFactor, delta: number): [number, number] {
  let re = 0;
  let im = 0;
  for (let k = factor.length - 1; k >= 0; k--) {
    re = re * delta + factor[k]![0];
    im = im * delta + factor[k]![1];
  }
  return [re, im];
}

function divide(a: [number, number], b: [number, number]): [number, number] {
  const d = b[0] * b[0] + b[1] * b[1];
  if (d === 0) return [1, 0];
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d];
}

/**
 * Least squares of Σ c_k δ^k through the points (δ, y), of degree 2, or fewer where fewer
 * distinct δ are given; fitted in δ scaled to at most 1, for conditioning. The real and
 * imaginary parts are fitted apart (the powers of δ are real); κ = 1 where the fit is singular.
 */
function fitPolynomial(deltas: number[], ys: [number, number][]): SpectralFactor {
  const degree = Math.min(2, new Set(deltas).size - 1);
  const scale = Math.max(...deltas.map(Math.abs)) || 1;
  const rows = deltas.map((d) => Array.from({ length: degree + 1 }, (_, k) => (d / scale) ** k));
  const re = linearLeastSquares(
    rows,
    ys.map((y) => y[0]),
  );
  const im = linearLeastSquares(
    rows,
    ys.map((y) => y[1]),
  );
  if (!re || !im) return [[1, 0]];
  return re.map((r, k) => [r / scale ** k, im[k]! / scale ** k] as const);
}
