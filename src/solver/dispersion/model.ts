/**
 * Multi-pole permittivity models: the form in which a dispersive material enters the
 * time-domain update.
 *
 *   ε(ω) = ε∞ + i σ/(ω ε0) + Σ_p χ_p(ω),   exp(−iωt) convention, so Im ε ≥ 0 for loss.
 *
 * Every pole is a damped oscillator of the polarisation P_p driven by the field,
 *
 *   ∂²P/∂t² + γ ∂P/∂t + ω0² P = ε0 a E,   χ(ω) = a / (ω0² − ω² − iγω),
 *
 * with a = Δε ω0² for a Lorentz pole and a = ωp², ω0 = 0 for a Drude pole. Angular
 * frequencies are in rad/s, σ in S/m.
 */
import { EPS0 } from "../constants.js";

export type Pole =
  /** Δε ω0² / (ω0² − ω² − iγω). */
  | { kind: "lorentz"; deltaEps: number; omega0: number; gamma: number }
  /** −ωp² / (ω² + iγω). */
  | { kind: "drude"; omegaP: number; gamma: number };

export interface PoleModel {
  epsInf: number;
  /** Static conductivity in S/m (0 for none). */
  sigma: number;
  poles: readonly Pole[];
}

export interface Complex {
  re: number;
  im: number;
}

/** The oscillator form of a pole: ω0², γ and the drive strength a (see the module comment). */
export function oscillator(pole: Pole): { omega0Sq: number; gamma: number; drive: number } {
  return pole.kind === "lorentz"
    ? {
        omega0Sq: pole.omega0 * pole.omega0,
        gamma: pole.gamma,
        drive: pole.deltaEps * pole.omega0 * pole.omega0,
      }
    : { omega0Sq: 0, gamma: pole.gamma, drive: pole.omegaP * pole.omegaP };
}

/** ε(ω) of a model at angular frequency ω > 0. */
export function permittivity(model: PoleModel, omega: number): Complex {
  let re = model.epsInf;
  let im = model.sigma / (omega * EPS0);
  for (const pole of model.poles) {
    const { omega0Sq, gamma, drive } = oscillator(pole);
    // a / (dr + i di) with dr = ω0² − ω², di = −γω.
    const dr = omega0Sq - omega * omega;
    const di = -gamma * omega;
    const d2 = dr * dr + di * di;
    re += (drive * dr) / d2;
    im -= (drive * di) / d2;
  }
  return { re, im };
}

/** Complex refractive index n + i k = √ε(ω), the root with k ≥ 0. */
export function refractiveIndex(model: PoleModel, omega: number): { n: number; k: number } {
  const { re, im } = permittivity(model, omega);
  const modulus = Math.hypot(re, im);
  const n = Math.sqrt((modulus + re) / 2);
  const k = Math.sqrt(Math.max(0, (modulus - re) / 2));
  return { n, k: im < 0 ? -k : k };
}
