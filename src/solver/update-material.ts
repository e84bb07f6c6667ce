/**
 * What a material name becomes in the update (and in the run report), decided in one place
 * for the FDTD run (simulation.ts) and for the mode solver's cross-sections
 * (modes/plane-medium.ts), so that a mode launched into the grid is the grid's own mode.
 *
 * The rule: PEC is a perfect conductor (no permittivity); a material with a pole model is
 * stepped with its poles when the run records more than one wavelength (`broadband`) or when
 * the model must always be used (metals: Re ε < 0 has no constant form); otherwise with the
 * constant ε it has at the source wavelength, its loss as a conductivity at that frequency.
 */
import { EPS0, SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import type { PoleModel } from "./dispersion/model.js";
import { PERFECT_CONDUCTOR, type UpdateMaterial } from "./medium.js";
import type { MaterialUsed } from "./types.js";

/** Where the solver gets materials from; the default is the materials library. */
export interface MaterialResolver {
  /** `perfectConductor`: PEC, which has no permittivity; the update holds E at zero in it. */
  describe(name: string):
    | {
        name: string;
        model: string;
        reference: string;
        validRangeM: [number, number];
        perfectConductor?: boolean;
      }
    | undefined;
  /** Relative permittivity (Im ≥ 0 for loss); throws outside the valid range. */
  permittivity(name: string, wavelengthM: number): { re: number; im: number };
  /**
   * The material's multi-pole model for the time-domain update, if it has one; `always`
   * when it must be used even at a single wavelength (metals: Re ε < 0 has no constant form).
   */
  dispersion?(name: string): { model: PoleModel; always: boolean } | undefined;
}

export interface ResolvedMaterial {
  mat: UpdateMaterial;
  info: MaterialUsed;
}

/** The update material and the report entry of `name` for a run at `lambda0` (metres). */
export function resolveUpdateMaterial(
  materials: MaterialResolver,
  name: string,
  lambda0: number,
  broadband: boolean,
): ResolvedMaterial {
  const info = materials.describe(name);
  if (!info) throw new Error(`unknown material "${name}"`);
  if (info.perfectConductor) {
    const { model, reference, validRangeM } = info;
    return {
      mat: PERFECT_CONDUCTOR,
      info: {
        name: info.name,
        timeDomain: "perfect_conductor",
        model,
        reference,
        validRangeM: [validRangeM[0], validRangeM[1]],
      },
    };
  }
  const omega0 = (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / lambda0;
  const eps = materials.permittivity(name, lambda0);
  const dispersion = materials.dispersion?.(name);
  const model = dispersion && (dispersion.always || broadband) ? dispersion.model : null;
  const mat: UpdateMaterial = model
    ? { epsRe: model.epsInf, sigma: model.sigma, poles: model.poles, referenceOmega: omega0 }
    : { epsRe: eps.re, sigma: omega0 * EPS0 * eps.im };
  return {
    mat,
    info: {
      name: info.name,
      permittivity: [eps.re, eps.im],
      timeDomain: model && model.poles.length > 0 ? "poles" : "constant",
      poleModel: model,
      conductivitySPerM: mat.sigma,
      model: info.model,
      reference: info.reference,
      validRangeM: [info.validRangeM[0], info.validRangeM[1]],
    },
  };
}
