/**
 * Runs simulations inside a worker thread, one at a time, so the server's event loop stays
 * responsive while the solver computes. Messages in: `{type: "run", input}` and
 * `{type: "cancel"}`. Messages out, per run: progress, then exactly one of done / failed. The
 * result file is written here too, so large monitor arrays never cross the thread boundary.
 */
import { rm } from "node:fs/promises";
import { parentPort } from "node:worker_threads";
import { ResultFileError, verifyResultFile, writeResultFile } from "../results/hdf5.js";
import {
  initSolverBackend,
  runSimulation,
  SOLVER_VERSION,
  RunRequestError,
  SolverDivergenceError,
  StopFlag,
  warmUp,
  type SimulationSpec,
} from "../solver/index.js";
import { solverReport } from "./report.js";
import { findingBackend } from "./thread-ending.js";
import type { ThreadInput, ThreadMessage, WarmInput } from "./thread-protocol.js";

const port = parentPort!;
let controller: AbortController | null = null;
let lastProgress: ThreadMessage & { type: "progress" } = {
  type: "progress",
  phase: "setup",
  setupFraction: 0,
  step: 0,
  totalSteps: 0,
  fraction: 0,
  lastRelativeChange: null,
  mcellsPerSecond: null,
};

function send(msg: ThreadMessage): void {
  port.postMessage(msg);
}

/** One job: progress messages, then exactly one of done / failed. */
async function run(input: ThreadInput): Promise<void> {
  const abort = new AbortController();
  controller = abort;
  lastProgress = {
    ...lastProgress,
    phase: "setup",
    setupFraction: 0,
    step: 0,
    totalSteps: 0,
    fraction: 0,
  };
  try {
    const spec = JSON.parse(input.specJson) as SimulationSpec;
    // Once per thread (cached): a GPU backend needs its adapter found before the run.
    await findingBackend(() => initSolverBackend(input.backend));
    const result = await runSimulation(spec, {
      signal: abort.signal,
      stopFlag: new StopFlag(input.stop),
      threads: input.threads,
      backend: input.backend,
      onProgress: (p) => {
        lastProgress = { type: "progress", ...p };
        send(lastProgress);
      },
    });
    const fileInput = {
      jobId: input.jobId,
      solverVersion: SOLVER_VERSION,
      specJson: input.specJson,
      result,
    };
    const writeStart = performance.now();
    await writeResultFile(input.outPath, fileInput);
    // Read back before anyone calls the job done: a full disk leaves a file that opens fine.
    await verifyResultFile(input.outPath, fileInput);
    const report = solverReport(result);
    // The file cannot hold its own writing time; the job record can.
    report.result_writing_seconds = (performance.now() - writeStart) / 1000;
    send({ type: "done", report });
  } catch (err) {
    const e = err as Error;
    if (e.name === "AbortError") {
      send({ type: "failed", kind: "cancelled", message: "", step: lastProgress.step });
    } else if (err instanceof ResultFileError) {
      // The file did not reach the disk (no room for it, HDF5's quiet refusals, a read-back
      // that differs: src/results/h5-create.ts, hdf5.ts): worth another attempt. Anything
      // else the writer throws is a bug of ours, like the solver's own exceptions.
      send({ type: "failed", kind: "storage", message: e.message, step: lastProgress.step });
    } else if (err instanceof SolverDivergenceError) {
      send({ type: "failed", kind: "diverged", message: e.message, step: lastProgress.step });
    } else if (err instanceof RunRequestError) {
      send({ type: "failed", kind: "request", message: e.message, step: lastProgress.step });
    } else {
      send({
        type: "failed",
        kind: "error",
        message: e.message || String(err),
        step: lastProgress.step,
      });
    }
  }
  controller = null;
}

/**
 * Warm-up before the first job (solver/warm-up.ts): steps two tiny problems and writes, checks
 * and deletes a result file of one, so that the job does not pay for compiling all that code.
 */
async function warm(input: WarmInput): Promise<void> {
  let message: ThreadMessage;
  try {
    await findingBackend(() => initSolverBackend(input.backend));
    const { seconds, result, spec } = await warmUp(input.backend, input.threads);
    const fileInput = {
      jobId: "warm-up",
      solverVersion: SOLVER_VERSION,
      specJson: JSON.stringify(spec),
      result,
    };
    await writeResultFile(input.scratchPath, fileInput);
    await verifyResultFile(input.scratchPath, fileInput);
    message = { type: "warm", seconds };
  } catch (err) {
    const detail = (err as Error).message || String(err);
    message = { type: "failed", kind: "error", message: detail, step: 0 };
  }
  // Gone before the answer, so that nothing of the warm-up is left when the worker hears it.
  await rm(input.scratchPath, { force: true }).catch(() => undefined);
  send(message);
}

// Jobs arrive one at a time; the thread stays for the next one, so that a small job does not
// pay for loading the solver, h5wasm and its kernels again (≈ 0.4 s cold). Work is taken in
// the order it arrives, one piece at a time.
let queue: Promise<void> = Promise.resolve();
port.on("message", (msg: { type: string; input?: ThreadInput; warm?: WarmInput }) => {
  if (msg.type === "cancel") controller?.abort();
  else if (msg.type === "run" && msg.input) {
    const input = msg.input;
    queue = queue.then(() => run(input));
  } else if (msg.type === "warm" && msg.warm) {
    const input = msg.warm;
    queue = queue.then(() => warm(input));
  }
});
