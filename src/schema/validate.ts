/**
 * Full validation of a simulation request, the same on the server, in the CLI and in the SDK:
 * the JSON schema, then the defaults of DESIGN §2, then the solver's physics and geometry
 * checks, then the deployment's limits. A request that passes is a `SimulationSpec` the solver
 * can run; one that fails yields field errors that name the field and the bound.
 */
import type { FieldError } from "../errors.js";
import {
  checkAndPlan,
  domainPeriodicThinAxes,
  estimateRun,
  type AngleRange,
  type BackendChoice,
  type DomainSpec,
  type FarFieldMonitorSpec,
  type FieldComponent,
  type GridPlan,
  type ModeSpecSpec,
  type MonitorSpec,
  type RunEstimate,
  type SimulationSpec,
  type SourceSpec,
  type StructureSpec,
  type Vec3,
} from "../solver/index.js";
import { formatAjvErrors } from "./ajv-errors.js";
import { compileBounded } from "./bounded.js";
import { DEFAULTS, SimulationRequestSchema, type SimulationRequest } from "./simulation.js";

export interface RequestLimits {
  maxCells: number;
  maxTimeSteps: number;
  maxMonitorSamples: number;
  maxMemoryBytes: number;
  /** The size of the disk results are stored on; absent or null: no bound (a bucket). */
  maxResultBytes?: number | null;
  /** The solver backend whose own memory bound applies (EMSIM_SOLVER_BACKEND); default auto. */
  solverBackend?: BackendChoice;
}

export const validateRequestSchema = compileBounded<SimulationRequest>(SimulationRequestSchema);

/** A mode_spec with its defaults (a mode source's, a port's, and POST /v1/modes's). */
export function modeSpecWithDefaults(
  spec: {
    num_modes?: number;
    target_neff?: number | null;
    filter_pol?: "te" | "tm" | null;
    bend_radius?: number | null;
    bend_axis?: 0 | 1;
  } = {},
): ModeSpecSpec {
  const defaults = DEFAULTS.mode.mode_spec;
  return {
    num_modes: spec.num_modes ?? defaults.num_modes,
    target_neff: spec.target_neff ?? defaults.target_neff,
    filter_pol: spec.filter_pol ?? defaults.filter_pol,
    ...(typeof spec.bend_radius === "number"
      ? { bend_radius: spec.bend_radius, bend_axis: spec.bend_axis ?? 1 }
      : {}),
  };
}

/** The request's source with its defaults filled in. */
function sourceWithDefaults(
  source: SimulationRequest["source"],
  ports: NonNullable<SimulationRequest["ports"]>,
): SourceSpec {
  if (source.source_type === "ports") {
    const ws = source.wavelengths ?? [source.wavelength];
    return {
      source_type: "ports",
      wavelength: source.wavelength,
      wavelengths: Array.isArray(ws) ? [...ws] : { ...ws },
      run_ports: [...(source.run_ports ?? ports.map((p) => p.name))],
      ...(source.port_symmetries
        ? { port_symmetries: structuredClone(source.port_symmetries) }
        : {}),
    };
  }
  if (source.source_type === "mode") {
    return {
      source_type: "mode",
      wavelength: source.wavelength,
      center: [...source.center],
      size: [...source.size],
      direction: source.direction,
      mode_index: source.mode_index ?? DEFAULTS.mode.mode_index,
      mode_spec: modeSpecWithDefaults(source.mode_spec),
    };
  }
  if (source.source_type === "point_dipole") {
    return {
      source_type: "point_dipole",
      wavelength: source.wavelength,
      center: [...source.center],
      polarization: source.polarization,
      amplitude: source.amplitude ?? DEFAULTS.point_dipole.amplitude,
    };
  }
  if (source.source_type === "gaussian_beam") {
    return {
      source_type: "gaussian_beam",
      wavelength: source.wavelength,
      center: [...source.center],
      size: [...source.size],
      direction: [...source.direction],
      polarization: source.polarization ?? DEFAULTS.gaussian_beam.polarization,
      waist_radius: source.waist_radius,
      waist_distance: source.waist_distance ?? DEFAULTS.gaussian_beam.waist_distance,
      amplitude: source.amplitude ?? DEFAULTS.gaussian_beam.amplitude,
    };
  }
  return {
    source_type: "plane_wave",
    wavelength: source.wavelength,
    polarization: source.polarization ?? DEFAULTS.plane_wave.polarization,
    direction: [...source.direction],
    amplitude: source.amplitude ?? DEFAULTS.plane_wave.amplitude,
  };
}

