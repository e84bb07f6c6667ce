import { JobIdParams, JobRecordSchema, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";

export function getSimulation(app: App, { jobs }: RouteDeps): void {
  app.get(
    "/v1/simulations/:job_id",
    {
      schema: {
        summary: "Check a simulation's status",
        tags: ["simulations"],
        security: [{ bearerAuth: [] }],
        params: JobIdParams,
        response: { 200: JobRecordSchema, ...errorResponses },
      },
    },
    async (req) => jobs.record(await jobs.getOwnJob(callerOf(req).accountId, req.params.job_id)),
  );
}
