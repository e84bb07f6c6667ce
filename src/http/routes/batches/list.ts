import Type from "typebox";
import { errors } from "../../../errors.js";
import { BatchListSchema } from "../../../schema/batch.js";
import { errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { EXAMPLE_BATCH } from "../../openapi-examples.js";
import { V1_ERRORS } from "../../openapi-operation.js";
import { PAGE_LIMIT_ERROR, PageLimitSchema, pageLimit } from "../../../schema/paging.js";

export function listBatches(app: App, { batches }: RouteDeps): void {
  app.get(
    "/v1/batches",
    {
      schema: {
        operationId: "listBatches",
        summary: "List your batches",
        description:
          "The caller's batches, newest first, paged with `cursor` (without their jobs: GET /v1/batches/{batch_id} has them).",
        tags: ["batches"],
        security: [{ bearerAuth: [] }],
        querystring: Type.Object(
          {
            limit: Type.Optional(PageLimitSchema),
            cursor: Type.Optional(Type.String({ maxLength: 64 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: BatchListSchema, ...errorResponses },
        openapi: () => ({
          errors: [errors.validation([PAGE_LIMIT_ERROR]), ...V1_ERRORS],
          success: { 200: { description: "One page of your batches, newest first." } },
          examples: {
            BatchList: { batches: [{ ...EXAMPLE_BATCH, jobs: undefined }], next_cursor: null },
          },
        }),
      },
    },
    async (req) => {
      const limit = pageLimit(req.query.limit);
      return batches.page(callerOf(req).accountId, {
        limit,
        ...(req.query.cursor ? { cursor: req.query.cursor } : {}),
      });
    },
  );
}
