/**
 * A flux monitor's spectrum as a table of numbers — `emsim inspect` prints it, the dashboard's
 * Spectra section lists it under the plot: λ, the normalised flux (a box's net outflow), and a
 * box's cross-sections.
 */
import type { Spectrum } from "../results/read.js";

/**
 * A flux column's heading. "power" is over the source's own reference power — a dipole's in
 * vacuum, a beam's, a mode source's 1 W (solver/flux-results.ts) — so the heading names the
 * source, not vacuum, which only a dipole's is.
 */
function fluxHeader(quantity: string): string {
  if (quantity === "box") return "net outflow (m²)";
  return quantity === "power" ? "P/P_source" : quantity;
}

/** The header row, then one row per wavelength, every cell already rounded. */
export function spectrumTable(s: Spectrum): string[][] {
  const cs = s.crossSections;
  const header = ["λ (µm)", fluxHeader(s.quantity)];
  if (cs) header.push("σ_ext (m²)", "σ_sca (m²)", "σ_abs (m²)");
  // Fractions of the incident power to 5 decimals; areas, which span decades, in exponent form.
  const g = (v: number) => (s.quantity === "box" || cs ? v.toExponential(4) : v.toFixed(5));
  return [
    header,
    ...s.wavelengthsM.map((w, i) => [
      String(Number((w * 1e6).toPrecision(4))),
      g(s.flux[i]!),
      ...(cs
        ? [cs.scattering[i]! + cs.absorption[i]!, cs.scattering[i]!, cs.absorption[i]!].map((v) =>
            v.toExponential(4),
          )
        : []),
    ]),
  ];
}
