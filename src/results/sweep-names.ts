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

/** The longest name a parameter may have (src/schema/batch.ts). */
const MAX_SWEEP_NAME_LENGTH = 64;

/**
 * A dimension name for a parameter given by its JSON Pointer alone (the CLI's `--param`, the
 * SDKs' `sweep`): its tokens joined by `_`, anything but letters, digits and `_` replaced
 * (`/structures/1/size/0` → `structures_1_size_0`, `/source/wavelength` → `source_wavelength`).
 * A long pointer keeps its last tokens (the most specific), a name that would start with a
 * digit gets `p_` in front, one the result file reserves gets `_value` behind
 * (`/monitors/0/mode_index` → `monitors_0_mode_index_value`), and one already in `taken`
 * `_2`, `_3`, …
 */
export function sweepNameFor(pointer: string, taken: Iterable<string> = []): string {
  const tokens = pointer
    .split("/")
    .slice(1)
    .map((t) =>
      t
        .replace(/~1/g, "/")
        .replace(/~0/g, "~")
        .replace(/[^A-Za-z0-9_]+/g, "_")
        .replace(/^_+|_+$/g, ""),
    )
    .filter((t) => t !== "");
  // Room for the prefix, the suffix and a counter within the schema's 64 characters.
  const room = MAX_SWEEP_NAME_LENGTH - "p__value_99".length;
  let name = "";
  for (let i = tokens.length - 1; i >= 0; i--) {
    const longer = name === "" ? tokens[i]! : `${tokens[i]}_${name}`;
    if (longer.length > room) break;
    name = longer;
  }
  if (name === "") name = tokens.at(-1)?.slice(-room) ?? "";
  if (name === "") name = "parameter";
  if (/^[0-9]/.test(name)) name = `p_${name}`;
  if (sweepNameProblem(name)) name = `${name}_value`;
  const used = new Set(taken);
  if (!used.has(name)) return name;
  for (let n = 2; ; n++) if (!used.has(`${name}_${n}`)) return `${name}_${n}`;
}
