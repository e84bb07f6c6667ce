/**
 * The New simulation page (views/builder.ts, static/builder.js) and what its script posts: the
 * set-up preview, the submission and a GDS II upload, each as the signed-in account.
 *
 * No new way in: every POST here is a dashboard form post (urlencoded, with the session's CSRF
 * token, through plugin.ts's same-site and token check), and the work is the API's own: the
 * preview is `previewSimulation` with the caller's gds resolution and `JobService.check`, the
 * submission is the schema check, `resolveGdsStructures` and `jobs.submit` (which holds the
 * 409 rule), the upload is `FabricationService.upload`. Submissions and uploads take a token
 * from the account's bucket of the API's rate limiter (`rateLimitPerMinute`); previews, which
 * the page sends as the user types, have a bucket of their own ten times larger, so typing
 * does not spend the submissions' budget nor hit the limit.
 *
 * The request travels as JSON text in a form field (`simulation`): the dashboard's CSRF check
 * reads the token from urlencoded forms, and a second way of sending it (a header) would be a
 * second door to keep shut.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, errors } from "../../errors.js";
import { hangUpSignal } from "../../http/hang-up.js";
import { parseJsonText } from "../../http/json-body.js";
import { createRateLimiter } from "../../http/plugins/rate-limit.js";
import { setupScene } from "../../preview/scene.js";
import { previewSimulation } from "../../preview/service.js";
import { formatAjvErrors } from "../../schema/ajv-errors.js";
import { compileBounded } from "../../schema/bounded.js";
import { errorAsSent } from "../../fabrication/gds-resolve.js";
import { PreviewRequestSchema, type PreviewRequest } from "../../schema/preview.js";
import type { SimulationRequest } from "../../schema/simulation.js";
import { validateRequestSchema } from "../../schema/validate.js";
import { MATERIALS, materialKind, type SimulationSpec } from "../../solver/index.js";
import { field, type Dashboard } from "../context.js";
import { completionTable } from "../views/builder-schema.js";
import { builderBody, type BuilderView } from "../views/builder.js";
import { jobIdOf } from "./jobs.js";

/** Previews a minute per account, as a multiple of the API's limit (see above). */
const PREVIEW_RATE_FACTOR = 10;
/** Samples per plane axis the page asks for: its canvases are at most about 500 px wide. */
const PAGE_MAX_SAMPLES = 300;
/** A GDS file travels base64url-encoded: 4 characters per 3 bytes, plus the other fields. */
const base64Length = (bytes: number) => Math.ceil((bytes * 4) / 3) + 4096;

/**
 * Where a new request starts: an empty 2 µm cube lit from below, with the defaults shown. The
 * grid step resolves Si, the material a new box gets, at
 * 1.55 µm (1.55 / 3.48 / 0.04 = 11 cells per wavelength; at least 10 are needed), so that
 * adding a box or a GDS layout does not start out refused.
 */
const STARTER_REQUEST: SimulationRequest = {
  solver: "fdtd",
  domain: {
    size: [2e-6, 2e-6, 2e-6],
    resolution: 0.04e-6,
    boundary_conditions: ["pml", "pml", "pml"],
    pml_layers: 12,
  },
  source: {
    source_type: "plane_wave",
    wavelength: 1.55e-6,
    polarization: "te",
    direction: [0, 0, 1],
  },
  structures: [],
  monitors: [],
};

/**
 * A request as the editor shows it: indented, with lists of numbers or names on one line, as
 * people write them (static/builder.js writes it the same way after a form edit). A JSON
 * string holds no raw line break, so only the layout between a list's items changes.
 */
function requestText(request: unknown): string {
  return JSON.stringify(request, null, 2).replace(
    /\[\s+([^[\]{}]*?)\s+\]/g,
    (_all, items: string) => `[${items.replace(/\s*\n\s*/g, " ")}]`,
  );
}

const validatePreviewBody = compileBounded<PreviewRequest>(PreviewRequestSchema);

