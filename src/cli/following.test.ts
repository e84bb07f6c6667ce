/**
 * A wait that gave up on a server that stopped answering: the exit code of the failure, the
 * words of it, and what to run to pick the job or batch up again (in --json: its id).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { EmsimApiError, EmsimNetworkError } from "../client/index.js";
import { FollowingLostError, lostWhileFollowing, outageNotice } from "./following.js";
import { describeError, EXIT } from "./output.js";

const JOB = "6f1c1a57-1111-4c4c-9999-123456789abc";
const down = new EmsimNetworkError("the server is not reachable", "http://x", true, "ECONNRESET");

test("the server lost mid-wait: its exit code, and the job goes on, named", () => {
  const lost = lostWhileFollowing(down, { kind: "job", id: JOB });
  assert.ok(lost instanceof FollowingLostError);
  const report = describeError(lost, "http://x");
  assert.equal(report.exitCode, EXIT.unreachable);
  assert.match(
    report.lines.at(-1)!,
    new RegExp(`Job ${JOB} continues on the server: 'emsim status ${JOB} --wait'`),
  );
  assert.equal(report.json.job_id, JOB);
  const batch = describeError(lostWhileFollowing(down, { kind: "batch", id: JOB }));
  assert.equal(batch.json.batch_id, JOB);
  assert.match(batch.lines.at(-1)!, /'emsim batch .* --wait'/);
});

test("other failures are left as they are (a 404 is no outage)", () => {
  const gone = new EmsimApiError(404, { detail: "no job", error_code: "job_not_found" });
  assert.equal(lostWhileFollowing(gone, { kind: "job", id: JOB }), gone);
});

test("the outage is told once on stderr, however many polls fail", () => {
  let text = "";
  const io = {
    json: false,
    stdout: process.stdout,
    stderr: { write: (s: string) => (text += s) } as unknown as NodeJS.WritableStream,
  };
  const tell = outageNotice(io, { kind: "job", id: JOB });
  tell(down);
  tell(down);
  assert.equal(text.match(/still polling/g)?.length, 1);
});
