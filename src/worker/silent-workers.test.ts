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

/** A sweeper of `queue` at this file's interval and stale time, on the clock `now`. */
const sweeperOn = (queue: JobQueue, now: () => number) =>
  new SilentWorkerSweep(
    queue,
    { heartbeatIntervalMs: INTERVAL, heartbeatStaleMs: STALE },
    {} as RecoveryRule,
    quiet,
    now,
  );

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
  const sweeper = sweeperOn(fakeQueue(beats, state), () => now);
  const takenAt = new Map<string, number>();
  const beating = new Set(["live", "dying"]);
  const step = async () => {
    now += INTERVAL;
    if (!state.down) for (const id of beating) if (beats.has(id)) beats.set(id, now - 100);
    try {
      for (const id of (await sweeper.sweep()).requeued) takenAt.set(id, now);
    } catch (err) {
      assert.ok(err instanceof StoreUnavailableError);
    }
  };
  // Past the sweeper's first stale time (its start's grace, the last test below).
  for (let i = 0; i < STALE / INTERVAL + 1; i++) await step();
  assert.deepEqual([...takenAt.keys()], ["dead"], "a job stale before any outage goes back");
  beating.delete("dying");
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
  const sweeper = sweeperOn(fakeQueue(beats, { down: false }), () => now);
  // A sweeper running for a while: the job beat last at 50 s.
  const last = 50_000;
  beats.set("j", last);
  now = last + STALE;
  assert.deepEqual((await sweeper.sweep()).requeued, []);
  now = last + STALE + 1;
  assert.deepEqual((await sweeper.sweep()).requeued, ["j"]);
});

test("a sweeper started after an outage it did not see takes no job for its first stale time", async () => {
  // The database came back as this sweeper started: both jobs' heartbeats are 30 s old; the
  // live one's worker beats again an interval later, the dead one's never.
  let now = 1_000_000;
  const beats = new Map([
    ["live", now - 30_000],
    ["dead", now - 30_000],
  ]);
  const sweeper = sweeperOn(fakeQueue(beats, { down: false }), () => now);
  const started = now;
  const takenAt = new Map<string, number>();
  for (let i = 0; i < 12; i++) {
    if (i > 0 && beats.has("live")) beats.set("live", now - 100);
    for (const id of (await sweeper.sweep()).requeued) takenAt.set(id, now);
    now += INTERVAL;
  }
  assert.ok(beats.has("live"), "the live worker's job stays with it");
  const dead = takenAt.get("dead");
  assert.ok(dead !== undefined && dead >= started + STALE, `taken at ${dead! - started}`);
});
