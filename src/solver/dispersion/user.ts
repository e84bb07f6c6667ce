/**
 * Materials defined in a request (`materials`: ε∞, σ and Lorentz/Drude poles in rad/s) as the
 * solver resolves names: a resolver that looks there first and then in the library.
 */
import { SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import type { MaterialResolver } from "../simulation.js";
import type { UserMaterialSpec } from "../types.js";
import { permittivity, type PoleModel } from "./model.js";

/** The multi-pole model of a request's material. */
export function userPoleModel(spec: UserMaterialSpec): PoleModel {
  return {
    epsInf: spec.permittivity ?? 1,
    sigma: spec.conductivity ?? 0,
    poles: (spec.poles ?? []).map((p) =>
      p.type === "lorentz"
        ? { kind: "lorentz", deltaEps: p.delta_eps, omega0: p.omega0, gamma: p.gamma }
        : { kind: "drude", omegaP: p.omega_p, gamma: p.gamma },
    ),
  };
}

function describeModel(m: PoleModel): string {
  const parts = [`ε∞ = ${m.epsInf}`];
  if (m.sigma > 0) parts.push(`σ = ${m.sigma} S/m`);
  const lorentz = m.poles.filter((p) => p.kind === "lorentz").length;
  const drude = m.poles.length - lorentz;
  if (lorentz > 0) parts.push(`${lorentz} Lorentz pole${lorentz > 1 ? "s" : ""}`);
  if (drude > 0) parts.push(`${drude} Drude pole${drude > 1 ? "s" : ""}`);
  return `defined in the request: ${parts.join(", ")}`;
}

/** `base` with the request's materials in front (names matched case-insensitively). */
export function withUserMaterials(
  base: MaterialResolver,
  defined: Record<string, UserMaterialSpec> | undefined,
): MaterialResolver {
  const entries = Object.entries(defined ?? {});
  if (entries.length === 0) return base;
  const models = new Map(
    entries.map(([name, spec]) => [name.toLowerCase(), { name, model: userPoleModel(spec) }]),
  );
  const find = (name: string) => models.get(name.trim().toLowerCase());
  return {
    describe: (name) => {
      const hit = find(name);
      if (!hit) return base.describe(name);
      return {
        name: hit.name,
        model: describeModel(hit.model),
        reference: "user-defined (request)",
        validRangeM: [0, Number.MAX_VALUE],
      };
    },
    permittivity: (name, wavelengthM) => {
      const hit = find(name);
      if (!hit) return base.permittivity(name, wavelengthM);
      return permittivity(hit.model, (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / wavelengthM);
    },
    dispersion: (name) => {
      const hit = find(name);
      // Stepped exactly at every wavelength: σ is constant in the time domain, poles by ADE.
      return hit ? { model: hit.model, always: true } : base.dispersion?.(name);
    },
  };
}
