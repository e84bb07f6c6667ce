/**
 * Issue #10, from outside the process: requests that break HTTP framing, come too slowly,
 * carry two Authorization headers, odd ids or compressed bodies. Every answer is the API's
 * `{detail, error_code}` with an X-Correlation-ID, and no connection stays open for ever.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startServerProcess, type ServerProcess, createKeyWithCli } from "../helpers/process.js";
import { call, freePort, smallSimulation, tempDir } from "../helpers/service.js";
import { rawRequest, type RawResponse } from "./raw-http.js";

const REQUEST_TIMEOUT_MS = 3000;
const HEADERS_TIMEOUT_MS = 1500;
const KEEPALIVE_TIMEOUT_MS = 800;

let server: ServerProcess;
let port: number;
let key: string;

before(async () => {
  const dataDir = tempDir();
  key = createKeyWithCli("p@example.com", dataDir);
  port = await freePort();
  server = await startServerProcess(port, dataDir, {
    EMSIM_LOG_LEVEL: "info",
    EMSIM_EMBEDDED_WORKER: "false",
    EMSIM_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    EMSIM_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    EMSIM_KEEPALIVE_TIMEOUT_MS: String(KEEPALIVE_TIMEOUT_MS),
  });
});
after(async () => server?.kill("SIGKILL"));

/** The API's error format: JSON with detail and error_code, and a correlation id. */
function assertApiError(res: RawResponse, status: number, code: string): void {
  assert.equal(res.status, status, res.body);
  assert.ok(res.json, `not JSON: ${res.body}`);
  assert.equal(res.json.error_code, code, res.body);
  assert.equal(typeof res.json.detail, "string");
  assert.match(res.headers["x-correlation-id"] ?? "", /^[0-9a-f-]{36}$/);
  assert.match(res.headers["content-type"] ?? "", /^application\/json/);
}

