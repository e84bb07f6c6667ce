/** Which solver threads a worker keeps for the next job. */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { SolverReport } from "../schema/responses.js";
import type { SessionEnd, ThreadEnd } from "./solver-session.js";
import { keepsThread } from "./solver-threads.js";

function ended(answer: ThreadEnd, more: Partial<SessionEnd> = {}): SessionEnd {
  return { answer, progress: null, cancelForced: false, stalled: false, lost: false, ...more };
}

const report = { cells: 4_000_000 } as SolverReport;

test("only a small job's thread that completed unhindered is kept", () => {
  assert.equal(keepsThread(ended({ type: "done", report })), true);
  const large = { cells: 4_000_001 } as SolverReport;
  assert.equal(keepsThread(ended({ type: "done", report: large })), false);
  assert.equal(keepsThread(ended({ type: "done", report }, { lost: true })), false);
  assert.equal(keepsThread(ended({ type: "done", report }, { stalled: true })), false);
  assert.equal(keepsThread(ended({ type: "done", report }, { cancelForced: true })), false);
  const diverged: ThreadEnd = { type: "failed", kind: "diverged", message: "", step: 3 };
  assert.equal(keepsThread(ended(diverged)), false);
  assert.equal(keepsThread(ended({ type: "exited", code: 1 })), false);
});
