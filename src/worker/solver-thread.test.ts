/**
 * How the solver thread words a run's end (audit F2): a result file the disk does not take is
 * a storage failure (`kind: "storage"`, which the worker retries and, after the last attempt,
 * words as "could not be stored"), while an exception of the solver itself stays a solver
 * fault (`kind: "error"`). The thread is the real one, as a worker starts it; the file is
 * refused for real, by HDF5, because its folder is gone (the path a full disk takes through
 * h5wasm; test/hardening/results-disk-full.test.ts has the full disk).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import { applyDefaults } from "../schema/validate.js";
import type { SimulationRequest } from "../schema/simulation.js";
import { siblingModule, startModuleThread, StopFlag } from "../solver/index.js";
import type { ThreadInput, ThreadMessage } from "./thread-protocol.js";

let dir: string;
let thread: Worker;

before(() => {
  dir = mkdtempSync(join(tmpdir(), "emsim-solver-thread-"));
  thread = startModuleThread(siblingModule("solver-thread", import.meta.url));
});
after(async () => {
  await thread.terminate();
  rmSync(dir, { recursive: true, force: true });
});

/** A plane wave through a periodic column with one field line: a fraction of a second. */
const SPEC_JSON = JSON.stringify(
  applyDefaults({
    solver: "fdtd",
    domain: {
      size: [0.05e-6, 0.05e-6, 2e-6],
      resolution: 0.05e-6,
      boundary_conditions: ["periodic", "periodic", "pml"],
    },
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
    monitors: [{ name: "line", monitor_type: "field", center: [0, 0, 0], size: [0, 0, 1e-6] }],
    fdtd_settings: { time_steps: 200 },
  } as unknown as SimulationRequest),
);

/** Runs one job in the thread; resolves with its one answer (done or failed). */
function runJob(input: Partial<ThreadInput>): Promise<ThreadMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (msg: ThreadMessage) => {
      if (msg.type === "progress") return;
      thread.off("message", onMessage);
      thread.off("error", reject);
      resolve(msg);
    };
    thread.on("message", onMessage);
    thread.once("error", reject);
    thread.postMessage({
      type: "run",
      input: {
        jobId: "thread-test",
        specJson: SPEC_JSON,
        outPath: join(dir, "result.h5"),
        threads: 1,
        backend: "reference",
        stop: new StopFlag().buffer,
        ...input,
      } satisfies ThreadInput,
    });
  });
}

test("a run whose result file is written is done", async () => {
  const answer = await runJob({ outPath: join(dir, "done.h5") });
  assert.equal(answer.type, "done", JSON.stringify(answer));
  assert.ok(existsSync(join(dir, "done.h5")));
});

test("a result file the disk does not take is a storage failure, not a solver fault", async () => {
  const answer = await runJob({ outPath: join(dir, "gone", "result.h5") });
  assert.equal(answer.type, "failed", JSON.stringify(answer));
  assert.equal(answer.type === "failed" && answer.kind, "storage", JSON.stringify(answer));
});

test("an exception of the solver itself stays a solver fault", async () => {
  // A spec the solver cannot step (no domain): it throws before any file is written.
  const answer = await runJob({ specJson: JSON.stringify({ solver: "fdtd" }) });
  assert.equal(answer.type, "failed", JSON.stringify(answer));
  assert.equal(answer.type === "failed" && answer.kind, "error", JSON.stringify(answer));
  assert.equal(existsSync(join(dir, "result.h5")), false);
});
