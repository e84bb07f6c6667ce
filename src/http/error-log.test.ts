/**
 * What the server's log says of a failed request: a failure of the server (a bug, a refused
 * disk) is an error with its stack; a "busy, come back in N s" answer (503 with Retry-After:
 * modes_busy, fabrication_busy, batch_results_busy) is routine back-pressure, logged at info
 * without a stack, so that an operator's error alerts do not fire on a busy mode solver.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { once } from "node:events";
import { connect, type AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { errors } from "../errors.js";
import { installErrorHandling } from "./error-handler.js";

async function logOf(thrown: () => Error) {
  const lines: { level: number; msg: string; err?: { stack?: string } }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const app = Fastify({ logger: { level: "info", stream } });
  installErrorHandling(app, 1024);
  app.get("/x", async () => {
    throw thrown();
  });
  await app.ready();
  const res = await app.inject({ method: "GET", url: "/x" });
  await app.close();
  return { status: res.statusCode, lines: lines.filter((l) => l.msg !== "incoming request") };
}

test("a busy answer (503 with Retry-After) is logged at info, without a stack", async () => {
  for (const busy of [errors.modesBusy(5), errors.fabricationBusy(5), errors.batchResultsBusy(5)]) {
    const { status, lines } = await logOf(() => busy);
    assert.equal(status, 503);
    assert.equal(lines.filter((l) => l.level >= 40).length, 0, JSON.stringify(lines));
    const line = lines.find((l) => l.msg.includes(busy.code));
    assert.ok(line, JSON.stringify(lines));
    assert.equal(line.level, 30);
    assert.equal(line.err, undefined);
  }
});

test("a bug is still logged as an error with its stack", async () => {
  const { status, lines } = await logOf(() => new Error("a bug"));
  assert.equal(status, 500);
  const error = lines.find((l) => l.level === 50);
  assert.match(String(error?.err?.stack), /a bug/);
});

test("a client that hangs up mid-body is no failure of the server, nor of its database", async () => {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const app = Fastify({ logger: { level: "info", stream } });
  installErrorHandling(app, 1 << 20);
  app.post("/x", async () => ({ ok: true }));
  const port = await listening(app);
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  socket.write(
    'POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
  );
  await new Promise((r) => setTimeout(r, 100));
  socket.destroy();
  await new Promise((r) => setTimeout(r, 200));
  await app.close();
  const words = lines.filter((l) => l.msg !== "incoming request" && l.msg !== "request completed");
  assert.deepEqual(
    words.filter((l) => l.level >= 40),
    [],
    "nothing at warn or error",
  );
  assert.ok(!words.some((l) => /database/.test(l.msg)), JSON.stringify(words));
});

async function listening(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  return (app.server.address() as AddressInfo).port;
}
