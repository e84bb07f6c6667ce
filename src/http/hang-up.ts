/**
 * Calling off heavy work whose caller has gone: a synchronous request that runs in a task
 * thread (a mode solve, a design-rule check, a GDS read) holds one of a few slots until it
 * ends, and every other caller gets 503 meanwhile. Where the caller hangs up before its answer,
 * the signal below aborts, and the task's thread is terminated at once (threads/task-threads.ts).
 */
import type { FastifyReply } from "fastify";
import { ApiError } from "../errors.js";

/** A signal that aborts when the connection closes before this reply was sent in full. */
export function hangUpSignal(reply: FastifyReply): AbortSignal {
  const hungUp = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) hungUp.abort(callerGone());
  });
  return hungUp.signal;
}

/** Why work stopped whose caller hung up: a client's doing (logged as such), never sent. */
function callerGone(): ApiError {
  return new ApiError(499, "client_closed_request", "The caller hung up before the answer.");
}
