/**
 * Serves requests in arrival order, a short slice of the event loop at a time, so that new
 * connections are accepted while old ones are busy.
 *
 * libuv (1.45 and later, Node 20) accepts one connection per turn of the event loop, and a
 * turn runs every request that arrived on the connections already accepted. With 1000
 * keep-alive pollers sending back to back, a turn served the few hundred accepted connections
 * (40 ms and more), so the rest were accepted at about 25 a second: up to 766 connections
 * waited in the accept queue and some requests for 10 s (bench/pollers.ts "hammering").
 * Handing requests to the app from a queue, at most `sliceMs` of them per turn, keeps turns
 * short: every turn accepts a connection, and every request waits its place in one queue.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Time the app may hold one turn of the event loop with queued requests before yielding. */
export const TURN_SLICE_MS = 1;

/** A first-in, first-out queue of requests (an array with a moving head: no shifting). */
class RequestQueue {
  private items: [IncomingMessage, ServerResponse][] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(req: IncomingMessage, res: ServerResponse): void {
    this.items.push([req, res]);
  }

  take(): [IncomingMessage, ServerResponse] {
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined as never;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
    return item;
  }
}

/**
 * How many queued requests one turn may start. A request's work mostly runs after its handler
 * returns (in promise continuations, and reading and writing its socket in the next poll), so
 * its cost is measured over whole turns: the time from one busy turn's start to the next,
 * over the requests it started (a moving average).
 */
class TurnBudget {
  private msPerRequest = 0.1;
  private lastStart = -1;
  private lastStarted = 0;

  /** Called at the start of a turn; `busy` says whether the previous turn left work queued. */
  requestsThisTurn(sliceMs: number, busy: boolean): number {
    const now = performance.now();
    if (busy && this.lastStarted > 0) {
      const measured = (now - this.lastStart) / this.lastStarted;
      this.msPerRequest += 0.2 * (measured - this.msPerRequest);
    }
    this.lastStart = now;
    return Math.max(1, Math.floor(sliceMs / this.msPerRequest));
  }

  started(count: number): void {
    this.lastStarted = count;
  }
}

/** `handler`, called for each request in arrival order, about `sliceMs` of them per turn. */
export function inFairTurns(handler: RequestHandler, sliceMs = TURN_SLICE_MS): RequestHandler {
  const queue = new RequestQueue();
  const budget = new TurnBudget();
  let scheduled = false;
  let busy = false;
  const serveSlice = () => {
    let count = Math.min(queue.size, budget.requestsThisTurn(sliceMs, busy));
    budget.started(count);
    try {
      while (count-- > 0) {
        const [req, res] = queue.take();
        handler(req, res);
      }
    } finally {
      // An immediate set from this one runs in the next turn, after the next poll (where a
      // connection is accepted and new requests are read).
      busy = scheduled = queue.size > 0;
      if (scheduled) setImmediate(serveSlice);
    }
  };
  return (req, res) => {
    queue.push(req, res);
    if (!scheduled) {
      scheduled = true;
      setImmediate(serveSlice);
    }
  };
}
