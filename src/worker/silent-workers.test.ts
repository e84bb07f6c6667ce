/**
 * The stale-job sweep after an outage of the database: the heartbeats of live workers aged in
 * it as a dead worker's does, and are not taken for silence until the workers have had the
 * stale time to beat again; a job already stale before the outage is taken back at once.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { StoreUnavailableError } from "../store/errors.js";
import type { JobQueue, RecoveryRule } from "../store/types.js";
import { SilentWorkerSweep } from "./silent-workers.js";

const INTERVAL = 2000;
const STALE = 15_000;

/** Jobs and their last heartbeats (ms); the database down while `down` is set. */
function fakeQueue(beats: Map<string, number>, state: { down: boolean }) {
  return {
    async recoverStaleJobs(_now: string, staleBefore: string) {
      if (state.down) throw new StoreUnavailableError("unavailable", new Error("57P01"));
      const requeued = [...beats].filter(([, t]) => t < Date.parse(staleBefore)).map(([id]) => id);
      for (const id of requeued) beats.delete(id);
      return { requeued, failed: [] };
    },
  } as unknown as JobQueue;
}

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

test("live workers' jobs survive an outage longer than the stale time; dead ones do not", async () => {
  let now = 1_000_000;
  const state = { down: false };
  // "live" beats every interval while the database takes writes; "dead" stopped 20 s ago,
  // "dying" stops beating as the outage begins and never again.
  const beats = new Map([
    ["live", now],
    ["dead", now - 20_000],
    ["dying", now],
  ]);
  const sweeper = new SilentWorkerSweep(
    fakeQueue(beats, state),
    { heartbeatIntervalMs: INTERVAL, heartbeatStaleMs: STALE },
    {} as RecoveryRule,
    quiet,
    () => now,
  );
  const takenAt = new Map<string, number>();
  const step = async () => {
    now += INTERVAL;
    if (!state.down && beats.has("live")) beats.set("live", now - 100);
    try {
      for (const id of (await sweeper.sweep()).requeued) takenAt.set(id, now);
    } catch (err) {
      assert.ok(err instanceof StoreUnavailableError);
    }
  };
  await step();
  assert.deepEqual([...takenAt.keys()], ["dead"], "a job stale before any outage goes back");
  beats.set("dying", now);
  state.down = true;
  for (let i = 0; i < 15; i++) await step(); // 30 s down
  state.down = false;
  const back = now;
  for (let i = 0; i < 15; i++) await step();
  assert.ok(beats.has("live"), "the live worker's job stays with it");
  const dying = takenAt.get("dying");
  assert.ok(dying !== undefined, "the worker that died in the outage loses its job");
  // The first sweep after the outage is an interval after `back`; from then, the stale time.
  assert.ok(dying >= back + STALE && dying <= back + STALE + 2 * INTERVAL, `at ${dying - back}`);
});

test("without an outage a job is taken back once its heartbeat is the stale time old", async () => {
  let now = 0;
  const beats = new Map([["j", 0]]);
  const sweeper = new SilentWorkerSweep(
    fakeQueue(beats, { down: false }),
    { heartbeatIntervalMs: INTERVAL, heartbeatStaleMs: STALE },
    {} as RecoveryRule,
    quiet,
    () => now,
  );
  now = STALE;
  assert.deepEqual((await sweeper.sweep()).requeued, []);
  now = STALE + 1;
  assert.deepEqual((await sweeper.sweep()).requeued, ["j"]);
});
