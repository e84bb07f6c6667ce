/** The states of a job (spec §3); a job is active while QUEUED or RUNNING. */
export type JobStatus = "QUEUED" | "RUNNING" | "COMPLETED" | "FAILED";
export const JOB_STATUSES: readonly JobStatus[] = ["QUEUED", "RUNNING", "COMPLETED", "FAILED"];

/** A job is active (counts against the concurrency limit) while QUEUED or RUNNING. */
export function isActive(status: JobStatus): boolean {
  return status === "QUEUED" || status === "RUNNING";
}
