/**
 * Issue #10, defect 10: a thousand pollers that reconnect at once, right after the server
 * starts (cold) and again once it has warmed up, all get their answers — none waits out a
 * 10 s time-out in the kernel's accept queue. The crowd runs in a process of its own, as
 * pollers on other machines would. Latency figures are printed, not asserted: they belong to
 * `npm run bench:pollers` and docs/benchmarks.md.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { startServerProcess, createKeyWithCli } from "../helpers/process.js";
import { call, freePort, smallSimulation, tempDir } from "../helpers/service.js";
import type { PollerFigures } from "../helpers/pollers.js";

function crowd(port: number, path: string, key: string): PollerFigures {
  const res = spawnSync(
    process.execPath,
    ["--import", "tsx", "test/helpers/pollers.ts", String(port), path, key, "1000", "3", "100"],
    { encoding: "utf8", timeout: 120_000 },
  );
  assert.equal(res.status, 0, res.stderr);
  return JSON.parse(res.stdout) as PollerFigures;
}

test("1000 pollers reconnecting at once: every request answered, cold and warm", async () => {
  const dataDir = tempDir();
  const key = createKeyWithCli("crowd@example.com", dataDir);
  const port = await freePort();
  const env = { EMSIM_EMBEDDED_WORKER: "false", EMSIM_RATE_LIMIT_PER_MINUTE: "0" };
  let server = await startServerProcess(port, dataDir, env);
  const submitted = await call(server.baseUrl, "POST", "/v1/simulations", {
    key,
    body: smallSimulation(),
  });
  assert.equal(submitted.status, 202, submitted.text);
  const path = `/v1/simulations/${String(submitted.body.job_id)}`;
  await server.kill();
  try {
    // Cold: a fresh process, the crowd arriving as soon as it answers /health.
    server = await startServerProcess(port, dataDir, env);
    const cold = crowd(port, path, key);
    const warm = crowd(port, path, key);
    console.log(`cold ${JSON.stringify(cold)}\nwarm ${JSON.stringify(warm)}`);
    for (const figures of [cold, warm]) {
      assert.equal(figures.requests, 3000);
      assert.equal(figures.errors, 0, JSON.stringify(figures.errorKinds));
    }
  } finally {
    await server.kill("SIGKILL");
  }
});
