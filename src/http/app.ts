/**
 * Builds the Fastify app: strict JSON parsing and validation, correlation ids, API-key auth
 * and rate limiting on /v1, metrics, the error handler and every route.
 */
import Fastify, { type FastifyServerOptions } from "fastify";
import swagger from "@fastify/swagger";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { IncomingMessage } from "node:http";
import { ApiError, errors } from "../errors.js";
import { compileBounded } from "../schema/bounded.js";
import { handleClientError, installErrorHandling, sendApiError } from "./error-handler.js";
import { parseJsonBody } from "./json-body.js";
import { withRedactingSerializers } from "./log.js";
import { createHttpServer } from "./server.js";
import { openApiOptions } from "./openapi.js";
import { createAuthenticator } from "./plugins/auth.js";
import { createRateLimiter } from "./plugins/rate-limit.js";
import { drcRoute } from "./routes/fabrication/drc.js";
import { exportGdsRoute } from "./routes/fabrication/export-gds.js";
import { listPdksRoute } from "./routes/fabrication/pdks.js";
import { recipeRoute } from "./routes/fabrication/recipe.js";
import { uploadGdsRoute } from "./routes/fabrication/upload-gds.js";
import { cancelSimulation } from "./routes/simulations/cancel.js";
import { estimateSimulation } from "./routes/simulations/estimate.js";
import { previewSimulationRoute } from "./routes/simulations/preview.js";
import { solveModesRoute } from "./routes/modes/solve.js";
import { sParametersRoute } from "./routes/simulations/sparameters.js";
import { listSimulations } from "./routes/simulations/list.js";
import { downloadResults } from "./routes/simulations/results.js";
import { getSimulation } from "./routes/simulations/status.js";
import { submitSimulation } from "./routes/simulations/submit.js";
import { cancelBatch } from "./routes/batches/cancel.js";
import { downloadBatchResults } from "./routes/batches/results.js";
import { listBatches } from "./routes/batches/list.js";
import { getBatch } from "./routes/batches/status.js";
import { estimateBatch } from "./routes/batches/estimate.js";
import { submitBatch } from "./routes/batches/submit.js";
import { docsRoutes } from "./routes/service/docs.js";
import { correlationIdOf } from "./correlation.js";
import { health } from "./routes/service/health.js";
import { listMaterials } from "./routes/service/materials.js";
import { metricsRoute } from "./routes/service/metrics.js";
import type { App, RouteDeps } from "./types.js";

/** Headers a request must carry exactly once: a proxy that reads the last of two would
 * disagree with Node, which keeps the first. */
const SINGLE_HEADERS = new Map([
  ["authorization", "Authorization"],
  ["host", "Host"],
]);

/**
 * Whether a URL is the API's: an account's own data, answers and errors alike, for no cache to
 * keep (unknown paths and methods under /v1 too).
 */
function underV1(url: string): boolean {
  return url === "/v1" || url.startsWith("/v1/") || url.startsWith("/v1?");
}

/** A request the API refuses for its headers alone (before authentication), or null. */
function headerProblem(raw: IncomingMessage): ApiError | null {
  if (raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1 && !raw.headers.host) {
    return errors.badRequest("An HTTP/1.1 request must carry a Host header.");
  }
  const encoding = raw.headers["content-encoding"];
  if (encoding !== undefined && !/^\s*identity\s*$/i.test(encoding)) {
    return errors.unsupportedContentEncoding(encoding);
  }
  const names = raw.rawHeaders;
  let seen: Set<string> | null = null;
  for (let i = 0; i < names.length; i += 2) {
    const name = names[i]!.toLowerCase();
    const label = SINGLE_HEADERS.get(name);
    if (label === undefined) continue;
    seen ??= new Set();
    if (seen.has(name)) {
      return errors.badRequest(`The request has more than one ${label} header; send exactly one.`);
    }
    seen.add(name);
  }
  return null;
}

/** The answer to a URL refused before routing, where no hook or error handler runs. */
function frameworkError(err: { code?: string }): ApiError {
  if (err.code === "FST_ERR_BAD_URL") {
    return errors.badRequest("The URL is malformed (invalid percent-encoding).");
  }
  if (err.code === "FST_ERR_MAX_PARAM_LENGTH") {
    return new ApiError(
      404,
      "not_found",
      "Nothing is at this address (a path segment is too long).",
    );
  }
  return errors.internal();
}

