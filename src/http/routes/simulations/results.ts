import { errors } from "../../../errors.js";
import Type from "typebox";
import { ErrorBody, JobIdParams, NotReadyBody, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { EXAMPLE_JOB_ID } from "../../openapi-examples.js";
import { JOB_ID_ERRORS, RESULTS_NOT_READY, V1_ERRORS } from "../../openapi-operation.js";

export function downloadResults(app: App, { jobs, config }: RouteDeps): void {
  app.get(
    "/v1/simulations/:job_id/results",
    {
      schema: {
        operationId: "downloadResults",
        summary: "Download results",
        description: `302 to a pre-signed storage address, valid ${config.downloadUrlTtlSeconds} s, serving the HDF5 result file (Range requests supported). Verify it against the job's checksum (SHA-256).`,
        tags: ["simulations"],
        security: [{ bearerAuth: [] }],
        params: JobIdParams,
        response: {
          302: Type.Null({ description: "Location: the pre-signed download address." }),
          409: { ...NotReadyBody, description: "The job is not COMPLETED." },
          ...errorResponses,
          500: ErrorBody,
        },
        openapi: () => ({
          errors: [
            ...JOB_ID_ERRORS,
            RESULTS_NOT_READY,
            errors.resultsNotReady(EXAMPLE_JOB_ID, "FAILED", 30),
            ...V1_ERRORS,
          ],
          headers: { 302: ["Location", "Cache-Control"], 409: ["Retry-After"] },
          success: {
            302: {
              description: `Found: \`Location\` is a pre-signed address of the result file, valid ${config.downloadUrlTtlSeconds} s.`,
            },
          },
        }),
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const url = await jobs.resultDownloadUrl(caller.accountId, req.params.job_id, caller.reads);
      return reply.header("Cache-Control", "no-store").redirect(url, 302);
    },
  );
}