const MATERIAL_OPTIONS = [...MATERIALS.values()].map((m) => ({
  name: m.name,
  kind: materialKind(m),
}));

const COMPLETION = completionTable();

export function builderRoutes(app: FastifyInstance, d: Dashboard): void {
  const { config } = d.deps;
  const perMinute = config.rateLimitPerMinute;
  const limits = {
    submissions: createRateLimiter(perMinute),
    previews: createRateLimiter(perMinute * PREVIEW_RATE_FACTOR),
  };
  const page: PageSender = (req, reply, { status, ...view }) =>
    d.sendPage(reply, req, {
      title: "New simulation",
      section: "new",
      wide: true,
      status: status ?? 200,
      body: builderBody({
        csrf: d.csrfFor(req, reply),
        requestJson: requestText(STARTER_REQUEST),
        fromJobId: null,
        materials: MATERIAL_OPTIONS,
        completion: COMPLETION,
        setup3dUrl: "/dashboard/static/setup-3d.js",
        maxSamples: PAGE_MAX_SAMPLES,
        ...view,
      }),
    });
  pageRoute(app, d, page);
  previewRoute(app, d, limits.previews);
  submitRoute(app, d, limits.submissions, page);
  gdsRoute(app, d, limits.submissions);
}

type RateLimiter = ReturnType<typeof createRateLimiter>;
type PageSender = (
  req: FastifyRequest,
  reply: FastifyReply,
  extra: Partial<BuilderView> & { status?: number },
) => FastifyReply;

/** The page; `?from=<job id>` starts from one of the account's own jobs' stored request. */
function pageRoute(app: FastifyInstance, d: Dashboard, page: PageSender): void {
  app.get("/simulations/new", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const from = (req.query as Record<string, unknown>).from;
    if (typeof from !== "string" || from === "") return page(req, reply, {});
    // Another account's job is a 404, as its page is.
    const row = await d.deps.jobs.getOwnJob(account.id, jobIdOf(from));
    return page(req, reply, {
      fromJobId: row.jobId,
      requestJson: requestText(JSON.parse(row.requestJson)),
    });
  });
}

/**
 * The `simulation` field as a request object; the API's 413 past its body limit, and its 400s
 * for text that is not JSON or uses a prototype's key.
 */
function simulationField(d: Dashboard, body: unknown): unknown {
  const text = field(body, "simulation");
  const limit = d.deps.config.limits.maxBodyBytes;
  if (Buffer.byteLength(text) > limit) throw errors.bodyTooLarge(limit);
  return parseJsonText(text);
}

/** An optional form field holding JSON (the preview's planes). */
function jsonField(body: unknown, name: string): unknown {
  const text = field(body, name);
  return text === "" ? undefined : parseJsonText(text, `${name}: `);
}

function wantsJson(req: FastifyRequest): boolean {
  return /\bapplication\/json\b/.test(req.headers.accept ?? "");
}

/** The set-up preview of the page's request: the API's answer. */
function previewRoute(app: FastifyInstance, d: Dashboard, limit: RateLimiter): void {
  const { jobs, fabrication, config } = d.deps;
  // Urlencoded JSON is up to three times its text (percent-escapes), checked again after parsing.
  const bodyLimit = 3 * config.limits.maxBodyBytes;
  app.post("/api/simulations/preview", { bodyLimit }, async (req, reply) => {
    const { account } = d.requireAccount(req);
    limit(account.id);
    const planes = jsonField(req.body, "planes");
    const samples = field(req.body, "max_samples");
    const body: unknown = {
      simulation: simulationField(d, req.body),
      ...(planes !== undefined ? { planes } : {}),
      ...(samples ? { max_samples: Number(samples) } : {}),
    };
    if (!validatePreviewBody(body)) {
      throw errors.validation(formatAjvErrors(validatePreviewBody.errors));
    }
    // The checked spec (defaults filled in, gds resolved) also makes the 3-D view's scene.
    let spec: SimulationSpec | null = null;
    const hungUp = hangUpSignal(reply);
    const answer = await previewSimulation(body, {
      resolveGds: (request) => fabrication.resolveGdsStructures(account.id, request, hungUp),
      check: (request) => {
        const checked = jobs.check(request);
        spec = checked.spec;
        return checked;
      },
    });
    // As the API's route: JSON.stringify is several times faster than the schema's
    // serialiser for planes of samples, and the answer is built field by field.
    return reply
      .header("Cache-Control", "no-store")
      .type("application/json; charset=utf-8")
      .serializer(JSON.stringify)
      .send({ ...answer, scene: spec ? setupScene(spec) : null });
  });
}

