import { test } from "node:test";
import assert from "node:assert/strict";
import { workerLog } from "./worker-log.js";

type Entry = { err: Record<string, unknown> & { cause?: Record<string, unknown> } };

/** The JSON after a line's message. */
const entryOf = (line: string) => JSON.parse(line.slice(line.indexOf("{"))) as Entry;

function captured() {
  const lines: string[] = [];
  return { lines, log: workerLog({ write: (l) => lines.push(l) }) };
}

test("an error in a lone worker's log line keeps its message and code, and nothing hung on it", () => {
  const { lines, log } = captured();
  const err = Object.assign(new Error("terminating connection due to administrator command"), {
    code: "57P01",
    client: { connectionParameters: { user: "postgres" }, parsedStatements: { a: "SELECT 1" } },
  });
  log.warn({ err, jobId: "j1" }, "database connection error");
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^warn: database connection error \{/);
  assert.deepEqual(entryOf(lines[0]!), {
    err: {
      name: "Error",
      message: "terminating connection due to administrator command",
      code: "57P01",
    },
    jobId: "j1",
  });
});

test("at error level the stack and the cause are written too", () => {
  const { lines, log } = captured();
  const cause = new Error("ECONNREFUSED");
  log.error({ err: new Error("claiming a job failed", { cause }) }, "worker loop");
  const entry = entryOf(lines[0]!);
  assert.equal(entry.err.message, "claiming a job failed");
  assert.match(String(entry.err.stack), /worker-log\.test/);
  assert.equal(entry.err.cause?.message, "ECONNREFUSED");
});
