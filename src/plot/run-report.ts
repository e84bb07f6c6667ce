/**
 * The solver's run report in words, the same in `emsim inspect` and on the dashboard's job
 * page: which rows it has, their labels, units and rounding. The input is the job record's
 * report (SolverReportSchema); inspect reads it from a result file (result-file-report.ts).
 */
import type { SolverAdapterReport, SolverReport } from "../schema/responses.js";
import { timeSplit, timeSplitLines } from "./time-split.js";
import { formatBytes, formatCount, formatLength, formatSeconds, plural } from "./units.js";

export type ReportRowKey =
  | "steps"
  | "grid"
  | "time_step"
  | "solver_time"
  | "time_split"
  | "speed"
  | "kernel"
  | "machine"
  | "notes";

export interface ReportRow {
  key: ReportRowKey;
  label: string;
  /** Several lines where the row lists several things (the time split, the notes). */
  value: string;
}

const REPORT_LABELS: Record<ReportRowKey, string> = {
  steps: "Steps",
  grid: "Grid",
  time_step: "Time step",
  solver_time: "Solver time",
  time_split: "Time split",
  speed: "Speed",
  kernel: "Kernel",
  machine: "Machine",
  notes: "Notes",
};

/** `1,400 of 20,000, converged at step 1,400 (last relative change 5.4e-8)`. */
function stepsText(r: SolverReport): string {
  const change = r.last_relative_change;
  const outcome = r.converged
    ? `converged at step ${formatCount(r.converged_at_step ?? r.steps_run)}`
    : change === null
      ? "no convergence check ran"
      : "did not converge";
  const last = change === null ? "" : ` (last relative change ${change.toExponential(1)})`;
  return `${formatCount(r.steps_run)} of ${formatCount(r.time_steps_limit)}, ${outcome}${last}`;
}

/** `1 × 1 × 142 = 142 cells with PML, step 50 nm, finest 10 nm`. */
function gridText(r: SolverReport): string {
  const finest =
    r.min_grid_step_m !== undefined && r.min_grid_step_m < r.grid_step_m * (1 - 1e-9)
      ? `, finest ${formatLength(r.min_grid_step_m)}`
      : "";
  return `${r.grid.join(" × ")} = ${formatCount(r.cells)} cells with PML, step ${formatLength(r.grid_step_m)}${finest}`;
}

/** `NVIDIA H100 80GB HBM3 (…)`, `llvmpipe, software`. */
function adapterText(a: SolverAdapterReport): string {
  const description = a.description && a.description !== a.device ? ` (${a.description})` : "";
  return `${a.device || a.vendor || "unknown adapter"}${description}${a.software ? ", software" : ""}`;
}

/** `wasm, 4 threads, 2 steps per sweep`; a GPU run names its adapter. */
function kernelText(r: SolverReport): string {
  const adapter = r.adapter ? ` on ${adapterText(r.adapter)}` : "";
  return `${r.kernel}${adapter}, ${plural(r.threads, "thread")}, ${plural(r.steps_per_sweep, "step")} per sweep`;
}

/** Million cell-updates per second: three significant digits, whole above 100. */
function speedText(mcellsPerSecond: number): string {
  const v = mcellsPerSecond >= 100 ? Math.round(mcellsPerSecond) : +mcellsPerSecond.toPrecision(3);
  return `${formatCount(v)} Mcell/s while stepping`;
}

/** The report's rows in the order both readers show them; rows without data are left out. */
export function runReportRows(r: SolverReport): ReportRow[] {
  const rows: [ReportRowKey, string | null][] = [
    ["steps", stepsText(r)],
    ["grid", gridText(r)],
    ["time_step", `${r.dt_seconds.toExponential(3)} s`],
    ["solver_time", formatSeconds(r.wall_seconds)],
    ["time_split", timeSplitLines(timeSplit(r) ?? { totalSeconds: 0, parts: [] }).join("\n")],
    ["speed", speedText(r.mcells_per_second)],
    ["kernel", kernelText(r)],
    [
      "machine",
      r.machine
        ? `${plural(r.machine.cores, "core")}, ${r.machine.cpu}, ${formatBytes(r.machine.memory_bytes)} memory`
        : null,
    ],
    ["notes", r.notes.join("\n")],
  ];
  return rows
    .filter((row): row is [ReportRowKey, string] => row[1] !== null && row[1] !== "")
    .map(([key, value]) => ({ key, label: REPORT_LABELS[key], value }));
}
