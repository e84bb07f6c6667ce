/**
 * A job record's duration_seconds: the stored value once finished; for a job a take-back ended
 * (FAILED after its last attempt, which stores none) the time from its start to its end; so
 * far while RUNNING; 0 before it started.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { JobRow } from "../store/types.js";
import { durationSeconds, retryAfterFromExpectedSteps, retryAfterSeconds } from "./records.js";

const row = (fields: Partial<JobRow>) =>
  ({
    status: "QUEUED",
    startedAt: null,
    finishedAt: null,
    durationSeconds: null,
    ...fields,
  }) as JobRow;

test("duration_seconds: stored, from start to end, so far, or 0", () => {
  const now = Date.parse("2026-11-29T12:00:30Z");
  const started = "2026-11-29T12:00:00Z";
  assert.equal(durationSeconds(row({ status: "COMPLETED", durationSeconds: 6.5 }), now), 6.5);
  const failed = row({ status: "FAILED", startedAt: started, finishedAt: "2026-11-29T12:00:10Z" });
  assert.equal(durationSeconds(failed, now), 10);
  assert.equal(durationSeconds(row({ status: "RUNNING", startedAt: started }), now), 30);
  assert.equal(durationSeconds(row({}), now), 0);
  assert.equal(durationSeconds(row({ status: "FAILED", finishedAt: started }), now), 0);
});

test("retry_after of a converging job: by the steps its estimate expects, not by the step limit", () => {
  // A ports job of 2 runs, 20 000 steps each at most, expected to converge after 2 500 each;
  // 10 s in, half its expected steps done (run 2 begun). By the limit it had 150 s left.
  const now = Date.parse("2026-11-29T12:00:10Z");
  const running = row({
    status: "RUNNING",
    startedAt: "2026-11-29T12:00:00Z",
    estimate: { expected_steps: 5000 },
    progress: {
      step: 2500,
      totalSteps: 22500,
      fraction: 0.5625,
      lastRelativeChange: null,
      mcellsPerSecond: null,
    },
  } as Partial<JobRow>);
  assert.equal(retryAfterFromExpectedSteps(running, now), 10);
  const limitBased = row({ ...running, progress: { ...running.progress!, fraction: 0.0625 } });
  assert.equal(retryAfterSeconds(limitBased, now), 10, "the expected steps', not the limit's");
  const noEstimate = row({ ...limitBased, estimate: null });
  assert.equal(retryAfterSeconds(noEstimate, now), 150, "what the step limit says");
  // Past the expected steps: a tenth of the time so far; no estimate: nothing to say.
  const late = row({ ...running, progress: { ...running.progress!, step: 6000 } });
  assert.equal(retryAfterFromExpectedSteps(late, now), 1);
  assert.equal(retryAfterFromExpectedSteps(row({ ...running, estimate: null }), now), null);
});
