import { SimulationRequestSchema } from "../../../schema/simulation.js";
import { errorAsSent } from "../../../fabrication/gds-resolve.js";
import { EstimateSchema, UnprocessableBody, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";
import { EXAMPLE_REQUEST, invalidRequestExample } from "../../openapi-examples.js";
import { V1_ERRORS, bodyErrors } from "../../openapi-operation.js";
import { hangUpSignal } from "../../hang-up.js";

export function estimateSimulation(app: App, { jobs, fabrication, config }: RouteDeps): void {
  app.post(
    "/v1/simulations/estimate",
    {
      schema: {
        operationId: "estimateSimulation",
        summary: "Estimate a simulation",
        description:
          "Runs the same validation as submission and returns the grid, memory and time the run would take. Never queues a job.",
        tags: ["simulations"],
        security: [{ bearerAuth: [] }],
        body: SimulationRequestSchema,
        response: { 200: EstimateSchema, 422: UnprocessableBody, ...errorResponses },
        openapi: () => ({
          errors: [
            ...bodyErrors(config.limits.maxBodyBytes),
            invalidRequestExample(config),
            ...V1_ERRORS,
          ],
          success: { 200: { description: "The grid, memory and time the run would take." } },
          examples: {
            SimulationRequest: EXAMPLE_REQUEST,
            // What the server estimates for the example request, with the run-time model as
            // it stands when the document is built.
            Estimate: jobs.estimate(EXAMPLE_REQUEST as never),
          },
        }),
      },
    },
    async (req, reply) => {
      const accountId = callerOf(req).accountId;
      const request = await fabrication.resolveGdsStructures(
        accountId,
        req.body,
        hangUpSignal(reply),
      );
      try {
        return jobs.estimate(request);
      } catch (err) {
        throw errorAsSent(err, request);
      }
    },
  );
}
