/**
 * The pole models of the materials library (materials.ts), by name, for the time-domain
 * update; and how each dielectric's model was fitted, so that the fit can be re-run
 * (scripts/fit-materials.ts prints the library's numbers, library.test.ts checks them).
 */
import { PerfectConductorError, UnknownMaterialError, findMaterial } from "../materials.js";
import type { PoleModel } from "./model.js";

/**
 * The pole model of a library material (canonical name or alias, case-insensitive): ε∞, σ and
 * Lorentz/Drude poles in rad/s (model.ts). It reproduces the material's published n + i k to
 * within `maxFitErrorN` / `maxFitErrorK` over `fitWindowM` (see the OpticalMaterialEntry).
 * @throws UnknownMaterialError for an unknown name
 * @throws PerfectConductorError for PEC, which no pole model stands for (medium.ts holds E at
 *   zero in it)
 */
export function poleModelOf(name: string): PoleModel {
  const entry = findMaterial(name);
  if (entry === undefined) throw new UnknownMaterialError(name);
  if (entry.perfectConductor) throw new PerfectConductorError(entry.name);
  return entry.dispersion;
}

/**
 * Pole counts of the least-squares fits (fit.ts) behind the library's dielectric models: the
 * fewest ultraviolet (uv) and infrared (ir) Lorentz poles that follow the published n(λ) over
 * the whole valid range to ≲ 2×10⁻³, the spread between independent measurements of the same
 * material. Materials whose published formula already is ε∞ plus at most two Lorentz poles
 * resonant at ≥ 0.1 µm (TiO2, Si3N4, InP) use it exactly and are not listed; nor are vacuum
 * and the metals (published Lorentz–Drude models, or fitted to measured data below).
 */
export const LIBRARY_FITS: Readonly<Record<string, { uvPoles: number; irPoles: number }>> = {
  air: { uvPoles: 1, irPoles: 0 },
  Si: { uvPoles: 1, irPoles: 0 },
  SiO2: { uvPoles: 1, irPoles: 1 },
  Al2O3: { uvPoles: 1, irPoles: 1 },
  LiNbO3: { uvPoles: 1, irPoles: 1 },
  LiNbO3_e: { uvPoles: 1, irPoles: 1 },
  GaAs: { uvPoles: 1, irPoles: 1 },
  Ge: { uvPoles: 1, irPoles: 0 },
};

/**
 * Pole counts of the Drude–Lorentz fits (fit.ts, fitDrudeLorentzModel) behind the library's
 * metals that are measured tables rather than published pole models, fitted to the entry's
 * `fitData`: the fewest Lorentz poles beside the Drude pole that follow the data to about 1.5 %
 * of |n + i k| (TiN: one Lorentz pole misses by 0.15 in n, two by 0.034, three by 0.015).
 */
export const LIBRARY_MEASURED_FITS: Readonly<Record<string, { lorentzPoles: number }>> = {
  TiN: { lorentzPoles: 2 },
};
