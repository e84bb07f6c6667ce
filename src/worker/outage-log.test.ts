/**
 * A database that takes no writes is logged once a minute per message, as a warning without
 * the stack; any other failure is an error every time.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { OutageLog } from "./outage-log.js";

test("a full database is said once a minute per message, other failures every time", () => {
  const lines: [string, object, string | undefined][] = [];
  const log = {
    info: (o: object, m?: string) => lines.push(["info", o, m]),
    warn: (o: object, m?: string) => lines.push(["warn", o, m]),
    error: (o: object, m?: string) => lines.push(["error", o, m]),
  };
  const outages = new OutageLog(log, 60_000);
  const full = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
  for (let i = 0; i < 5; i++) outages.error(full, "claiming a job failed");
  outages.error(full, "heartbeat failed", { jobId: "j1" });
  outages.error(new Error("a bug"), "claiming a job failed");
  outages.error(new Error("a bug"), "claiming a job failed");
  assert.deepEqual(
    lines.map(([level, , msg]) => [level, msg]),
    [
      [
        "warn",
        "claiming a job failed: the database takes no writes now (said once a minute while it lasts)",
      ],
      [
        "warn",
        "heartbeat failed: the database takes no writes now (said once a minute while it lasts)",
      ],
      ["error", "claiming a job failed"],
      ["error", "claiming a job failed"],
    ],
  );
  assert.deepEqual(lines[1]![1], {
    jobId: "j1",
    database: "full",
    detail: "database or disk is full",
  });
  assert.ok(!("err" in lines[0]![1]), "no stack for the outage");
});
