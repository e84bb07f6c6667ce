/**
 * When the SDK tries a request again, and how long it waits first.
 *
 * Retried: connection failures, 429 and 5xx, with exponential backoff and jitter, honouring
 * the server's Retry-After. Never retried: any other 4xx, which would get the same answer.
 *
 * Submissions are not idempotent (the API has no idempotency key), so a submission is retried
 * only when the server cannot have queued it: the connection failed before the request was
 * sent (refused, unknown host, unreachable network, connect timeout), or the server answered
 * 429 (rate limited before admission) or 503 (not ready, nothing stored). After an ambiguous
 * failure — the connection broke or timed out after the request was sent, or a 500/502/504 —
 * the job may or may not exist, so the SDK gives up rather than risk running it twice; list
 * your jobs to find out.
 */

export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  retries: number;
  /** Backoff before the first retry, in ms; doubles with every further retry. */
  minDelayMs: number;
  /** Upper bound of the backoff, in ms. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is returned instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 4,
  minDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

export function retryPolicy(option: number | Partial<RetryPolicy> | undefined): RetryPolicy {
  if (option === undefined) return { ...DEFAULT_RETRY_POLICY };
  if (typeof option === "number") {
    if (!Number.isInteger(option) || option < 0) {
      throw new RangeError(`retries must be a non-negative integer, got ${option}`);
    }
    return { ...DEFAULT_RETRY_POLICY, retries: option };
  }
  return { ...DEFAULT_RETRY_POLICY, ...option };
}

/** Whether a request may be repeated without changing the outcome. */
export type RequestKind = "idempotent" | "submit";

/** How one attempt ended. */
export type AttemptOutcome =
  | { kind: "response"; status: number; retryAfterMs: number | null }
  | { kind: "network"; sent: boolean };

/** Should the attempt be retried (ignoring the retry budget)? */
export function isRetryable(outcome: AttemptOutcome, kind: RequestKind): boolean {
  if (outcome.kind === "network") return kind === "idempotent" || !outcome.sent;
  const { status } = outcome;
  if (status === 429 || status === 503) return true;
  if (status >= 500) return kind === "idempotent";
  return false;
}

/**
 * Delay before retry number `retry` (1 for the first retry): exponential backoff with "equal
 * jitter" — half of the exponential step fixed, half random — so clients that failed together
 * spread out but never retry immediately. A Retry-After from the server replaces the backoff
 * when it is longer. `random` returns a number in [0, 1).
 */
export function retryDelayMs(
  retry: number,
  policy: RetryPolicy,
  retryAfterMs: number | null = null,
  random: () => number = Math.random,
): number {
  const step = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** Math.max(0, retry - 1));
  const backoff = step / 2 + random() * (step / 2);
  return retryAfterMs !== null && retryAfterMs > backoff ? retryAfterMs : backoff;
}

/**
 * Retry-After in ms: either delta-seconds or an HTTP date (RFC 9110 §10.2.3). Null when absent
 * or unparsable.
 */
export function parseRetryAfter(header: string | null, nowMs = Date.now()): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

/**
 * System error codes that mean no connection was made, so the request never left: safe to
 * repeat even for a submission.
 */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * What Node's fetch (undici) says, with no error code, of a request it refuses before any
 * connection: a port it blocks (1, 25, 6000, …; the Fetch standard's list) or a scheme other
 * than http(s).
 */
const REFUSED_BY_FETCH = new Set(["bad port", "unknown scheme"]);

/** The message of the innermost cause of a fetch failure. */
function innermostMessage(err: unknown): string {
  let e = err as { cause?: unknown; message?: unknown } | undefined;
  while (e && typeof e === "object" && e.cause && typeof e.cause === "object") {
    e = e.cause as typeof e;
  }
  return typeof e?.message === "string" ? e.message : "";
}

/** The system error codes inside a fetch failure (its cause chain, aggregate errors included). */
export function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (e: unknown) => {
    if (!e || typeof e !== "object" || seen.has(e)) return;
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    if (e instanceof AggregateError) for (const inner of e.errors) visit(inner);
    visit((e as { cause?: unknown }).cause);
  };
  visit(err);
  return codes;
}

/**
 * Whether a fetch failure may have reached the server. Only failures whose every cause is a
 * connect-phase error count as "not sent"; anything unknown is treated as sent.
 */
export function mayHaveBeenSent(err: unknown): boolean {
  const codes = errorCodes(err).filter((c) => c !== "ERR_INVALID_STATE");
  if (codes.length === 0) return !REFUSED_BY_FETCH.has(innermostMessage(err));
  return !codes.every((c) => NOT_SENT_CODES.has(c));
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
