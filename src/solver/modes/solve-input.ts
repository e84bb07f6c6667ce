/**
 * What a mode solve is asked (solve.ts): the plane, its permittivity, the wavelengths and
 * DESIGN §10's mode_spec. A file of its own so that the helper thread's task
 * (solve-helper.ts) can name it without importing the solver.
 */
import type { ModeAxis, OperatorOptions, PlanePermittivity } from "./operator.js";

/** DESIGN §10's mode_spec (the bend goes to solveModes as `bend`: bendOf). */
export interface ModeSpec {
  num_modes?: number;
  /** Default: the largest refractive index on the plane. */
  target_neff?: number | null;
  /** `te`: E mostly along the plane's first axis u (te_fraction ≥ ½); `tm`: along v. */
  filter_pol?: "te" | "tm" | null;
}

export interface SolveModesInput {
  /** The plane's axes u and v (w = u × v is the propagation direction). */
  axes: [ModeAxis, ModeAxis];
  /** Permittivity per wavelength (a function lets the group index see material dispersion). */
  planeEps: PlanePermittivity | ((wavelengthM: number) => PlanePermittivity);
  wavelengths_m: readonly number[];
  mode_spec?: ModeSpec;
  bend?: OperatorOptions["bend"];
  /** Report the group index (energy velocity; lossless guides). */
  groupIndex?: boolean;
  /**
   * Set when (u, v, normal) is left-handed (e.g. a y-normal plane with u = x, v = z): H is
   * then negated so that the fields are those of the mode travelling along +normal.
   */
  leftHanded?: boolean;
  /** Threads the solve may use (default 1; see solvedPlanes). */
  threads?: number;
}
