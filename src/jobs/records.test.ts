/**
 * A job record's duration_seconds: the stored value once finished; for a job a take-back ended
 * (FAILED after its last attempt, which stores none) the time from its start to its end; so
 * far while RUNNING; 0 before it started.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { JobRow } from "../store/types.js";
import { durationSeconds } from "./records.js";

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
