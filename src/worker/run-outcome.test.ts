/**
 * What a run came to, from how its solver session ended: which answer or stop wins where
 * several apply, and what goes to the log rather than to users.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { SolverReport } from "../schema/responses.js";
import type { JobProgress } from "../store/types.js";
import { classifyRun } from "./run-outcome.js";
import type { SessionEnd, ThreadEnd } from "./solver-session.js";

const STALL_MS = 300_000;

function ended(answer: ThreadEnd, more: Partial<SessionEnd> = {}): SessionEnd {
  return { answer, progress: null, cancelForced: false, stalled: false, lost: false, ...more };
}

function progress(phase: "setup" | "stepping", step: number, totalSteps: number): JobProgress {
  return {
    phase,
    setupFraction: phase === "setup" ? 0.5 : 1,
    step,
    totalSteps,
    fraction: step / totalSteps,
    lastRelativeChange: null,
    mcellsPerSecond: null,
  };
}

const report = { cells: 1000 } as SolverReport;
const failed = (
  kind: "cancelled" | "diverged" | "request" | "error" | "storage",
  step = 0,
): ThreadEnd => ({
  type: "failed",
  kind,
  message: `${kind} at /srv/emsim/scratch`,
  step,
});

test("a done answer completes, whatever else happened", () => {
  const end = ended({ type: "done", report }, { stalled: true, cancelForced: true });
  assert.deepEqual(classifyRun(end, STALL_MS, true), { kind: "completed", report });
});

test("a result file that did not reach the disk is retried, its cause for the log", () => {
  assert.deepEqual(classifyRun(ended(failed("storage")), STALL_MS, false), {
    kind: "resultNotWritten",
    cause: "storage at /srv/emsim/scratch",
  });
});

test("a cancelled answer says the step the thread reached, of the total it reported", () => {
  const end = ended(failed("cancelled", 130), { progress: progress("stepping", 120, 4500) });
  assert.deepEqual(classifyRun(end, STALL_MS, false), {
    kind: "failed",
    failure: { cause: "cancelledAtStep", step: 130, totalSteps: 4500 },
    // The record's last progress: the step the answer names, not the last report's.
    reached: progress("stepping", 130, 4500),
  });
  const unknownTotal = ended(failed("cancelled", 130));
  assert.deepEqual(classifyRun(unknownTotal, STALL_MS, false), {
    kind: "failed",
    failure: { cause: "cancelledAtStep", step: 130, totalSteps: null },
  });
  const inSetup = ended(failed("cancelled"), { progress: progress("setup", 0, 4500) });
  assert.deepEqual(classifyRun(inSetup, STALL_MS, false), {
    kind: "failed",
    failure: { cause: "cancelledDuringSetup" },
  });
});

test("a thread terminated after its cancel grace is cancelled where its progress was", () => {
  const exited: ThreadEnd = { type: "exited", code: 1 };
  const stepping = ended(exited, { cancelForced: true, progress: progress("stepping", 7, 90) });
  assert.deepEqual(classifyRun(stepping, STALL_MS, true), {
    kind: "failed",
    failure: { cause: "cancelledAtStep", step: 7, totalSteps: 90 },
    reached: progress("stepping", 7, 90),
  });
  const silent = ended(exited, { cancelForced: true, stalled: true });
  assert.deepEqual(classifyRun(silent, STALL_MS, false), {
    kind: "failed",
    failure: { cause: "cancelledDuringSetup" },
  });
});

test("the solver's own failures: divergence and the request's problems for users, an exception for the log", () => {
  assert.deepEqual(classifyRun(ended(failed("diverged")), STALL_MS, true), {
    kind: "failed",
    failure: { cause: "diverged", message: "diverged at /srv/emsim/scratch" },
  });
  assert.deepEqual(classifyRun(ended(failed("request")), STALL_MS, true), {
    kind: "failed",
    failure: { cause: "requestProblem", message: "request at /srv/emsim/scratch" },
  });
  assert.deepEqual(classifyRun(ended(failed("error")), STALL_MS, true), {
    kind: "failed",
    failure: { cause: "solverError" },
    fault: { msg: "solver failed", fields: { cause: "error at /srv/emsim/scratch" } },
  });
});

test("a stall wins over a stopping worker; a stopping worker hands the job back", () => {
  const exited: ThreadEnd = { type: "exited", code: 1 };
  assert.deepEqual(classifyRun(ended(exited, { stalled: true }), 60_000, true), {
    kind: "failed",
    failure: { cause: "stalled", stallLimitMs: 60_000 },
  });
  assert.deepEqual(classifyRun(ended(exited, { lost: true }), STALL_MS, true), {
    kind: "handedBack",
  });
});

test("a thread that exited by itself: a crash goes to the log, an exit code to users", () => {
  const error = new Error("out of bounds at /srv/emsim/dist/solver/run.js");
  assert.deepEqual(classifyRun(ended({ type: "exited", code: -1, error }), STALL_MS, false), {
    kind: "failed",
    failure: { cause: "threadCrashed" },
    fault: { msg: "solver thread crashed", fields: { err: error } },
  });
  assert.deepEqual(classifyRun(ended({ type: "exited", code: 137 }), STALL_MS, false), {
    kind: "failed",
    failure: { cause: "threadExited", exitCode: 137 },
  });
});
