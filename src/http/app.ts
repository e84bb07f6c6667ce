/**
 * Builds the Fastify app: strict JSON parsing and validation, correlation ids, API-key auth
 * and rate limiting on /v1, metrics, the error handler and every route.
 */
import Fastify, { type FastifyServerOptions } from "fastify";
import swagger from "@fastify/swagger";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { randomUUID } from "node:crypto";
import { dashboardPlugin } from "../dashboard/plugin.js";
import { ApiError, errors } from "../errors.js";
import { ajv } from "../schema/ajv.js";
import { installErrorHandling, sendApiError } from "./error-handler.js";
import { createAuthenticator } from "./plugins/auth.js";
import { createRateLimiter } from "./plugins/rate-limit.js";
import { drcRoute } from "./routes/fabrication/drc.js";
import { exportGdsRoute } from "./routes/fabrication/export-gds.js";
import { listPdksRoute } from "./routes/fabrication/pdks.js";
import { recipeRoute } from "./routes/fabrication/recipe.js";
import { uploadGdsRoute } from "./routes/fabrication/upload-gds.js";
import { cancelSimulation } from "./routes/simulations/cancel.js";
import { estimateSimulation } from "./routes/simulations/estimate.js";
import { listSimulations } from "./routes/simulations/list.js";
import { downloadResults } from "./routes/simulations/results.js";
import { getSimulation } from "./routes/simulations/status.js";
import { submitSimulation } from "./routes/simulations/submit.js";
import { docsRoutes } from "./routes/service/docs.js";
import { health } from "./routes/service/health.js";
import { listMaterials } from "./routes/service/materials.js";
import { metricsRoute } from "./routes/service/metrics.js";
import { storageDownload } from "./routes/storage/download.js";
import type { App, RouteDeps } from "./types.js";

const CORRELATION_HEADER = "x-correlation-id";
const CORRELATION_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(
  deps: RouteDeps,
  logger: FastifyServerOptions["logger"] = false,
): Promise<App> {
  const app = Fastify({
    logger,
    bodyLimit: deps.config.limits.maxBodyBytes,
    trustProxy: false,
    genReqId: (req) => {
      const given = req.headers[CORRELATION_HEADER];
      return typeof given === "string" && CORRELATION_PATTERN.test(given) ? given : randomUUID();
    },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
    // Bad percent-encoding and over-long path segments are refused before routing, where no
    // hook or error handler runs: give them the usual body and correlation id, and echo
    // nothing of the URL (its query may hold a download signature).
    frameworkErrors: (err, req, reply) => {
      reply.header("X-Correlation-ID", req.id);
      return sendApiError(
        reply,
        err.code === "FST_ERR_BAD_URL"
          ? errors.badRequest("The URL is malformed (invalid percent-encoding).")
          : err.code === "FST_ERR_MAX_PARAM_LENGTH"
            ? new ApiError(
                404,
                "not_found",
                "Nothing is at this address (a path segment is too long).",
              )
            : errors.internal(),
      );
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // One Ajv for requests everywhere (see src/schema/ajv.ts); no coercion, no stripping.
  app.setValidatorCompiler(({ schema }) => ajv.compile(schema));
  // Only JSON bodies: anything else is a 415.
  app.removeContentTypeParser("text/plain");

  installErrorHandling(app, deps.config.limits.maxBodyBytes);

  // Hooks that do not wait for anything take Fastify's callback form: an async hook costs a
  // promise and a microtask per request, on every route.
  app.addHook("onRequest", (req, reply, done) => {
    reply.header("X-Correlation-ID", req.id);
    reply.header("X-Content-Type-Options", "nosniff");
    req.caller = null;
    done();
  });
  app.addHook("onResponse", (req, reply, done) => {
    deps.metrics.httpDuration.observe(
      {
        method: req.method,
        route: req.routeOptions.url ?? "unmatched",
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });

  await app.register(swagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "emsim",
        version: "1",
        description:
          "Simulation job service for 3D electromagnetic FDTD simulations. Lengths and wavelengths in metres, times in seconds. Submit a simulation, poll it, download the fields as HDF5.",
      },
      servers: [{ url: deps.config.baseUrl }],
      components: {
        securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      },
    },
  });

  const authenticate = createAuthenticator(deps.store);
  const rateLimit = createRateLimiter(deps.config.rateLimitPerMinute);

  await app.register(async (v1) => {
    v1.addHook("onRequest", async (req) => {
      const caller = await authenticate(req);
      rateLimit(caller.keyId);
    });
    // POST bodies must say they are JSON, even when empty.
    v1.addHook("preValidation", (req, _reply, done) => {
      const type = req.headers["content-type"];
      const takesBody = req.routeOptions.schema?.body !== undefined;
      if (takesBody && (type === undefined || !/^application\/json\b/i.test(type))) {
        done(errors.unsupportedMediaType(type));
      } else {
        done();
      }
    });
    const typed = v1.withTypeProvider<TypeBoxTypeProvider>();
    submitSimulation(typed, deps);
    estimateSimulation(typed, deps);
    listSimulations(typed, deps);
    getSimulation(typed, deps);
    downloadResults(typed, deps);
    cancelSimulation(typed, deps);
    listMaterials(typed, deps);
    exportGdsRoute(typed, deps);
    drcRoute(typed, deps);
    listPdksRoute(typed, deps);
    recipeRoute(typed, deps);
    // Binary uploads get their own scope: only this route parses application/octet-stream.
    await typed.register(async (scope) => uploadGdsRoute(scope, deps));
  });

  health(app, deps);
  metricsRoute(app, deps);
  storageDownload(app, deps);
  docsRoutes(app, deps);
  await app.register(dashboardPlugin(deps));
  return app;
}