test("a body sent a byte at a time is cut off with 408 after the request time-out", async () => {
  const body = JSON.stringify(smallSimulation());
  const head =
    `POST /v1/simulations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
  const chunks = [head, ...body.slice(0, 40).split("")];
  const res = await rawRequest(port, { chunks, delayMs: 250, timeoutMs: 15_000 });
  assertApiError(res, 408, "request_timeout");
  // The server checks its time-outs every second.
  assert.ok(res.elapsedMs < REQUEST_TIMEOUT_MS + 2500, `took ${res.elapsedMs} ms`);
});

test("headers sent slowly are cut off with 408 after the headers time-out", async () => {
  const chunks = [
    "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    ...Array(40).fill("X-Slow: 1\r\n"),
  ];
  const res = await rawRequest(port, { chunks, delayMs: 200, timeoutMs: 15_000 });
  assertApiError(res, 408, "request_timeout");
  assert.ok(res.elapsedMs < HEADERS_TIMEOUT_MS + 2500, `took ${res.elapsedMs} ms`);
});

test("an idle keep-alive connection is closed after the keep-alive time-out", async () => {
  const { connect } = await import("node:net");
  const socket = connect(port, "127.0.0.1");
  const start = Date.now();
  let got = "";
  socket.on("data", (d: Buffer) => (got += d.toString()));
  socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n");
  const closedAfterMs = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("still open after 10 s")), 10_000);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(Date.now() - start);
    });
  });
  assert.match(got, /^HTTP\/1\.1 200/);
  assert.ok(closedAfterMs >= KEEPALIVE_TIMEOUT_MS - 100, `closed after ${closedAfterMs} ms`);
  assert.ok(closedAfterMs < KEEPALIVE_TIMEOUT_MS + 3000, `closed after ${closedAfterMs} ms`);
});

test("two Authorization headers are a 400, whichever of them is valid", async () => {
  for (const [first, second] of [
    [key, "emsim_invalid"],
    ["emsim_invalid", key],
    [key, key],
  ]) {
    const res = await rawRequest(port, {
      chunks: [
        `GET /v1/simulations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${first}\r\n` +
          `authorization: Bearer ${second}\r\nConnection: close\r\n\r\n`,
      ],
    });
    assertApiError(res, 400, "bad_request");
    assert.match(String(res.json!.detail), /more than one Authorization header/);
  }
  const twoHosts = await rawRequest(port, {
    chunks: ["GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n"],
  });
  assertApiError(twoHosts, 400, "bad_request");
});

/** Everything the server sends on one connection until it closes it (or `waitMs` passes). */
async function untilClosed(
  chunk: string,
  waitMs = 3000,
): Promise<{ text: string; closed: boolean }> {
  const { connect } = await import("node:net");
  const socket = connect(port, "127.0.0.1");
  let text = "";
  socket.on("data", (d: Buffer) => (text += d.toString("latin1")));
  socket.write(chunk);
  const closed = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), waitMs);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  socket.destroy();
  return { text, closed };
}

test("a request refused for its headers closes the connection: one pipelined after it is not read", async () => {
  const health = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  for (const head of [
    "GET /v1/simulations HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    `GET /v1/simulations HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${key}\r\n` +
      `Authorization: Bearer ${key}\r\n\r\n`,
    "GET /v1/simulations HTTP/1.1\r\n\r\n",
  ]) {
    const { text, closed } = await untilClosed(head + health);
    assert.ok(closed, `the connection stayed open after: ${text}`);
    assert.equal(text.match(/^HTTP\/1\.1 /gm)?.length, 1, text);
    assert.match(text, /^HTTP\/1\.1 400 /);
    assert.match(text, /\r\nconnection: close\r\n/i);
  }
});

test("every unknown job id is 404 job_not_found, whatever its length", async () => {
  for (const length of [1, 36, 64, 65, 80, 100, 101, 500, 5000]) {
    const id = "a".repeat(length);
    for (const [method, path] of [
      ["GET", `/v1/simulations/${id}`],
      ["GET", `/v1/simulations/${id}/results`],
      ["POST", `/v1/simulations/${id}/cancel`],
    ] as const) {
      const res = await call(server.baseUrl, method, path, { key });
      assert.equal(res.status, 404, `${method} ${length} chars: ${res.text}`);
      assert.equal(res.body.error_code, "job_not_found");
      assert.ok(res.text.length < 1000, "the detail does not echo a long id in full");
    }
  }
  // Without a key it is still 401 first: the id's length does not bypass authentication.
  const anon = await call(server.baseUrl, "GET", `/v1/simulations/${"b".repeat(300)}`);
  assert.equal(anon.status, 401);
});

test("malformed framing, huge headers and a missing Host get the API's error body", async () => {
  const both = await rawRequest(port, {
    chunks: [
      "POST /v1/simulations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
        "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ],
  });
  assertApiError(both, 400, "bad_request");
  const huge = await rawRequest(port, {
    chunks: [`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"x".repeat(64 * 1024)}\r\n\r\n`],
  });
  assertApiError(huge, 431, "headers_too_large");
  const garbage = await rawRequest(port, { chunks: ["HELLO / HTTP/1.1\r\n\r\n"] });
  assertApiError(garbage, 400, "bad_request");
  const noHost = await rawRequest(port, {
    chunks: ["GET /health HTTP/1.1\r\nConnection: close\r\n\r\n"],
  });
  assertApiError(noHost, 400, "bad_request");
  assert.match(String(noHost.json!.detail), /Host header/);
  // HTTP/1.0 has no Host requirement.
  const old = await rawRequest(port, { chunks: ["GET /health HTTP/1.0\r\n\r\n"] });
  assert.equal(old.status, 200);
});

test("two Content-Lengths, an Expect other than 100-continue and a CONNECT get the API's error body", async () => {
  const post =
    "POST /v1/simulations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
  for (const lengths of [
    "Content-Length: 2\r\nContent-Length: 2",
    "Content-Length: 2\r\nContent-Length: 3",
  ]) {
    const twice = await rawRequest(port, { chunks: [`${post}${lengths}\r\n\r\n{}`] });
    assertApiError(twice, 400, "bad_request");
    assert.match(String(twice.json!.detail), /Content-Length more than once/);
  }
  const expect = await rawRequest(port, {
    chunks: [
      "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something-else\r\n" +
        "X-Correlation-ID: my-request-7\r\n\r\n",
    ],
  });
  assert.equal(expect.status, 417, expect.body);
  assert.equal(expect.json?.error_code, "expectation_failed", expect.body);
  assert.match(String(expect.json?.detail), /100-continue/);
  assert.equal(expect.headers["x-correlation-id"], "my-request-7");
  const tunnel = await rawRequest(port, {
    chunks: ["CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n"],
  });
  assertApiError(tunnel, 405, "method_not_allowed");
  // The server goes on serving.
  assert.equal((await rawRequest(port, { chunks: ["GET /health HTTP/1.0\r\n\r\n"] })).status, 200);
});

test("a compressed request body is 415, not 'malformed JSON'", async () => {
  for (const encoding of ["gzip", "deflate", "br", "x-unknown"]) {
    const res = await call(server.baseUrl, "POST", "/v1/simulations/estimate", {
      key,
      rawBody: JSON.stringify(smallSimulation()),
      headers: { "content-type": "application/json", "content-encoding": encoding },
    });
    assert.equal(res.status, 415, `${encoding}: ${res.text}`);
    assert.equal(res.body.error_code, "unsupported_content_encoding");
    assert.match(String(res.body.detail), new RegExp(`'${encoding}'`));
  }
  const identity = await call(server.baseUrl, "POST", "/v1/simulations/estimate", {
    key,
    body: smallSimulation(),
    headers: { "content-encoding": "identity" },
  });
  assert.equal(identity.status, 200, identity.text);
});

test("a __proto__ key is refused with a message that says so", async () => {
  for (const rawBody of [
    '{"__proto__": {"admin": true}}',
    `{"solver": "fdtd", "metadata": {"a": {"__proto__": {"x": 1}}}}`,
    '{"constructor": {"prototype": {"x": 1}}}',
  ]) {
    const res = await call(server.baseUrl, "POST", "/v1/simulations", {
      key,
      rawBody,
      headers: { "content-type": "application/json" },
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error_code, "forbidden_json_key");
    assert.match(String(res.body.detail), /__proto__/);
    assert.doesNotMatch(String(res.body.detail), /not valid JSON/);
  }
});

test("the request log never holds a download signature, a one-time token or an API key", async () => {
  const secret = "s3cr3tSIGNATUREvalue";
  // A key put in the address by mistake (it is only taken from the Authorization header).
  const key = "emsim_0123456789abcdefghijABCDEFGHIJ0123456789";
  await call(server.baseUrl, "GET", `/v1/simulations?api_key=${key}`);
  await call(server.baseUrl, "GET", `/v1/simulations/${key}`);
  await call(
    server.baseUrl,
    "GET",
    `/storage/objects/results/x.h5?expires=1&name=x.h5&signature=${secret}`,
  );
  await call(server.baseUrl, "GET", `/dashboard/setup/${secret}`);
  await call(server.baseUrl, "GET", `/dashboard/invite/${secret}?next=1`);
  await new Promise((r) => setTimeout(r, 300));
  const log = server.stdout();
  assert.match(
    log,
    /\/storage\/objects\/results\/x\.h5\?expires=1&name=x\.h5&signature=\[redacted\]/,
  );
  assert.ok(!log.includes(secret), "the secret reached the log");
  assert.ok(!log.includes(key.slice(0, 20)), "the API key reached the log");
  assert.match(log, /\/v1\/simulations\?api_key=emsim_\[redacted\]/);
});
