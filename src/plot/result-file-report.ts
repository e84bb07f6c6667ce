/**
 * The run report a result file holds — the attributes of its `/solver` group, as
 * src/results/hdf5.ts writes them — in the job record's shape (SolverReportSchema), so that
 * `emsim inspect` words it with the dashboard's formatter (run-report.ts). Parts an older file
 * lacks (the time split, the machine, a GPU adapter) are left out, as they are from old records.
 */
import type { ResultInfo } from "../results/read.js";
import type { SolverReport } from "../schema/responses.js";
import type { SimulationSpec } from "../solver/index.js";

type Attributes = ResultInfo["solver"];

const number = (a: Attributes, key: string): number => Number(a[key]);
const text = (a: Attributes, key: string): string => String(a[key] ?? "");

/** The file writes a missing value as a sentinel: -1 for a step, NaN for a number. */
function orNull(value: number, missing: (v: number) => boolean): number | null {
  return missing(value) ? null : value;
}

/** `[1,1,142]` as the file stores an array attribute (results/read.ts's `scalar`). */
function gridShape(a: Attributes): number[] {
  const stored = a.grid_shape;
  if (typeof stored === "number") return [stored];
  try {
    return (JSON.parse(String(stored)) as unknown[]).map(Number);
  } catch {
    return [];
  }
}

function timeSplitParts(a: Attributes): Pick<SolverReport, "setup" | "stepping"> {
  if (!("setup_grid_seconds" in a) || !("stepping_kernel_seconds" in a)) return {};
  return {
    setup: {
      grid_seconds: number(a, "setup_grid_seconds"),
      painting_seconds: number(a, "setup_painting_seconds"),
      fields_seconds: number(a, "setup_fields_seconds"),
      compile_seconds: number(a, "setup_compile_seconds"),
      thread_start_seconds: number(a, "setup_thread_start_seconds"),
    },
    stepping: {
      kernel_seconds: number(a, "stepping_kernel_seconds"),
      source_seconds: number(a, "stepping_source_seconds"),
      monitor_seconds: number(a, "stepping_monitor_seconds"),
      checks_seconds: number(a, "stepping_checks_seconds"),
      yield_seconds: number(a, "stepping_yield_seconds"),
      other_seconds: number(a, "stepping_other_seconds"),
    },
  };
}

function machineAndAdapter(a: Attributes): Pick<SolverReport, "machine" | "adapter"> {
  return {
    ...("machine_cores" in a
      ? {
          machine: {
            cores: number(a, "machine_cores"),
            cpu: text(a, "machine_cpu"),
            memory_bytes: number(a, "machine_memory_bytes"),
          },
        }
      : {}),
    ...("adapter_device" in a
      ? {
          adapter: {
            vendor: text(a, "adapter_vendor"),
            architecture: text(a, "adapter_architecture"),
            device: text(a, "adapter_device"),
            description: text(a, "adapter_description"),
            software: number(a, "adapter_software") === 1,
          },
        }
      : {}),
  };
}

/** The report of the run that wrote the file. */
export function reportOfResultFile(info: ResultInfo): SolverReport {
  const a = info.solver;
  const spec = info.request as unknown as SimulationSpec;
  const optional = (key: string) => (key in a ? number(a, key) : undefined);
  return {
    steps_run: number(a, "steps_run"),
    time_steps_limit: number(a, "time_steps_limit"),
    converged: number(a, "converged") === 1,
    converged_at_step: orNull(number(a, "converged_at_step"), (v) => v < 0),
    last_relative_change: orNull(number(a, "last_relative_change"), Number.isNaN),
    cells: number(a, "cells"),
    grid: gridShape(a),
    // The file keeps the steps in /grid, which ResultInfo does not read; the base step is the
    // request's resolution (the graded grid's finest is in the set-up's grid step).
    grid_step_m: spec.domain.resolution,
    dt_seconds: number(a, "dt"),
    wall_seconds: number(a, "wall_seconds"),
    mcells_per_second: number(a, "mcells_per_second"),
    kernel: text(a, "kernel"),
    threads: number(a, "threads"),
    steps_per_sweep: optional("steps_per_sweep") ?? 1,
    setup_seconds: optional("setup_seconds"),
    stepping_seconds: optional("stepping_seconds"),
    ...timeSplitParts(a),
    ...machineAndAdapter(a),
    notes: text(a, "notes")
      .split("\n")
      .filter((line) => line.trim() !== ""),
  };
}
