/**
 * What a route says of itself in the OpenAPI document beyond its schema: every coded error it
 * can answer with, its response headers, its non-JSON bodies and its examples. Each route
 * declares this beside its handler, as `openapi` in its schema; src/http/openapi.ts assembles
 * the document from them and refuses a route without one. Here: the shape of that description,
 * the response headers it may name, and the errors many routes share.
 */
import { ApiError, errors } from "../errors.js";
import { EXAMPLE_JOB_ID } from "./openapi-examples.js";

type Json = Record<string, unknown>;

/** The response headers the document defines (`#/components/headers/<name>`). */
export const RESPONSE_HEADERS = {
  "X-Correlation-ID": {
    description:
      "Identifies the request in the server's logs: the one the client sent, if valid, else a new UUID.",
    schema: { type: "string" },
  },
  "Retry-After": {
    description: "Seconds to wait before trying again.",
    schema: { type: "integer", minimum: 1 },
  },
  "WWW-Authenticate": {
    description: 'The authentication scheme: `Bearer realm="emsim"`.',
    schema: { type: "string" },
  },
  Location: {
    description: "The address of the created or redirected-to resource.",
    schema: { type: "string", format: "uri" },
  },
  "Cache-Control": { description: "Caching policy.", schema: { type: "string" } },
  "Accept-Ranges": {
    description: "`bytes`: Range requests are supported.",
    schema: { type: "string" },
  },
  "Content-Length": { description: "Bytes in this response's body.", schema: { type: "integer" } },
  "Content-Range": {
    description: "`bytes start-end/size`, or `bytes */size` on 416.",
    schema: { type: "string" },
  },
  ETag: {
    description: "The stored file's strong entity tag: send it as If-Range when resuming.",
    schema: { type: "string" },
  },
  "Last-Modified": {
    description: "When the stored file was written (also valid as If-Range).",
    schema: { type: "string" },
  },
  "Content-Disposition": {
    description:
      "`attachment` with the file's name: `emsim-<job_id>.h5` for a job's result file, `emsim-<job_id>.s<N>p` for Touchstone S-parameters, the name a signed download address carries for its file (a batch's results, a GDS layout).",
    schema: { type: "string" },
  },
} satisfies Record<string, Json>;

export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/** A response body that is not JSON. */
export interface RawBody {
  mediaType: string;
  schema: Json;
}

/** What the OpenAPI document says of one operation beyond its route schema. */
export interface OperationDoc {
  /**
   * Every coded error the operation can answer with, as the server builds it (the examples are
   * these bodies). Their order is the order of the examples and of the codes each status lists.
   */
  errors: ApiError[];
  /** Response headers beyond X-Correlation-ID (which every response has), by status. */
  headers?: Record<number, ResponseHeader[]>;
  /** A request body that is not JSON (the route's schema describes JSON bodies only). */
  requestBody?: RawBody & { description: string };
  /** Descriptions and non-JSON bodies of success responses, by status. */
  success?: Record<number, { description: string; body?: RawBody; alsoAs?: RawBody[] }>;
  /** Example bodies by the component (schema title) of the request or response they show. */
  examples?: Record<string, unknown>;
  /** Name and description of the path's `*` wildcard. */
  wildcard?: { name: string; description: string };
}

declare module "fastify" {
  interface FastifySchema {
    /**
     * This operation's description for the OpenAPI document (src/http/openapi.ts), built when
     * the document is: an example may read state, such as the run-time model of an estimate.
     */
    openapi?: () => OperationDoc;
  }
}

/**
 * Answers any operation can give: a malformed URL or request, a compressed body, a request
 * too slow or with too many headers (answered before routing, src/http/error-handler.ts), a
 * server fault.
 */
export const ANY_ERRORS = [
  errors.badRequest("The URL is malformed (invalid percent-encoding)."),
  errors.badRequest("An HTTP/1.1 request must carry a Host header."),
  new ApiError(
    408,
    "request_timeout",
    "The request was not received in time; send the headers and body without pausing.",
  ),
  errors.unsupportedContentEncoding("gzip"),
  new ApiError(
    431,
    "headers_too_large",
    "The request's headers are too large (the limit is 16 KiB in all).",
  ),
  errors.internal(),
];

/** Every /v1 operation: the key (checked first), the rate limit, a database that cannot be used. */
export const V1_ERRORS = [
  errors.missingApiKey(),
  errors.malformedApiKey(),
  errors.unauthorized(),
  errors.badRequest("The request has more than one Authorization header; send exactly one."),
  errors.rateLimited(12),
  errors.storeUnavailable("unavailable"),
  ...ANY_ERRORS,
];

/** An operation that takes a JSON body (at most `maxBodyBytes`). */
export const bodyErrors = (maxBodyBytes: number) => [
  errors.malformedJson("Unexpected end of JSON input"),
  errors.forbiddenJsonKey(),
  errors.bodyTooLarge(maxBodyBytes),
  errors.unsupportedMediaType("text/plain"),
];

/** An operation on one of the caller's jobs. */
export const JOB_ID_ERRORS = [errors.jobNotFound(EXAMPLE_JOB_ID)];

/** The job is not COMPLETED yet. */
export const RESULTS_NOT_READY = errors.resultsNotReady(EXAMPLE_JOB_ID, "RUNNING", 30);
