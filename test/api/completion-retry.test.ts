/**
 * A completion the database could not take is tried again, and the result is not lost (worker.ts,
 * recordCompletion): the database refusing one try (down for a moment), and a try whose commit
 * went through but whose answer was lost with its connection (the driver then throws as if
 * nothing had been stored). Before, the worker removed the stored file in both cases: the job
 * was run again in the first, and in the second stayed COMPLETED with no file behind it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { StoreUnavailableError } from "../../src/store/errors.js";
import { call, smallSimulation, startService, tempDir, waitForStatus } from "../helpers/service.js";

type Completion = "refused" | "committed, answer lost";

/** A service whose first completion fails as `how` says; the job's record and its file. */
async function completeOnce(how: Completion) {
  let failures = 0;
  const svc = await startService({}, {}, (service) => {
    const jobs = service.stores.jobs;
    const complete = jobs.completeJob.bind(jobs);
    jobs.completeJob = async (...args) => {
      if (failures > 0) return complete(...args);
      failures++;
      if (how === "committed, answer lost") await complete(...args);
      throw new StoreUnavailableError("unavailable", new Error("Connection terminated"));
    };
  });
  try {
    const key = await svc.newKey("retry@example.com");
    const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
      key,
      body: smallSimulation(),
    });
    assert.equal(sub.status, 202, sub.text);
    const id = String(sub.body.job_id);
    const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"], 60_000);
    // The job shows COMPLETED from the committed try on; its worker is done with it (what
    // follows the retried try included) once it has run the next job.
    const next = await call(svc.baseUrl, "POST", "/v1/simulations", {
      key,
      body: smallSimulation({ metadata: { next: true } }),
    });
    assert.equal(next.status, 202, next.text);
    await waitForStatus(svc.baseUrl, key, String(next.body.job_id), ["COMPLETED"], 60_000);
    const redirect = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
    const file = redirect.status === 302 ? await fetch(redirect.headers.get("location")!) : null;
    const bytes = file?.ok ? Buffer.from(await file.arrayBuffer()) : null;
    return { done, failures, bytes };
  } finally {
    await svc.close();
  }
}

for (const how of ["refused", "committed, answer lost"] as const) {
  test(`a completion ${how} once: the job completes in its first attempt, its file there`, async () => {
    const { done, failures, bytes } = await completeOnce(how);
    assert.equal(failures, 1, "the completion failed once");
    assert.equal(done.status, "COMPLETED", String(done.error_detail));
    assert.equal(done.attempts, 1, "the job was not run again");
    assert.ok(bytes, "the result file is there");
    assert.equal(createHash("sha256").update(bytes).digest("hex"), done.checksum);
  });
}

test("a worker stopped while its committed completion's answer is lost keeps the file", async () => {
  // The database answers no completion after the first, which commits: the worker keeps trying
  // until it is stopped. It cannot know the job COMPLETED, so it must not remove the file that
  // the job's record now points to; a next attempt would have removed it (removeEarlierResults).
  const dataDir = tempDir();
  let tried!: () => void;
  const firstTry = new Promise<void>((resolve) => (tried = resolve));
  const svc = await startService({ dataDir }, {}, (service) => {
    const jobs = service.stores.jobs;
    const complete = jobs.completeJob.bind(jobs);
    let calls = 0;
    jobs.completeJob = async (...args) => {
      if (calls++ === 0) await complete(...args);
      tried();
      throw new StoreUnavailableError("unavailable", new Error("Connection terminated"));
    };
  });
  let id: string;
  let key: string;
  try {
    key = await svc.newKey("stopped@example.com");
    const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
      key,
      body: smallSimulation(),
    });
    assert.equal(sub.status, 202, sub.text);
    id = String(sub.body.job_id);
    await firstTry;
  } finally {
    await svc.close();
  }
  const again = await startService({ dataDir });
  try {
    const done = await call(again.baseUrl, "GET", `/v1/simulations/${id}`, { key });
    assert.equal(done.body.status, "COMPLETED");
    const redirect = await call(again.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
    assert.equal(redirect.status, 302, redirect.text);
    const file = await fetch(redirect.headers.get("location")!);
    assert.equal(file.status, 200, "the result file is there");
    const bytes = Buffer.from(await file.arrayBuffer());
    assert.equal(createHash("sha256").update(bytes).digest("hex"), done.body.checksum);
  } finally {
    await again.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
