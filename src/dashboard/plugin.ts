/**
 * The web dashboard, mounted at /dashboard (and `/` redirects there): sign-in, API keys, jobs
 * and field plots, rendered on the server as HTML with a small script for live updates, copy
 * buttons, confirmations and the canvas plots (src/dashboard/static/).
 *
 * Everything runs in its own encapsulated Fastify context, so the API's JSON error handler,
 * content types and authentication are untouched: here errors are HTML pages (JSON under
 * /dashboard/api/), forms are urlencoded, every POST must carry the session's CSRF token, and
 * every response carries the security headers of src/dashboard/security.ts.
 */
import type {
  FastifyError,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
} from "fastify";
import { ApiError } from "../errors.js";
import { loadAssets } from "./assets.js";
import {
  Dashboard,
  DashboardError,
  field,
  safeNext,
  SignInRequired,
  type DashboardDeps,
  type DashboardOptions,
} from "./context.js";
import { OneTimeForms } from "./once.js";
import { PlotService } from "./plots.js";
import { adminAccountRoutes } from "./routes/admin-accounts.js";
import { apiRoutes } from "./routes/api.js";
import { accountRoutes } from "./routes/auth/account.js";
import { inviteRoutes } from "./routes/auth/invite.js";
import { setupRoutes } from "./routes/auth/setup.js";
import { signInRoutes } from "./routes/auth/sign-in.js";
import { fabricationRoutes } from "./routes/fabrication.js";
import { jobRoutes } from "./routes/jobs.js";
import { keyRoutes } from "./routes/keys.js";
import { lingerAfterAnswer } from "../http/linger.js";
import { crossSiteReason, setSecurityHeaders } from "./security.js";
import { errorBody, errorTitle } from "./views/errors.js";

export { dashboardSetupAddress } from "./setup.js";

const FORM_BODY_LIMIT = 64 * 1024;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;

/** error_code of the JSON endpoints' failures, by status. */
const ERROR_CODES: Record<number, string> = {
  400: "bad_request",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
};

function isJsonRoute(req: FastifyRequest): boolean {
  return req.url.startsWith("/dashboard/api/");
}

interface Failure {
  status: number;
  code: string;
  message: string;
  title?: string;
  headers: Record<string, string>;
}

function describeFailure(err: FastifyError | Error, req: FastifyRequest): Failure {
  if (err instanceof DashboardError) {
    return {
      status: err.statusCode,
      code: ERROR_CODES[err.statusCode] ?? "error",
      message: err.message,
      ...(err.title ? { title: err.title } : {}),
      headers: err.headers,
    };
  }
  if (err instanceof ApiError) {
    const headers = { ...err.headers };
    delete headers["WWW-Authenticate"];
    return { status: err.statusCode, code: err.code, message: err.detail, headers };
  }
  const fastifyError = err as FastifyError;
  switch (fastifyError.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return {
        status: 413,
        code: "body_too_large",
        message: "The form was too large.",
        headers: {},
      };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return {
        status: 415,
        code: "unsupported_media_type",
        message: "Forms must be sent as application/x-www-form-urlencoded.",
        headers: {},
      };
  }
  const status = fastifyError.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return {
      status,
      code: "bad_request",
      message: "The request could not be understood.",
      headers: {},
    };
  }
  req.log.error({ err }, "dashboard request failed");
  return {
    status: 500,
    code: "internal_error",
    message:
      "The server failed to answer this request. Try again; if it keeps happening, tell the operator the request id below.",
    headers: {},
  };
}

// eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
export function dashboardPlugin(
  deps: DashboardDeps,
  options: DashboardOptions = {},
): FastifyPluginAsync {
  const d = new Dashboard(deps, options);
  const plots = new PlotService(deps.storage);
  const forms = new OneTimeForms();
  const assets = loadAssets();

  function sendFailure(req: FastifyRequest, reply: FastifyReply, failure: Failure) {
    for (const [k, v] of Object.entries(failure.headers)) reply.header(k, v);
    if (isJsonRoute(req)) {
      return reply
        .code(failure.status)
        .header("Cache-Control", "no-store")
        .send({ detail: failure.message, error_code: failure.code });
    }
    return d.sendPage(reply, req, {
      title: failure.title ?? errorTitle(failure.status),
      status: failure.status,
      notice: null,
      body: errorBody({
        status: failure.status,
        message: failure.message,
        requestId: req.id,
        signedIn: Boolean(d.state(req).account),
        ...(failure.title ? { title: failure.title } : {}),
      }),
    });
  }

  // eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
  async function scope(app: FastifyInstance): Promise<void> {
    app.decorateRequest("dashboard", null);
    // Keep the dashboard out of the API's OpenAPI document.
    app.addHook("onRoute", (route) => {
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => {
        const fields: Record<string, string> = Object.create(null);
        for (const [k, v] of new URLSearchParams(body as string)) if (!(k in fields)) fields[k] = v;
        done(null, fields);
      },
    );

    app.addHook("onRequest", async (req, reply) => {
      setSecurityHeaders(reply, d.secure);
      if (!req.url.startsWith("/dashboard/static/")) await d.loadState(req);
    });
    app.addHook("onSend", async (_req, reply, payload) => {
      if (!reply.hasHeader("cache-control")) reply.header("Cache-Control", "no-store");
      return payload;
    });
    // Every state change is a POST, and every POST must be a same-site form with the token.
    app.addHook("preHandler", async (req) => {
      if (req.method !== "POST") return;
      if (!FORM_TYPE.test(req.headers["content-type"] ?? "")) {
        throw new DashboardError(415, "Forms must be sent as application/x-www-form-urlencoded.");
      }
      const crossSite = crossSiteReason(req, deps.config.baseUrl);
      const tokenOk = d.csrfValid(req, field(req.body, "_csrf"));
      if (crossSite || !tokenOk) {
        req.log.warn(
          { event: "dashboard_csrf_refused", reason: crossSite ?? "missing or wrong CSRF token" },
          "dashboard form refused",
        );
        throw new DashboardError(
          403,
          "This form has expired or did not come from this dashboard. Go back, reload the page and try again.",
          "Form refused",
        );
      }
    });

    app.setErrorHandler(async (err: FastifyError | Error, req, reply) => {
      if (err instanceof SignInRequired) {
        if (isJsonRoute(req)) {
          return reply
            .code(401)
            .header("Cache-Control", "no-store")
            .send({ detail: "Sign in to the dashboard first.", error_code: "sign_in_required" });
        }
        const next = req.method === "GET" ? safeNext(req.url) : null;
        const query = next ? `?next=${encodeURIComponent(next)}` : "?notice=session-ended";
        return reply.redirect(`/dashboard/sign-in${query}`, 303);
      }
      // A form above the limit is answered at once and its connection closed lingeringly, so
      // that the 413 reaches a browser still sending (src/http/linger.ts).
      if ((err as FastifyError).code === "FST_ERR_CTP_BODY_TOO_LARGE") {
        reply.header("Connection", "close");
        lingerAfterAnswer(req.raw);
      }
      return sendFailure(req, reply, describeFailure(err, req));
    });
    app.setNotFoundHandler(async (req, reply) => {
      if (!req.dashboard) await d.loadState(req);
      return sendFailure(req, reply, {
        status: 404,
        code: "not_found",
        message:
          "There is nothing at this address. It may have been mistyped, or it belongs to something you cannot see.",
        headers: {},
      });
    });

    app.get("/", async (req, reply) =>
      reply.redirect(d.state(req).account ? "/dashboard/jobs" : "/dashboard/sign-in", 303),
    );
    app.get<{ Params: { name: string } }>("/static/:name", async (req, reply) => {
      const asset = assets.get(req.params.name);
      if (!asset) throw new DashboardError(404, "No such file.");
      reply.header("ETag", asset.etag).header("Cache-Control", "no-cache");
      if (req.headers["if-none-match"] === asset.etag) return reply.code(304).send();
      return reply.type(asset.contentType).send(asset.body);
    });
    signInRoutes(app, d);
    setupRoutes(app, d);
    inviteRoutes(app, d);
    adminAccountRoutes(app, d);
    keyRoutes(app, d, forms);
    jobRoutes(app, d);
    apiRoutes(app, d, plots);
    fabricationRoutes(app, d);
    accountRoutes(app, d);
  }

  return async (app) => {
    app.get("/", { schema: { hide: true } }, async (_req, reply) =>
      reply.redirect("/dashboard", 302),
    );
    await app.register(scope, { prefix: "/dashboard" });
  };
}
