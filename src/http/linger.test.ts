/**
 * The lingering close is bounded: a refused client that neither sends nor closes, or one that
 * writes without end, loses its connection after the time or byte limit, having had its
 * answer first.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { lingerAfterAnswer } from "./linger.js";

/**
 * A server that refuses every request at once and lingers `maxBytes`/`maxMs`; `closed`
 * resolves with the milliseconds from the first connection to the server closing it.
 */
async function refusingServer(maxBytes: number, maxMs: number) {
  const server = http.createServer((req, res) => {
    lingerAfterAnswer(req, maxBytes, maxMs);
    res.writeHead(413, { Connection: "close", "Content-Length": "2" }).end("no");
  });
  const closed = new Promise<number>((resolve) =>
    server.once("connection", (socket: Socket) => {
      const start = Date.now();
      socket.once("close", () => resolve(Date.now() - start));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, closed };
}

/** Announces a 2 GB body; resolves with the answer and how long it took. */
function announce(server: http.Server, keepWriting: boolean) {
  const port = (server.address() as AddressInfo).port;
  // Half-open: the client does not close when the server's FIN arrives, so it is the server's
  // limits that end the connection.
  const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
  const start = Date.now();
  const chunk = Buffer.alloc(64 * 1024);
  const write = () => {
    while (!socket.destroyed && socket.write(chunk));
    if (!socket.destroyed) socket.once("drain", write);
  };
  socket.once("connect", () => {
    socket.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000000\r\n\r\n{");
    if (keepWriting) write();
  });
  socket.on("error", () => undefined);
  const answered = new Promise<{ answer: string; answeredMs: number }>((resolve) =>
    socket.once("data", (d: Buffer) =>
      resolve({ answer: d.toString(), answeredMs: Date.now() - start }),
    ),
  );
  return { socket, answered };
}

test("a client that stops sending gets the answer at once and is closed after the time limit", async () => {
  const { server, closed } = await refusingServer(1 << 20, 300);
  const client = announce(server, false);
  try {
    const { answer, answeredMs } = await client.answered;
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.ok(answeredMs < 200, `answered after ${answeredMs} ms`);
    const closedMs = await closed;
    assert.ok(closedMs >= 250 && closedMs < 2000, `closed after ${closedMs} ms`);
  } finally {
    client.socket.destroy();
    server.close();
  }
});

test("a client that writes without end is closed after the byte limit", async () => {
  const { server, closed } = await refusingServer(1 << 20, 60_000);
  const client = announce(server, true);
  try {
    assert.match((await client.answered).answer, /^HTTP\/1\.1 413 /);
    const closedMs = await closed;
    assert.ok(closedMs < 10_000, `closed after ${closedMs} ms`);
  } finally {
    client.socket.destroy();
    server.close();
  }
});