/** A monitor with its defaults filled in. */
function monitorWithDefaults(
  m: NonNullable<SimulationRequest["monitors"]>[number],
  farFieldAngles: FarFieldAngles,
): MonitorSpec {
  const common = {
    name: m.name,
    center: [...m.center] as Vec3,
    size: [...m.size] as Vec3,
    ...(m.wavelengths
      ? {
          wavelengths: Array.isArray(m.wavelengths) ? [...m.wavelengths] : { ...m.wavelengths },
        }
      : {}),
  };
  if (m.monitor_type === "flux") return { ...common, monitor_type: "flux" };
  if (m.monitor_type === "mode") {
    return { ...common, monitor_type: "mode", mode_spec: modeSpecWithDefaults(m.mode_spec) };
  }
  if (m.monitor_type === "far_field") {
    const angles = (v: number[] | AngleRange) => (Array.isArray(v) ? [...v] : { ...v });
    return {
      ...common,
      monitor_type: "far_field",
      theta_deg: angles(m.theta_deg ?? farFieldAngles.theta_deg),
      phi_deg: angles(m.phi_deg ?? farFieldAngles.phi_deg),
    };
  }
  return {
    ...common,
    monitor_type: "field",
    components: (m.components ?? [...DEFAULTS.field_monitor.components]) as FieldComponent[],
  };
}

type FarFieldAngles = Pick<FarFieldMonitorSpec, "theta_deg" | "phi_deg">;

/**
 * A far-field monitor's default directions: all round, or in a 2-D cross-section (one axis
 * periodic and one cell thick) the directions in its plane, where a line's pattern lies.
 */
function farFieldAnglesFor(domain: DomainSpec): FarFieldAngles {
  const thin = domainPeriodicThinAxes(domain);
  if (thin.length !== 1) return DEFAULTS.far_field_monitor;
  return DEFAULTS.far_field_cross_section[(["x", "y", "z"] as const)[thin[0]!]!];
}

/** The domain with its defaults filled in (mesh_overrides and symmetry only where they act). */
function domainWithDefaults(domain: SimulationRequest["domain"]): DomainSpec {
  return {
    size: [...domain.size],
    resolution: domain.resolution,
    boundary_conditions: (domain.boundary_conditions ?? [
      ...DEFAULTS.domain.boundary_conditions,
    ]) as DomainSpec["boundary_conditions"],
    pml_layers: domain.pml_layers ?? DEFAULTS.domain.pml_layers,
    ...(domain.mesh_overrides && domain.mesh_overrides.length > 0
      ? {
          mesh_overrides: domain.mesh_overrides.map((o) => ({
            center: [...o.center] as Vec3,
            size: [...o.size] as Vec3,
            resolution:
              typeof o.resolution === "number" ? o.resolution : ([...o.resolution] as Vec3),
          })),
          max_step_ratio: domain.max_step_ratio ?? DEFAULTS.domain.max_step_ratio,
        }
      : domain.max_step_ratio !== undefined
        ? { max_step_ratio: domain.max_step_ratio }
        : {}),
    ...(domain.symmetry && domain.symmetry.some((s) => s !== "none")
      ? { symmetry: [...domain.symmetry] as NonNullable<DomainSpec["symmetry"]> }
      : {}),
  };
}

/**
 * The request with every default filled in (the form stored with the job and in the result),
 * from `DEFAULTS` beside the schema. `max_step_ratio` is filled only with mesh overrides: without
 * them it grades nothing, and a ratio left in the spec is what the "has no effect" note reports.
 * The spec's type is held to the schema's by spec-type.ts.
 */
export function applyDefaults(request: SimulationRequest): SimulationSpec {
  const settings = request.fdtd_settings ?? {};
  const domain = domainWithDefaults(request.domain);
  const farFieldAngles = farFieldAnglesFor(domain);
  return {
    solver: "fdtd",
    domain,
    source: sourceWithDefaults(request.source, request.ports ?? []),
    // gds entries are replaced by polyslabs before this (fabrication/gds-import.ts); the
    // checks below refuse or skip any left (see checkRequest).
    structures: (request.structures ?? []).flatMap((s): StructureSpec[] => {
      if (s.type === "gds") return [];
      if (s.type === "polyslab") {
        const sidewall_angle_deg = s.sidewall_angle_deg ?? DEFAULTS.polyslab.sidewall_angle_deg;
        return [{ ...s, sidewall_angle_deg }];
      }
      return [{ ...s }];
    }),
    ...(request.materials && Object.keys(request.materials).length > 0
      ? { materials: structuredClone(request.materials) }
      : {}),
    ...(request.ports && request.ports.length > 0
      ? {
          ports: request.ports.map((p) => ({
            ...p,
            center: [...p.center] as Vec3,
            size: [...p.size] as Vec3,
            mode_spec: modeSpecWithDefaults(p.mode_spec),
          })),
        }
      : {}),
    monitors: (request.monitors ?? []).map((m) => monitorWithDefaults(m, farFieldAngles)),
    fdtd_settings: {
      time_steps: settings.time_steps ?? DEFAULTS.fdtd_settings.time_steps,
      courant_factor: settings.courant_factor ?? DEFAULTS.fdtd_settings.courant_factor,
      convergence_threshold:
        settings.convergence_threshold ?? DEFAULTS.fdtd_settings.convergence_threshold,
      check_every_n: settings.check_every_n ?? DEFAULTS.fdtd_settings.check_every_n,
    },
  };
}

