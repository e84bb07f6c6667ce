/**
 * The web dashboard, mounted at /dashboard (and `/` redirects there): sign-in, API keys, jobs,
 * batches and field plots, rendered on the server as HTML with a small script for live updates,
 * copy buttons, confirmations and the canvas plots (src/dashboard/static/).
 *
 * Everything runs in its own encapsulated Fastify context, so the API's JSON error handler,
 * content types and authentication are untouched: here errors are HTML pages (JSON under
 * /dashboard/api/, src/dashboard/failures.ts), forms are urlencoded, every POST must carry the
 * session's CSRF token, and every response carries the security headers of
 * src/dashboard/security.ts.
 */
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { loadAssets, type Asset } from "./assets.js";
import { BatchSweeps } from "./batch-sweeps.js";
import {
  Dashboard,
  DashboardError,
  field,
  type DashboardDeps,
  type DashboardOptions,
} from "./context.js";
import { answerFailures } from "./failures.js";
import { OneTimeForms } from "./once.js";
import { PlotService } from "./plots.js";
import { adminAccountRoutes } from "./routes/admin-accounts.js";
import { apiRoutes } from "./routes/api.js";
import { batchRoutes } from "./routes/batches.js";
import { builderRoutes } from "./routes/builder.js";
import { accountRoutes } from "./routes/auth/account.js";
import { inviteRoutes } from "./routes/auth/invite.js";
import { setupRoutes } from "./routes/auth/setup.js";
import { signInRoutes } from "./routes/auth/sign-in.js";
import { fabricationRoutes } from "./routes/fabrication.js";
import { jobRoutes } from "./routes/jobs.js";
import { keyRoutes } from "./routes/keys.js";
import { modesRoutes } from "./routes/modes.js";
import { crossSiteReason, setSecurityHeaders } from "./security.js";

export { dashboardSetupAddress } from "./setup.js";

const FORM_BODY_LIMIT = 64 * 1024;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;

export function dashboardPlugin(
  deps: DashboardDeps,
  options: DashboardOptions = {},
): FastifyPluginAsync {
  const d = new Dashboard(deps, options);
  const plots = new PlotService(deps.storage);
  const sweeps = new BatchSweeps(deps.jobs);
  const forms = new OneTimeForms();
  const assets = loadAssets();

  async function scope(app: FastifyInstance): Promise<void> {
    app.decorateRequest("dashboard", null);
    hideFromOpenApi(app);
    parseForms(app);
    prepareEachRequest(app, d);
    refuseForeignForms(app, d);
    answerFailures(app, d);

    app.get("/", async (req, reply) =>
      reply.redirect(d.state(req).account ? "/dashboard/jobs" : "/dashboard/sign-in", 303),
    );
    staticFileRoute(app, assets);
    signInRoutes(app, d);
    setupRoutes(app, d);
    inviteRoutes(app, d);
    adminAccountRoutes(app, d);
    keyRoutes(app, d, forms);
    jobRoutes(app, d);
    builderRoutes(app, d);
    batchRoutes(app, d, sweeps);
    apiRoutes(app, d, plots, sweeps);
    fabricationRoutes(app, d);
    modesRoutes(app, d);
    accountRoutes(app, d);
  }

  return async (app) => {
    app.get("/", { schema: { hide: true } }, async (_req, reply) =>
      reply.redirect("/dashboard", 302),
    );
    await app.register(scope, { prefix: "/dashboard" });
  };
}

/** Keep the dashboard out of the API's OpenAPI document. */
function hideFromOpenApi(app: FastifyInstance): void {
  app.addHook("onRoute", (route) => {
    route.schema = { ...(route.schema ?? {}), hide: true };
  });
}

/** Urlencoded forms as a record of their fields, the first of each name. */
function parseForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
    (_req, body, done) => {
      const fields: Record<string, string> = Object.create(null);
      for (const [k, v] of new URLSearchParams(body as string)) if (!(k in fields)) fields[k] = v;
      done(null, fields);
    },
  );
}

/**
 * Security headers on every answer, the session loaded for everything but the static files, and
 * no caching unless a route says otherwise.
 */
function prepareEachRequest(app: FastifyInstance, d: Dashboard): void {
  app.addHook("onRequest", async (req, reply) => {
    setSecurityHeaders(reply, d.secure);
    if (!req.url.startsWith("/dashboard/static/")) await d.loadState(req);
  });
  app.addHook("onSend", async (_req, reply, payload) => {
    if (!reply.hasHeader("cache-control")) reply.header("Cache-Control", "no-store");
    return payload;
  });
}

/** Every state change is a POST, and every POST must be a same-site form with the token. */
function refuseForeignForms(app: FastifyInstance, d: Dashboard): void {
  app.addHook("preHandler", async (req) => {
    if (req.method !== "POST") return;
    if (!FORM_TYPE.test(req.headers["content-type"] ?? "")) {
      throw new DashboardError(415, "Forms must be sent as application/x-www-form-urlencoded.");
    }
    const crossSite = crossSiteReason(req, d.deps.config.baseUrl);
    // Signing out with no session left (ended in another tab, or by a password change
    // elsewhere) ends nothing: its form's token died with the session, and a 403 for it left
    // the stale cookie in place.
    const nothingToEnd = req.routeOptions.url === "/dashboard/sign-out" && !d.state(req).session;
    const tokenOk = nothingToEnd || d.csrfValid(req, field(req.body, "_csrf"));
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
}

/** The stylesheet, scripts and icon (assets.ts), revalidated by their ETags. */
function staticFileRoute(app: FastifyInstance, assets: Map<string, Asset>): void {
  app.get<{ Params: { name: string } }>("/static/:name", async (req, reply) => {
    const asset = assets.get(req.params.name);
    if (!asset) throw new DashboardError(404, "No such file.");
    reply.header("ETag", asset.etag).header("Cache-Control", "no-cache");
    if (req.headers["if-none-match"] === asset.etag) return reply.code(304).send();
    return reply.type(asset.contentType).send(asset.body);
  });
}
