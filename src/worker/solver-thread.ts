/**
 * Runs one simulation inside a worker thread, so the server's event loop stays responsive
 * while the solver computes. Messages in: `{type: "cancel"}`. Messages out: progress, then
 * exactly one of done / failed. The result file is written here too, so large monitor arrays
 * never cross the thread boundary.
 */
import { parentPort, workerData } from "node:worker_threads";
import { ResultFileError, verifyResultFile, writeResultFile } from "../results/hdf5.js";
import { runSimulation, SOLVER_VERSION } from "../solver/index.js";
import {
  SolverDivergenceError,
  type FluxMonitorResult,
  type SimulationSpec,
} from "../solver/types.js";
import type { ThreadInput, ThreadMessage } from "./thread-protocol.js";

const input = workerData as ThreadInput;
const port = parentPort!;
const controller = new AbortController();
let lastProgress: ThreadMessage & { type: "progress" } = {
  type: "progress",
  step: 0,
  totalSteps: 0,
  fraction: 0,
  lastRelativeChange: null,
  mcellsPerSecond: null,
};

port.on("message", (msg: { type: string }) => {
  if (msg.type === "cancel") controller.abort();
});

function send(msg: ThreadMessage): void {
  port.postMessage(msg);
}

/**
 * The flux monitors' spectra for the job record (the result file has them too): per monitor,
 * what it measures, the wavelengths in metres and the normalised flux (and a box's
 * cross-sections in m²), rounded to 6 significant digits.
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

try {
  const spec = JSON.parse(input.specJson) as SimulationSpec;
  const result = await runSimulation(spec, {
    signal: controller.signal,
    threads: input.threads,
    backend: input.backend,
    onProgress: (p) => {
      lastProgress = {
        type: "progress",
        step: p.step,
        totalSteps: p.totalSteps,
        fraction: p.fraction,
        lastRelativeChange: p.lastRelativeChange,
        mcellsPerSecond: p.mcellsPerSecond,
      };
      send(lastProgress);
    },
  });
  const fileInput = {
    jobId: input.jobId,
    solverVersion: SOLVER_VERSION,
    specJson: input.specJson,
    result,
  };
  await writeResultFile(input.outPath, fileInput);
  // Read back before anyone calls the job done: a full disk leaves a file that opens fine.
  await verifyResultFile(input.outPath, fileInput);
  const r = result.report;
  send({
    type: "done",
    report: {
      steps_run: r.stepsRun,
      time_steps_limit: r.timeStepsLimit,
      converged: r.converged,
      converged_at_step: r.convergedAtStep,
      last_relative_change: r.lastRelativeChange,
      cells: r.cells,
      grid: r.grid,
      dt_seconds: r.dtSeconds,
      wall_seconds: r.wallSeconds,
      mcells_per_second: r.mcellsPerSecond,
      kernel: r.kernel,
      threads: r.threads,
      notes: r.notes,
      ...(result.fluxMonitors.length > 0 ? { flux: fluxSummary(result.fluxMonitors) } : {}),
    },
  });
} catch (err) {
  const e = err as Error;
  if (e.name === "AbortError") {
    send({ type: "failed", kind: "cancelled", message: "", step: lastProgress.step });
  } else if (err instanceof ResultFileError) {
    send({ type: "failed", kind: "storage", message: e.message, step: lastProgress.step });
  } else if (err instanceof SolverDivergenceError) {
    send({ type: "failed", kind: "diverged", message: e.message, step: lastProgress.step });
  } else {
    send({
      type: "failed",
      kind: "error",
      message: e.message || String(err),
      step: lastProgress.step,
    });
  }
}
