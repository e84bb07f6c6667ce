import { previewSimulation, underSimulation } from "../../../preview/service.js";
import { setupPreview } from "../../../preview/response.js";
import { PreviewRequestSchema, PreviewResponseSchema } from "../../../schema/preview.js";
import type { JobService } from "../../../jobs/service.js";
import { UnprocessableBody, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import {
  EXAMPLE_PREVIEW_REQUEST,
  EXAMPLE_REQUEST,
  invalidRequestExample,
} from "../../openapi-examples.js";
import { V1_ERRORS, bodyErrors } from "../../openapi-operation.js";
import { hangUpSignal } from "../../hang-up.js";

export function previewSimulationRoute(app: App, { jobs, fabrication, config }: RouteDeps): void {
  app.post(
    "/v1/simulations/preview",
    {
      schema: {
        operationId: "previewSimulation",
        summary: "Preview a simulation's set-up",
        description:
          "Runs the same validation as submission and returns, on each plane asked for (default the three planes through the origin), the permittivity the run will step there at the source wavelength (after its painting and sub-cell averaging, real and imaginary parts), the material at each sample (metals and perfect conductors marked), the outlines of every structure, source, monitor, port, mesh override, the absorber and the symmetry planes, the set-up's warnings and the estimate. Only the planes are painted, so a grid of millions of cells answers in a fraction of a second. Never queues a job.",
        tags: ["simulations"],
        security: [{ bearerAuth: [] }],
        body: PreviewRequestSchema,
        response: { 200: PreviewResponseSchema, 422: UnprocessableBody, ...errorResponses },
        openapi: () => ({
          errors: [
            ...bodyErrors(config.limits.maxBodyBytes),
            underSimulation(invalidRequestExample(config)),
            ...V1_ERRORS,
          ],
          success: { 200: { description: "The set-up on the planes, its warnings and estimate." } },
          examples: {
            PreviewRequest: EXAMPLE_PREVIEW_REQUEST,
            // What the server answers for the example, with the run-time model as it stands when
            // the document is built.
            PreviewResponse: examplePreview(jobs),
          },
        }),
      },
    },
    async (req, reply) => {
      const accountId = callerOf(req).accountId;
      const hungUp = hangUpSignal(reply);
      const answer = await previewSimulation(req.body, {
        resolveGds: (request) => fabrication.resolveGdsStructures(accountId, request, hungUp),
        check: (request) => jobs.check(request),
      });
      // JSON.stringify rather than the schema's serialiser: 12 ms for the 1 MB answer of three
      // 174 × 174 planes where fast-json-stringify takes 40 (97 the first time). The answer is
      // built field by field as the schema has it (preview/response.ts): nothing else can leak.
      // With its own serialiser Fastify sets no content type: say it, as every JSON answer does.
      return reply.type("application/json; charset=utf-8").serializer(JSON.stringify).send(answer);
    },
  );
}

/** The preview of the example request (its one plane, a few samples). */
function examplePreview(jobs: JobService) {
  const { spec, estimate } = jobs.check(EXAMPLE_REQUEST as never);
  return { ...setupPreview(spec, EXAMPLE_PREVIEW_REQUEST), estimate };
}
