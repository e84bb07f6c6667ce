/**
 * A job's set-up in a few lines, from its stored request (the validated spec, defaults filled
 * in): the dashboard's job page and `emsim inspect` show the same rows, labels and units.
 */
import type {
  DomainSpec,
  FdtdSettings,
  MonitorSpec,
  SimulationSpec,
  SourceSpec,
  StructureSpec,
} from "../solver/index.js";
import { formatCount, formatLength, formatSizeMicrons, plural } from "./units.js";

export type SetupRowKey =
  | "domain"
  | "grid_step"
  | "boundaries"
  | "symmetry"
  | "source"
  | "structures"
  | "monitors"
  | "time_steps";

export interface SetupRow {
  key: SetupRowKey;
  label: string;
  value: string;
}

const SETUP_LABELS: Record<SetupRowKey, string> = {
  domain: "Domain",
  grid_step: "Grid step",
  boundaries: "Boundaries (x, y, z)",
  symmetry: "Mirror symmetry (x, y, z)",
  source: "Source",
  structures: "Structures",
  monitors: "Monitors",
  time_steps: "Time steps",
};

/** `50 nm` on a uniform grid, `50 nm, refined to 10 nm by 2 mesh overrides` on a graded one. */
export function gridStepText(domain: DomainSpec): string {
  const overrides = domain.mesh_overrides ?? [];
  const steps = overrides.flatMap((o) =>
    typeof o.resolution === "number" ? [o.resolution] : o.resolution,
  );
  const finest = Math.min(domain.resolution, ...steps);
  const refined =
    finest < domain.resolution
      ? `, refined to ${formatLength(finest)} by ${plural(overrides.length, "mesh override")}`
      : "";
  return `${formatLength(domain.resolution)}${refined}`;
}

function boundariesText(domain: DomainSpec): string {
  const pml = domain.boundary_conditions.includes("pml")
    ? `, ${plural(domain.pml_layers, "PML layer")}`
    : "";
  return `${domain.boundary_conditions.join(", ")}${pml}`;
}

/**
 * `plane wave, λ = 1.55 µm, TE, direction (0, 0, 1), amplitude 1 V/m`, or
 * `point dipole Ez, λ = 1.55 µm, at (0, 0, 0.1) µm, amplitude 1 A·m`.
 */
function sourceText(s: SourceSpec): string {
  const lambda = `λ = ${formatLength(s.wavelength)}`;
  if (s.source_type === "point_dipole") {
    const unit = s.polarization.startsWith("H") ? "V·m" : "A·m";
    const at = s.center.map((v) => +(v * 1e6).toPrecision(4)).join(", ");
    return `point dipole ${s.polarization}, ${lambda}, at (${at}) µm, amplitude ${s.amplitude} ${unit}`;
  }
  if (s.source_type === "ports") {
    return `ports ${s.run_ports.join(", ")}, ${lambda}`;
  }
  if (s.source_type === "mode") {
    return `mode ${s.mode_index}, ${lambda}, direction ${s.direction}`;
  }
  const along = `${s.polarization.toUpperCase()}, direction (${s.direction.join(", ")})`;
  if (s.source_type === "gaussian_beam") {
    const focus =
      s.waist_distance === 0 ? "at the plane" : `${formatLength(s.waist_distance)} past it`;
    return `Gaussian beam, ${lambda}, ${along}, waist ${formatLength(s.waist_radius)} focused ${focus}, amplitude ${s.amplitude} V/m`;
  }
  return `plane wave, ${lambda}, ${along}, amplitude ${s.amplitude} V/m`;
}

/** `box (SiO2), 40 × polyslab (Si)`: alike structures counted, so a layout stays one line. */
function structuresText(structures: readonly StructureSpec[]): string {
  const counts = new Map<string, number>();
  for (const s of structures) {
    const name = `${s.type} (${s.material})`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  if (counts.size === 0) return "none";
  return [...counts]
    .map(([name, n]) => (n === 1 ? name : `${formatCount(n)} × ${name}`))
    .join(", ");
}

/** A monitor's kind by its extended axes: point, line, plane or volume (a flux box). */
function monitorKind(size: readonly number[]): string {
  return ["point", "line", "plane", "volume"][size.filter((s) => s > 0).length] ?? "monitor";
}

/** `line (line; Ex Ey), T (flux plane)`. */
function monitorsText(monitors: readonly MonitorSpec[]): string {
  if (monitors.length === 0) return "none";
  return monitors
    .map((m) => {
      const surface = monitorKind(m.size) === "volume" ? "box" : "plane";
      if (m.monitor_type === "flux") return `${m.name} (flux ${surface})`;
      if (m.monitor_type === "far_field") return `${m.name} (far field of a ${surface})`;
      if (m.monitor_type === "mode") return `${m.name} (modes of a plane)`;
      return `${m.name} (${monitorKind(m.size)}; ${m.components.join(" ")})`;
    })
    .join(", ");
}

/** `at most 3,000, until the monitors change by less than 1e-4 (checked every 200 steps)`. */
function timeStepsText(f: FdtdSettings): string {
  const most = `at most ${formatCount(f.time_steps)}`;
  if (!(f.convergence_threshold > 0)) return `${most}, no convergence check`;
  const threshold = f.convergence_threshold;
  const shown = threshold < 0.01 ? threshold.toExponential() : String(threshold);
  return `${most}, until the monitors change by less than ${shown} (checked every ${plural(f.check_every_n, "step")})`;
}

/** The set-up's rows in the order both readers show them (mirror symmetry only when used). */
export function jobSetupRows(spec: SimulationSpec): SetupRow[] {
  const d = spec.domain;
  const mirrored = (d.symmetry ?? []).some((m) => m !== "none");
  const rows: [SetupRowKey, string | null][] = [
    ["domain", formatSizeMicrons(d.size)],
    ["grid_step", gridStepText(d)],
    ["boundaries", boundariesText(d)],
    ["symmetry", mirrored ? d.symmetry!.join(", ") : null],
    ["source", sourceText(spec.source)],
    ["structures", structuresText(spec.structures)],
    ["monitors", monitorsText(spec.monitors)],
    ["time_steps", timeStepsText(spec.fdtd_settings)],
  ];
  return rows
    .filter((row): row is [SetupRowKey, string] => row[1] !== null)
    .map(([key, value]) => ({ key, label: SETUP_LABELS[key], value }));
}
