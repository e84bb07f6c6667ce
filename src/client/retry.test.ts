/**
 * The SDK's retry rules with a scripted fake fetch (the one place a mock is right: real
 * servers do not fail on cue). Delays are recorded instead of waited.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { EmsimApiError, EmsimClient, EmsimNetworkError, DEFAULT_RETRY_POLICY } from "./index.js";
import { isRetryable, mayHaveBeenSent, parseRetryAfter, retryDelayMs } from "./retry.js";

type Step =
  { status: number; body?: unknown; headers?: Record<string, string> } | { error: string };

/** A fetch that plays `steps` in order and records every call. */
function scripted(steps: Step[]) {
  const calls: { url: string; method: string; headers: Record<string, string> }[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers: (init?.headers ?? {}) as Record<string, string>,
    });
    const step = steps[Math.min(calls.length - 1, steps.length - 1)]!;
    if ("error" in step) {
      const cause = Object.assign(new Error(`connect ${step.error}`), { code: step.error });
      throw new TypeError("fetch failed", { cause });
    }
    return new Response(step.body === undefined ? null : JSON.stringify(step.body), {
      status: step.status,
      headers: { "content-type": "application/json", ...step.headers },
    });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

function client(steps: Step[], retries: number | Partial<typeof DEFAULT_RETRY_POLICY> = 3) {
  const { fetch, calls } = scripted(steps);
  const delays: number[] = [];
  const c = new EmsimClient({
    baseUrl: "http://emsim.test:8080",
    apiKey: "emsim_test",
    fetch,
    retries,
    random: () => 0.5,
    sleep: async (ms) => {
      delays.push(ms);
    },
  });
  return { c, calls, delays };
}

const JOB = { job_id: "j1", status: "RUNNING" };
const ACK = { job_id: "j1", status: "QUEUED", created_at: "2025-01-01T00:00:00Z", message: "ok" };
const SIM = { solver: "fdtd" } as never;
const err = (status: number, code: string, extra: object = {}) => ({
  status,
  body: { detail: `${code} detail`, error_code: code, ...extra },
});

test("backoff grows exponentially with equal jitter, capped, and yields to a longer Retry-After", () => {
  const p = { ...DEFAULT_RETRY_POLICY, minDelayMs: 100, maxDelayMs: 1000 };
  // Equal jitter: between half and all of the exponential step.
  assert.equal(
    retryDelayMs(1, p, null, () => 0),
    50,
  );
  assert.equal(
    retryDelayMs(1, p, null, () => 0.999999),
    99.99995,
  );
  assert.equal(
    retryDelayMs(2, p, null, () => 0),
    100,
  );
  assert.equal(
    retryDelayMs(3, p, null, () => 0),
    200,
  );
  assert.equal(
    retryDelayMs(10, p, null, () => 1),
    1000,
  ); // capped at maxDelayMs
  for (let r = 1; r < 8; r++) {
    const d = retryDelayMs(r, p);
    const step = Math.min(1000, 100 * 2 ** (r - 1));
    assert.ok(d >= step / 2 && d <= step, `retry ${r}: ${d}`);
  }
  assert.equal(
    retryDelayMs(1, p, 3000, () => 0),
    3000,
  );
  assert.equal(
    retryDelayMs(3, p, 10, () => 0),
    200,
  ); // a shorter Retry-After does not shorten it
});

test("Retry-After is read as seconds or as an HTTP date", () => {
  assert.equal(parseRetryAfter("7"), 7000);
  assert.equal(parseRetryAfter(null), null);
  assert.equal(parseRetryAfter("soon"), null);
  const now = Date.parse("2025-01-01T00:00:00Z");
  assert.equal(parseRetryAfter("Wed, 01 Jan 2025 00:00:05 GMT", now), 5000);
});

