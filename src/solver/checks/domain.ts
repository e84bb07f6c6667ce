/**
 * Checks of `domain` and `fdtd_settings`: sizes, grid step, absorber, time stepping, and the
 * grid step's resolution of the shortest wavelength in the densest material.
 */
import { AXES, finite, fmt, type CheckContext } from "./common.js";

/** Fewest grid cells per wavelength in the densest material we accept. */
export const MIN_CELLS_PER_WAVELENGTH = 10;

/** `domain`: a positive grid step no larger than any extent, and pml layers where needed. */
export function checkDomain(ctx: CheckContext): void {
  const { spec, add, dx, size } = ctx;
  const { domain } = spec;
  if (!(finite(dx) && dx > 0)) add("domain.resolution", "must be a positive number of metres");
  for (let a = 0; a < 3; a++) {
    if (!(finite(size[a]) && size[a] > 0)) {
      add(`domain.size[${a}]`, "must be a positive number of metres");
    } else if (finite(dx) && dx > size[a] * (1 + 1e-9)) {
      add(
        "domain.resolution",
        `grid step ${fmt(dx)} m is larger than the domain extent along ${AXES[a]} ` +
          `(${fmt(size[a])} m); it must be at most the smallest extent`,
      );
    }
  }
  const hasPml = domain.boundary_conditions.includes("pml");
  if (hasPml && !(Number.isInteger(domain.pml_layers) && domain.pml_layers >= 1)) {
    add("domain.pml_layers", "must be an integer of at least 1 when a boundary is pml");
  }
}

/** `fdtd_settings`: the Courant factor, step counts and the convergence threshold. */
export function checkSettings(ctx: CheckContext): void {
  const { add } = ctx;
  const fdtd = ctx.spec.fdtd_settings;
  const S = fdtd.courant_factor;
  if (!(finite(S) && S > 0 && S <= 1)) {
    add("fdtd_settings.courant_factor", "must be in (0, 1] (dt = S·dx/(c·√3))");
  }
  if (!(Number.isInteger(fdtd.time_steps) && fdtd.time_steps >= 1)) {
    add("fdtd_settings.time_steps", "must be an integer of at least 1");
  }
  if (!(Number.isInteger(fdtd.check_every_n) && fdtd.check_every_n >= 1)) {
    add("fdtd_settings.check_every_n", "must be an integer of at least 1");
  }
  if (!(finite(fdtd.convergence_threshold) && fdtd.convergence_threshold >= 0)) {
    add("fdtd_settings.convergence_threshold", "must be at least 0 (0 turns early stopping off)");
  }
}

/**
 * `domain.resolution` against the shortest recorded wavelength in the densest material:
 * at least MIN_CELLS_PER_WAVELENGTH cells per wavelength.
 */
export function checkResolution(
  ctx: CheckContext,
  densest: { n: number; name: string },
  allWavelengths: number[],
): void {
  const { add, dx } = ctx;
  if (finite(dx) && dx > 0 && allWavelengths.length > 0) {
    const lambdaMin = Math.min(...allWavelengths);
    const cellsPerWavelength = lambdaMin / (densest.n * dx);
    if (cellsPerWavelength < MIN_CELLS_PER_WAVELENGTH) {
      add(
        "domain.resolution",
        `${fmt(cellsPerWavelength)} cells per wavelength in ${densest.name} (n = ` +
          `${fmt(densest.n)}) at ${fmt(lambdaMin)} m; at least ${MIN_CELLS_PER_WAVELENGTH} are ` +
          `needed for an accurate result: use a grid step of at most ` +
          `${fmt(lambdaMin / (densest.n * MIN_CELLS_PER_WAVELENGTH))} m`,
      );
    }
  }
}
