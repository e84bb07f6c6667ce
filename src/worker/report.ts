/**
 * The solver's run report as the job record and the API show it (its shape:
 * SolverReportSchema in src/schema/responses.ts): the one place a RunReport is mapped.
 */
import { farFieldUnit } from "../results/read.js";
import type { SolverAdapterReport, SolverReport } from "../schema/responses.js";
import type {
  SMatrixResult,
  ModeMonitorResult,
  FarFieldMonitorResult,
  FluxMonitorResult,
  GpuAdapterReport,
  SolverResult,
} from "../solver/index.js";

/**
 * The flux monitors' spectra for the job record (the result file has them too): per monitor,
 * what it measures, the wavelengths in metres and the normalised flux (and a box's
 * cross-sections in m², a dipole's power in watts), rounded to 6 significant digits.
 */
function fluxSummary(monitors: FluxMonitorResult[]): Record<string, unknown> {
  const round = (values: ArrayLike<number>) =>
    Array.from(values, (v) => (Number.isFinite(v) ? Number(v.toPrecision(6)) : null));
  return Object.fromEntries(
    monitors.map((m) => [
      m.name,
      {
        quantity: m.quantity,
        wavelengths_m: round(m.wavelengthsM),
        flux: round(m.flux),
        ...(m.powerW ? { power_w: round(m.powerW) } : {}),
        ...(m.crossSections
          ? {
              scattering_cross_section_m2: round(m.crossSections.scattering),
              absorption_cross_section_m2: round(m.crossSections.absorption),
              extinction_cross_section_m2: round(m.crossSections.extinction),
            }
          : {}),
      },
    ]),
  );
}

/**
 * The far-field monitors' patterns for the job record (the result file has E_θ and E_φ too):
 * per monitor, the wavelengths in metres, the angles in degrees and the radiant intensity in
 * W/sr as [wavelength][theta][phi], rounded to 6 significant digits; in a 2-D cross-section
 * in W/rad per period, with the thin axis as `cross_section_axis`.
 */
function farFieldSummary(monitors: FarFieldMonitorResult[]): Record<string, unknown> {
  const round = (v: number) => (Number.isFinite(v) ? Number(v.toPrecision(6)) : null);
  return Object.fromEntries(
    monitors.map((m) => {
      const [nt, np] = [m.thetaDeg.length, m.phiDeg.length];
      const u = m.radiantIntensity;
      const intensity = m.wavelengthsM.map((_, w) =>
        Array.from({ length: nt }, (_, t) =>
          Array.from(u.subarray((w * nt + t) * np, (w * nt + t + 1) * np), round),
        ),
      );
      return [
        m.name,
        {
          wavelengths_m: m.wavelengthsM.map(round),
          theta_deg: m.thetaDeg,
          phi_deg: m.phiDeg,
          radiant_intensity: intensity,
          radiant_intensity_unit: farFieldUnit(m.crossSectionAxis),
          ...(m.crossSectionAxis === null ? {} : { cross_section_axis: "xyz"[m.crossSectionAxis] }),
        },
      ];
    }),
  );
}

/**
 * Per mode monitor (DESIGN §10): wavelengths_m, n_eff [λ][mode], the amplitudes along +normal
 * ("+") and −normal ("-") as [λ][mode] of [re, im], and their powers |a|².
 */
function modeSummary(monitors: ModeMonitorResult[]): Record<string, unknown> {
  const round = (v: number) => (Number.isFinite(v) ? Number(v.toPrecision(7)) : null);
  return Object.fromEntries(
    monitors.map((m) => {
      const table = <T>(f: (o: number) => T) =>
        m.wavelengthsM.map((_, w) => Array.from({ length: m.modes }, (_, k) => f(w * m.modes + k)));
      const amps = (a: Float64Array) => table((o) => [round(a[2 * o]!), round(a[2 * o + 1]!)]);
      const power = (a: Float64Array) => table((o) => round(a[2 * o]! ** 2 + a[2 * o + 1]! ** 2));
      return [
        m.name,
        {
          wavelengths_m: m.wavelengthsM.map(round),
          normal: "xyz"[m.normal],
          n_eff: table((o) => round(m.nEff[o]!)),
          k_eff: table((o) => round(m.kEff[o]!)),
          amps: { "+": amps(m.forward), "-": amps(m.backward) },
          power: { "+": power(m.forward), "-": power(m.backward) },
        },
      ];
    }),
  );
}

