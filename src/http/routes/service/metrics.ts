import type { App, RouteDeps } from "../../types.js";

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
      },
    },
    async (_req, reply) => {
      reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    },
  );
}
