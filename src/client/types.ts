/**
 * The API's request and response shapes as the SDK sees them: the server's own, derived from
 * the JSON schemas that validate requests (src/schema/simulation.ts) and serialise responses
 * (src/schema/responses.ts, where each field's description is), so they cannot drift apart.
 */
import type { SimulationRequest } from "../schema/simulation.js";

export type { SimulationRequest };

export { JOB_STATUSES, isActive, type JobStatus } from "../schema/job-status.js";
export type {
  Estimate,
  JobList,
  JobProgress,
  JobRecord,
  MaterialInfo,
  SubmissionAckBody as SubmissionAck,
} from "../schema/responses.js";

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
