/**
 * The API's request and response shapes as the SDK sees them. The request type is the server's
 * own (derived from the JSON schema that validates submissions); the response types mirror
 * src/http/schemas.ts field by field, and test/client/types.test.ts fails to compile if the two
 * drift apart.
 */
import type { SimulationRequest } from "../schema/simulation.js";

export type { SimulationRequest };

export type JobStatus = "QUEUED" | "RUNNING" | "COMPLETED" | "FAILED";
export const JOB_STATUSES: readonly JobStatus[] = ["QUEUED", "RUNNING", "COMPLETED", "FAILED"];

/** A job is active (counts against the concurrency limit) while QUEUED or RUNNING. */
export function isActive(status: JobStatus): boolean {
  return status === "QUEUED" || status === "RUNNING";
}

/** Solver progress as last reported by the worker. */
export interface JobProgress {
  /** Time steps done so far. */
  step: number;
  /** `fdtd_settings.time_steps`: the run stops here at the latest (earlier if it converges). */
  total_steps: number;
  /** step / total_steps, in [0, 1]. */
  fraction: number;
  /** Relative change of the monitors at the last convergence check; null before the first. */
  last_relative_change: number | null;
  /** Solver throughput so far, in million cell-updates per second. */
  mcells_per_second: number | null;
}

/** The job record of `GET /v1/simulations/{job_id}` (spec §2.2 plus the documented extras). */
export interface JobRecord {
  job_id: string;
  status: JobStatus;
  /** ISO 8601 UTC. */
  created_at: string;
  updated_at: string;
  /** API address of the results (302 to storage); null until COMPLETED. */
  result_url: string | null;
  /** SHA-256 hex of the result file; null until COMPLETED. */
  checksum: string | null;
  checksum_algorithm: "sha256";
  /** Why the job FAILED; null otherwise. */
  error_detail: string | null;
  solver: string;
  /** Execution time in seconds: 0 while QUEUED, so far while RUNNING, final afterwards. */
  duration_seconds: number;
  metadata: Record<string, unknown>;
  progress: JobProgress | null;
  started_at: string | null;
  finished_at: string | null;
  cancel_requested: boolean;
  attempts: number;
  /** Size of the result file in bytes; null until COMPLETED. */
  result_bytes: number | null;
  solver_report: Record<string, unknown> | null;
}

/** `POST /v1/simulations` → 202. */
export interface SubmissionAck {
  job_id: string;
  status: "QUEUED";
  created_at: string;
  message: string;
}

/** `GET /v1/simulations` → 200. */
export interface JobList {
  jobs: JobRecord[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}

/** `POST /v1/simulations/estimate` → 200. */
export interface Estimate {
  /** Cells per axis, PML included. */
  grid: number[];
  /** Cells per axis inside `domain.size`. */
  interior_grid: number[];
  cells: number;
  time_steps: number;
  dt_seconds: number;
  /** Complex samples all monitors will record. */
  monitor_samples: number;
  memory_bytes: number;
  result_bytes: number;
  /** Wall time if the run uses all its time steps, at the assumed throughput. */
  estimated_seconds: number;
  mcells_per_second_assumed: number;
}

/** One entry of `GET /v1/materials`. */
export interface MaterialInfo {
  name: string;
  aliases: string[];
  model: string;
  reference: string;
  /** Valid wavelength range in metres. */
  valid_range_m: number[];
}

/** One problem of a 422 answer: the field (dotted path) and what is wrong with it. */
export interface FieldError {
  path: string;
  message: string;
}

/** Every error body: `detail` in words, `error_code` stable, plus per-error fields. */
export interface ErrorBody {
  detail: string;
  error_code: string;
  [extra: string]: unknown;
}
