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
export function evaluate(factor: SpectralFactor, delta: number): [number, number] {
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
 * distinct δ are given; solved in δ scaled to at most 1, for conditioning.
 */
function fitPolynomial(deltas: number[], ys: [number, number][]): SpectralFactor {
  const distinct = new Set(deltas).size;
  const degree = Math.min(2, distinct - 1);
  const scale = Math.max(...deltas.map(Math.abs)) || 1;
  const n = degree + 1;
  const ata = Array.from({ length: n }, () => new Float64Array(n));
  const aty = Array.from({ length: n }, () => [0, 0]);
  deltas.forEach((d, p) => {
    const powers = Array.from({ length: n }, (_, k) => (d / scale) ** k);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) ata[i]![j] += powers[i]! * powers[j]!;
      aty[i]![0] += powers[i]! * ys[p]![0];
      aty[i]![1] += powers[i]! * ys[p]![1];
    }
  });
  const re = solveSmall(
    ata,
    aty.map((v) => v[0]!),
  );
  const im = solveSmall(
    ata,
    aty.map((v) => v[1]!),
  );
  return re.map((r, k) => [r / scale ** k, im[k]! / scale ** k] as const);
}

/** Gaussian elimination with partial pivoting of a small dense system (copies its input). */
function solveSmall(matrix: Float64Array[], rhs: number[]): number[] {
  const n = rhs.length;
  const a = matrix.map((row, i) => [...row, rhs[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[pivot]![c]!)) pivot = r;
    [a[c], a[pivot]] = [a[pivot]!, a[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = a[r]![c]! / a[c]![c]!;
      for (let k = c; k <= n; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = a[r]![n]!;
    for (let k = r + 1; k < n; k++) sum -= a[r]![k]! * x[k]!;
    x[r] = sum / a[r]![r]!;
  }
  return x;
}
