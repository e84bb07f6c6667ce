/**
 * How the client commands talk to people and scripts: exit codes, error messages, `--json`
 * output and small tables. Every client command runs through `runClientCommand`, so one
 * failure maps to the same exit code and wording everywhere (docs/cli.md lists them).
 */
import {
  EmsimApiError,
  EmsimBatchFailedError,
  EmsimChecksumError,
  EmsimError,
  EmsimJobFailedError,
  EmsimNetworkError,
  isAbortError,
} from "../client/index.js";
import type { FieldError } from "../client/index.js";
import { FollowingLostError, resumeHint } from "./following.js";
import { UsageError } from "./usage.js";
import { MAX_FIELD_ERRORS } from "../errors.js";

export const EXIT = {
  ok: 0,
  /** Anything not listed below (an unreadable result file, an unexpected failure). */
  failure: 1,
  usage: 2,
  /** 401: no key, a malformed key, or an unknown or revoked one; 403 from storage. */
  auth: 3,
  /** 404: no such job or batch (for this account). */
  notFound: 4,
  /** 409: a job is already active, results not ready, or the job already finished. */
  conflict: 5,
  /** 422 (or local validation), 400, 413, 415: the request is not valid. */
  invalid: 6,
  /** The server is not reachable (connection refused, unknown host, timeout). */
  unreachable: 7,
  /** The downloaded file does not match the job's (or the batch's) checksum. */
  checksum: 8,
  /** 5xx, or 429 after the retries. */
  server: 9,
  /** The simulation ended FAILED (or was cancelled), or no job of a batch completed. */
  jobFailed: 10,
  /** `emsim drc`: the layout violates a design rule (error severity). */
  drcFailed: 11,
  /** Interrupted with Ctrl-C. */
  interrupted: 130,
} as const;

/** A failure the command has already put into words, with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    /** Extra fields for the `--json` error object. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Local validation failed: the same field errors the server's 422 would list. */
export class InvalidRequestError extends CliError {
  constructor(
    readonly source: string,
    readonly fieldErrors: FieldError[],
    /** What the request was meant to be, for the message. */
    what = "simulation request",
  ) {
    super(`${source} is not a valid ${what}:`, EXIT.invalid, { errors: fieldErrors });
  }
}

export interface ErrorReport {
  exitCode: number;
  /** Lines for stderr. */
  lines: string[];
  /** The `--json` error object. */
  json: Record<string, unknown>;
}

/** The first MAX_FIELD_ERRORS problems, a line each, and how many more there are. */
function fieldLines(errors: FieldError[]): string[] {
  const lines = errors.slice(0, MAX_FIELD_ERRORS).map((e) => `  ${e.path}: ${e.message}`);
  const more = errors.length - MAX_FIELD_ERRORS;
  return more > 0 ? [...lines, `  … and ${more} more`] : lines;
}

/** The exit code and message for any error a client command can meet. */
export function describeError(err: unknown, baseUrl?: string): ErrorReport {
  if (err instanceof InvalidRequestError) {
    return {
      exitCode: err.exitCode,
      lines: [err.message, ...fieldLines(err.fieldErrors)],
      json: {
        error_code: "validation_error",
        detail: err.message,
        errors: err.fieldErrors.slice(0, MAX_FIELD_ERRORS),
        error_count: err.fieldErrors.length,
      },
    };
  }
  if (err instanceof CliError) {
    return {
      exitCode: err.exitCode,
      lines: [err.message],
      json: { detail: err.message, ...err.extra },
    };
  }
  if (err instanceof FollowingLostError) {
    const report = describeError(err.error, baseUrl);
    const { kind, id } = err.followed;
    return {
      ...report,
      lines: [...report.lines, resumeHint(err.followed)],
      json: { ...report.json, [`${kind}_id`]: id },
    };
  }
  if (err instanceof EmsimApiError) return describeApiError(err);
  if (err instanceof EmsimNetworkError) return describeNetworkError(err, baseUrl);
  if (err instanceof EmsimChecksumError) return describeChecksumError(err);
  if (err instanceof EmsimJobFailedError) {
    return {
      exitCode: EXIT.jobFailed,
      lines: [err.message],
      json: { error_code: "job_failed", detail: err.message, job: err.job },
    };
  }
  if (err instanceof EmsimBatchFailedError) {
    return {
      exitCode: EXIT.jobFailed,
      lines: [err.message, `Each job's error: 'emsim batch ${err.batch.batch_id}'.`],
      json: { error_code: "batch_failed", detail: err.message, batch: err.batch },
    };
  }
  if (err instanceof UsageError) throw err;
  if (isAbortError(err)) {
    return {
      exitCode: EXIT.interrupted,
      lines: ["interrupted"],
      json: { error_code: "interrupted", detail: "interrupted" },
    };
  }
  const message = err instanceof EmsimError || err instanceof Error ? err.message : String(err);
  return {
    exitCode: EXIT.failure,
    lines: [message],
    json: { error_code: "error", detail: message },
  };
}

/**
 * An error status from the API: its exit code by status, with the server's answer as JSON.
 * `status` is the HTTP status; a 409's `status` (the job's or batch's, e.g. FAILED) is kept as
 * `record_status`.
 */
