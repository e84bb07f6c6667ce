/**
 * Oblique incidence from a denser medium onto a less dense one (glass onto vacuum past
 * 41.8°): with the transverse wavevector fixed, the wave beyond the interface is evanescent
 * from the wavelength λ_g = λ0·n_low/(n_source·sin θ0) on (total internal reflection), and near
 * λ_g it runs grazing along the interface. There a run neither converges nor has its field
 * absorbed well (the evanescent tail reaches the absorber; the grazing wave never leaves):
 * an outside check read R from 0.91 to 1.51 where R = 1 is exact. The source's pulse is
 * narrowed against grazing in its own medium only (pulse.ts), so the run report says so.
 */

/** From this fraction of λ_g on, a monitored wavelength counts as near grazing. */
const NEAR_GRAZING = 0.95;

export interface GrazingCase {
  /** Re n of the medium at the source plane, and the lower of the half-spaces the axis ends in. */
  sourceIndex: number;
  lowestIndex: number;
  /** sin θ0 in the source's medium, and the source's wavelength. */
  sinTheta: number;
  wavelengthM: number;
  /** Every recorded wavelength. */
  wavelengthsM: readonly number[];
}

/** The run report's note, or null where no recorded wavelength comes near grazing. */
export function grazingNote(c: GrazingCase): string | null {
  if (!(c.sinTheta > 0) || !(c.lowestIndex < c.sourceIndex * (1 - 1e-9))) return null;
  const grazingM = (c.wavelengthM * c.lowestIndex) / (c.sourceIndex * c.sinTheta);
  const longest = Math.max(...c.wavelengthsM);
  if (longest < NEAR_GRAZING * grazingM) return null;
  const deg = (x: number) => ((Math.asin(Math.min(1, x)) * 180) / Math.PI).toFixed(1);
  const m = (x: number) => Number(x.toPrecision(4)).toExponential();
  return (
    `incident at ${deg(c.sinTheta)}° from a medium of index ${c.sourceIndex.toFixed(3)} onto ` +
    `one of index ${c.lowestIndex.toFixed(3)} (critical angle ${deg(c.lowestIndex / c.sourceIndex)}° ` +
    `at the source wavelength): from about ${m(grazingM)} m on the wave is evanescent beyond that ` +
    `interface, and near ${m(grazingM)} m it runs grazing along it, which neither converges nor ` +
    'is absorbed well, so results near it are unreliable (docs/solver.md, "Beyond a critical ' +
    "angle\"): keep it out of the monitors' band, and the absorber several decay lengths from " +
    "the interface"
  );
}