/**
 * The request submitted as the account, as POST /v1/simulations does it: the rate limit, the
 * body limit, the schema, gds structures resolved, then `jobs.submit` (its checks, the
 * deployment's limits and the 409 rule).
 */
async function submitAs(
  d: Dashboard,
  limit: RateLimiter,
  { accountId, body, signal }: { accountId: string; body: unknown; signal: AbortSignal },
) {
  limit(accountId);
  const simulation = simulationField(d, body);
  if (!validateRequestSchema(simulation)) {
    throw errors.validation(formatAjvErrors(validateRequestSchema.errors));
  }
  const request = await d.deps.fabrication.resolveGdsStructures(accountId, simulation, signal);
  return d.deps.jobs.submit(accountId, request).catch((err: unknown) => {
    throw errorAsSent(err, request);
  });
}

/**
 * Submission: JSON for the page's script (`{job_id, job_url}`, or the API's error body), and
 * for a plain form post (no script) a redirect to the job's page, or the page again with the
 * request as typed and why it was refused.
 */
function submitRoute(
  app: FastifyInstance,
  d: Dashboard,
  limit: RateLimiter,
  page: PageSender,
): void {
  const bodyLimit = 3 * d.deps.config.limits.maxBodyBytes;
  app.post("/simulations", { bodyLimit }, async (req, reply) => {
    const { account } = d.requireAccount(req);
    try {
      const signal = hangUpSignal(reply);
      const job = await submitAs(d, limit, { accountId: account.id, body: req.body, signal });
      const jobUrl = `/dashboard/jobs/${job.jobId}`;
      if (!wantsJson(req)) return reply.redirect(jobUrl, 303);
      return reply
        .code(202)
        .header("Cache-Control", "no-store")
        .send({ job_id: job.jobId, job_url: jobUrl });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // The script's JSON: the error handler sends the API's body (failures.ts).
      if (wantsJson(req)) throw err;
      for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
      return page(req, reply, {
        status: err.statusCode,
        requestJson: field(req.body, "simulation"),
        refusal: { detail: err.detail, errors: (err.extra.errors as FieldErrors) ?? [] },
      });
    }
  });
}

type FieldErrors = { path: string; message: string }[];

/** A GDS II file for a `gds` structure: the API's upload, its answer (gds_url, layers, cells). */
function gdsRoute(app: FastifyInstance, d: Dashboard, limit: RateLimiter): void {
  const maxBytes = d.deps.config.fabrication.maxGdsBytes;
  app.post("/api/gds", { bodyLimit: base64Length(maxBytes) }, async (req, reply) => {
    const { account } = d.requireAccount(req);
    limit(account.id);
    const encoded = field(req.body, "file");
    if (!/^[A-Za-z0-9_-]+$/.test(encoded)) {
      throw errors.validation([{ path: "file", message: "must be a GDS II file, base64url" }]);
    }
    const bytes = Buffer.from(encoded, "base64url");
    if (bytes.length > maxBytes) throw errors.bodyTooLarge(maxBytes);
    const stored = await d.deps.fabrication.upload(account.id, new Uint8Array(bytes));
    return reply.code(201).header("Cache-Control", "no-store").send(stored);
  });
}
