/** How jobs look in `emsim status` and `emsim list`. */
import type { JobRecord } from "../client/index.js";
import { clip, fields, formatBytes, formatDuration } from "./output.js";
import { etaSeconds, formatChange } from "./progress.js";

export function progressText(job: JobRecord): string {
  const p = job.progress;
  if (!p) return job.status === "QUEUED" ? "waiting for a worker" : "–";
  const pct = `${(p.fraction * 100).toFixed(1)}%`;
  return `step ${p.step}/${p.total_steps} (${pct}), last relative change ${formatChange(p.last_relative_change)}`;
}

/** The readable form of one job record. */
export function jobDetails(job: JobRecord): string {
  const rows: [string, string][] = [
    ["job", job.job_id],
    [
      "status",
      job.status + (job.cancel_requested && job.status === "RUNNING" ? " (cancel requested)" : ""),
    ],
    ["created", job.created_at],
  ];
  if (job.started_at) rows.push(["started", job.started_at]);
  if (job.finished_at) rows.push(["finished", job.finished_at]);
  rows.push(["duration", `${job.duration_seconds.toFixed(1)} s`]);
  if (job.status === "RUNNING" || job.status === "QUEUED") {
    rows.push(["progress", progressText(job)]);
    const eta = etaSeconds(job);
    if (eta !== null) rows.push(["eta", `at most ${formatDuration(eta)}`]);
  }
  const report = job.solver_report;
  if (report) {
    const conv =
      report.converged === true
        ? `converged at step ${String(report.converged_at_step)}`
        : "did not converge";
    rows.push([
      "solver",
      `${String(report.steps_run)} of ${String(report.time_steps_limit)} steps, ${conv}, ${Number(report.mcells_per_second).toFixed(1)} Mcell/s`,
    ]);
  }
  if (job.error_detail) rows.push(["error", job.error_detail]);
  if (job.checksum) rows.push(["checksum", `sha256 ${job.checksum}`]);
  if (job.result_bytes !== null) rows.push(["result", formatBytes(job.result_bytes)]);
  if (job.result_url) rows.push(["download", `emsim download ${job.job_id}`]);
  if (Object.keys(job.metadata).length > 0) rows.push(["metadata", JSON.stringify(job.metadata)]);
  if (job.attempts > 1) rows.push(["attempts", String(job.attempts)]);
  return fields(rows);
}

/** One row of the job table. */
export function jobRow(job: JobRecord): string[] {
  const progress =
    job.status === "RUNNING" && job.progress
      ? `${(job.progress.fraction * 100).toFixed(0)}%`
      : job.status === "COMPLETED" && job.result_bytes !== null
        ? formatBytes(job.result_bytes)
        : job.status === "FAILED"
          ? clip(job.error_detail ?? "", 50)
          : "";
  return [
    job.job_id,
    job.status,
    job.created_at.replace("T", " ").replace(/\.\d+Z$/, "Z"),
    `${job.duration_seconds.toFixed(1)} s`,
    progress,
  ];
}

export const JOB_TABLE_HEADER = ["JOB ID", "STATUS", "CREATED", "DURATION", "RESULT / PROGRESS"];