function limitErrors(
  spec: SimulationSpec,
  estimate: RunEstimate,
  limits: RequestLimits,
): FieldError[] {
  const out: FieldError[] = [];
  const gib = (b: number) => `${(b / 1024 ** 3).toFixed(2)} GiB`;
  // Two sizes side by side, in MiB where GiB to two places would print them the same.
  const sizes = (a: number, b: number) =>
    gib(a) !== gib(b) ? [gib(a), gib(b)] : [a, b].map((v) => `${(v / 1024 ** 2).toFixed(1)} MiB`);
  const bytes = (b: number) => (b >= 1024 ** 3 ? gib(b) : `${(b / 1024 ** 2).toFixed(1)} MiB`);
  if (estimate.totalCells > limits.maxCells) {
    out.push({
      path: "domain.resolution",
      message: `the grid would have ${estimate.totalCells} cells (${estimate.grid.join(" × ")} with PML), above the limit of ${limits.maxCells}; use a coarser resolution or a smaller domain`,
    });
  }
  if (spec.fdtd_settings.time_steps > limits.maxTimeSteps) {
    out.push({
      path: "fdtd_settings.time_steps",
      message: `must be <= ${limits.maxTimeSteps}`,
    });
  }
  if (estimate.monitorSamples > limits.maxMonitorSamples) {
    out.push({
      path: "monitors",
      message: `the monitors would record ${estimate.monitorSamples} complex samples, above the limit of ${limits.maxMonitorSamples}; record fewer points, components or wavelengths`,
    });
  }
  // The solver backend's own bound, whatever the deployment allows (the wasm backend's
  // memory is wasm32).
  if (estimate.backendBytes > estimate.backendLimitBytes) {
    const [need, most] = sizes(estimate.backendBytes, estimate.backendLimitBytes);
    const where = `on the ${estimate.backend} backend`;
    out.push(
      estimate.backendMemoryOfMonitors
        ? {
            path: "monitors",
            message: `the monitors need an estimated ${need} of solver memory (${estimate.backendMemoryWhat}), above the solver's limit of ${most} per run ${where}`,
          }
        : {
            path: "domain.resolution",
            message: `the grid (${estimate.grid.join(" × ")} cells with PML) needs an estimated ${need} of solver memory (${estimate.backendMemoryWhat}), above the solver's limit of ${most} per run ${where} (about ${estimate.backendLargestCube}³ cells with PML); use a coarser resolution or a smaller domain`,
          },
    );
  }
  // Such a result could never be stored: every attempt would run, fill the disk and fail.
  if (limits.maxResultBytes != null && estimate.resultBytes > limits.maxResultBytes) {
    out.push({
      path: "monitors",
      message: `the result file would take about ${bytes(estimate.resultBytes)}, more than the whole disk results are stored on (${bytes(limits.maxResultBytes)}); record fewer points, components or wavelengths`,
    });
  }
  if (estimate.memoryBytes > limits.maxMemoryBytes) {
    out.push({
      path: "domain",
      message: `the run would need an estimated ${gib(estimate.memoryBytes)} of memory, above the limit of ${gib(limits.maxMemoryBytes)}`,
    });
  }
  return out;
}

export type ValidationOutcome =
  | {
      ok: true;
      request: SimulationRequest;
      spec: SimulationSpec;
      /** The request's grid, planned once for the checks, the estimate and the notes. */
      plan: GridPlan;
      estimate: RunEstimate;
    }
  | { ok: false; errors: FieldError[] };

export interface CheckOptions {
  /**
   * What to do with `type: "gds"` structures, which only the server can resolve (they name a
   * stored file): "refuse" (default; the server replaces them before checking) or "skip"
   * (local validation in the CLI: check the rest).
   */
  unresolvedGds?: "refuse" | "skip";
}

/**
 * Physics, geometry and limits of a request that already passed the schema (which also holds
 * `metadata` to its depth: schema/metadata.ts).
 */
export function checkRequest(
  request: SimulationRequest,
  limits: RequestLimits,
  options: CheckOptions = {},
): ValidationOutcome {
  if (options.unresolvedGds !== "skip") {
    const at = (request.structures ?? []).findIndex((s) => s.type === "gds");
    if (at >= 0) {
      const message =
        "gds structures are resolved by the server when a simulation is submitted; this request was not";
      return { ok: false, errors: [{ path: `structures[${at}]`, message }] };
    }
  }
  const spec = applyDefaults(request);
  const { problems, plan } = checkAndPlan(spec);
  if (problems.length > 0 || plan === null) return { ok: false, errors: problems };
  const estimate = estimateRun(spec, limits.solverBackend, plan);
  const over = limitErrors(spec, estimate, limits);
  if (over.length > 0) return { ok: false, errors: over };
  return { ok: true, request, spec, plan, estimate };
}

/** Everything: schema, defaults, physics and limits. */
export function validateSimulationRequest(
  body: unknown,
  limits: RequestLimits,
  options: CheckOptions = {},
): ValidationOutcome {
  if (!validateRequestSchema(body)) {
    return { ok: false, errors: formatAjvErrors(validateRequestSchema.errors) };
  }
  return checkRequest(body, limits, options);
}
