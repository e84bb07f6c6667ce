/**
 * What routes share beyond the response bodies (which live in src/schema/responses.ts, the one
 * source of their shape): the job id parameter and the errors every /v1 route may answer.
 */
import Type from "typebox";
import { ErrorBody } from "../schema/responses.js";

export {
  ConflictBody,
  ErrorBody,
  EstimateSchema,
  JobListSchema,
  JobProgressSchema,
  JobRecordSchema,
  MaterialListSchema,
  NotReadyBody,
  SubmissionAck,
  ValidationErrorBody,
} from "../schema/responses.js";

/**
 * Any string routes to the handler, so that every unknown id — whatever its length — is the
 * same 404 job_not_found (docs/api.md), never a 422 about the id's shape.
 */
export const JobIdParams = Type.Object({
  job_id: Type.String({ description: "The job's id, as returned at submission (a UUID)." }),
});

export const errorResponses = {
  401: { ...ErrorBody, description: "Missing, malformed, unknown or revoked API key." },
  404: { ...ErrorBody, description: "No such job for this account." },
  429: { ...ErrorBody, description: "Rate limited; see Retry-After." },
};
