/**
 * The one place errors become responses: `{detail, error_code, ...extra}` with the status of
 * the coded error, never a stack trace. Fastify's own errors (validation, content type, body
 * size) are mapped onto the registry in src/errors.ts; JSON bodies are parsed by
 * ./json-body.ts, which throws registry errors itself.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { randomUUID } from "node:crypto";
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError, BusyError, errors } from "../errors.js";
import { formatAjvErrors } from "../schema/ajv-errors.js";
import { diskRefusedWrite, storageServiceFailed } from "../storage/errors.js";
import { storeUnavailability } from "../store/errors.js";
import { correlationIdOf } from "./correlation.js";
import { lingerAfterAnswer } from "./linger.js";
import { notFound, requestPath, trackRouteMethods } from "./route-methods.js";

export function sendApiError(reply: FastifyReply, err: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply
    .code(err.statusCode)
    .type("application/json; charset=utf-8")
    .send({ detail: err.detail, error_code: err.code, ...err.extra });
}

/**
 * The 503 "nothing was stored" of a database or a disk that takes no writes now (full,
 * unreachable), or null for any other error: the API's and the dashboard's answer alike.
 */
export function refusedWriteError(err: unknown): ApiError | null {
  const unavailable = storeUnavailability(err);
  if (unavailable) return errors.storeUnavailable(unavailable);
  if (storageServiceFailed(err)) return errors.storageUnavailable();
  return diskRefusedWrite(err) ? errors.diskFull() : null;
}

function toApiError(err: FastifyError, req: FastifyRequest, bodyLimit: number): ApiError {
  if (err instanceof ApiError) return err;
  const refused = refusedWriteError(err);
  if (refused) return refused;
  if (err.validation) {
    const context = err.validationContext ?? "body";
    const prefix = context === "body" ? "body" : context === "querystring" ? "query" : context;
    return errors.validation(formatAjvErrors(err.validation as never, prefix));
  }
  switch (err.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return err.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE"
        ? errors.unsupportedMediaType(req.headers["content-type"])
        : errors.badRequest("The Content-Length header does not match the body.");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return errors.bodyTooLarge(req.routeOptions.bodyLimit ?? bodyLimit);
  }
  if (typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500) {
    // Other client errors Fastify detects (bad URL encoding, prototype poisoning, …).
    return new ApiError(err.statusCode, "bad_request", err.message);
  }
  return errors.internal();
}

/** The log's words for a request that failed on the server's side. */
export function failureLogMessage(err: unknown): string {
  if (storeUnavailability(err)) return "database unavailable";
  if (diskRefusedWrite(err)) return "a disk refused a write";
  if (storageServiceFailed(err)) return "the storage service failed";
  return "request failed";
}

export function installErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler(async (err: FastifyError, req, reply) => {
    const apiError = toApiError(err, req, bodyLimit);
    // A body above the limit is answered at once; the connection then closes lingeringly, so
    // that the 413 reaches a client still sending.
    if (err.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      reply.header("Connection", "close");
      lingerAfterAnswer(req.raw);
    }
    if (apiError instanceof BusyError) {
      req.log.info(`answered 503 ${apiError.code}: ${apiError.detail}`);
    } else if (apiError.statusCode >= 500) {
      req.log.error({ err }, failureLogMessage(err));
    }
    return sendApiError(reply, apiError);
  });
  const routes = trackRouteMethods(app);
  app.setNotFoundHandler((req, reply) => {
    const path = requestPath(req);
    const allowed = routes.allowed(path);
    if (allowed.length === 0) return sendApiError(reply, notFound(req.method, path, routes));
    return sendApiError(reply, errors.methodNotAllowed(req.method, path, allowed));
  });
}

/** The error a malformed or too-slow request gets before it ever becomes a request. */
function clientErrorFor(err: NodeJS.ErrnoException & { reason?: string }): ApiError {
  switch (err.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError(
        408,
        "request_timeout",
        "The request was not received in time; send the headers and body without pausing.",
      );
    case "HPE_HEADER_OVERFLOW":
      return new ApiError(
        431,
        "headers_too_large",
        "The request's headers are too large (the limit is 16 KiB in all).",
      );
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
      return errors.badRequest("The request gives Content-Length more than once; send it once.");
    default: {
      const why = typeof err.reason === "string" && err.reason ? `: ${err.reason}` : "";
      return errors.badRequest(`The request is not valid HTTP/1.1${why}.`);
    }
  }
}

/**
 * Node's `clientError`: requests that fail to parse or time out never reach Fastify's hooks,
 * so they are answered here, in the same `{detail, error_code}` form and with an
 * X-Correlation-ID, and the connection is closed.
 */
export function handleClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || pending?.headersSent) {
    // A response is already under way on this socket: there is no clean way to add another.
    socket.destroy();
    return;
  }
  answerRaw(socket, clientErrorFor(err), randomUUID());
}

/**
 * A CONNECT request (Node hands it over as a bare socket, and without this closes it
 * unanswered): 405, in the API's form, and the connection closed.
 */
export function refuseConnect(req: IncomingMessage, socket: Duplex): void {
  const apiError = new ApiError(
    405,
    "method_not_allowed",
    "CONNECT is not allowed: this server is not a proxy.",
  );
  answerRaw(socket, apiError, correlationIdOf(req.headers));
}

/**
 * An `Expect` other than `100-continue` (Node's own answer is a 417 with no body): the 417 in
 * the API's form, and the connection closed, since the body, if any, was not read.
 */
export function refuseExpectation(req: IncomingMessage, res: ServerResponse): void {
  const apiError = new ApiError(
    417,
    "expectation_failed",
    "The only Expect this server meets is 100-continue; send the request without it.",
  );
  const { body, headers } = closingAnswer(apiError, correlationIdOf(req.headers));
  res.writeHead(apiError.statusCode, headers);
  res.end(body);
}

/** The body and headers of an error answered outside Fastify, the connection then closed. */
function closingAnswer(apiError: ApiError, correlationId: string) {
  const body = JSON.stringify({ detail: apiError.detail, error_code: apiError.code });
  const headers = {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    "X-Correlation-ID": correlationId,
    "X-Content-Type-Options": "nosniff",
    Connection: "close",
  };
  return { body, headers };
}

/** An error written straight to a socket that never became a Fastify request; then closed. */
function answerRaw(socket: Duplex, apiError: ApiError, correlationId: string): void {
  const { body, headers } = closingAnswer(apiError, correlationId);
  const status = `HTTP/1.1 ${apiError.statusCode} ${STATUS_CODES[apiError.statusCode] ?? "Error"}`;
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  socket.end(`${[status, ...lines].join("\r\n")}\r\n\r\n${body}`);
  // Do not wait for a client that stopped reading.
  setTimeout(() => socket.destroy(), 1000).unref();
}
