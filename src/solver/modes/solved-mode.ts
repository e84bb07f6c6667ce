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
