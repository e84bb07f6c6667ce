import { errors } from "../../../errors.js";
import { BatchRecordSchema } from "../../../schema/batch.js";
import { ErrorBody, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { EXAMPLE_BATCH, EXAMPLE_BATCH_ID } from "../../openapi-examples.js";
import { V1_ERRORS, bodyErrors } from "../../openapi-operation.js";
import { BATCH_ID_ERRORS, BatchIdParams } from "./status.js";

export function cancelBatch(app: App, { batches, config }: RouteDeps): void {
  app.post(
    "/v1/batches/:batch_id/cancel",
    {
      schema: {
        operationId: "cancelBatch",
        summary: "Cancel a batch",
        description:
          "Its QUEUED jobs become FAILED at once and its RUNNING ones stop at their next check (within about a second); nothing more of it is queued. Jobs already finished keep their results. 409 batch_finished if every job of the batch has already ended (the batch is COMPLETED or FAILED); its record is left unchanged.",
        tags: ["batches"],
        security: [{ bearerAuth: [] }],
        params: BatchIdParams,
        response: {
          200: BatchRecordSchema,
          409: { ...ErrorBody, description: "The batch has already finished." },
          ...errorResponses,
        },
        openapi: () => ({
          errors: [
            ...BATCH_ID_ERRORS,
            // A body is not needed, but one that is sent is read as any other.
            ...bodyErrors(config.limits.maxBodyBytes),
            errors.batchFinished(EXAMPLE_BATCH_ID, "COMPLETED"),
            ...V1_ERRORS,
          ],
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
