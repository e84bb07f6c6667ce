/**
 * One attempt at an API request, and what it came to: a response below 400, or the error to
 * throw together with the outcome that the retry rules (retry.ts) judge. Each attempt has its
 * own time limit; the caller's signal aborts it as it is, without a retry.
 */
import { EmsimApiError, EmsimNetworkError, errorBodyOf } from "./errors.js";
import { errorCodes, mayHaveBeenSent, parseRetryAfter, type AttemptOutcome } from "./retry.js";

/** The request, the same for every attempt. */
export interface AttemptRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  redirect: "follow" | "manual";
}

export interface AttemptLimits {
  /** The API's address, named in the message when it is not reachable. */
  baseUrl: string;
  /** Time limit of the attempt, in ms. */
  timeoutMs: number;
  /** The caller's signal: when it aborts, its reason is thrown. */
  signal?: AbortSignal | undefined;
}

export type Attempt =
  | { response: Response }
  | { response?: undefined; failure: EmsimApiError | EmsimNetworkError; outcome: AttemptOutcome };

/** Sends the request once; an error status or a network failure is returned, not thrown. */
export async function attemptRequest(
  fetchImpl: typeof globalThis.fetch,
  request: AttemptRequest,
  limits: AttemptLimits,
): Promise<Attempt> {
  const { url, method, headers, body, redirect } = request;
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = limits.signal ? AbortSignal.any([limits.signal, timeout]) : timeout;
  try {
    const res = await fetchImpl(url, { method, headers, body, signal, redirect });
    if (res.status < 400) return { response: res };
    return {
      failure: new EmsimApiError(
        res.status,
        await errorBodyOf(res),
        res.headers.get("x-correlation-id"),
      ),
      outcome: {
        kind: "response",
        status: res.status,
        retryAfterMs: parseRetryAfter(res.headers.get("retry-after")),
      },
    };
  } catch (err) {
    if (limits.signal?.aborted) throw limits.signal.reason;
    const timedOut = timeout.aborted;
    const sent = timedOut || mayHaveBeenSent(err);
    const failure = new EmsimNetworkError(
      `the server at ${limits.baseUrl} is not reachable (${networkReason(timedOut ? timeout.reason : err, limits.timeoutMs)})`,
      limits.baseUrl,
      sent,
      timedOut ? "ETIMEDOUT" : (errorCodes(err)[0] ?? null),
      { cause: err },
    );
    return { failure, outcome: { kind: "network", sent } };
  }
}

/** A readable reason for a fetch failure, for messages. */
function networkReason(err: unknown, timeoutMs: number): string {
  const codes = errorCodes(err);
  if ((err as Error).name === "TimeoutError") return `no answer within ${timeoutMs / 1000} s`;
  if (codes.includes("ECONNREFUSED")) return "connection refused";
  if (codes.includes("ENOTFOUND") || codes.includes("EAI_AGAIN")) return "unknown host";
  if (codes.includes("ECONNRESET") || codes.includes("UND_ERR_SOCKET")) {
    return "the connection was closed";
  }
  if (codes[0]) return codes[0];
  // No system error code (e.g. undici's "bad port"): the innermost cause says the most.
  let inner = err as { cause?: unknown; message?: string };
  while (inner.cause && typeof inner.cause === "object") inner = inner.cause as typeof inner;
  return inner.message ?? String(err);
}
