import Type from "typebox";
import { ApiError } from "../../../errors.js";
import { SolverAdapterSchema } from "../../../schema/responses.js";
import { storeUnavailability } from "../../../store/errors.js";
import type { App, RouteDeps } from "../../types.js";
import { ANY_ERRORS, type OperationDoc } from "../../openapi-operation.js";

/** How long one write probe's answer stands, so that frequent health checks write rarely. */
const PROBE_INTERVAL_MS = 1000;

/** The details of the two 503s, which the handler sends and the document shows. */
const UNREACHABLE = "The database is not reachable.";
const NOT_WRITABLE =
  "The database answers but does not take writes (is its disk full?): jobs can be read, not submitted.";

/** The answer when the database answers and takes writes. */
const HealthBody = Type.Object(
  {
    status: Type.String(),
    database: Type.String(),
    worker: Type.String({
      description: "running, stopped, or external (no embedded worker).",
    }),
    jobs: Type.Object({}, { additionalProperties: true, description: "Jobs by status." }),
    solver: Type.Object(
      {
        backend: Type.String({
          description:
            "The solver backend jobs run on (EMSIM_SOLVER_BACKEND, auto resolved): wasm, webgpu or reference.",
        }),
        adapter: Type.Union([SolverAdapterSchema, Type.Null()]),
      },
      { description: "What runs the simulations of this deployment." },
    ),
  },
  { title: "Health", description: "The service and its database answer." },
);

/** What the OpenAPI document says of /health beyond its schema: the two 503s and an example. */
const healthDoc = (): OperationDoc => ({
  errors: [
    new ApiError(503, "not_ready", UNREACHABLE, {
      status: "unavailable",
      database: "unavailable",
      worker: "running",
    }),
    new ApiError(503, "not_ready", NOT_WRITABLE, {
      status: "degraded",
      database: "not_writable",
      worker: "running",
      jobs: { QUEUED: 0, RUNNING: 0, COMPLETED: 12, FAILED: 1 },
    }),
    ...ANY_ERRORS,
  ],
  success: { 200: { description: "The database answers." } },
  examples: {
    Health: {
      status: "ok",
      database: "ok",
      worker: "running",
      jobs: { QUEUED: 0, RUNNING: 1, COMPLETED: 12, FAILED: 1 },
      solver: {
        backend: "webgpu",
        adapter: {
          vendor: "nvidia",
          architecture: "hopper",
          device: "NVIDIA H100 80GB HBM3",
          description: "NVIDIA: 550.54.15",
          software: false,
        },
      },
    },
  },
});

export function health(
  app: App,
  { stores, jobs: jobService, workerRunning, solver }: RouteDeps,
): void {
  let probe: { at: number; writable: boolean } = { at: 0, writable: true };
  app.get(
    "/health",
    {
      schema: {
        operationId: "getHealth",
        summary: "Health",
        security: [],
        description:
          "No authentication. 200 when the database answers and takes writes; 503 when it does not answer (`database: unavailable`) or refuses writes, e.g. on a full disk (`database: not_writable`: a one-row write failed, or a submission was refused in the last 30 s and none has succeeded since).",
        tags: ["service"],
        response: {
          200: HealthBody,
          503: Type.Object({}, { additionalProperties: true }),
        },
        openapi: healthDoc,
      },
    },
    async (req, reply) => {
      const worker = workerRunning();
      const workerState = worker === null ? "external" : worker ? "running" : "stopped";
      let jobs: Record<string, number>;
      try {
        jobs = await stores.jobs.countJobsByStatus();
      } catch (err) {
        // No authentication here: the cause goes to the log, not to whoever asks.
        req.log.error({ err }, "health check: the database did not answer");
        return reply.code(503).send({
          status: "unavailable",
          database: "unavailable",
          worker: workerState,
          detail: UNREACHABLE,
          error_code: "not_ready",
        });
      }
      const now = Date.now();
      if (now - probe.at > PROBE_INTERVAL_MS) {
        let writable = true;
        try {
          await stores.probeWrite(new Date(now).toISOString());
        } catch (err) {
          writable = false;
          req.log.error({ err, reason: storeUnavailability(err) }, "health check: no writes");
        }
        probe = { at: now, writable };
      }
      if (!probe.writable || jobService.recentWriteRefusal() !== null) {
        return reply.code(503).send({
          status: "degraded",
          database: "not_writable",
          worker: workerState,
          jobs,
          detail: NOT_WRITABLE,
          error_code: "not_ready",
        });
      }
      return { status: "ok", database: "ok", worker: workerState, jobs, solver };
    },
  );
}
