import { errors } from "../../../errors.js";
import { ErrorBody, JobIdParams, JobRecordSchema, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { EXAMPLE_JOB, EXAMPLE_JOB_ID } from "../../openapi-examples.js";
import { JOB_ID_ERRORS, V1_ERRORS, bodyErrors } from "../../openapi-operation.js";

export function cancelSimulation(app: App, { jobs, config }: RouteDeps): void {
  app.post(
    "/v1/simulations/:job_id/cancel",
    {
      schema: {
        operationId: "cancelSimulation",
        summary: "Cancel a simulation",
        description:
          "A QUEUED job becomes FAILED at once; a RUNNING job stops at its next check (within about a second) and becomes FAILED with an error_detail saying it was cancelled. 409 if the job has already finished.",
        tags: ["simulations"],
        security: [{ bearerAuth: [] }],
        params: JobIdParams,
        response: {
          200: JobRecordSchema,
          409: { ...ErrorBody, description: "The job has already finished." },
          ...errorResponses,
        },
        openapi: () => ({
          errors: [
            ...JOB_ID_ERRORS,
            // A body is not needed, but one that is sent is read as any other.
            ...bodyErrors(config.limits.maxBodyBytes),
            errors.jobFinished(EXAMPLE_JOB_ID, "COMPLETED"),
            ...V1_ERRORS,
          ],
          success: {
            200: { description: "The job's record: FAILED, or RUNNING with cancel_requested." },
          },
          examples: { JobRecord: EXAMPLE_JOB },
        }),
      },
    },
    async (req) => jobs.record(await jobs.cancel(callerOf(req).accountId, req.params.job_id)),
  );
}