function describeApiError(err: EmsimApiError): ErrorReport {
  const { status: recordStatus, ...body } = err.body as Record<string, unknown>;
  const json = {
    ...body,
    status: err.status,
    ...(recordStatus !== undefined ? { record_status: recordStatus } : {}),
  };
  const s = err.status;
  if (s === 401) {
    return {
      exitCode: EXIT.auth,
      lines: [
        `authentication failed: ${err.detail}`,
        "Check EMSIM_API_KEY or run 'emsim login' with a valid key.",
      ],
      json,
    };
  }
  if (s === 403) return { exitCode: EXIT.auth, lines: [`forbidden: ${err.detail}`], json };
  if (s === 404) return { exitCode: EXIT.notFound, lines: [`not found: ${err.detail}`], json };
  if (s === 409) return { exitCode: EXIT.conflict, lines: conflictLines(err), json };
  if (s === 422 || s === 400 || s === 413 || s === 415) {
    const errors = err.fieldErrors;
    return {
      exitCode: EXIT.invalid,
      lines:
        errors.length > 0
          ? ["the server refused the request as invalid:", ...fieldLines(errors)]
          : [`the server refused the request: ${err.detail}`],
      json,
    };
  }
  if (s === 429) {
    return {
      exitCode: EXIT.server,
      lines: [`rate limited: ${err.detail}`],
      json,
    };
  }
  return {
    exitCode: s >= 500 ? EXIT.server : EXIT.failure,
    lines: [
      `the server answered HTTP ${s}: ${err.detail}${err.correlationId ? ` (correlation id ${err.correlationId})` : ""}`,
    ],
    json,
  };
}

/** A 409's detail and, when another job or batch holds the slot, which one and what to do. */
function conflictLines(err: EmsimApiError): string[] {
  const lines = [err.detail];
  if (err.code === "simulation_already_running") {
    const retry = `retry in about ${err.retryAfterSeconds ?? "?"} s, or submit with --queue to wait for it.`;
    lines.push(
      err.activeBatchId
        ? `Active batch: ${err.activeBatchId} (now at job ${err.activeJobId ?? "unknown"}); ${retry}`
        : `Active job: ${err.activeJobId ?? "unknown"}; ${retry}`,
    );
  }
  return lines;
}

function describeNetworkError(err: EmsimNetworkError, baseUrl?: string): ErrorReport {
  return {
    exitCode: EXIT.unreachable,
    lines: [
      err.message,
      ...(err.errno === "ECONNREFUSED"
        ? [`Is emsim running there? Set EMSIM_BASE_URL or run 'emsim login' to use another.`]
        : []),
    ],
    json: {
      error_code: "unreachable",
      detail: err.message,
      url: err.url ?? baseUrl,
      errno: err.errno,
    },
  };
}

function describeChecksumError(err: EmsimChecksumError): ErrorReport {
  return {
    exitCode: EXIT.checksum,
    lines: [
      `checksum mismatch: refusing the download of ${err.kind} ${err.jobId}`,
      `  expected sha256 ${err.expected}`,
      `  got      sha256 ${err.actual}`,
      `The file was kept aside as ${err.corruptPath}; download it again.`,
    ],
    json: {
      error_code: "checksum_mismatch",
      detail: err.message,
      expected: err.expected,
      actual: err.actual,
      corrupt_path: err.corruptPath,
    },
  };
}

export interface CommandIo {
  json: boolean;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export function defaultIo(json = false): CommandIo {
  return { json, stdout: process.stdout, stderr: process.stderr };
}

/**
 * Runs a command body; turns any thrown error into its message on stderr (and a JSON error
 * object on stdout with `--json`) and the exit code. Usage errors go on to main's handler.
 */
export async function runClientCommand(
  io: CommandIo,
  body: () => Promise<number>,
  baseUrl?: string,
): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const report = describeError(err, baseUrl);
    io.stderr.write(report.lines.map((l, i) => (i === 0 ? `emsim: ${l}` : l)).join("\n") + "\n");
    if (io.json) printJson(io, { error: report.json, exit_code: report.exitCode });
    return report.exitCode;
  }
}

export function printJson(io: CommandIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * A downloaded file (the SDK's DownloadResult or BatchDownloadResult) as `--json` prints it:
 * snake_case, as the API's objects and everything else the CLI prints.
 */
export function fileJson(file: {
  jobId?: string;
  batchId?: string;
  path: string;
  bytes: number;
  sha256: string;
  resumedFromBytes: number;
}) {
  return {
    ...(file.jobId !== undefined ? { job_id: file.jobId } : {}),
    ...(file.batchId !== undefined ? { batch_id: file.batchId } : {}),
    path: file.path,
    bytes: file.bytes,
    sha256: file.sha256,
    resumed_from_bytes: file.resumedFromBytes,
  };
}

/** Left-aligned columns separated by two spaces; the first row is the header. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** `key: value` lines with the keys aligned. */
export function fields(pairs: [string, string][]): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  // A value of several lines (the run's notes) keeps its later lines under its first.
  const indent = `\n${" ".repeat(width + 2)}`;
  return pairs
    .map(([k, v]) => `${`${k}:`.padEnd(width + 1)} ${v.split("\n").join(indent)}`)
    .join("\n");
}

/** Sizes in binary units, as the dashboard shows them. */
export { formatBytes } from "../plot/units.js";

/** `text` cut to `width` characters, the cut marked with "…" (a cut number would mislead). */
export function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "--:--";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** A length in metres shown in micrometres, e.g. 1.55e-6 → "1.55 µm". */
export function formatMicrons(metres: number, digits = 4): string {
  return `${Number((metres * 1e6).toPrecision(digits))} µm`;
}

/**
 * Runs `fn` with a signal that Ctrl-C aborts, so a long wait can stop cleanly (the command
 * then says what is left running on the server). A second Ctrl-C exits at once.
 */
export async function withInterrupt<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    const err = new Error("interrupted");
    err.name = "AbortError";
    controller.abort(err);
  };
  process.on("SIGINT", onSigint);
  try {
    return await fn(controller.signal);
  } finally {
    process.off("SIGINT", onSigint);
  }
}
