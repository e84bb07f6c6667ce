/**
 * ε(ω) of one entry of the medium's table: its ε∞ and σ with the poles it carries, the
 * permittivity its cells are stepped with at angular frequency ω. `epsEff` alone is ε∞, which
 * for a material stepped with its dispersion (a run over a band) is not ε at any wavelength
 * (1.31 for SiO2's model, whose ε is 2.09 at 1.55 µm).
 */
import { permittivity, type Complex } from "./dispersion/model.js";
import type { Medium } from "./medium-types.js";

export function entryPermittivity(medium: Medium, entry: number, omega: number): Complex {
  return permittivity(
    {
      epsInf: medium.epsEff[entry]!,
      sigma: medium.sigma[entry]!,
      poles: medium.poles?.[entry] ?? [],
    },
    omega,
  );
}
