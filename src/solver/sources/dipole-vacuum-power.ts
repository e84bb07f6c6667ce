/**
 * The power a point dipole radiates in vacuum: what its flux monitors are divided by
 * (flux-results.ts), so that a box around it in vacuum reads 1.
 *
 * In 3-D that is the lone dipole's, η0·k0²·m²/(12π) for a current moment m = I·ℓ. Along an
 * axis where the domain is periodic and one cell of length L thick (a 2-D cross-section) the
 * grid holds a row of dipoles L apart: a line source. With L below the wavelength only the
 * row's zeroth order radiates, η0·k0·m²/(8L) per period for a moment along the row (the 2-D
 * line current, I = m/L) and half that for one across it (its pattern is sin²φ about the
 * moment, in the plane). With two such axes (a 1-D column, cells of area A) the grid holds a
 * sheet of dipoles: a moment in the sheet drives a plane wave either way, η0·m²/(4A) per cell
 * (E = η0·K/2 each side, K = m/A); one along the column radiates nothing, which the checks
 * refuse (checks/point-dipole.ts). A magnetic moment's power is the same with 1/η0 for η0.
 */
import { ETA0, SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import { periodicThinAxes, type GridPlan } from "../grid.js";

export interface DipoleMoment {
  /** The moment's axis (0 x, 1 y, 2 z), whether magnetic, and its size (A·m or V·m). */
  axis: number;
  magnetic: boolean;
  moment: number;
}

/** The power of the dipole (and its periodic images) in vacuum at angular frequency ω, W. */
export function dipoleVacuumPowerW(plan: GridPlan, d: DipoleMoment, omega: number): number {
  const k0 = omega / SPEED_OF_LIGHT_M_PER_S;
  const m2 = d.moment * d.moment;
  const impedance = d.magnetic ? 1 / ETA0 : ETA0;
  const thin = periodicThinAxes(plan);
  const period = (a: number) => plan.axes[a].nodesM[1]! - plan.axes[a].nodesM[0]!;
  if (thin.length === 0) return (impedance * k0 * k0 * m2) / (12 * Math.PI);
  if (thin.length === 1) {
    const along = thin[0] === d.axis;
    return (impedance * k0 * m2) / ((along ? 8 : 16) * period(thin[0]!));
  }
  if (thin.length === 2 && thin.includes(d.axis)) {
    return (impedance * m2) / (4 * period(thin[0]!) * period(thin[1]!));
  }
  return 0;
}
