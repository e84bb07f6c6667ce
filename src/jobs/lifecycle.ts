/**
 * What users read when a job changes state for a reason of the service's own: the
 * `error_detail` of cancelled jobs, of runs that failed and of jobs that ran out of attempts.
 * The stores apply the transitions (src/store/*) and the worker decides what a run came to
 * (src/worker/run-outcome.ts); the words live here, once, whatever the database.
 */
import type { RecoveryRule } from "../store/types.js";
import type { RunFailure, RunFailureWords } from "../worker/run-outcome.js";
import type { TakeBackCause, TakeBackRules } from "../worker/worker.js";

export const CANCELLED_BEFORE_START = "Cancelled by the user before it started.";
export const CANCELLED_WHILE_RUNNING = "Cancelled by the user.";
export const CANCELLED_DURING_SETUP = "Cancelled by the user while the run was being set up.";

/** Why a run is taken back from its worker, as the start of a sentence. */
export const RECOVERY_CAUSES: Readonly<Record<TakeBackCause, string>> = {
  workerExited: "The worker running this job exited",
  workerSilent: "The worker running this job stopped responding",
  resultNotStored:
    "The run finished but its result could not be stored on the server (its disk or object store is full, failing or unreachable)",
};

/** The error_detail of a job that used up its attempts, each ended by `cause`. */
export function attemptsExhausted(cause: string, attempts: number): string {
  return `${cause} on each of ${attempts} attempt${attempts === 1 ? "" : "s"}; giving up. Submit the job again; if it keeps failing, reduce its size or tell the operator the job id.`;
}

/**
 * Taking a job back: a job whose cancellation was requested ends FAILED (cancelled); one with
 * attempts left goes back to the queue; the rest end FAILED saying `cause` and giving up.
 */
export function recoveryRule(maxAttempts: number, cause: string): RecoveryRule {
  return {
    decide({ attempts, cancelRequested }) {
      if (cancelRequested) return { requeue: false, errorDetail: CANCELLED_WHILE_RUNNING };
      if (attempts >= maxAttempts) {
        return { requeue: false, errorDetail: attemptsExhausted(cause, attempts) };
      }
      return { requeue: true };
    },
  };
}

/**
 * A job handed back by a worker that is stopping (SIGTERM: a rolling restart, a scale-down).
 * The run ended through no fault of the job's and no crash, so its attempt is given back and
 * EMSIM_MAX_ATTEMPTS counts only runs that ended abnormally: otherwise two restarts and one
 * crash would fail a job "on each of 3 attempts". A job whose cancellation was requested
 * ends FAILED, cancelled, its attempt counted (it ran).
 */
export const HAND_BACK_RULE: RecoveryRule = {
  decide({ cancelRequested }) {
    if (cancelRequested) return { requeue: false, errorDetail: CANCELLED_WHILE_RUNNING };
    return { requeue: true, giveBackAttempt: true };
  },
};

/**
 * The rules the composition root hands to workers: `recoveryRule` with each cause's words,
 * and the hand-back of a stopping worker.
 */
export const TAKE_BACK_RULES: TakeBackRules = {
  rule: (cause, maxAttempts) => recoveryRule(maxAttempts, RECOVERY_CAUSES[cause]),
  handBack: () => HAND_BACK_RULE,
};

/**
 * The error_detail of a run that failed. Where the cause is a fault of ours (a solver bug, a
 * stuck or crashed thread) users get the job id to report; the cause itself, which may name
 * the server's paths, goes to the worker's log only.
 */
export function runFailureDetail(failure: RunFailure, jobId: string): string {
  switch (failure.cause) {
    case "cancelledDuringSetup":
      return CANCELLED_DURING_SETUP;
    case "cancelledAtStep": {
      const of = failure.totalSteps === null ? "" : ` of ${failure.totalSteps}`;
      return `Cancelled by the user at time step ${failure.step}${of}.`;
    }
    case "diverged":
    case "requestProblem":
      // The solver's own sentence: what went wrong and what to change.
      return failure.message;
    case "solverError":
      return `The solver failed with an internal error; report job ${jobId} to the operators.`;
    case "stalled":
      return `The solver made no progress for ${Math.round(failure.stallLimitMs / 1000)} s and was stopped; report job ${jobId} to the operators.`;
    case "threadCrashed":
      return `The solver thread crashed; report job ${jobId} to the operators.`;
    case "threadExited":
      return `The solver thread exited unexpectedly (exit code ${failure.exitCode}); the run may have needed more memory than the worker has.`;
  }
}

/** The words the composition root hands to workers for the runs that fail. */
export const RUN_FAILURE_WORDS: RunFailureWords = { detail: runFailureDetail };
