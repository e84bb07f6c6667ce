/**
 * The one place errors become responses: `{detail, error_code, ...extra}` with the status of
 * the coded error, never a stack trace. Fastify's own errors (validation, content type, body
 * size, malformed JSON) are mapped onto the registry in src/errors.ts.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, errors } from "../errors.js";
import { formatAjvErrors } from "../schema/ajv.js";

export function sendApiError(reply: FastifyReply, err: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply
    .code(err.statusCode)
    .type("application/json; charset=utf-8")
    .send({ detail: err.detail, error_code: err.code, ...err.extra });
}

function toApiError(err: FastifyError, req: FastifyRequest, bodyLimit: number): ApiError {
  if (err instanceof ApiError) return err;
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
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return errors.malformedJson("the body is empty.");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return errors.malformedJson(err.message);
  }
  if (err instanceof SyntaxError && err.statusCode === 400) {
    return errors.malformedJson(err.message);
  }
  if (typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500) {
    // Other client errors Fastify detects (bad URL encoding, prototype poisoning, …).
    return new ApiError(err.statusCode, "bad_request", err.message);
  }
  return errors.internal();
}

export function installErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const apiError = toApiError(err, req, bodyLimit);
    if (apiError.statusCode >= 500) req.log.error({ err }, "request failed");
    return sendApiError(reply, apiError);
  });
  app.setNotFoundHandler((req, reply) =>
    sendApiError(reply, errors.routeNotFound(req.method, req.url.split("?")[0]!)),
  );
}
