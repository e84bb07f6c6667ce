/**
 * How often the monitors' running DFT takes a sample.
 *
 * Summing F(t_m)·e^{iωt_m} over every k-th step with weight k is a Riemann sum with period
 * T = k·dt; by the Poisson summation formula it equals the continuous transform plus aliases
 * F(ω + l·Ω) with Ω = 2π/T, l ≠ 0. The fields are the source pulse filtered by a linear,
 * passive structure, so their spectrum is bounded by the pulse's Gaussian envelope
 * ∝ exp(−(ω−ω0)²τ²/4) (sources/pulse.ts) times the structure's response. The nearest alias of a
 * monitored ω comes from ω' = Ω − ω; requiring Ω ≥ ω_max + ω0 + X/τ with
 * X = 2·√ln(1/ε) puts every alias at least X/τ beyond the pulse's centre, where the envelope
 * is below ε = 1e-10 of its peak. Since every monitored frequency lies where the envelope is
 * at least e^{−3} of its peak (sources/pulse.ts's band), the relative error is below e³·ε ≈ 2e-9
 * times the ratio of the structure's response at the alias and at ω (1 for a lossless
 * layered medium away from resonances). What does fold in is float32 round-off: it is
 * white, about 2e-8 of the spectral peak at every frequency (measured on a slab run), and
 * decimating by k adds k − 1 such alias bands, so the sampled phasors differ from the
 * every-step ones by ≈ √(k−1)·2e-8 of the peak: 1e-7 of the peak, 5e-7 of the phasor at a
 * band edge (dft-cadence.test.ts). That is the level at which the two kernels differ anyway.
 *
 * A graded grid (mesh overrides) holds more of that round-off: waves above the highest
 * frequency its coarse cells carry cannot leave the fine region, so the noise there stays
 * instead of running out into the absorber. Decimated, it folded into the gold sphere's
 * flux-box phasors (10 nm cells graded to 5 nm) at 5e-7 per thousand steps, against 1e-7 on
 * the uniform 5 nm grid: above a 1e-6 convergence threshold, so that run never stopped.
 * Sampling every second step puts the alias of any frequency the grid carries (ω·dt ≤ 2·asin S
 * < π) at least π/dt − 2.86/dt = 0.28/dt away, beyond any band the checks allow, and the
 * floor came down to the static remainder's (9e-8, the same as sampling every step); so a
 * graded grid samples every step or every second one.
 *
 * k is also chosen to divide `check_every_n`, so each convergence check sees the same
 * number of new samples (a check that saw none would report zero change), and preferably
 * as a multiple of 4 or 2, the fast kernel's time steps per sweep.
 */
import type { PulseShape } from "./sources/pulse.js";

/** Envelope level (relative to its peak) beyond which aliases may fall. */
export const DFT_ALIAS_LEVEL = 1e-10;

/**
 * Steps between DFT samples (≥ 1) for a pulse, the recorded angular frequencies, the time
 * step and the convergence-check interval; at most 2 on a graded grid (above).
 */
export function dftSampleInterval(
  pulse: PulseShape,
  omegas: ArrayLike<number>,
  dtSeconds: number,
  checkEvery: number,
  graded = false,
): number {
  let omegaMax = pulse.omega0;
  for (let i = 0; i < omegas.length; i++) omegaMax = Math.max(omegaMax, omegas[i]);
  const x = 2 * Math.sqrt(Math.log(1 / DFT_ALIAS_LEVEL));
  const samplingOmega = omegaMax + pulse.omega0 + x / pulse.tau;
  const aliasFree = Math.floor((2 * Math.PI) / (samplingOmega * dtSeconds));
  const kMax = graded ? Math.min(2, aliasFree) : aliasFree;
  const limit = Math.max(1, Math.min(kMax, Math.floor(checkEvery)));
  let best = 1;
  let even = 0;
  let four = 0;
  for (let k = 2; k <= limit; k++) {
    if (checkEvery % k !== 0) continue;
    best = k;
    if (k % 2 === 0) even = k;
    if (k % 4 === 0) four = k;
  }
  // Multiples of 4 (or 2) let the fast kernel advance 4 (2) steps per sweep between samples
  // (wasm/sweep.ts); worth up to half the sampling saving.
  if (2 * four >= best) return four;
  if (2 * even >= best) return even;
  return best;
}
