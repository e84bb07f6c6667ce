import type { App, RouteDeps } from "../../types.js";
import { ANY_ERRORS } from "../../openapi-operation.js";

export function metricsRoute(app: App, { metrics }: RouteDeps): void {
  app.get(
    "/metrics",
    {
      schema: {
        operationId: "getMetrics",
        summary: "Prometheus metrics",
        security: [],
        description: "No authentication. Prometheus text exposition format.",
        tags: ["service"],
        openapi: () => ({
          errors: ANY_ERRORS,
          success: {
            200: {
              description: "Prometheus text exposition format.",
              body: { mediaType: "text/plain", schema: { type: "string" } },
            },
          },
        }),
      },
    },
    async (_req, reply) => {
      reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    },
  );
}
