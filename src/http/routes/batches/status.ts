import Type from "typebox";
import { errors } from "../../../errors.js";
import { BatchRecordSchema } from "../../../schema/batch.js";
import { errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { EXAMPLE_BATCH, EXAMPLE_BATCH_ID } from "../../openapi-examples.js";
import { V1_ERRORS } from "../../openapi-operation.js";

export const BatchIdParams = Type.Object({
  batch_id: Type.String({ description: "The batch's id, as returned at submission (a UUID)." }),
});

export const BATCH_ID_ERRORS = [errors.batchNotFound(EXAMPLE_BATCH_ID)];

export function getBatch(app: App, { batches }: RouteDeps): void {
  app.get(
    "/v1/batches/:batch_id",
    {
      schema: {
        operationId: "getBatch",
        summary: "Check a batch's status",
        description:
          "The batch's status, its jobs' counts by state, its progress over all jobs, and each job with its parameters (GET /v1/simulations/{job_id} works on each).",
        tags: ["batches"],
        security: [{ bearerAuth: [] }],
        params: BatchIdParams,
        response: { 200: BatchRecordSchema, ...errorResponses },
        openapi: () => ({
          errors: [...BATCH_ID_ERRORS, ...V1_ERRORS],
          success: { 200: { description: "The batch's record." } },
          examples: { BatchRecord: EXAMPLE_BATCH },
        }),
      },
    },
    async (req) => batches.record(callerOf(req).accountId, req.params.batch_id),
  );
}
