/**
 * What becomes of RUNNING jobs taken back from their workers, decided once for both databases:
 * the rule (src/jobs/lifecycle.ts, handed in by the caller) per job, in the order the store
 * found them. Each store then writes the plan in its own dialect, inside the transaction that
 * found the jobs.
 */
import type { RecoveryRule, StaleJobsOutcome } from "./types.js";

/** A job being taken back, as the store read it (booleans already the driver's to convert). */
export interface TakenBackJob {
  jobId: string;
  attempts: number;
  cancelRequested: boolean;
}

export interface RecoveryPlan {
  /** Back to QUEUED, for another attempt; with the ended one given back, or counted. */
  requeue: { jobId: string; giveBackAttempt: boolean }[];
  /** FAILED, with the words users read. */
  fail: { jobId: string; errorDetail: string }[];
}

export function planRecovery(jobs: readonly TakenBackJob[], rule: RecoveryRule): RecoveryPlan {
  const plan: RecoveryPlan = { requeue: [], fail: [] };
  for (const job of jobs) {
    const decision = rule.decide(job);
    if (decision.requeue) {
      plan.requeue.push({ jobId: job.jobId, giveBackAttempt: decision.giveBackAttempt === true });
    } else {
      plan.fail.push({ jobId: job.jobId, errorDetail: decision.errorDetail });
    }
  }
  return plan;
}

/** What the store reports once the plan is written. */
export function outcomeOf(plan: RecoveryPlan): StaleJobsOutcome {
  return { requeued: plan.requeue.map((r) => r.jobId), failed: plan.fail.map((f) => f.jobId) };
}