test("which failures are retried for reads and for submissions", () => {
  const resp = (status: number) => ({ kind: "response" as const, status, retryAfterMs: null });
  for (const s of [429, 500, 502, 503, 504]) assert.ok(isRetryable(resp(s), "idempotent"), `${s}`);
  for (const s of [400, 401, 403, 404, 409, 413, 415, 416, 422]) {
    assert.ok(!isRetryable(resp(s), "idempotent"), `${s}`);
    assert.ok(!isRetryable(resp(s), "submit"), `${s}`);
  }
  assert.ok(isRetryable(resp(429), "submit"));
  assert.ok(isRetryable(resp(503), "submit"));
  for (const s of [500, 502, 504]) assert.ok(!isRetryable(resp(s), "submit"), `${s}`);
  assert.ok(isRetryable({ kind: "network", sent: true }, "idempotent"));
  assert.ok(!isRetryable({ kind: "network", sent: true }, "submit"));
  assert.ok(isRetryable({ kind: "network", sent: false }, "submit"));
});

test("connect-phase failures count as not sent, anything else as possibly sent", async () => {
  const f = (code: string) => new TypeError("fetch failed", { cause: { code } });
  assert.equal(mayHaveBeenSent(f("ECONNREFUSED")), false);
  assert.equal(mayHaveBeenSent(f("ENOTFOUND")), false);
  assert.equal(mayHaveBeenSent(f("UND_ERR_CONNECT_TIMEOUT")), false);
  assert.equal(mayHaveBeenSent(f("ECONNRESET")), true);
  assert.equal(mayHaveBeenSent(f("UND_ERR_SOCKET")), true);
  assert.equal(mayHaveBeenSent(new TypeError("fetch failed")), true);
  // Refused by fetch itself, before connecting (no code): a blocked port, a scheme.
  const refused = (message: string) => new TypeError("fetch failed", { cause: new Error(message) });
  assert.equal(mayHaveBeenSent(refused("bad port")), false);
  assert.equal(mayHaveBeenSent(refused("unknown scheme")), false);
  assert.equal(mayHaveBeenSent(refused("other side closed")), true);
  // What Node's own fetch throws for them (nothing listens or is reached).
  for (const url of ["http://127.0.0.1:1/v1/simulations", "ftp://127.0.0.1/x"]) {
    const err = await fetch(url).then(
      () => null,
      (e: unknown) => e,
    );
    assert.equal(mayHaveBeenSent(err), false, url);
  }
  // Happy eyeballs: every address refused.
  const both = Object.assign(
    new AggregateError(
      [
        Object.assign(new Error("a"), { code: "ECONNREFUSED" }),
        Object.assign(new Error("b"), { code: "ECONNREFUSED" }),
      ],
      "all failed",
    ),
    { code: "ECONNREFUSED" },
  );
  assert.equal(mayHaveBeenSent(new TypeError("fetch failed", { cause: both })), false);
});

test("a read is retried on 503 and 5xx, honouring Retry-After, then succeeds", async () => {
  const { c, calls, delays } = client([
    { ...err(503, "not_ready"), headers: { "retry-after": "2" } },
    err(502, "bad_gateway"),
    { status: 200, body: JOB },
  ]);
  const job = await c.get("j1");
  assert.equal(job.job_id, "j1");
  assert.equal(calls.length, 3);
  assert.deepEqual(delays, [2000, 375]); // Retry-After 2 s; then step 2 (500 ms) with jitter 0.5
  assert.equal(calls[0]!.headers.authorization, "Bearer emsim_test");
});

test("a read is retried on connection errors until the budget is spent", async () => {
  const { c, calls, delays } = client([{ error: "ECONNREFUSED" }], 3);
  await assert.rejects(c.get("j1"), (e: unknown) => {
    assert.ok(e instanceof EmsimNetworkError);
    assert.equal(e.sent, false);
    assert.equal(e.errno, "ECONNREFUSED");
    assert.match(
      e.message,
      /the server at http:\/\/emsim\.test:8080 is not reachable \(connection refused\)/,
    );
    return true;
  });
  assert.equal(calls.length, 4);
  assert.deepEqual(delays, [187.5, 375, 750]);
});

