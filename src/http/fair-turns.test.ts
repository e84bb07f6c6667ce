/**
 * Requests queued for the app are served in arrival order, a slice at a time: other work of
 * the event loop (accepting a connection, reading a socket) runs between slices.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import { inFairTurns } from "./fair-turns.js";

/** A stand-in request carrying its arrival number (the handler never looks further). */
const request = (n: number) => ({ n }) as unknown as IncomingMessage;
const response = {} as ServerResponse;

function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

test("a long queue is served in arrival order, with the loop's other work between slices", async () => {
  const served: number[] = [];
  const servedBeforeOtherWork: number[] = [];
  const handle = inFairTurns((req) => {
    busyFor(0.2);
    served.push((req as unknown as { n: number }).n);
  }, 1);
  for (let n = 0; n < 200; n++) handle(request(n), response);
  // Work queued after the requests, as a poll of the sockets would come between turns.
  const ticks = async () => {
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setImmediate(r));
      servedBeforeOtherWork.push(served.length);
    }
  };
  await ticks();
  while (served.length < 200) await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    served,
    Array.from({ length: 200 }, (_, n) => n),
  );
  // Each turn started a handful (about 1 ms / 0.2 ms), not the whole queue.
  assert.ok(servedBeforeOtherWork[0]! < 50, servedBeforeOtherWork.join(","));
  assert.ok(servedBeforeOtherWork[19]! < 200, servedBeforeOtherWork.join(","));
});

test("a request arriving to an idle queue is served in the next turn", async () => {
  const served: number[] = [];
  const handle = inFairTurns((req) => served.push((req as unknown as { n: number }).n));
  handle(request(7), response);
  assert.deepEqual(served, []);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(served, [7]);
});
