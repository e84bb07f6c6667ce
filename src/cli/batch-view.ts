/** How batches look in `emsim batch` and `emsim sweep`. */
import type { BatchRecord, ParameterValue } from "../client/index.js";
import { clip, fields, table } from "./output.js";

/** Rows of the job table shown before it is cut short (`--json` lists them all). */
const MAX_JOB_ROWS = 100;

function valueText(v: ParameterValue): string {
  return typeof v === "number" ? String(Number(v.toPrecision(6))) : String(v);
}

/** A dimension's values in a line: all of a few, else the first, the last and how many. */
export function valuesText(values: readonly ParameterValue[]): string {
  if (values.length <= 6) return values.map(valueText).join(", ");
  return `${valueText(values[0]!)} … ${valueText(values.at(-1)!)} (${values.length} values)`;
}

/** The readable form of a batch record: its state, its sweep, and a row per job. */
export function batchDetails(batch: BatchRecord): string {
  const c = batch.counts;
  const states = (["COMPLETED", "FAILED", "RUNNING", "QUEUED"] as const)
    .filter((s) => c[s] > 0)
    .map((s) => `${c[s]} ${s}`)
    .join(", ");
  const rows: [string, string][] = [
    ["batch", batch.batch_id],
    [
      "status",
      batch.status +
        (batch.cancel_requested && (batch.status === "RUNNING" || batch.status === "QUEUED")
          ? " (cancel requested)"
          : ""),
    ],
    ["jobs", `${batch.job_count}${states ? `: ${states}` : ""}`],
  ];
  if (batch.status === "RUNNING" || batch.status === "QUEUED") {
    rows.push(["progress", `${(batch.progress.fraction * 100).toFixed(1)}%`]);
  }
  rows.push([
    "sweep",
    batch.parameters
      .flatMap((d) => [d, ...(d.along ?? [])])
      .map((d) => `${d.name} = ${valuesText(d.values)}`)
      .join("\n") + (batch.combine === "zip" ? "\n(zipped)" : ""),
  ]);
  rows.push(["created", batch.created_at], ["updated", batch.updated_at]);
  if (batch.checksum) rows.push(["checksum", `sha256 ${batch.checksum}`]);
  if (batch.result_url) rows.push(["download", `emsim batch ${batch.batch_id} --out FILE`]);
  if (Object.keys(batch.metadata).length > 0) {
    rows.push(["metadata", JSON.stringify(batch.metadata)]);
  }
  const names = batch.parameters.length > 0 ? Object.keys(batch.jobs[0]?.parameters ?? {}) : [];
  const jobRows = batch.jobs
    .slice(0, MAX_JOB_ROWS)
    .map((j) => [
      String(j.index),
      j.job_id,
      j.status,
      ...names.map((n) => (j.parameters[n] !== undefined ? valueText(j.parameters[n]!) : "")),
      clip(j.error_detail ?? "", 60),
    ]);
  const more =
    batch.jobs.length > MAX_JOB_ROWS
      ? `\n… ${batch.jobs.length - MAX_JOB_ROWS} more jobs (--json lists them all)`
      : "";
  const jobs =
    jobRows.length > 0
      ? `\n\n${table([["#", "JOB ID", "STATUS", ...names.map((n) => n.toUpperCase()), "ERROR"], ...jobRows])}${more}`
      : "";
  return fields(rows) + jobs;
}
