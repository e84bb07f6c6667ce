/**
 * The job page's live status: the progress bar in each phase of a run (waiting, set-up with
 * its own fraction, stepping with steps), rendered from a job record as the API returns it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { JobRecord } from "../../schema/responses.js";
import { jobBody, jobLive } from "./jobs.js";

function running(progress: JobRecord["progress"]): JobRecord {
  return {
    job_id: "0b5e3c1e-8f57-4f5c-9a3d-2c1d4f6a7b8c",
    status: "RUNNING",
    created_at: "2026-11-26T10:00:00Z",
    updated_at: "2026-11-26T10:00:01Z",
    result_url: null,
    checksum: null,
    checksum_algorithm: "sha256",
    error_detail: null,
    solver: "emsim-fdtd",
    duration_seconds: 1.5,
    metadata: {},
    progress,
    started_at: "2026-11-26T10:00:00Z",
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

const stepping = {
  step: 1200,
  total_steps: 4000,
  fraction: 0.3,
  last_relative_change: null,
  mcells_per_second: 350,
};

test("a run setting up shows the set-up fraction, not the (zero) step fraction", () => {
  const page = jobLive(
    running({ ...stepping, phase: "setup", setup_fraction: 0.42, step: 0, fraction: 0 }),
  ).value;
  assert.match(page, /<progress max="1" value="0.42"/);
  assert.match(page, /Setting up 42 % · before the first step/);
  assert.doesNotMatch(page, /step 0 of/);
});

test("a stepping run shows its steps; one without a report yet is indeterminate", () => {
  const page = jobLive(running({ ...stepping, phase: "stepping", setup_fraction: 1 })).value;
  assert.match(page, /<progress max="1" value="0.3"/);
  assert.match(page, /30 % · step 1,200 of 4,000/);
  assert.doesNotMatch(page, /Setting up/);
  assert.match(jobLive(running(null)).value, /Starting…/);
});

test("a running job's Details do not show a duration frozen at the page's load", () => {
  const page = String(jobBody({ job: running(stepping), specJson: "{}", csrf: "x" }));
  const duration = /<dt>Duration<\/dt>\s*<dd>\s*([^<]*?)\s*<\/dd>/.exec(page);
  assert.ok(duration, "a Duration row");
  assert.equal(duration[1], "running (the elapsed time is above)");
  const done = String(
    jobBody({
      job: { ...running(null), status: "COMPLETED", duration_seconds: 75 },
      specJson: "{}",
      csrf: "x",
    }),
  );
  assert.match(done, /<dt>Duration<\/dt>\s*<dd>\s*1 min 15 s\s*<\/dd>/);
});

test("a completed job without field monitors has no Fields card of empty controls", () => {
  const page = (monitors: object[]) =>
    String(
      jobBody({
        job: { ...running(null), status: "COMPLETED", duration_seconds: 5 },
        specJson: JSON.stringify({ monitors }),
        csrf: "x",
      }),
    );
  const flux = { name: "T", monitor_type: "flux", center: [0, 0, 0], size: [1, 1, 0] };
  const field = { name: "xz", monitor_type: "field", center: [0, 0, 0], size: [1, 0, 1] };
  assert.doesNotMatch(page([]), /id="plots"/);
  assert.doesNotMatch(page([flux]), /id="plots"/);
  assert.match(page([flux, field]), /id="plots"/);
});
