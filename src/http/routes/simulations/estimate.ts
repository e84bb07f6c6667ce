import { SimulationRequestSchema } from "../../../schema/simulation.js";
import { EstimateSchema, ValidationErrorBody, errorResponses } from "../../schemas.js";
import { callerOf, type App, type RouteDeps } from "../../types.js";

export function estimateSimulation(app: App, { jobs, fabrication }: RouteDeps): void {
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
        response: { 200: EstimateSchema, 422: ValidationErrorBody, ...errorResponses },
      },
    },
    async (req) => {
      const accountId = callerOf(req).accountId;
      return jobs.estimate(await fabrication.resolveGdsStructures(accountId, req.body));
    },
  );
}
