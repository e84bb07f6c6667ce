import { errors } from "../../../errors.js";
import Type from "typebox";
import { JobListSchema, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { EXAMPLE_JOB } from "../../openapi-examples.js";
import { V1_ERRORS } from "../../openapi-operation.js";
import { PAGE_LIMIT_ERROR, PageLimitSchema, pageLimit } from "../../../schema/paging.js";

export function listSimulations(app: App, { jobs }: RouteDeps): void {
  app.get(
    "/v1/simulations",
    {
      schema: {
        operationId: "listSimulations",
        summary: "List your simulations",
        description: "The caller's jobs, newest first, paged with `cursor`.",
        tags: ["simulations"],
        security: [{ bearerAuth: [] }],
        querystring: Type.Object(
          {
            limit: Type.Optional(PageLimitSchema),
            cursor: Type.Optional(Type.String({ maxLength: 64 })),
            status: Type.Optional(Type.Enum(["QUEUED", "RUNNING", "COMPLETED", "FAILED"])),
          },
          { additionalProperties: false },
        ),
        response: { 200: JobListSchema, ...errorResponses },
        openapi: () => ({
          errors: [errors.validation([PAGE_LIMIT_ERROR]), ...V1_ERRORS],
          success: { 200: { description: "One page of your jobs, newest first." } },
          examples: { JobList: { jobs: [EXAMPLE_JOB], next_cursor: null } },
        }),
      },
    },
    async (req) => {
      const limit = pageLimit(req.query.limit);
      const page = await jobs.list(callerOf(req).accountId, {
        limit,
        ...(req.query.cursor ? { cursor: req.query.cursor } : {}),
        ...(req.query.status ? { status: req.query.status as "QUEUED" } : {}),
      });
      return { jobs: page.jobs.map((j) => jobs.record(j)), next_cursor: page.nextCursor };
    },
  );
}
