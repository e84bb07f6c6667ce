/**
 * What the SDK throws. Every error is an `EmsimError`; the subclasses say which kind of
 * failure it was, so callers (and the CLI's exit codes) can branch on `instanceof`.
 */
import type { BatchRecord, ErrorBody, FieldError, JobRecord } from "./types.js";

export class EmsimError extends Error {
  override name = "EmsimError";
}

/** The server answered with an HTTP error status (4xx or 5xx). */
export class EmsimApiError extends EmsimError {
  override name = "EmsimApiError";
  /** HTTP status, e.g. 401, 404, 409, 422. */
  readonly status: number;
  /** The stable `error_code` of the body (e.g. "simulation_already_running"), or "http_<status>". */
  readonly code: string;
  /** The body's `detail` text. */
  readonly detail: string;
  /** The whole parsed body (extra fields such as `active_job_id`, `retry_after`, `errors`). */
  readonly body: ErrorBody;
  /** The response's X-Correlation-ID, to quote when reporting a server error. */
  readonly correlationId: string | null;

  constructor(status: number, body: ErrorBody, correlationId: string | null = null) {
    super(`${body.detail} (HTTP ${status}, ${body.error_code})`);
    this.status = status;
    this.code = body.error_code;
    this.detail = body.detail;
    this.body = body;
    this.correlationId = correlationId;
  }

  /** Field errors of a 422 answer (empty otherwise). */
  get fieldErrors(): FieldError[] {
    return Array.isArray(this.body.errors) ? (this.body.errors as FieldError[]) : [];
  }

  /** `retry_after` of a 409 or 429 answer, in seconds, when the body carries one. */
  get retryAfterSeconds(): number | null {
    const v = this.body.retry_after;
    return typeof v === "number" && Number.isFinite(v) ? v : null;
  }

  /** The active job named by a 409 submission conflict. */
  get activeJobId(): string | null {
    return typeof this.body.active_job_id === "string" ? this.body.active_job_id : null;
  }

  /** The batch that active job belongs to, when a 409 submission conflict names one. */
  get activeBatchId(): string | null {
    return typeof this.body.active_batch_id === "string" ? this.body.active_batch_id : null;
  }
}

/**
 * The server could not be reached or the connection broke. `sent` is false when the failure
 * happened before the request left this machine (connection refused, unknown host), so the
 * server cannot have acted on it.
 */
export class EmsimNetworkError extends EmsimError {
  override name = "EmsimNetworkError";
  constructor(
    message: string,
    /** The address that could not be reached. */
    readonly url: string,
    /** Whether the request may have reached the server. */
    readonly sent: boolean,
    /** The system error code when there is one (ECONNREFUSED, ENOTFOUND, ECONNRESET, …). */
    readonly errno: string | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A downloaded result file does not match the job's (or the batch's) SHA-256 checksum. */
export class EmsimChecksumError extends EmsimError {
  override name = "EmsimChecksumError";
  constructor(
    /** The job's id, or the batch's when `kind` is "batch". */
    readonly jobId: string,
    readonly expected: string,
    readonly actual: string,
    /** Where the refused file was kept (`<out>.corrupt`). */
    readonly corruptPath: string,
    /** Whose result file it is: a job's, or a batch's (`downloadBatch`). */
    readonly kind: "job" | "batch" = "job",
  ) {
    super(
      `the download of ${kind} ${jobId} does not match its checksum (expected sha256 ${expected}, got ${actual}); the file was kept aside as ${corruptPath}`,
    );
  }
}

/** `waitFor` or `waitForBatch` reached its `timeoutMs`; the job or batch goes on. */
export class EmsimWaitTimeoutError extends EmsimError {
  override name = "TimeoutError";
}

/** A job ended FAILED (including cancelled jobs) where a result was expected. */
export class EmsimJobFailedError extends EmsimError {
  override name = "EmsimJobFailedError";
  constructor(readonly job: JobRecord) {
    super(`job ${job.job_id} FAILED: ${job.error_detail ?? "no detail given"}`);
  }
}

/**
 * A batch ended FAILED (no job of it completed, or it was cancelled before any did) where a
 * result was expected; `batch.jobs` has each job's `error_detail`.
 */
export class EmsimBatchFailedError extends EmsimError {
  override name = "EmsimBatchFailedError";
  constructor(readonly batch: BatchRecord) {
    const failed = batch.jobs.find((j) => j.error_detail);
    super(
      `batch ${batch.batch_id} FAILED: none of its ${batch.job_count} jobs completed` +
        (failed ? ` (job ${failed.index}: ${failed.error_detail})` : ""),
    );
  }
}

/** Waiting or downloading was stopped through an AbortSignal. */
export function isAbortError(err: unknown): boolean {
  return (
    err instanceof Error &&
    (err.name === "AbortError" || err.name === "TimeoutError") &&
    !(err instanceof EmsimError)
  );
}

/**
 * The error body of a response: the API's `{detail, error_code, …}`, or for anything else (a
 * proxy's HTML page, an empty body) a body made up from the status line.
 */
export async function errorBodyOf(res: Response): Promise<ErrorBody> {
  const text = await res.text().catch(() => "");
  try {
    const parsed = JSON.parse(text) as Partial<ErrorBody> | null;
    if (parsed && typeof parsed === "object" && typeof parsed.detail === "string") {
      return {
        ...parsed,
        detail: parsed.detail,
        error_code:
          typeof parsed.error_code === "string" ? parsed.error_code : `http_${res.status}`,
      };
    }
  } catch {
    // not JSON: described below
  }
  const snippet = text.replace(/\s+/g, " ").trim().slice(0, 200);
  return {
    detail: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}${snippet ? `: ${snippet}` : ""}`,
    error_code: `http_${res.status}`,
  };
}
