/**
 * What is left of a request's body, read and thrown away before a 413 is sent. Fastify refuses
 * a body above the limit as soon as it knows (at once from the Content-Length, or part-way
 * through a chunked body) and the response then closes the connection. A client still writing
 * a body larger than the sockets' buffers (a few MiB) gets its writes refused (EPIPE or
 * ECONNRESET) and reports a broken connection in place of the 413 and its detail: fetch did so
 * for 8 requests in 20 with a 9 MiB body (test/api/body-limit.test.ts). Reading the rest first
 * lets the answer arrive. Bounded, because a client may announce or send without end: after
 * `maxBytes` or `maxMs` the answer goes out regardless and the connection is closed.
 */
import type { IncomingMessage } from "node:http";

/** Most bytes read and discarded after the limit (the rest of a 64 MiB upload). */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
/** Longest wait for the rest of the body. */
export const DRAIN_MAX_MS = 10_000;

export function drainBody(
  raw: IncomingMessage,
  maxBytes = DRAIN_MAX_BYTES,
  maxMs = DRAIN_MAX_MS,
): Promise<void> {
  if (raw.complete || raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let bytes = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off("data", onData);
      raw.off("end", done);
      raw.off("close", done);
      raw.off("error", done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) done();
    };
    const timer = setTimeout(done, maxMs);
    raw.on("data", onData);
    raw.once("end", done);
    raw.once("close", done);
    raw.once("error", done);
    raw.resume();
  });
}
