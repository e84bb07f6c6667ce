/**
 * The SDK's response types are declared by hand (readable in editors and docs); this test
 * fails to type-check when they drift from the server's response schemas in
 * src/http/schemas.ts, and checks at run time that every schema field is declared.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Static } from "typebox";
import {
  EstimateSchema,
  JobListSchema,
  JobRecordSchema,
  SubmissionAck as SubmissionAckSchema,
} from "../../src/http/schemas.js";
import type { Estimate, JobList, JobRecord, SubmissionAck } from "../../src/client/index.js";

/** Compiles only if A and B are assignable both ways. */
function sameShape<A, B>(
  _check: [A] extends [B] ? ([B] extends [A] ? true : false) : false,
): void {}

/**
 * `metadata` is free-form JSON: typebox types it as `{}`, the SDK as `Record<string, unknown>`
 * (indexable). Everything else must match exactly; metadata must at least be assignable.
 */
type WireJob = Static<typeof JobRecordSchema>;
type Strict<T> = Omit<T, "metadata">;
sameShape<Strict<JobRecord>, Strict<WireJob>>(true);
export const metadataFits: WireJob["metadata"] = {} as JobRecord["metadata"];
sameShape<JobList["next_cursor"], Static<typeof JobListSchema>["next_cursor"]>(true);
sameShape<Strict<JobList["jobs"][number]>, Strict<Static<typeof JobListSchema>["jobs"][number]>>(
  true,
);
sameShape<Estimate, Static<typeof EstimateSchema>>(true);
sameShape<SubmissionAck, Static<typeof SubmissionAckSchema>>(true);

// A sample of each declared type, written field by field: a missing or extra field fails to
// compile, and the keys are compared with the schemas below.
const job: Required<JobRecord> = {
  job_id: "",
  status: "QUEUED",
  created_at: "",
  updated_at: "",
  result_url: null,
  checksum: null,
  checksum_algorithm: "sha256",
  error_detail: null,
  solver: "fdtd",
  duration_seconds: 0,
  metadata: {},
  progress: null,
  started_at: null,
  finished_at: null,
  cancel_requested: false,
  attempts: 0,
  result_bytes: null,
  solver_report: null,
};
const estimate: Required<Estimate> = {
  grid: [],
  interior_grid: [],
  cells: 0,
  time_steps: 0,
  dt_seconds: 0,
  monitor_samples: 0,
  memory_bytes: 0,
  result_bytes: 0,
  estimated_seconds: 0,
  mcells_per_second_assumed: 0,
};

test("the SDK's types declare exactly the fields of the server's response schemas", () => {
  const keys = (schema: { properties: object }) => Object.keys(schema.properties).sort();
  assert.deepEqual(Object.keys(job).sort(), keys(JobRecordSchema));
  assert.deepEqual(Object.keys(estimate).sort(), keys(EstimateSchema));
  assert.deepEqual(["created_at", "job_id", "message", "status"], keys(SubmissionAckSchema));
  assert.deepEqual(["jobs", "next_cursor"], keys(JobListSchema));
});
