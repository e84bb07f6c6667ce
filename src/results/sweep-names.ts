/**
 * The names a batch's parameters may take: each becomes a dimension of the batch's result
 * file (batch-merge.ts), so it may not collide with what the file's groups already hold.
 * Checked at submission (POST /v1/batches) and again when the file is written.
 */

/**
 * Names a parameter may not have: the datasets of the result format's groups (a monitor's
 * coordinates and data, /jobs' columns), and any ending in `_index` (a coordinate that varies
 * between variants becomes a dimension `<name>_index`). POST /v1/batches can refuse them.
 */
export const RESERVED_SWEEP_NAMES: ReadonlySet<string> = new Set([
  ...["x", "y", "z", "wavelength", "frequency", "theta", "phi", "direction", "mode_index"],
  ...["port_out", "port_in", "Ex", "Ey", "Ez", "Hx", "Hy", "Hz", "flux", "power"],
  ...["incident_intensity", "scattering_cross_section", "absorption_cross_section"],
  ...["extinction_cross_section", "radiant_intensity", "E_theta", "E_phi", "amps"],
  ...["n_eff", "k_eff", "S", "job_id", "status", "error_detail", "solver_version"],
  ...["steps_run", "converged", "wall_seconds"],
]);

/** Why a parameter's name cannot name a dimension, or null. */
export function sweepNameProblem(name: string): string | null {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return "is not an identifier";
  if (RESERVED_SWEEP_NAMES.has(name) || name.endsWith("_index")) {
    return "is a name the result file uses for something else";
  }
  return null;
}
