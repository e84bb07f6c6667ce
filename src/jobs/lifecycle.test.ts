/**
 * The words users read when a run fails (the job's error_detail), pinned letter for letter:
 * clients and operators match on them, and they were the worker's before they moved here.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { CANCELLED_DURING_SETUP, RUN_FAILURE_WORDS, runFailureDetail } from "./lifecycle.js";

const JOB = "0b7c1a52-5f2e-4c3e-9d0a-3e2f1c4b5a69";

test("a cancelled run says where it was: set-up, or the step of how many", () => {
  assert.equal(
    runFailureDetail({ cause: "cancelledDuringSetup" }, JOB),
    "Cancelled by the user while the run was being set up.",
  );
  assert.equal(CANCELLED_DURING_SETUP, "Cancelled by the user while the run was being set up.");
  assert.equal(
    runFailureDetail({ cause: "cancelledAtStep", step: 120, totalSteps: 4500 }, JOB),
    "Cancelled by the user at time step 120 of 4500.",
  );
  // The total is left out only where it is not known, not where it is 0.
  assert.equal(
    runFailureDetail({ cause: "cancelledAtStep", step: 120, totalSteps: null }, JOB),
    "Cancelled by the user at time step 120.",
  );
  assert.equal(
    runFailureDetail({ cause: "cancelledAtStep", step: 0, totalSteps: 0 }, JOB),
    "Cancelled by the user at time step 0 of 0.",
  );
});

test("a diverged run says the solver's own sentence", () => {
  const message = "The fields diverged at step 40; reduce courant_factor.";
  assert.equal(runFailureDetail({ cause: "diverged", message }, JOB), message);
  const port =
    "port o2: its mode 0 at 1.5 µm has n_eff 1.2, not above the index at the plane's edges";
  assert.equal(runFailureDetail({ cause: "requestProblem", message: port }, JOB), port);
});

test("faults of ours give the job id to report, and nothing of the server", () => {
  assert.equal(
    runFailureDetail({ cause: "solverError" }, JOB),
    `The solver failed with an internal error; report job ${JOB} to the operators.`,
  );
  assert.equal(
    runFailureDetail({ cause: "stalled", stallLimitMs: 299_499 }, JOB),
    `The solver made no progress for 299 s and was stopped; report job ${JOB} to the operators.`,
  );
  assert.equal(
    runFailureDetail({ cause: "stalled", stallLimitMs: 400 }, JOB),
    `The solver made no progress for 0 s and was stopped; report job ${JOB} to the operators.`,
  );
  assert.equal(
    runFailureDetail({ cause: "threadCrashed" }, JOB),
    `The solver thread crashed; report job ${JOB} to the operators.`,
  );
});

test("a thread that exited on its own points at memory, with its exit code", () => {
  assert.equal(
    runFailureDetail({ cause: "threadExited", exitCode: 1 }, JOB),
    "The solver thread exited unexpectedly (exit code 1); the run may have needed more memory than the worker has.",
  );
});

test("the words handed to workers are these", () => {
  assert.equal(
    RUN_FAILURE_WORDS.detail({ cause: "threadCrashed" }, JOB),
    runFailureDetail({ cause: "threadCrashed" }, JOB),
  );
});
