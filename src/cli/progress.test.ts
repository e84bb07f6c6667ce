/**
 * The progress display with a fake stream and clock: redrawn in place on a terminal and
 * fitted to its width; throttled plain lines in a log; the ETA from the job's own progress,
 * and a batch's from its fraction over all jobs.
 */
import { solverReportWith as report } from "../schema/testing/reports.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import type { BatchRecord, JobRecord } from "../client/index.js";
import { BatchProgressView, etaSeconds, JobProgressView, StatusLine } from "./progress.js";

function stream(isTTY: boolean, columns?: number) {
  const writes: string[] = [];
  return { writes, isTTY, columns, write: (s: string) => writes.push(s) };
}

function job(status: JobRecord["status"], fraction: number, durationS: number): JobRecord {
  return {
    job_id: "0123456789abcdef-0000-4000-8000-000000000000".slice(0, 36),
    status,
    created_at: "",
    updated_at: "",
    result_url: null,
    checksum: null,
    checksum_algorithm: "sha256",
    error_detail: null,
    solver: "fdtd",
    duration_seconds: durationS,
    metadata: {},
    progress: {
      step: Math.round(fraction * 20000),
      total_steps: 20000,
      fraction,
      last_relative_change: 3.2e-5,
      mcells_per_second: 10,
    },
    started_at: null,
    finished_at: null,
    cancel_requested: false,
    attempts: 1,
    result_bytes: null,
    solver_report: null,
    reused_result_of: null,
    batch_id: null,
    parameters: null,
    estimate: null,
  };
}

test("in a log, lines are written when something changes and at least every 15 s", () => {
  let now = 0;
  const s = stream(false);
  const line = new StatusLine(s, () => now);
  line.update("a", "k1");
  line.update("a again", "k1"); // same state: nothing
  now = 500;
  line.update("b", "k2"); // changed, but within a second of the last line
  now = 1500;
  line.update("c", "k3"); // changed: written
  now = 10_000;
  line.update("c", "k3");
  now = 16_600;
  line.update("d", "k3"); // nothing changed for 15 s: written as a heartbeat
  line.finish("done");
  assert.deepEqual(s.writes, ["a\n", "c\n", "d\n", "done\n"]);
});

test("on a terminal the line is redrawn in place and never wider than the terminal", () => {
  let now = 0;
  const s = stream(true, 60);
  const view = new JobProgressView(s, () => now);
  now = 12_000;
  view.update(job("RUNNING", 0.4, 10));
  view.update(job("RUNNING", 0.5, 12));
  view.finish({
    ...job("COMPLETED", 1, 20),
    solver_report: report({ steps_run: 9000, converged: true }),
  });
  assert.equal(s.writes.length, 3);
  for (const w of s.writes.slice(0, 2)) {
    assert.ok(w.startsWith("\r") && w.endsWith("\x1b[K"), JSON.stringify(w));
    assert.ok(w.length - 4 <= 59, `fits 60 columns: ${w.length - 4}`);
  }
  assert.match(s.writes[0]!, /40\.0%/);
  assert.match(s.writes[2]!, /COMPLETED in 20\.0 s, 9000 steps \(converged\), elapsed 0:12/);
  assert.ok(s.writes[2]!.endsWith("\x1b[K\n"), "the final line stays, ended with a newline");

  const wide = stream(true, 200);
  new JobProgressView(wide, () => 12_000).update(job("RUNNING", 0.4, 10));
  assert.match(
    wide.writes[0]!,
    /RUNNING {2}\[█+░+\] +40\.0% {2}step 8000\/20000 {2}Δ 3\.2e-5 {2}elapsed 0:00 {2}ETA ≤0:15/,
  );
});

test("the ETA scales the running time by the steps left, once there is enough progress", () => {
  assert.equal(etaSeconds(job("RUNNING", 0.25, 10)), 30);
  assert.equal(etaSeconds(job("RUNNING", 0.01, 10)), null);
  assert.equal(etaSeconds(job("QUEUED", 0.5, 0)), null);
});

function batch(
  status: BatchRecord["status"],
  fraction: number,
  counts: Partial<BatchRecord["counts"]>,
): BatchRecord {
  return {
    batch_id: "fedcba98-0000-4000-8000-000000000000",
    status,
    job_count: 11,
    combine: "product",
    parameters: [{ name: "thickness", values: [] }],
    counts: { QUEUED: 0, RUNNING: 0, COMPLETED: 0, FAILED: 0, ...counts },
    progress: { fraction },
    cancel_requested: false,
    jobs: [],
    result_url: null,
    checksum: null,
    created_at: "",
    updated_at: "",
    metadata: {},
  };
}

test("a batch's line: its fraction over all jobs, jobs done and failed, an ETA from the rate", () => {
  let now = 0;
  const s = stream(false);
  const view = new BatchProgressView(s, () => now);
  view.update(batch("QUEUED", 0, { QUEUED: 11 }));
  now = 2_000;
  view.update(batch("RUNNING", 0, { QUEUED: 10, RUNNING: 1 }));
  now = 12_000; // 10 s after it started running, a quarter done: 30 s to go
  view.update(batch("RUNNING", 0.25, { QUEUED: 8, RUNNING: 1, COMPLETED: 1, FAILED: 1 }));
  now = 42_000;
  view.finish(batch("COMPLETED", 1, { COMPLETED: 10, FAILED: 1 }));
  assert.equal(s.writes.length, 4, JSON.stringify(s.writes));
  assert.match(s.writes[0]!, /^batch fedcba98 QUEUED {2}11 jobs, waiting for a worker/);
  assert.match(s.writes[1]!, /^batch fedcba98 RUNNING {2}\[░+\] +0\.0% {2}jobs 0\/11 done/);
  assert.match(
    s.writes[2]!,
    /RUNNING {2}\[█+░+\] +25\.0% {2}jobs 2\/11 done \(1 failed\) {2}elapsed 0:12 {2}ETA 0:30/,
  );
  assert.equal(
    s.writes[3],
    "batch fedcba98 COMPLETED: 10 of 11 jobs completed, 1 FAILED, elapsed 0:42\n",
  );
});