function createFastify(deps: RouteDeps, logger: FastifyServerOptions["logger"]) {
  return Fastify({
    logger: withRedactingSerializers(logger),
    bodyLimit: deps.config.limits.maxBodyBytes,
    trustProxy: false,
    // Long enough that any id the header limit lets through still routes to its handler (and
    // gets job_not_found), short of nothing: the limit is the 16 KiB of all headers.
    routerOptions: { maxParamLength: 16 * 1024 },
    serverFactory: (handler) => createHttpServer(deps.config, handler),
    clientErrorHandler: handleClientError,
    genReqId: (req) => correlationIdOf(req.headers),
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
    // Bad percent-encoding and over-long path segments: the usual body and correlation id, and
    // nothing of the URL echoed (its query may hold a download signature).
    frameworkErrors: (err, req, reply) => {
      reply.header("X-Correlation-ID", req.id);
      if (underV1(req.url)) reply.header("Cache-Control", "no-store");
      return sendApiError(reply, frameworkError(err));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
}

type TypedApp = ReturnType<typeof createFastify>;

/** Strict JSON only: one Ajv without coercion or stripping, and a 415 for other bodies. */
function installParsing(app: TypedApp): void {
  // One Ajv for requests everywhere (see src/schema/ajv.ts); no coercion, no stripping; and
  // oversize arrays and objects refused before Ajv sees them (src/schema/bounded.ts).
  app.setValidatorCompiler(({ schema }) => compileBounded(schema));
  // Only JSON bodies: anything else is a 415.
  app.removeContentTypeParser(["text/plain", "application/json"]);
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    // A route that takes no body (a cancel) takes an empty one with the JSON content type,
    // which many HTTP sessions send on every request.
    if (body === "" && !req.routeOptions.schema?.body) {
      done(null, undefined);
      return;
    }
    try {
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

/** Every response's headers and the request-duration metric. */
function installCommonHooks(app: TypedApp, deps: RouteDeps): void {
  // Hooks that do not wait for anything take Fastify's callback form: an async hook costs a
  // promise and a microtask per request, on every route.
  app.addHook("onRequest", (req, reply, done) => {
    reply.header("X-Correlation-ID", req.id);
    reply.header("X-Content-Type-Options", "nosniff");
    if (deps.config.tls) reply.header("Strict-Transport-Security", "max-age=31536000");
    if (underV1(req.url)) reply.header("Cache-Control", "no-store");
    req.caller = null;
    const problem = headerProblem(req.raw);
    // What follows on this connection a proxy in front may have framed otherwise (two Hosts):
    // the answer is the connection's last.
    if (problem) reply.header("Connection", "close");
    done(problem ?? undefined);
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
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A job's or batch's id in the path as it was issued: UUID text is case-insensitive (RFC 9562
 * §4), and ids are issued and stored in lower case.
 */
function lowerCaseIds(params: unknown): void {
  if (typeof params !== "object" || params === null) return;
  const p = params as Record<string, unknown>;
  for (const name of ["job_id", "batch_id"]) {
    const id = p[name];
    if (typeof id === "string" && UUID_TEXT.test(id)) p[name] = id.toLowerCase();
  }
}

/** The /v1 routes, behind API-key authentication, the rate limit and the JSON media type. */
async function registerV1(app: TypedApp, deps: RouteDeps): Promise<void> {
  const authenticate = createAuthenticator(deps.stores.accounts);
  const rateLimit = createRateLimiter(deps.config.rateLimitPerMinute);
  await app.register(async (v1) => {
    v1.addHook("onRequest", async (req) => {
      const caller = await authenticate(req);
      rateLimit(caller.keyId);
    });
    // POST bodies must say they are JSON, even when empty.
    v1.addHook("preValidation", (req, _reply, done) => {
      lowerCaseIds(req.params);
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
    previewSimulationRoute(typed, deps);
    listSimulations(typed, deps);
    getSimulation(typed, deps);
    downloadResults(typed, deps);
    sParametersRoute(typed, deps);
    cancelSimulation(typed, deps);
    listMaterials(typed, deps);
    exportGdsRoute(typed, deps);
    drcRoute(typed, deps);
    listPdksRoute(typed, deps);
    recipeRoute(typed, deps);
    solveModesRoute(typed, deps);
    submitBatch(typed, deps);
    estimateBatch(typed, deps);
    listBatches(typed, deps);
    getBatch(typed, deps);
    cancelBatch(typed, deps);
    downloadBatchResults(typed, deps);
    // Binary uploads get their own scope: only this route parses application/octet-stream.
    await typed.register(async (scope) => uploadGdsRoute(scope, deps));
  });
}

export async function buildApp(
  deps: RouteDeps,
  logger: FastifyServerOptions["logger"] = false,
): Promise<App> {
  const app = createFastify(deps, logger);
  installParsing(app);
  installErrorHandling(app, deps.config.limits.maxBodyBytes);
  installCommonHooks(app, deps);
  await app.register(swagger, openApiOptions(deps.config));
  await registerV1(app, deps);
  health(app, deps);
  metricsRoute(app, deps);
  docsRoutes(app, deps);
  return app;
}
