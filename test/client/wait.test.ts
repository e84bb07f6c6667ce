/**
 * Waiting outlives an outage: a poll that fails (the server unreachable, 5xx) does not end a
 * wait until polls have failed for `maxOutageMs`; a wait's own timeout is an EmsimError.
 * The server is a stand-in here (what the test is about is the client's polling).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  EmsimClient,
  EmsimError,
  EmsimNetworkError,
  EmsimWaitTimeoutError,
} from "../../src/client/index.js";

const JOB = "6f1c1a57-1111-4c4c-9999-123456789abc";
const record = (status: string) => ({ job_id: JOB, status });
const refused = () =>
  new TypeError("fetch failed", {
    cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
  });
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** A client whose polls get `answers` in turn (a function throws, as fetch does). */
function clientAnswering(answers: (() => Response)[]) {
  let n = 0;
  const client = new EmsimClient({
    baseUrl: "http://127.0.0.1:9",
    apiKey: "emsim_test",
    retries: 0,
    sleep: async () => {},
    fetch: async () => answers[Math.min(n++, answers.length - 1)]!(),
  });
  return { client, polls: () => n };
}

test("a wait goes on through polls that fail, and says so each time", async () => {
  const { client, polls } = clientAnswering([
    () => json(200, record("RUNNING")),
    () => {
      throw refused();
    },
    () => json(503, { detail: "restarting", error_code: "not_ready" }),
    () => json(200, record("COMPLETED")),
  ]);
  const told: string[] = [];
  const job = await client.waitFor(JOB, { onOutage: (err) => told.push(err.name) });
  assert.equal(job.status, "COMPLETED");
  assert.equal(polls(), 4);
  assert.deepEqual(told, ["EmsimNetworkError", "EmsimApiError"]);
});

test("polls failing past maxOutageMs end the wait with the last error; a 404 ends it at once", async () => {
  const down = clientAnswering([
    () => {
      throw refused();
    },
  ]);
  await assert.rejects(down.client.waitFor(JOB, { maxOutageMs: 0 }), EmsimNetworkError);
  const gone = clientAnswering([
    () => json(404, { detail: "no job", error_code: "job_not_found" }),
  ]);
  let told = 0;
  await assert.rejects(
    gone.client.waitFor(JOB, { onOutage: () => told++ }),
    (err: Error) => err.name === "EmsimApiError",
  );
  assert.equal(told, 0);
  assert.equal(gone.polls(), 1);
});

test("a wait's timeout holds through an outage: the last error ends it", async () => {
  const { client, polls } = clientAnswering([
    () => {
      throw refused();
    },
    () => {
      throw refused();
    },
    () => json(200, record("COMPLETED")),
  ]);
  await assert.rejects(client.waitFor(JOB, { timeoutMs: 0 }), EmsimNetworkError);
  assert.equal(polls(), 1);
});

test("a wait's timeout is an EmsimError named TimeoutError", async () => {
  const { client } = clientAnswering([() => json(200, record("RUNNING"))]);
  const err = await client.waitFor(JOB, { timeoutMs: 0 }).catch((e: unknown) => e);
  assert.ok(err instanceof EmsimWaitTimeoutError);
  assert.ok(err instanceof EmsimError);
  assert.equal(err.name, "TimeoutError");
});
