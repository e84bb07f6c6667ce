/**
 * A server closing while a request is under way (service.ts, closeWithin): the response goes
 * out, and then its keep-alive connection is closed at once. Before, only the connections idle
 * when the close began were closed; this one stayed open for the client's next request until
 * the shutdown grace ran out, and every stop of the server waited that long.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import { once } from "node:events";
import { smallSimulation, startService } from "../helpers/service.js";

const GRACE_MS = 20_000;

test("a keep-alive connection whose request ends during a close is closed, not held to the grace", async () => {
  const svc = await startService({}, { EMSIM_SHUTDOWN_GRACE_MS: String(GRACE_MS) });
  const key = await svc.newKey("closing@example.com");
  const body = Buffer.from(JSON.stringify(smallSimulation()));
  const socket = connect(svc.config.port, "127.0.0.1");
  await once(socket, "connect");
  let answer = "";
  socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
  const ended = once(socket, "close");
  // The request's head and half its body: the request is under way when the close begins.
  socket.write(
    "POST /v1/simulations HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n" +
      `Authorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`,
  );
  socket.write(body.subarray(0, 10));
  await new Promise((r) => setTimeout(r, 200));
  const started = performance.now();
  const closed = svc.close();
  await new Promise((r) => setTimeout(r, 200));
  socket.write(body.subarray(10));
  await ended;
  await closed;
  const seconds = (performance.now() - started) / 1000;
  assert.match(answer, /^HTTP\/1\.1 202 /, "the request under way was answered");
  assert.doesNotMatch(answer, /connection: close/i, "the answer kept the connection alive");
  assert.ok(seconds < GRACE_MS / 4000, `the close took ${seconds.toFixed(1)} s`);
});
