/**
 * The job record of spec §2.2 as the API shows it (its shape: src/schema/responses.ts), built
 * from a stored job row.
 */
import type { JobRecord } from "../schema/responses.js";
import type { JobRow } from "../store/types.js";

export type { JobRecord };

/**
 * Seconds the job has run: final for a finished job (as stored, or from its start to its end
 * where the job was ended by a take-back that stored none), so far for a running one, else 0.
 */
export function durationSeconds(job: JobRow, nowMs: number): number {
  if (job.durationSeconds !== null) return job.durationSeconds;
  if (!job.startedAt) return 0;
  if (job.status === "RUNNING") return Math.max(0, (nowMs - Date.parse(job.startedAt)) / 1000);
  if (job.finishedAt) {
    return Math.max(0, (Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000);
  }
  return 0;
}

export function toJobRecord(job: JobRow, baseUrl: string, nowMs = Date.now()): JobRecord {
  const completed = job.status === "COMPLETED";
  return {
    job_id: job.jobId,
    status: job.status,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    result_url: completed ? `${baseUrl}/v1/simulations/${job.jobId}/results` : null,
    checksum: completed ? job.checksum : null,
    checksum_algorithm: "sha256",
    error_detail: job.status === "FAILED" ? job.errorDetail : null,
    solver: job.solver,
    duration_seconds: Math.round(durationSeconds(job, nowMs) * 1000) / 1000,
    metadata: job.metadata,
    progress: job.progress
      ? {
          ...(job.progress.phase ? { phase: job.progress.phase } : {}),
          ...(job.progress.setupFraction !== undefined
            ? { setup_fraction: job.progress.setupFraction }
            : {}),
          step: job.progress.step,
          total_steps: job.progress.totalSteps,
          fraction: job.progress.fraction,
          last_relative_change: job.progress.lastRelativeChange,
          mcells_per_second: job.progress.mcellsPerSecond,
        }
      : null,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    cancel_requested: job.cancelRequested,
    attempts: job.attempts,
    result_bytes: completed ? job.resultBytes : null,
    solver_report: completed ? job.report : null,
    reused_result_of: job.reusedResultOf,
    batch_id: job.batchId,
    parameters: (job.parameters as JobRecord["parameters"]) ?? null,
    estimate: (job.estimate as JobRecord["estimate"]) ?? null,
  };
}

/**
 * Seconds until an active job is likely to finish: from its progress when it has some
 * (elapsed × remaining / done, the step limit's fraction bounding what its expected steps
 * say), 30 when unknown (DESIGN §4). Always an integer ≥ 1.
 */
export function retryAfterSeconds(job: JobRow, nowMs = Date.now()): number {
  const f = job.progress?.fraction ?? 0;
  if (job.status === "RUNNING" && job.startedAt && f > 0.01) {
    const elapsed = (nowMs - Date.parse(job.startedAt)) / 1000;
    const byLimit = Math.max(1, Math.ceil((elapsed * (1 - f)) / f));
    return Math.min(byLimit, retryAfterFromExpectedSteps(job, nowMs) ?? byLimit);
  }
  return 30;
}

/**
 * Seconds a running job has left by the steps its estimate expects it to take where it
 * converges (expected_steps, all of a ports job's runs), at the rate it has stepped so far;
 * past them, a tenth of its time so far. Its progress fraction counts the step limit, which a
 * converging job stops far short of: a ports job converging in 2 500 steps of 20 000 a run
 * told clients to come back in minutes when seconds were left. null without an estimate.
 */
export function retryAfterFromExpectedSteps(job: JobRow, nowMs: number): number | null {
  const expected = (job.estimate as { expected_steps?: number } | null)?.expected_steps;
  const step = job.progress?.step ?? 0;
  if (!job.startedAt || !expected || expected <= 0 || step <= 0) return null;
  const elapsed = Math.max(0, (nowMs - Date.parse(job.startedAt)) / 1000);
  const done = step / expected;
  const left = done < 1 ? (elapsed * (1 - done)) / done : 0.1 * elapsed;
  return Math.max(1, Math.ceil(left));
}
