import Type from "typebox";
import type { App, RouteDeps } from "../../types.js";

export function health(app: App, { store, workerRunning }: RouteDeps): void {
  app.get(
    "/health",
    {
      schema: {
        summary: "Health",
        description: "No authentication. 200 when the database answers, 503 otherwise.",
        tags: ["service"],
        response: {
          200: Type.Object({
            status: Type.String(),
            database: Type.String(),
            worker: Type.String(),
            jobs: Type.Object({}, { additionalProperties: true }),
          }),
          503: Type.Object({}, { additionalProperties: true }),
        },
      },
    },
    async (req, reply) => {
      const worker = workerRunning();
      const workerState = worker === null ? "external" : worker ? "running" : "stopped";
      try {
        const jobs = await store.countJobsByStatus();
        return { status: "ok", database: "ok", worker: workerState, jobs };
      } catch (err) {
        // No authentication here: the cause goes to the log, not to whoever asks.
        req.log.error({ err }, "health check: the database did not answer");
        return reply.code(503).send({
          status: "unavailable",
          database: "unavailable",
          worker: workerState,
          detail: "The database is not reachable.",
          error_code: "not_ready",
        });
      }
    },
  );
}
