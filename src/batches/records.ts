/**
 * A batch's record as the API shows it (src/schema/batch.ts), built from the stored batch and
 * its jobs: the status, counts and progress follow from the jobs' states.
 */
import type { BatchRecord } from "../schema/batch.js";
import type { BatchJobSummary, BatchRow, JobStatus } from "../store/types.js";

export type { BatchRecord };

/** QUEUED, RUNNING, then COMPLETED when any job COMPLETED, else FAILED (DESIGN §11). */
export function batchStatus(jobs: readonly BatchJobSummary[]): BatchRecord["status"] {
  const active = jobs.some((j) => j.status === "QUEUED" || j.status === "RUNNING");
  if (!active) return jobs.some((j) => j.status === "COMPLETED") ? "COMPLETED" : "FAILED";
  return jobs.every((j) => j.status === "QUEUED") ? "QUEUED" : "RUNNING";
}

export function batchCounts(jobs: readonly BatchJobSummary[]): Record<JobStatus, number> {
  const counts: Record<JobStatus, number> = { QUEUED: 0, RUNNING: 0, COMPLETED: 0, FAILED: 0 };
  for (const j of jobs) counts[j.status] += 1;
  return counts;
}

/** Finished jobs count whole, a running one by its own progress. */
function progressOf(jobs: readonly BatchJobSummary[]): number {
  if (jobs.length === 0) return 0;
  let done = 0;
  for (const j of jobs) {
    if (j.status === "COMPLETED" || j.status === "FAILED") done += 1;
    else if (j.status === "RUNNING") done += Math.min(1, Math.max(0, j.progressFraction ?? 0));
  }
  return Math.round((done / jobs.length) * 1e4) / 1e4;
}

export function toBatchRecord(
  batch: BatchRow,
  jobs: readonly BatchJobSummary[],
  baseUrl: string,
  withJobs = true,
): BatchRecord {
  const status = batchStatus(jobs);
  const updated = jobs.reduce((t, j) => (j.updatedAt > t ? j.updatedAt : t), batch.updatedAt);
  return {
    batch_id: batch.batchId,
    status,
    job_count: batch.jobCount,
    combine: batch.combine,
    parameters: batch.dimensions as BatchRecord["parameters"],
    counts: batchCounts(jobs),
    progress: { fraction: progressOf(jobs) },
    cancel_requested: batch.cancelRequested,
    jobs: withJobs
      ? jobs.map((j) => ({
          job_id: j.jobId,
          index: j.batchIndex,
          status: j.status,
          parameters: j.parameters as BatchRecord["jobs"][number]["parameters"],
          error_detail: j.status === "FAILED" ? j.errorDetail : null,
        }))
      : [],
    result_url: status === "COMPLETED" ? `${baseUrl}/v1/batches/${batch.batchId}/results` : null,
    checksum: batch.checksum,
    created_at: batch.createdAt,
    updated_at: updated,
    metadata: batch.metadata,
  };
}
