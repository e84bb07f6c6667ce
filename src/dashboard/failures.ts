/**
 * What a failed dashboard request answers: an HTML error page, or to the scripts (under
 * /dashboard/api/, or a request asking for JSON first) JSON `{detail, error_code}` with an API
 * error's other fields (a 422's `errors`, a 409's `active_job_id`) as the API sends them. A request that needs a session and has none is sent to sign in
 * instead (JSON routes get a 401). A database or disk that takes no writes (full, unreachable)
 * is the API's 503 "nothing was stored" with Retry-After. An unexpected error is logged; its
 * answer says only that the server failed, with the request id to quote.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";
import { failureLogMessage, refusedWriteError } from "../http/error-handler.js";
import { lingerAfterAnswer } from "../http/linger.js";
import { DashboardError, safeNext, SignInRequired, type Dashboard } from "./context.js";
import { errorBody, errorTitle } from "./views/errors.js";

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

/** The scripts' JSON: /dashboard/api/, or a request that asks for JSON first (a script's post). */
function isJsonRoute(req: FastifyRequest): boolean {
  return (
    req.url.startsWith("/dashboard/api/") || /^application\/json\b/.test(req.headers.accept ?? "")
  );
}

interface Failure {
  status: number;
  code: string;
  message: string;
  title?: string;
  headers: Record<string, string>;
  /** An API error's fields beyond its detail (a 422's `errors`, a 409's `active_job_id`). */
  extra?: Record<string, unknown>;
}

/** The error handler and the not-found handler of the dashboard's encapsulated context. */
export function answerFailures(app: FastifyInstance, d: Dashboard): void {
  app.setErrorHandler(async (err: FastifyError | Error, req, reply) => {
    if (err instanceof SignInRequired) return sendToSignIn(req, reply);
    // A form above the limit is answered at once and its connection closed lingeringly, so
    // that the 413 reaches a browser still sending (src/http/linger.ts).
    if ((err as FastifyError).code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      reply.header("Connection", "close");
      lingerAfterAnswer(req.raw);
    }
    return sendFailure(d, req, reply, describeFailure(err, req));
  });
  app.setNotFoundHandler(async (req, reply) => {
    if (!req.dashboard) await d.loadState(req);
    return sendFailure(d, req, reply, {
      status: 404,
      code: "not_found",
      message:
        "There is nothing at this address. It may have been mistyped, or it belongs to something you cannot see.",
      headers: {},
    });
  });
}

/** To the sign-in page, coming back here after it if this was a page to show (a GET). */
function sendToSignIn(req: FastifyRequest, reply: FastifyReply) {
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

function describeFailure(err: FastifyError | Error, req: FastifyRequest): Failure {
  // A database or disk that takes no writes now is the API's 503, not a failure of ours.
  const refused = refusedWriteError(err);
  if (refused) {
    req.log.warn({ err }, failureLogMessage(err));
    err = refused;
  }
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
    return {
      status: err.statusCode,
      code: err.code,
      message: err.detail,
      headers,
      extra: err.extra,
    };
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

function sendFailure(d: Dashboard, req: FastifyRequest, reply: FastifyReply, failure: Failure) {
  for (const [k, v] of Object.entries(failure.headers)) reply.header(k, v);
  if (isJsonRoute(req)) {
    return reply
      .code(failure.status)
      .header("Cache-Control", "no-store")
      .send({ ...failure.extra, detail: failure.message, error_code: failure.code });
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
