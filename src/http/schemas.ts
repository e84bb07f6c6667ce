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

/**
 * How a route that takes a simulation (submit, estimate, preview, modes) serialises its 422s:
 * a validation error (with `errors` and `error_count`) or one of the other 422s such a request
 * can meet (a plane or a GDS layout too large, a GDS file that cannot be read), which carry
 * only their own fields. Declaring the validation body alone made those a 500 (the serialiser
 * requires `errors`). The OpenAPI document lists each 422's own schema (openapi.ts).
 */
export const UnprocessableBody = {
  ...ErrorBody,
  description:
    "The request is not valid (validation_error, with errors and error_count) or cannot be carried out (error_code says why).",
};

export const errorResponses = {
  401: { ...ErrorBody, description: "Missing, malformed, unknown or revoked API key." },
  404: { ...ErrorBody, description: "No such job for this account." },
  429: { ...ErrorBody, description: "Rate limited; see Retry-After." },
};
