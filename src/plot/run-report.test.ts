/**
 * The run report in words (run-report.ts, time-split.ts), as `emsim inspect` and the dashboard
 * show it: labels instead of keys, units, rounding, and where the time went.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { SolverReport } from "../schema/responses.js";
import { runReportRows } from "./run-report.js";
import { timeSplit, timeSplitLines } from "./time-split.js";

/** A graded-grid run as the worker reports it, unrounded as it comes. */
function report(extra: Partial<SolverReport> = {}): SolverReport {
  return {
    steps_run: 3000,
    time_steps_limit: 3000,
    converged: false,
    converged_at_step: null,
    last_relative_change: 0.0016212987621765118,
    cells: 142,
    grid: [1, 1, 142],
    grid_step_m: 5e-8,
    min_grid_step_m: 1e-8,
    dt_seconds: 3.177624782551648e-17,
    wall_seconds: 0.22158692099999824,
    mcells_per_second: 2.376142008152543,
    kernel: "wasm",
    threads: 1,
    steps_per_sweep: 2,
    setup_seconds: 0.04230470699999567,
    stepping_seconds: 0.17928221400000258,
    setup: {
      grid_seconds: 0.00675731900000028,
      painting_seconds: 0.004431081999999151,
      fields_seconds: 0.0011237659999969788,
      compile_seconds: 0.029762242000000695,
      thread_start_seconds: 0.00002055800000016461,
    },
    stepping: {
      kernel_seconds: 0.07299359500004007,
      source_seconds: 0.07992906800005224,
      monitor_seconds: 0.009148376000044665,
      checks_seconds: 0.007538074999996752,
      yield_seconds: 0.0017792869999975665,
      other_seconds: 0.007893812999871278,
    },
    machine: { cores: 16, cpu: "AMD EPYC 9454", memory_bytes: 135_089_000_448 },
    notes: ["graded grid (mesh_overrides): cells of 1e-8–4.993e-8 m along z", "second note"],
    ...extra,
  };
}

const byLabel = (r: SolverReport) =>
  Object.fromEntries(runReportRows(r).map((row) => [row.label, row.value]));

test("every row has a label and a rounded value with its unit", () => {
  assert.deepEqual(byLabel(report()), {
    Steps: "3,000 of 3,000, did not converge (last relative change 1.6e-3)",
    Grid: "1 × 1 × 142 = 142 cells with PML, step 50 nm, finest 10 nm",
    "Time step": "3.178e-17 s",
    "Solver time": "220 ms",
    "Time split":
      "set-up 42 ms (19 %): grid and monitors 6.8 ms, painting structures 4.4 ms, fields and tables 1.1 ms, compiling the kernel 30 ms, starting threads 0.021 ms\n" +
      "stepping 180 ms (81 %): kernel 73 ms, source 80 ms, monitors (DFT) 9.1 ms, convergence checks 7.5 ms, yields and progress 1.8 ms, other 7.9 ms",
    Speed: "2.38 Mcell/s while stepping",
    Kernel: "wasm, 1 thread, 2 steps per sweep",
    Machine: "16 cores, AMD EPYC 9454, 126 GiB memory",
    Notes: "graded grid (mesh_overrides): cells of 1e-8–4.993e-8 m along z\nsecond note",
  });
});

test("a converged run names its step; a run without checks says so", () => {
  const converged = report({ converged: true, converged_at_step: 1400, steps_run: 1400 });
  assert.equal(
    byLabel(converged).Steps,
    "1,400 of 3,000, converged at step 1,400 (last relative change 1.6e-3)",
  );
  assert.equal(
    byLabel(report({ last_relative_change: null })).Steps,
    "3,000 of 3,000, no convergence check ran",
  );
});

test("a uniform grid has no finest step; a GPU run names its adapter", () => {
  const gpu = report({
    min_grid_step_m: 5e-8,
    kernel: "webgpu",
    adapter: {
      vendor: "nvidia",
      architecture: "hopper",
      device: "NVIDIA H100 80GB HBM3",
      description: "NVIDIA H100 80GB HBM3",
      software: false,
    },
    mcells_per_second: 4312.9,
  });
  const rows = byLabel(gpu);
  assert.equal(rows.Grid, "1 × 1 × 142 = 142 cells with PML, step 50 nm");
  assert.equal(rows.Kernel, "webgpu on NVIDIA H100 80GB HBM3, 1 thread, 2 steps per sweep");
  assert.equal(rows.Speed, "4,313 Mcell/s while stepping");
});

test("the time split is its parts, the result file last; old reports split in two", () => {
  const r = report({ result_writing_seconds: 0.05 });
  const split = timeSplit(r)!;
  const parts = [...Object.values(r.setup!), ...Object.values(r.stepping!)];
  const total = parts.reduce((sum, s) => sum + s, 0) + 0.05;
  assert.ok(Math.abs(split.totalSeconds - total) < 1e-9, `${split.totalSeconds} s`);
  assert.ok(Math.abs(split.parts.reduce((s, p) => s + p.fraction, 0) - 1) < 1e-12);
  assert.deepEqual(split.parts.at(-1), {
    phase: "result",
    key: "result",
    label: "writing the result file",
    seconds: 0.05,
    fraction: 0.05 / total,
  });
  assert.equal(timeSplitLines(split).at(-1), "result file 50 ms (18 %)");

  const old = report({ setup: undefined, stepping: undefined });
  assert.deepEqual(timeSplitLines(timeSplit(old)!), [
    "set-up 42 ms (19 %)",
    "stepping 180 ms (81 %)",
  ]);
  const older = report({
    setup: undefined,
    stepping: undefined,
    setup_seconds: undefined,
    stepping_seconds: undefined,
  });
  assert.equal(timeSplit(older), null);
  assert.ok(!runReportRows(older).some((row) => row.key === "time_split"));
});
