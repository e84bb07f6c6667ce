/**
 * A lingering close for a request refused before its body was read (a 413). Fastify refuses a
 * body above the limit as soon as it knows: at once from the Content-Length, or part-way
 * through a chunked body. The answer goes out then, with `Connection: close`; but a server
 * that closes a socket with unread bytes in it resets the connection, and a reset can destroy
 * the answer before the client reads it (fetch reported a broken connection in place of the
 * 413 for 8 requests in 20 with a 9 MiB body: test/api/body-limit.test.ts).
 *
 * So after the answer the server only half-closes (its FIN follows the answer) and goes on
 * reading and discarding what the client sends, until the client closes its side, or
 * `maxBytes` more arrive, or `maxMs` pass; then the socket is destroyed. Waiting for the body
 * before answering instead held a client that announced 2 GB and then waited for the answer
 * (as `Expect: 100-continue` clients do) for the whole drain time.
 */
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/** Most bytes read and discarded after the answer (a client writing as fast as it can). */
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;
/** Longest a refused connection stays open after its answer. */
export const LINGER_MAX_MS = 2000;
/** How often the bytes discarded are counted. */
const BYTES_POLL_MS = 50;

/**
 * Makes the connection under `raw` close lingeringly once its response has been sent. Node's
 * HTTP server ends a `Connection: close` response with `socket.destroySoon()`, which destroys
 * the socket as soon as the response is written; this socket's own `destroySoon` lingers
 * first. The caller must answer with `Connection: close`.
 */
export function lingerAfterAnswer(
  raw: IncomingMessage,
  maxBytes = LINGER_MAX_BYTES,
  maxMs = LINGER_MAX_MS,
): void {
  const socket = raw.socket as Socket | null;
  if (!socket || socket.destroyed) return;
  socket.destroySoon = () => {
    // The HTTP parser reads the socket's handle directly (no "data" events): count the bytes
    // by polling the handle's total.
    const bytesAtAnswer = socket.bytesRead;
    const close = () => {
      clearTimeout(timer);
      clearInterval(poll);
      socket.destroy();
    };
    const timer = setTimeout(close, maxMs);
    const poll = setInterval(() => {
      if (socket.bytesRead - bytesAtAnswer > maxBytes) close();
    }, BYTES_POLL_MS);
    socket.once("close", close);
    // The HTTP server pulls the request's remaining bytes off the wire and discards them once
    // the response is finished (it dumps the unread request); ending here sends the FIN.
    socket.end();
    raw.resume();
  };
}