test("4xx answers are never retried", async () => {
  for (const [status, code] of [
    [400, "bad_request"],
    [401, "unauthorized"],
    [404, "job_not_found"],
    [409, "simulation_already_running"],
    [422, "validation_error"],
  ] as const) {
    const { c, calls } = client([err(status, code), { status: 200, body: JOB }]);
    await assert.rejects(c.get("j1"), (e: unknown) => {
      assert.ok(e instanceof EmsimApiError);
      assert.equal(e.status, status);
      assert.equal(e.code, code);
      assert.equal(e.detail, `${code} detail`);
      return true;
    });
    assert.equal(calls.length, 1, `${status} must not be retried`);
  }
});

test("a submission is retried only where it cannot have created a job", async () => {
  // Refused before sending, then rate limited, then not ready: all safe, then accepted.
  {
    const { c, calls, delays } = client([
      { error: "ECONNREFUSED" },
      { ...err(429, "rate_limited"), headers: { "retry-after": "1" } },
      err(503, "not_ready"),
      { status: 202, body: ACK },
    ]);
    assert.equal((await c.submit(SIM)).job_id, "j1");
    assert.equal(calls.length, 4);
    assert.equal(delays[1], 1000);
    assert.ok(calls.every((x) => x.method === "POST"));
  }
  // Ambiguous: the connection broke after sending, or the server failed mid-way.
  for (const step of [
    { error: "ECONNRESET" },
    { error: "UND_ERR_SOCKET" },
    err(500, "internal_error"),
    err(502, "x"),
    err(504, "x"),
  ] as Step[]) {
    const { c, calls } = client([step, { status: 202, body: ACK }]);
    await assert.rejects(c.submit(SIM));
    assert.equal(calls.length, 1, `no resubmission after ${JSON.stringify(step)}`);
  }
  // Reads after the same failure are retried.
  const { c, calls } = client([
    { error: "ECONNRESET" },
    err(500, "internal_error"),
    { status: 200, body: JOB },
  ]);
  await c.get("j1");
  assert.equal(calls.length, 3);
});

test("a Retry-After beyond the limit is not waited for; retries: 0 turns retrying off", async () => {
  {
    const { c, calls } = client([
      { ...err(429, "rate_limited", { retry_after: 600 }), headers: { "retry-after": "600" } },
      { status: 200, body: JOB },
    ]);
    await assert.rejects(
      c.get("j1"),
      (e: unknown) => e instanceof EmsimApiError && e.retryAfterSeconds === 600,
    );
    assert.equal(calls.length, 1);
  }
  {
    const { c, calls } = client([err(503, "not_ready"), { status: 200, body: JOB }], 0);
    await assert.rejects(c.get("j1"), EmsimApiError);
    assert.equal(calls.length, 1);
  }
});

test("an abort during the backoff stops at once", async () => {
  const { fetch, calls } = scripted([err(503, "not_ready")]);
  const c = new EmsimClient({
    baseUrl: "http://emsim.test",
    apiKey: "k",
    fetch,
    retries: { minDelayMs: 60_000 },
  });
  const controller = new AbortController();
  const pending = c.get("j1", { signal: controller.signal });
  setTimeout(() => controller.abort(new DOMException("stop", "AbortError")), 20);
  await assert.rejects(pending, { name: "AbortError" });
  assert.equal(calls.length, 1);
});

test("a non-JSON error page still becomes a typed error", async () => {
  const fetch = (async () =>
    new Response("<html>Bad gateway</html>", {
      status: 404,
      statusText: "Not Found",
    })) as typeof globalThis.fetch;
  const c = new EmsimClient({ baseUrl: "http://emsim.test", apiKey: "k", fetch });
  await assert.rejects(c.get("x"), (e: unknown) => {
    assert.ok(e instanceof EmsimApiError);
    assert.equal(e.code, "http_404");
    assert.match(e.detail, /HTTP 404 Not Found: <html>Bad gateway<\/html>/);
    return true;
  });
});

test("a base URL copied with /v1 (or a slash) at its end does not double the path", async () => {
  for (const baseUrl of ["http://emsim.test:8080/v1", "http://emsim.test:8080/v1/"]) {
    const { fetch, calls } = scripted([{ status: 200, body: JOB }]);
    const c = new EmsimClient({ baseUrl, apiKey: "emsim_test", fetch });
    await c.get("j1");
    assert.equal(calls[0]!.url, "http://emsim.test:8080/v1/simulations/j1");
  }
});
