/**
 * The medium's tables as the update reads them (built by medium.ts). Declared apart from
 * medium.ts, which imports the ADE's coefficients (dispersion/ade.ts), so that ade.ts and the
 * backends name the tables without importing medium.ts.
 */
import type { Pole } from "./dispersion/model.js";

/** The material tables of a grid: per-cell table indices and per-entry update coefficients. */
export interface Medium {
  /** Per E component, table index per padded cell. */
  index: [Uint16Array, Uint16Array, Uint16Array];
  ca: Float64Array;
  cb: Float64Array;
  /**
   * Effective relative permittivity and conductivity of each table entry; 1 and 0 for a
   * perfect conductor's entry, whose E is zero (they weigh nothing in the field energy).
   */
  epsEff: Float64Array;
  sigma: Float64Array;
  /**
   * Per table entry, the poles its cells carry, each dispersive material's scaled by its
   * fill fraction (empty for none); null when no material has poles.
   */
  poles: (readonly Pole[])[] | null;
}