/**
 * The S-matrix (DESIGN §10): ports (port@mode), wavelengths_m, s as [out][in][λ] of [re, im]
 * (null where the input was not run), the inputs run, and each port mode's n_eff [port][λ].
 */
export function sMatrixSummary(m: SMatrixResult): Record<string, unknown> {
  const P = m.ports.length;
  const W = m.wavelengthsM.length;
  const round = (v: number) => (Number.isFinite(v) ? Number(v.toPrecision(8)) : null);
  const s = m.ports.map((_, o) =>
    m.ports.map((_, i) =>
      Array.from({ length: W }, (_, w) => {
        const at = 2 * ((o * P + i) * W + w);
        return Number.isNaN(m.s[at]!) ? null : [round(m.s[at]!), round(m.s[at + 1]!)];
      }),
    ),
  );
  return {
    ports: m.ports,
    inputs: m.inputs,
    // Whole: a Touchstone file's frequencies (c / λ, 10 digits) are written from these.
    wavelengths_m: Array.from(m.wavelengthsM),
    s,
    n_eff: m.ports.map((_, o) => Array.from(m.nEff.subarray(o * W, (o + 1) * W), round)),
  };
}

/** A GPU adapter as reports show it (the job record; the health and metrics endpoints). */
export function adapterReport(a: GpuAdapterReport): SolverAdapterReport {
  return {
    vendor: a.vendor,
    architecture: a.architecture,
    device: a.device,
    description: a.description,
    software: a.software,
  };
}

export function solverReport(result: SolverResult): SolverReport {
  const r = result.report;
  return {
    steps_run: r.stepsRun,
    time_steps_limit: r.timeStepsLimit,
    converged: r.converged,
    converged_at_step: r.convergedAtStep,
    last_relative_change: r.lastRelativeChange,
    cells: r.cells,
    grid: [...r.grid],
    grid_step_m: r.gridStepM,
    min_grid_step_m: r.minGridStepM,
    dt_seconds: r.dtSeconds,
    wall_seconds: r.wallSeconds,
    mcells_per_second: r.mcellsPerSecond,
    kernel: r.kernel,
    ...(r.adapter ? { adapter: adapterReport(r.adapter) } : {}),
    threads: r.threads,
    steps_per_sweep: r.stepsPerSweep,
    setup_seconds: r.setupSeconds,
    stepping_seconds: r.steppingSeconds,
    setup: {
      grid_seconds: r.setup.gridSeconds,
      painting_seconds: r.setup.paintingSeconds,
      fields_seconds: r.setup.fieldsSeconds,
      compile_seconds: r.setup.compileSeconds,
      thread_start_seconds: r.setup.threadStartSeconds,
    },
    stepping: {
      kernel_seconds: r.stepping.kernelSeconds,
      source_seconds: r.stepping.sourceSeconds,
      monitor_seconds: r.stepping.monitorSeconds,
      checks_seconds: r.stepping.checksSeconds,
      yield_seconds: r.stepping.yieldSeconds,
      other_seconds: r.stepping.otherSeconds,
    },
    machine: { cores: r.machine.cores, cpu: r.machine.cpu, memory_bytes: r.machine.memoryBytes },
    notes: r.notes,
    ...(result.fluxMonitors.length > 0 ? { flux: fluxSummary(result.fluxMonitors) } : {}),
    ...(result.farFieldMonitors.length > 0
      ? { far_field: farFieldSummary(result.farFieldMonitors) }
      : {}),
    ...(result.modeMonitors && result.modeMonitors.length > 0
      ? { modes: modeSummary(result.modeMonitors) }
      : {}),
    ...(result.sMatrix ? { s_matrix: sMatrixSummary(result.sMatrix) } : {}),
  };
}
