/** One solved mode of a plane at one wavelength (solve.ts finds them; mode-cache.ts keeps them). */
import type { ModeFields } from "./fields.js";

export interface SolvedMode {
  wavelength_m: number;
  mode_index: number;
  n_eff: number;
  /** Im n_eff: > 0 for a mode that decays as it propagates (loss, leakage, bend radiation). */
  k_eff: number;
  te_fraction: number;
  group_index?: number;
  /** The six components, normalised to 1 W through the plane. */
  fields: ModeFields;
}

/**
 * A mode past cut-off: β mostly imaginary (n_eff below |k_eff|). It carries no power along
 * the plane's normal, so neither a group index nor an amplitude "for 1 W" means anything.
 */
export function isEvanescent(mode: Pick<SolvedMode, "n_eff" | "k_eff">): boolean {
  return mode.n_eff < Math.abs(mode.k_eff);
}
