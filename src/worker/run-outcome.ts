/**
 * What a job's run came to, read from how its solver session ended (solver-session.ts): a
 * result to store, a result file that did not reach the disk (worth another attempt), a job to
 * hand back (the worker is stopping), or a failure. What users read about a failure is the job
 * lifecycle's to word (src/jobs/lifecycle.ts), handed in as `RunFailureWords` by the
 * composition root: the worker sits below src/jobs and does not import it.
 */
import type { SolverReport } from "../schema/responses.js";
import type { JobProgress } from "../store/types.js";
import type { SessionEnd, ThreadEnd } from "./solver-session.js";

/** Why a run FAILED, with what the sentence users read may say (nothing of the server's). */
export type RunFailure =
  /** The user cancelled it before it stepped. */
  | { cause: "cancelledDuringSetup" }
  /** The user cancelled it at `step`, of `totalSteps` where that is to be said. */
  | { cause: "cancelledAtStep"; step: number; totalSteps: number | null }
  /** The fields grew without bound; the solver's message says how and what to change. */
  | { cause: "diverged"; message: string }
  /** The run found the request cannot give what it asks; the message says why. */
  | { cause: "requestProblem"; message: string }
  /** The solver threw something unexpected: a bug of ours. */
  | { cause: "solverError" }
  /** The watchdog stopped a thread that reported no progress for `stallLimitMs`. */
  | { cause: "stalled"; stallLimitMs: number }
  /** The thread died of an uncaught error. */
  | { cause: "threadCrashed" }
  /** The thread exited on its own (out of memory, most likely). */
  | { cause: "threadExited"; exitCode: number };

/**
 * The words users read when a run FAILED (the job's `error_detail`): the job lifecycle's
 * (src/jobs/lifecycle.ts), handed in by the composition root.
 */
export interface RunFailureWords {
  detail(failure: RunFailure, jobId: string): string;
}

/** A failure's cause for the log only: it may name the server's paths. */
export interface LoggedFault {
  msg: string;
  fields: { cause: string } | { err: Error };
}

export type RunOutcome =
  | { kind: "completed"; report: SolverReport }
  /** The result file did not reach the disk intact (full disk, I/O error): `cause` is for the log. */
  | { kind: "resultNotWritten"; cause: string }
  /** The worker is stopping; it hands the job back to the queue. */
  | { kind: "handedBack" }
  | {
      kind: "failed";
      failure: RunFailure;
      fault?: LoggedFault;
      /** The progress the run reached, for the job's record (a cancel's step). */
      reached?: JobProgress;
    };

/**
 * What a run came to. `stallLimitMs` is the watchdog's limit (config.solverStallMs);
 * `stopping`, whether the worker is stopping (which terminates the thread it runs in).
 */
export function classifyRun(end: SessionEnd, stallLimitMs: number, stopping: boolean): RunOutcome {
  const { answer } = end;
  if (answer.type === "done") return { kind: "completed", report: answer.report };
  if (answer.type === "failed") return answeredFailure(answer, end.progress);
  if (end.cancelForced) {
    return {
      kind: "failed",
      failure: forcedCancel(end.progress),
      ...(end.progress ? { reached: end.progress } : {}),
    };
  }
  if (end.stalled) return { kind: "failed", failure: { cause: "stalled", stallLimitMs } };
  if (stopping) return { kind: "handedBack" };
  return threadExit(answer);
}

/** The thread answered `failed`: the solver's own account of why. */
function answeredFailure(
  answer: ThreadEnd & { type: "failed" },
  reached: JobProgress | null,
): RunOutcome {
  switch (answer.kind) {
    case "storage":
      return { kind: "resultNotWritten", cause: answer.message };
    case "cancelled": {
      if (reached?.phase === "setup") {
        return { kind: "failed", failure: { cause: "cancelledDuringSetup" } };
      }
      const totalSteps = reached?.totalSteps || null;
      return {
        kind: "failed",
        failure: { cause: "cancelledAtStep", step: answer.step, totalSteps },
        ...(reached ? { reached: atStep(reached, answer.step) } : {}),
      };
    }
    case "diverged":
      return { kind: "failed", failure: { cause: "diverged", message: answer.message } };
    case "request":
      return { kind: "failed", failure: { cause: "requestProblem", message: answer.message } };
    case "error":
      // An unexpected solver exception is a bug of ours: its message may name server paths,
      // so the user gets the job id to report and the log gets the cause.
      return {
        kind: "failed",
        failure: { cause: "solverError" },
        fault: { msg: "solver failed", fields: { cause: answer.message } },
      };
  }
}

/**
 * The progress at `step`, the last the thread reached (its last report to the session may be
 * older: reports are sent at most every half second, heartbeats are rarer still).
 */
function atStep(reached: JobProgress, step: number): JobProgress {
  const fraction = reached.totalSteps > 0 ? Math.min(1, step / reached.totalSteps) : 1;
  return { ...reached, step, fraction };
}

/**
 * A cancelled run whose thread did not stop within its grace and was terminated: it got as
 * far as the last progress it reported (which, unlike the thread's own answer, always says
 * the step it reached and of how many, even during set-up).
 */
function forcedCancel(reached: JobProgress | null): RunFailure {
  return reached
    ? { cause: "cancelledAtStep", step: reached.step, totalSteps: reached.totalSteps }
    : { cause: "cancelledDuringSetup" };
}

/** The thread exited without answering, and nobody here stopped it on purpose. */
function threadExit(answer: ThreadEnd & { type: "exited" }): RunOutcome {
  if (answer.error) {
    return {
      kind: "failed",
      failure: { cause: "threadCrashed" },
      fault: { msg: "solver thread crashed", fields: { err: answer.error } },
    };
  }
  return { kind: "failed", failure: { cause: "threadExited", exitCode: answer.code } };
}
