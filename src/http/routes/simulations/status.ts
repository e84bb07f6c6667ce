import { JobIdParams, JobRecordSchema, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { EXAMPLE_JOB } from "../../openapi-examples.js";
import { JOB_ID_ERRORS, V1_ERRORS } from "../../openapi-operation.js";

export function getSimulation(app: App, { jobs }: RouteDeps): void {
  app.get(
    "/v1/simulations/:job_id",
    {
      schema: {
        operationId: "getSimulation",
        summary: "Check a simulation's status",
        tags: ["simulations"],
        security: [{ bearerAuth: [] }],
        params: JobIdParams,
        response: { 200: JobRecordSchema, ...errorResponses },
        openapi: () => ({
          errors: [...JOB_ID_ERRORS, ...V1_ERRORS],
          success: { 200: { description: "The job's record." } },
          examples: { JobRecord: EXAMPLE_JOB },
        }),
      },
    },
    async (req) => {
      const caller = callerOf(req);
      return jobs.record(await jobs.getOwnJob(caller.accountId, req.params.job_id, caller.reads));
    },
  );
}
