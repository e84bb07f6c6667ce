import type { SolverReport } from "../responses.js";

/** A solver report with the fields a test cares about. */
export function solverReportWith(fields: Partial<SolverReport>): SolverReport {
  return {
    steps_run: 0,
    time_steps_limit: 20000,
    converged: false,
    converged_at_step: null,
    last_relative_change: null,
    cells: 1,
    grid: [1, 1, 1],
    grid_step_m: 1e-8,
    dt_seconds: 1e-17,
    wall_seconds: 1,
    mcells_per_second: 1,
    kernel: "wasm",
    threads: 1,
    steps_per_sweep: 1,
    notes: [],
    ...fields,
  };
}
