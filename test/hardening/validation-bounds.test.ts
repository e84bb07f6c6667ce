/**
 * Issue #10, defects 1 and 2: no request body may hold the event loop, and a 422 lists a
 * bounded number of problems. The worst bodies we could construct (each under the 1 MiB body
 * limit) go to a real server process while another client times GET /health.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startServerProcess, type ServerProcess, createKeyWithCli } from "../helpers/process.js";
import { call, freePort, smallSimulation, tempDir } from "../helpers/service.js";

let server: ServerProcess;
let key: string;

before(async () => {
  const dataDir = tempDir();
  key = createKeyWithCli("v@example.com", dataDir);
  server = await startServerProcess(await freePort(), dataDir, {
    EMSIM_EMBEDDED_WORKER: "false",
    EMSIM_RATE_LIMIT_PER_MINUTE: "0",
  });
});
after(async () => server?.kill("SIGKILL"));

const monitor = (extra: Record<string, unknown> = {}) => ({
  name: "m",
  monitor_type: "field",
  center: [0, 0, 0],
  size: [0, 0, 1e-6],
  ...extra,
});

/** Bodies that made Ajv (allErrors) compare pairwise or list every problem. */
const WORST_BODIES: [string, unknown][] = [
  [
    "110 000 distinct monitor components",
    smallSimulation({
      monitors: [monitor({ components: Array.from({ length: 110_000 }, (_, i) => `c${i}`) })],
    }),
  ],
  [
    "110 000 equal monitor components",
    smallSimulation({ monitors: [monitor({ components: Array(110_000).fill("Ex") })] }),
  ],
  [
    "100 000 empty monitors",
    smallSimulation({ monitors: Array.from({ length: 100_000 }, () => ({})) }),
  ],
  [
    "20 000 half-made structures",
    smallSimulation({ structures: Array.from({ length: 20_000 }, () => ({ type: "box" })) }),
  ],
  [
    "a monitor with 60 000 unknown fields",
    smallSimulation({
      monitors: [Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, 0]))],
    }),
  ],
  [
    "1 000 structures with 16 unknown fields each",
    smallSimulation({
      structures: Array.from({ length: 1000 }, () =>
        Object.fromEntries([
          ["type", "box"],
          ...Array.from({ length: 16 }, (_, i) => [`k${i}`, 0]),
        ]),
      ),
    }),
  ],
  [
    "64 monitors with 64 bad wavelengths and repeated components",
    smallSimulation({
      monitors: Array.from({ length: 64 }, (_, j) =>
        monitor({
          name: `m${j}`,
          components: Array(6).fill("Ex"),
          wavelengths: Array(64).fill(-1),
        }),
      ),
    }),
  ],
  [
    "a domain size of 100 000 numbers",
    smallSimulation({
      domain: { size: Array(100_000).fill(1e-6), resolution: 1e-8 },
    }),
  ],
];

test("the worst bodies get a bounded 422 while /health keeps answering", async () => {
  let stop = false;
  let slowestHealthMs = 0;
  let healthChecks = 0;
  const watcher = (async () => {
    while (!stop) {
      const t0 = performance.now();
      const res = await call(server.baseUrl, "GET", "/health");
      assert.equal(res.status, 200);
      slowestHealthMs = Math.max(slowestHealthMs, performance.now() - t0);
      healthChecks++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    for (const [name, body] of WORST_BODIES) {
      const text = JSON.stringify(body);
      assert.ok(text.length < 1024 * 1024, `${name}: ${text.length} bytes is over the body limit`);
      for (const path of ["/v1/simulations", "/v1/simulations/estimate"]) {
        const t0 = performance.now();
        const res = await call(server.baseUrl, "POST", path, {
          key,
          rawBody: text,
          headers: { "content-type": "application/json" },
        });
        const ms = performance.now() - t0;
        assert.equal(res.status, 422, `${name}: ${res.text.slice(0, 300)}`);
        assert.equal(res.body.error_code, "validation_error");
        const listed = res.body.errors as unknown[];
        assert.ok(
          listed.length >= 1 && listed.length <= 50,
          `${name}: ${listed.length} errors listed`,
        );
        assert.ok(Number(res.body.error_count) >= listed.length, `${name}: error_count`);
        assert.ok(res.text.length < 64 * 1024, `${name}: a ${res.text.length}-byte 422`);
        // Generous for a loaded 2-core machine; the defect took 53 s.
        assert.ok(ms < 2000, `${name}: answered after ${ms.toFixed(0)} ms`);
      }
    }
  } finally {
    stop = true;
    await watcher;
  }
  assert.ok(healthChecks > 5);
  assert.ok(slowestHealthMs < 2000, `GET /health waited ${slowestHealthMs.toFixed(0)} ms`);
});

test("a 422 lists the first 50 problems and counts them all", async () => {
  const body = smallSimulation({
    structures: Array.from({ length: 300 }, () => ({ type: "box", center: [0, 0, 0] })),
  });
  const res = await call(server.baseUrl, "POST", "/v1/simulations/estimate", { key, body });
  assert.equal(res.status, 422);
  const listed = res.body.errors as { path: string; message: string }[];
  assert.equal(listed.length, 50);
  // Each box misses size and material: 600 problems.
  assert.equal(res.body.error_count, 600);
  assert.match(String(res.body.detail), /\(and 599 more\)$/);
  assert.equal(listed[0]!.path, "structures[0].size");
});

test("an oversize array is named with its limit and length", async () => {
  const body = smallSimulation({
    monitors: Array.from({ length: 65 }, (_, i) => monitor({ name: `m${i}` })),
  });
  const res = await call(server.baseUrl, "POST", "/v1/simulations/estimate", { key, body });
  assert.equal(res.status, 422);
  assert.equal(res.body.error_count, 1);
  assert.match(
    String(res.body.detail),
    /^monitors: must NOT have more than 64 items \(it has 65\)$/,
  );
  const components = smallSimulation({
    monitors: [monitor({ components: ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz", "Ex"] })],
  });
  const res2 = await call(server.baseUrl, "POST", "/v1/simulations/estimate", {
    key,
    body: components,
  });
  assert.equal(res2.status, 422);
  assert.match(
    String(res2.body.detail),
    /^monitors\[0\]\.components: must NOT have more than 6 items/,
  );
});
