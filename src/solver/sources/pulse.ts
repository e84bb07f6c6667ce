/**
 * The time profile every source shares: a Gaussian-modulated sine around the source
 * wavelength, g(t) ≈ exp(−((t−t0)/τ)²)·sin(ω0(t−t0)), whose spectrum is still e^{−3} ≈ 5 % of
 * its peak at ω0 ± Δω; Δω covers every monitor frequency (at least ±25 % of ω0). The sine
 * carrier makes g odd about t0, so it has no DC content. A source multiplies it into its
 * injection terms (injection.ts); the monitors divide its spectrum out again.
 */
import { SPEED_OF_LIGHT_M_PER_S } from "../constants.js";

export interface PulseShape {
  omega0: number;
  /** Gaussian width τ in seconds. */
  tau: number;
  /** Peak time t0 = 5τ in seconds. */
  t0: number;
  /** Half-width Δω of the band the spectrum covers (≥ 5 % of its peak). */
  bandwidth: number;
}

/** Largest relative detuning |ω − ω0|/ω0 of a monitor frequency the pulse can cover. */
export const MAX_RELATIVE_DETUNING = 0.5;

/**
 * Fraction of its peak below which the pulse's Gaussian envelope counts as off: what is left
 * of the pulse then changes the phasors by less than the ~1e-8 floor that float32 fields put
 * on the relative change. A run that stops earlier misses the rest of the pulse, and its
 * phasors are off by about the envelope's value at the stop (a 1-D vacuum column at 2 nm,
 * 1.55 µm, τ = 2990 steps, stopped with the envelope at 1, 3.9e-2, 7.1e-4, 1.2e-5 and 3.3e-7
 * of its peak: transmittance 0.879, 0.9961, 0.99960, 0.999992 and 1 − 4e-9).
 */
const SOURCE_OFF_ENVELOPE = 1e-8;

/**
 * The first time step at which the source pulse is fully injected: its envelope
 * exp(−((t−t0)/τ)²) has fallen below SOURCE_OFF_ENVELOPE, at t0 + τ·√ln(1/ε) ≈ t0 + 4.3τ
 * (9.3τ from the start, since t0 = 5τ). A run converges no earlier (run.ts stepToEnd).
 * @param dtSeconds the time step in seconds
 */
export function sourceOffStep(pulse: PulseShape, dtSeconds: number): number {
  const offSeconds = pulse.t0 + pulse.tau * Math.sqrt(Math.log(1 / SOURCE_OFF_ENVELOPE));
  return Math.ceil(offSeconds / dtSeconds);
}

/**
 * The pulse for a run: Δω covers every monitor frequency (at least ±25 % of ω0). For oblique
 * incidence with a fixed transverse wavevector the waves at ω near ω0·sin θ travel almost
 * parallel to the sheet and ring down very slowly, so τ is also made long enough that the
 * spectrum there is below e^{−16} ≈ 1e-7 of its peak; that narrows the band.
 * @param sinTheta sine of the angle between the direction and the sheet normal
 */
export function pulseFor(
  wavelengthM: number,
  monitorWavelengthsM: readonly number[],
  sinTheta = 0,
): PulseShape {
  const omega0 = (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / wavelengthM;
  let detune = 0;
  for (const w of monitorWavelengthsM) {
    const om = (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / w;
    detune = Math.max(detune, Math.abs(om - omega0));
  }
  const wanted = Math.max(0.25 * omega0, 1.1 * detune);
  const tauCutoff = sinTheta > 0 ? 8 / (omega0 * (1 - sinTheta)) : 0;
  const tau = Math.max((2 * Math.sqrt(3)) / wanted, tauCutoff);
  return { omega0, tau, t0: 5 * tau, bandwidth: (2 * Math.sqrt(3)) / tau };
}

export function pulseValue(p: PulseShape, t: number): number {
  const u = t - p.t0;
  return Math.exp(-((u / p.tau) ** 2)) * Math.sin(p.omega0 * u);
}

/**
 * The current's sample for the step from t to t + dt (a plane wave's sheet, a dipole): the difference quotient of
 * P(t) = −exp(−((t−t0)/τ)²)·cos(ω0(t−t0))/ω0, whose derivative is g(t) up to O(1/(ω0τ)).
 * Being a difference, the samples sum to zero exactly (to e^{−25}), so a sheet whose current
 * has a divergence (tm at oblique incidence) leaves no static charge behind, whose field
 * would otherwise keep the monitors' DFT from converging.
 */
export function currentSample(p: PulseShape, t: number, dt: number): number {
  const P = (x: number) => {
    const u = x - p.t0;
    return (-Math.exp(-((u / p.tau) ** 2)) * Math.cos(p.omega0 * u)) / p.omega0;
  };
  return (P(t + dt) - P(t)) / dt;
}
