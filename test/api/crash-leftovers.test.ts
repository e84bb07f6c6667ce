/**
 * What crashed workers leave on disk is removed (durability audit, F5): the result file of an
 * attempt that died between storing its file and recording the completion (`<job>-1.h5` beside
 * the `<job>-2.h5` that completed the job), and the partial scratch file of a worker killed
 * while writing, by a worker of the same host that is already running, not only at the next
 * start. A crash is simulated as the store contract does: the job held by a process that is
 * gone, its file written by hand.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { startService, smallSimulation, call, tempDir, waitForStatus } from "../helpers/service.js";

/** The pid of a process that has exited (and, for a test's few seconds, is not reused). */
function deadPid(): number {
  return Number(spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" }).stdout.trim());
}

test("a crashed attempt's stored result and a dead worker's scratch file are removed", async () => {
  const dataDir = tempDir();
  const results = join(dataDir, "results");
  const host = hostname();
  const tag = (pid: number | string) => `${host.replace(/[^A-Za-z0-9-]/g, "-")}_${pid}_deadbeef`;
  // Attempt 1: a worker of this host claimed the job, stored its file, and died.
  const before = await startService({ dataDir }, { EMSIM_EMBEDDED_WORKER: "false" });
  const key = await before.newKey("leftovers@example.com");
  const sub = await call(before.baseUrl, "POST", "/v1/simulations", {
    key,
    body: smallSimulation(),
  });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const pid = deadPid();
  const claimed = await before.service.stores.jobs.claimNextJob(
    `${host}:${pid}:deadbeef`,
    new Date().toISOString(),
  );
  assert.equal(claimed?.jobId, id);
  mkdirSync(join(results, ".incoming"), { recursive: true });
  writeFileSync(join(results, `${id}-1.h5`), "attempt 1, stored but never recorded");
  await before.close();

  // A restart: the job is taken back and completed by attempt 2.
  const after = await startService({ dataDir }, { EMSIM_HEARTBEAT_INTERVAL_MS: "100" });
  try {
    const done = await waitForStatus(after.baseUrl, key, id, ["COMPLETED", "FAILED"]);
    assert.equal(done.status, "COMPLETED", String(done.error_detail));
    assert.equal(done.attempts, 2);
    const stored = readdirSync(results).filter((f) => f.startsWith(id));
    assert.deepEqual(stored, [`${id}-2.h5`], "only the completed attempt's file is kept");

    // A worker of this host killed while writing, the running worker's sweep removes its
    // file; a file of a process that is alive (this one) stays.
    const dead = join(results, ".incoming", `${id}.${tag(deadPid())}.h5`);
    const live = join(results, ".incoming", `${id}.${tag(process.pid)}.h5`);
    writeFileSync(dead, "partial");
    writeFileSync(live, "being written");
    const end = Date.now() + 10_000;
    while (existsSync(dead) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    assert.equal(existsSync(dead), false, "the dead worker's scratch file is still there");
    assert.equal(existsSync(live), true, "a live worker's scratch file was removed");
  } finally {
    await after.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
