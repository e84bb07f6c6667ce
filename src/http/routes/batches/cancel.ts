import { BatchRecordSchema } from "../../../schema/batch.js";
import { errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { EXAMPLE_BATCH } from "../../openapi-examples.js";
import { V1_ERRORS } from "../../openapi-operation.js";
import { BATCH_ID_ERRORS, BatchIdParams } from "./status.js";

export function cancelBatch(app: App, { batches }: RouteDeps): void {
  app.post(
    "/v1/batches/:batch_id/cancel",
    {
      schema: {
        operationId: "cancelBatch",
        summary: "Cancel a batch",
        description:
          "Its QUEUED jobs become FAILED at once and its RUNNING ones stop at their next check (within about a second); nothing more of it is queued. Jobs already finished keep their results. A finished batch answers with its record unchanged.",
        tags: ["batches"],
        security: [{ bearerAuth: [] }],
        params: BatchIdParams,
        response: { 200: BatchRecordSchema, ...errorResponses },
        openapi: () => ({
          errors: [...BATCH_ID_ERRORS, ...V1_ERRORS],
          success: { 200: { description: "The batch's record after the cancellation." } },
          examples: { BatchRecord: { ...EXAMPLE_BATCH, cancel_requested: true } },
        }),
      },
    },
    async (req) => {
      const accountId = callerOf(req).accountId;
      await batches.cancel(accountId, req.params.batch_id);
      return batches.record(accountId, req.params.batch_id);
    },
  );
}
