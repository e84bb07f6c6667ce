import { ErrorBody, JobIdParams, JobRecordSchema, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";

export function cancelSimulation(app: App, { jobs }: RouteDeps): void {
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
      },
    },
    async (req) => jobs.record(await jobs.cancel(callerOf(req).accountId, req.params.job_id)),
  );
}
