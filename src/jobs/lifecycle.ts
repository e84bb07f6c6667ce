/**
 * What users read when a job changes state for a reason of the service's own: the
 * `error_detail` of cancelled jobs and of jobs that ran out of attempts. The stores apply the
 * transitions (src/store/*); the words live here, once, whatever the database.
 */
import type { RecoveryRule } from "../store/types.js";
import type { TakeBackCause, TakeBackRules } from "../worker/worker.js";

export const CANCELLED_BEFORE_START = "Cancelled by the user before it started.";
export const CANCELLED_WHILE_RUNNING = "Cancelled by the user.";

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

/** The rules the composition root hands to workers: `recoveryRule` with each cause's words. */
export const TAKE_BACK_RULES: TakeBackRules = {
  rule: (cause, maxAttempts) => recoveryRule(maxAttempts, RECOVERY_CAUSES[cause]),
};
