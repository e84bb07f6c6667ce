import { errors } from "../../../errors.js";
import { BatchAckSchema, BatchRequestSchema } from "../../../schema/batch.js";
import { ConflictBody, ErrorBody, UnprocessableBody, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import {
  EXAMPLE_BATCH,
  EXAMPLE_BATCH_ID,
  EXAMPLE_BATCH_REQUEST,
  OTHER_JOB_ID,
} from "../../openapi-examples.js";
import { V1_ERRORS, bodyErrors } from "../../openapi-operation.js";
import { hangUpSignal } from "../../hang-up.js";

export function submitBatch(app: App, { batches, config }: RouteDeps): void {
  app.post(
    "/v1/batches",
    {
      schema: {
        operationId: "submitBatch",
        summary: "Submit a sweep: one simulation over parameters, one job per variant",
        description:
          "Each parameter is a JSON Pointer into the simulation with a list of values or a {start, stop, points} range; combine `product` (default, the first parameter outermost) or `zip`. Every variant is validated at submission as a single simulation is (422 naming `variants[i]` and the field, and the parameter whose value caused it). The batch is one active unit: it is refused with 409 while the account has an active job or batch, and while it runs the account's submissions get 409.",
        tags: ["batches"],
        security: [{ bearerAuth: [] }],
        body: BatchRequestSchema,
        response: {
          202: { ...BatchAckSchema, description: "Accepted: the batch and its jobs are stored." },
          400: { ...ErrorBody, description: "Malformed JSON." },
          409: { ...ConflictBody, description: "A simulation or batch is already active." },
          413: { ...ErrorBody, description: "Body too large." },
          415: { ...ErrorBody, description: "Content-Type is not application/json." },
          422: UnprocessableBody,
          ...errorResponses,
        },
        openapi: () => ({
          errors: [
            ...bodyErrors(config.limits.maxBodyBytes),
            errors.validation([
              {
                path: "parameters[0].path",
                message:
                  '"/structures/3/size/2" points to nothing: "/structures" is an array of 1, with no index "3"',
              },
            ]),
            errors.activeJobConflict(OTHER_JOB_ID, 42, 1, EXAMPLE_BATCH_ID),
            errors.storeUnavailable("full"),
            ...V1_ERRORS,
          ],
          headers: { 202: ["Location"], 409: ["Retry-After"] },
          examples: {
            BatchRequest: EXAMPLE_BATCH_REQUEST,
            BatchAck: {
              batch_id: EXAMPLE_BATCH_ID,
              status: "QUEUED",
              job_count: EXAMPLE_BATCH.job_count,
              created_at: EXAMPLE_BATCH.created_at,
              message: `Batch of 3 jobs queued. Poll GET /v1/batches/${EXAMPLE_BATCH_ID} for its status.`,
            },
          },
        }),
      },
    },
    async (req, reply) => {
      const batch = await batches.submit(callerOf(req).accountId, req.body, hangUpSignal(reply));
      reply.header("Location", `${config.baseUrl}/v1/batches/${batch.batchId}`);
      return reply.code(202).send({
        batch_id: batch.batchId,
        status: "QUEUED" as const,
        job_count: batch.jobCount,
        created_at: batch.createdAt,
        message: `Batch of ${batch.jobCount} jobs queued. Poll GET /v1/batches/${batch.batchId} for its status.`,
      });
    },
  );
}
