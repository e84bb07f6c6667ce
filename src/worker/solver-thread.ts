/**
 * Runs one simulation inside a worker thread, so the server's event loop stays responsive
 * while the solver computes. Messages in: `{type: "cancel"}`. Messages out: progress, then
 * exactly one of done / failed. The result file is written here too, so large monitor arrays
 * never cross the thread boundary.
 */
import { parentPort, workerData } from "node:worker_threads";
import { ResultFileError, verifyResultFile, writeResultFile } from "../results/hdf5.js";
import { runSimulation, SOLVER_VERSION } from "../solver/index.js";
import { SolverDivergenceError, type SimulationSpec } from "../solver/types.js";
import { solverReport } from "./report.js";
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
  send({ type: "done", report: solverReport(result) });
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
