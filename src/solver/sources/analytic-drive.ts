/**
 * The drive of a source whose incident field is a fixed complex profile P on a plane times the
 * shared pulse (pulse.ts) as an analytic signal c(t) = e(t)·e^{−iω0(t−t0)}: the incident field
 * is Re[P·c(t)], two real terms per component (Re P driven by Re c, −Im P by Im c). Slots 0
 * and 1 carry c at E's times n·dt (for the H terms, which the incident E drives), slots 2 and 3
 * c at H's times (n + ½)·dt, advanced by `hAdvanceSeconds` (for the E terms: a source whose
 * incident H sits upstream of its E can give it the time the wave takes over that distance).
 *
 * The H terms may also carry a spectral factor κ(ω) (mode-impedance.ts), a polynomial in
 * δ = (ω − ω0)/ω0: multiplying c's spectrum by ω − ω0 is taking i·e′(t)·e^{−iω0(t−t0)}, so
 * κ(δ) becomes κ0 + κ1·i·e′/(e·ω0) − κ2·e″/(e·ω0²) times c, in closed form for the Gaussian e.
 *
 * Normalisation: the spectrum C(ω) = Σ c(n·dt)·e^{iωn·dt} of the signal at E's times is
 * accumulated as the run goes; Re[P·c] carries P·c/2 at positive frequencies, so monitors
 * multiplied by 2/C(ω) read the fields of the profile P itself. Used by the Gaussian beam
 * (gaussian-beam.ts) and the mode source (mode.ts).
 */
import { DRIVE_VALUES_PER_STEP } from "./injection.js";
import type { SpectralFactor } from "./mode-impedance.js";
import type { PulseShape } from "./pulse.js";

type Pair = readonly [number, number];

export class AnalyticDrive {
  private readonly spectrum: Float64Array;
  /** κ0, κ1, κ2 of the H terms' spectral factor, [re, im] each (zero past its degree). */
  private readonly kappa: readonly [Pair, Pair, Pair];

  constructor(
    private readonly pulse: PulseShape,
    private readonly omegas: Float64Array,
    private readonly dtSeconds: number,
    private readonly hAdvanceSeconds = 0,
    hFactor: SpectralFactor = [[1, 0]],
  ) {
    this.spectrum = new Float64Array(2 * omegas.length);
    const [k0 = [1, 0], k1 = [0, 0], k2 = [0, 0]] = hFactor;
    this.kappa = [k0, k1, k2];
  }

  /** c(t) as [Re, Im]. */
  private signal(t: number): [number, number] {
    const { omega0, t0, tau } = this.pulse;
    const envelope = Math.exp(-(((t - t0) / tau) ** 2));
    return [envelope * Math.cos(omega0 * (t - t0)), -envelope * Math.sin(omega0 * (t - t0))];
  }

  /** c(t) times κ in the time domain (see above), as [Re, Im]. */
  private factoredSignal(t: number): [number, number] {
    const [cr, ci] = this.signal(t);
    const { omega0, t0, tau } = this.pulse;
    const u = t - t0;
    // e′/(e·ω0) and e″/(e·ω0²) of e = exp(−(u/τ)²).
    const d1 = (-2 * u) / (tau * tau * omega0);
    const d2 = ((4 * u * u) / tau ** 4 - 2 / (tau * tau)) / (omega0 * omega0);
    const [k0, k1, k2] = this.kappa;
    // κ0 + κ1·i·d1 − κ2·d2
    const qr = k0[0] - k1[1] * d1 - k2[0] * d2;
    const qi = k0[1] + k1[0] * d1 - k2[1] * d2;
    return [qr * cr - qi * ci, qr * ci + qi * cr];
  }

  /** The drive values of steps n … n + count − 1 (Source.advance). */
  advance(n: number, count: number, drive: Float64Array): void {
    const dt = this.dtSeconds;
    const omegas = this.omegas;
    for (let l = 0; l < count; l++) {
      const tE = (n + l) * dt;
      const [er, ei] = this.signal(tE);
      const [hr, hi] = this.factoredSignal(tE + dt / 2 + this.hAdvanceSeconds);
      const at = DRIVE_VALUES_PER_STEP * l;
      drive.fill(0, at, at + DRIVE_VALUES_PER_STEP);
      drive[at] = er;
      drive[at + 2] = ei;
      drive[at + 4] = hr;
      drive[at + 6] = hi;
      for (let w = 0; w < omegas.length; w++) {
        const [c, s] = [Math.cos(omegas[w]! * tE), Math.sin(omegas[w]! * tE)];
        this.spectrum[2 * w] += er * c - ei * s;
        this.spectrum[2 * w + 1] += er * s + ei * c;
      }
    }
  }

  /** 2/C(ω) per recorded frequency, interleaved (re, im): monitors then read P's fields. */
  normalisation(): Float64Array {
    const out = new Float64Array(this.spectrum.length);
    for (let w = 0; w < out.length / 2; w++) {
      const [re, im] = [this.spectrum[2 * w]!, this.spectrum[2 * w + 1]!];
      const mag2 = re * re + im * im;
      if (mag2 === 0) continue;
      out[2 * w] = (2 * re) / mag2;
      out[2 * w + 1] = (-2 * im) / mag2;
    }
    return out;
  }
}
