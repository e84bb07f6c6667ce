/**
 * Rolling restarts use up no attempts (durability audit, F3): a server stopped with SIGTERM
 * hands its running job back without counting the attempt, so EMSIM_MAX_ATTEMPTS counts only
 * runs that ended abnormally. Before, with EMSIM_MAX_ATTEMPTS=2, one graceful restart and one
 * crash failed a job with "exited on each of 2 attempts" (the audit's case: two restarts and a
 * crash, of 3).
 *
 * And a stop does not wait on a slow client (durability audit, F10): responses still being sent
 * when SIGTERM comes get EMSIM_SHUTDOWN_GRACE_MS, then their connections are closed.
 */
import { once } from "node:events";
import { connect } from "node:net";
import { test } from "node:test";
import assert from "node:assert/strict";
import { createKeyWithCli, startServerProcess } from "../helpers/process.js";
import { call, freePort, longSimulation, tempDir, waitForStatus } from "../helpers/service.js";

test("a SIGTERM restart and a crash leave the job an attempt to spare", async () => {
  const dataDir = tempDir();
  const key = createKeyWithCli("rolling@example.com", dataDir);
  const port = await freePort();
  const env = { EMSIM_MAX_ATTEMPTS: "2" };
  let server = await startServerProcess(port, dataDir, env);
  try {
    const sub = await call(server.baseUrl, "POST", "/v1/simulations", {
      key,
      body: longSimulation(),
    });
    assert.equal(sub.status, 202, sub.text);
    const id = String(sub.body.job_id);
    assert.equal((await waitForStatus(server.baseUrl, key, id, ["RUNNING"], 60_000)).attempts, 1);
    await server.kill("SIGTERM");
    server = await startServerProcess(port, dataDir, env);
    const resumed = await waitForStatus(server.baseUrl, key, id, ["RUNNING"], 60_000);
    assert.equal(resumed.attempts, 1, "the restart used up no attempt");
    await server.kill("SIGKILL");
    server = await startServerProcess(port, dataDir, env);
    // The crash was the first abnormal end of two allowed: the job runs again.
    const again = await waitForStatus(server.baseUrl, key, id, ["RUNNING", "FAILED"], 60_000);
    assert.equal(again.status, "RUNNING", String(again.error_detail));
    assert.equal(again.attempts, 2);
    await call(server.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key });
    const done = await waitForStatus(server.baseUrl, key, id, ["FAILED", "COMPLETED"]);
    assert.match(String(done.error_detail), /Cancelled by the user/);
  } finally {
    await server.kill();
  }
});

test("SIGTERM closes a connection still sending its request once the grace is over", async () => {
  const dataDir = tempDir();
  const key = createKeyWithCli("grace@example.com", dataDir);
  const port = await freePort();
  // Without the grace, the server would wait for the whole request time-out (120 s here).
  const server = await startServerProcess(port, dataDir, {
    EMSIM_SHUTDOWN_GRACE_MS: "1000",
    EMSIM_REQUEST_TIMEOUT_MS: "120000",
    EMSIM_IDLE_TIMEOUT_MS: "120000",
  });
  const socket = connect(port, "127.0.0.1");
  try {
    await once(socket, "connect");
    socket.on("error", () => {}); // the server closes it: that is the point
    socket.write(
      "POST /v1/simulations HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
        `Authorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
        "Content-Length: 100000\r\n\r\n{",
    );
    await new Promise((r) => setTimeout(r, 300)); // the server has the headers
    const started = Date.now();
    await server.kill("SIGTERM");
    const seconds = (Date.now() - started) / 1000;
    assert.ok(seconds < 10, `the server took ${seconds.toFixed(1)} s to stop`);
    assert.equal(server.child.exitCode, 0, server.stderr());
  } finally {
    socket.destroy();
    await server.kill("SIGKILL");
  }
});
