import { errors } from "../../../errors.js";
import { BatchEstimateSchema, BatchRequestSchema } from "../../../schema/batch.js";
import { UnprocessableBody, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { EXAMPLE_BATCH_REQUEST } from "../../openapi-examples.js";
import { V1_ERRORS, bodyErrors } from "../../openapi-operation.js";
import { hangUpSignal } from "../../hang-up.js";

/** POST /v1/batches/estimate: a sweep's price before it is submitted. */
export function estimateBatch(app: App, { batches, config }: RouteDeps): void {
  app.post(
    "/v1/batches/estimate",
    {
      schema: {
        operationId: "estimateBatch",
        summary: "Estimate a sweep",
        description:
          "Checks the batch request as POST /v1/batches does (every variant, the deployment's bound on the batch's total run time: the same 422s) and returns what it would cost: its jobs, their expected run times summed, the largest job. Never queues anything, and does not count as the account's active unit.",
        tags: ["batches"],
        security: [{ bearerAuth: [] }],
        body: BatchRequestSchema,
        response: { 200: BatchEstimateSchema, 422: UnprocessableBody, ...errorResponses },
        openapi: () => ({
          errors: [
            ...bodyErrors(config.limits.maxBodyBytes),
            errors.validation([{ path: "simulation", message: "is required" }]),
            ...V1_ERRORS,
          ],
          success: { 200: { description: "What the batch would cost." } },
          examples: {
            BatchRequest: EXAMPLE_BATCH_REQUEST,
            BatchEstimate: {
              job_count: 3,
              expected_seconds: 4.2,
              max_batch_seconds: config.batches.maxTotalSeconds,
              parallelism: config.batches.parallelism,
              time_steps: 60_000,
              result_bytes: 174_336,
              largest_job: { cells: 1920, memory_bytes: 9_437_184 },
            },
          },
        }),
      },
    },
    async (req, reply) => batches.estimate(callerOf(req).accountId, req.body, hangUpSignal(reply)),
  );
}
