/**
 * Every error the API can answer with, each with a stable code and HTTP status. Routes throw
 * these; one error handler (src/http/error-handler.ts) renders them as
 * `{detail, error_code, ...extra}`.
 */

export interface FieldError {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly detail: string,
    /** Extra body fields the spec asks for (e.g. active_job_id, retry_after, errors). */
    readonly extra: Record<string, unknown> = {},
    /** Extra response headers (e.g. Retry-After, WWW-Authenticate). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

/**
 * "Busy, come back in N s" (503 with Retry-After): routine back-pressure of a pool at its limit,
 * not the server failing (the error handler logs it at info, without a stack).
 */
export class BusyError extends ApiError {
  constructor(code: string, what: string, retryAfterSeconds: number) {
    super(
      503,
      code,
      `${what}; try again in ${retryAfterSeconds} s.`,
      { retry_after: retryAfterSeconds },
      { "Retry-After": String(retryAfterSeconds) },
    );
  }
}

/** Field errors listed in one 422 body; the rest are counted in `error_count`. */
export const MAX_FIELD_ERRORS = 50;

/** `text` cut to `max` characters, marked with an ellipsis when cut (for echoing input). */
function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const BEARER_CHALLENGE = { "WWW-Authenticate": 'Bearer realm="emsim"' };

/** active_job_id of a 409 whose active job is another account's (its id is not disclosed). */
export const OTHER_ACCOUNTS_JOB = "(another account's job)";

/** The detail of errors.activeJobConflict. */
function activeJobConflictDetail(
  jobId: string | null,
  limit: number,
  batchId: string | null,
): string {
  if (batchId) {
    return `A batch is running (batch ${batchId}, now at job ${jobId}); submit again when it has finished.`;
  }
  if (jobId === null) {
    return limit === 1
      ? "Another account's simulation is running (one simulation at a time on this service); submit again when it has finished."
      : `The service's limit of ${limit} active simulations is reached by other accounts' jobs; submit again when one has finished.`;
  }
  return limit === 1
    ? `A simulation is already running (job ${jobId}); submit again when it has finished.`
    : `The limit of ${limit} active simulations is reached (job ${jobId} is one of them); submit again when one has finished.`;
}

export const errors = {
  missingApiKey: () =>
    new ApiError(
      401,
      "missing_api_key",
      "Missing API key: include the header 'Authorization: Bearer <API_KEY>'.",
      {},
      BEARER_CHALLENGE,
    ),
  malformedApiKey: () =>
    new ApiError(
      401,
      "invalid_api_key_format",
      "The API key format is invalid.",
      {},
      {
        ...BEARER_CHALLENGE,
      },
    ),
  /** Unknown or revoked: deliberately the same answer for both. */
  unauthorized: () =>
    new ApiError(401, "unauthorized", "Authentication failed.", {}, BEARER_CHALLENGE),
  forbidden: (detail: string) => new ApiError(403, "forbidden", detail),
  batchNotFound: (batchId: string) =>
    new ApiError(404, "batch_not_found", `No batch with id '${clip(batchId, 64)}'.`),
  jobNotFound: (jobId: string) =>
    new ApiError(404, "job_not_found", `No simulation job with id '${clip(jobId, 64)}'.`),
  routeNotFound: (method: string, url: string, without?: string) =>
    new ApiError(
      404,
      "not_found",
      `No route for ${clip(method, 20)} ${clip(url, 200)}` +
        (without ? ` (a trailing slash): the path is ${clip(without, 200)}.` : "."),
    ),
  methodNotAllowed: (method: string, url: string, allowed: string[]) =>
    new ApiError(
      405,
      "method_not_allowed",
      `${clip(method, 20)} is not allowed on ${clip(url, 200)}; it answers ${allowed.join(", ")}.`,
      { allowed_methods: allowed },
      { Allow: allowed.join(", ") },
    ),
  malformedJson: (why: string) =>
    new ApiError(400, "malformed_json", `The request body is not valid JSON: ${why}`),
  forbiddenJsonKey: () =>
    new ApiError(
      400,
      "forbidden_json_key",
      'The request body uses the key "__proto__" (or "constructor" holding "prototype"), which is not accepted anywhere in a request.',
    ),
  badRequest: (detail: string) => new ApiError(400, "bad_request", detail),
  unsupportedContentEncoding: (encoding: string) =>
    new ApiError(
      415,
      "unsupported_content_encoding",
      `Content-Encoding '${clip(encoding, 40)}' is not supported; send the request body uncompressed.`,
    ),
  bodyTooLarge: (limitBytes: number) =>
    new ApiError(
      413,
      "body_too_large",
      `The request body exceeds the limit of ${limitBytes} bytes.`,
    ),
  unsupportedMediaType: (got: string | undefined, expected = "application/json") =>
    new ApiError(
      415,
      "unsupported_media_type",
      `Content-Type must be ${expected}${got ? `, got '${got}'` : ""}.`,
    ),
  /** At most MAX_FIELD_ERRORS field errors are listed; `error_count` gives the total. */
  validation: (fieldErrors: FieldError[]) => {
    const first = fieldErrors[0];
    const more = fieldErrors.length > 1 ? ` (and ${fieldErrors.length - 1} more)` : "";
    return new ApiError(
      422,
      "validation_error",
      first ? `${first.path}: ${first.message}${more}` : "The request is not valid.",
      { errors: fieldErrors.slice(0, MAX_FIELD_ERRORS), error_count: fieldErrors.length },
    );
  },
  /**
   * A submission refused while `activeJobId` is active; null when that job is another
   * account's (a global limit): its id is not disclosed, active_job_id holds
   * OTHER_ACCOUNTS_JOB and the detail says the service is busy.
   */
  activeJobConflict: (
    activeJobId: string | null,
    retryAfterSeconds: number,
    limit: number,
    activeBatchId: string | null = null,
  ) =>
    new ApiError(
      409,
      "simulation_already_running",
      activeJobConflictDetail(activeJobId, limit, activeBatchId),
      {
        active_job_id: activeJobId ?? OTHER_ACCOUNTS_JOB,
        ...(activeBatchId ? { active_batch_id: activeBatchId } : {}),
        retry_after: retryAfterSeconds,
      },
      { "Retry-After": String(retryAfterSeconds) },
    ),
  // A FAILED job or batch never has results: no retry_after, no Retry-After (waiting would
  // not help, and a client honouring them would poll for ever).
  resultsNotReady: (jobId: string, status: string, retryAfterSeconds: number) =>
    status === "FAILED"
      ? new ApiError(
          409,
          "results_not_ready",
          `Job ${jobId} ended without results (FAILED) and will never have any; see error_detail on the job.`,
          { status },
        )
      : new ApiError(
          409,
          "results_not_ready",
          `Job ${jobId} is ${status}; results are available once it is COMPLETED.`,
          { status, retry_after: retryAfterSeconds },
          { "Retry-After": String(retryAfterSeconds) },
        ),
  batchResultsNotReady: (batchId: string, status: string, retryAfterSeconds: number) =>
    status === "FAILED"
      ? new ApiError(
          409,
          "results_not_ready",
          `Batch ${batchId} ended without results (FAILED: no job completed) and will never have any; see the jobs' error_detail.`,
          { status },
        )
      : new ApiError(
          409,
          "results_not_ready",
          `Batch ${batchId} is ${status}; its results are available once every job has ended.`,
          { status, retry_after: retryAfterSeconds },
          { "Retry-After": String(retryAfterSeconds) },
        ),
  batchResultsBusy: (retryAfterSeconds: number) =>
    new BusyError(
      "batch_results_busy",
      "Every writer of batch result files on this server is busy",
      retryAfterSeconds,
    ),
  batchResultsUnavailable: (why: string) =>
    new ApiError(
      422,
      "batch_results_unavailable",
      `The batch's results cannot be put in one file: ${why}`,
    ),
  jobFinished: (jobId: string, status: string) =>
    new ApiError(409, "job_finished", `Job ${jobId} has already finished (${status}).`, {
      status,
    }),
  batchFinished: (batchId: string, status: string) =>
    new ApiError(
      409,
      "batch_finished",
      `Batch ${batchId} has already finished (${status}); no job of it is left to cancel.`,
      { status },
    ),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError(
      429,
      "rate_limited",
      `Too many requests; try again in ${retryAfterSeconds} s.`,
      { retry_after: retryAfterSeconds },
      { "Retry-After": String(retryAfterSeconds) },
    ),
  notReady: (detail: string) => new ApiError(503, "not_ready", detail),
  /** An uploaded or stored GDS II file the reader refuses; `reason` is its GdsError reason. */
  gdsInvalid: (reason: string, detail: string) =>
    new ApiError(422, "gds_invalid", `The GDS II file cannot be used: ${detail}`, { reason }),
  gdsNotFound: () =>
    new ApiError(404, "gds_not_found", "The GDS II file behind this address no longer exists."),
  /** A check ran past its time or memory limit. */
  fabricationTooLarge: (detail: string) => new ApiError(422, "layout_too_large", detail),
  fabricationBusy: (retryAfterSeconds: number) =>
    new BusyError("fabrication_busy", "All fabrication checks are busy", retryAfterSeconds),
  noSParameters: (jobId: string) =>
    new ApiError(
      404,
      "sparameters_not_found",
      `Job ${clip(jobId, 64)} has no S-parameters: only a job with source_type "ports" has them.`,
    ),
  modesTooLarge: (detail: string) => new ApiError(422, "plane_too_large", detail),
  modesBusy: (retryAfterSeconds: number) =>
    new BusyError("modes_busy", "The mode solver is busy", retryAfterSeconds),
  /** The database refused a write (full disk) or cannot be reached; the change was undone. */
  storeUnavailable: (reason: "full" | "unavailable") =>
    new ApiError(
      503,
      "service_unavailable",
      reason === "full"
        ? "The service cannot store anything right now (its database's disk is full); nothing was stored. Try again later."
        : "The service's database cannot be used right now; nothing was stored. Try again later.",
      { retry_after: 30 },
      { "Retry-After": "30" },
    ),
  /** A disk of the server refused a file (full or failing): nothing was stored. */
  diskFull: () =>
    new ApiError(
      503,
      "service_unavailable",
      "The service cannot write files right now (a disk of the server is full or failing); nothing was stored. Try again later.",
      { retry_after: 30 },
      { "Retry-After": "30" },
    ),
  /** The storage service (S3) failed a request: unreachable, stalled or answering errors. */
  storageUnavailable: () =>
    new ApiError(
      503,
      "service_unavailable",
      "The service's storage cannot be used right now; nothing was changed. Try again later.",
      { retry_after: 30 },
      { "Retry-After": "30" },
    ),
  internal: () =>
    new ApiError(
      500,
      "internal_error",
      "Internal server error; the request id is in X-Correlation-ID.",
    ),
} as const;
