/**
 * EMSIM_SOLVER_BACKEND through the service: the configured backend runs the job (its report
 * names it), and submission applies that backend's own memory bound, not the wasm32 one. With
 * `webgpu` (on this machine Mesa's software adapter, which naming the backend allows) /health,
 * /metrics, the job record and the result file name the backend and the adapter.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import h5wasm, { type Group } from "h5wasm/node";
import { loadConfig } from "../../src/config.js";
import { initSolverBackend } from "../../src/solver/backends.js";
import { skipWithoutWebgpu } from "../../src/solver/testing/require-webgpu.js";
import { call, smallSimulation, startService, tempDir, waitForStatus } from "../helpers/service.js";

/** A cube of `cells`³ grid cells (12 PML layers included) with 40 nm cells. */
function cube(cells: number) {
  const side = (cells - 24) * 40e-9;
  return smallSimulation({
    domain: { size: [side, side, side], resolution: 40e-9 },
    structures: [],
    monitors: [],
    fdtd_settings: { time_steps: 100 },
  });
}

test("EMSIM_SOLVER_BACKEND must name a backend", () => {
  assert.equal(loadConfig({}).solverBackend, "auto");
  assert.equal(loadConfig({ EMSIM_SOLVER_BACKEND: "reference" }).solverBackend, "reference");
  assert.equal(loadConfig({}).webgpuFieldStorage, "float32");
  const half = loadConfig({ EMSIM_WEBGPU_FIELD_STORAGE: "float16" });
  assert.equal(half.webgpuFieldStorage, "float16");
  assert.throws(() => loadConfig({ EMSIM_WEBGPU_FIELD_STORAGE: "f16" }), /float32 or float16/);
  assert.throws(
    () => loadConfig({ EMSIM_SOLVER_BACKEND: "gpu" }),
    /EMSIM_SOLVER_BACKEND must be one of auto, wasm, webgpu, reference, got "gpu"/,
  );
});

test("the reference backend runs the job and its bound, not wasm32's, applies", async () => {
  // Deployment limits out of the way: only the backend's own bound can refuse.
  const roomy = {
    rateLimitPerMinute: 0,
    limits: { ...loadConfig({}).limits, maxCells: 1e10, maxMemoryBytes: 1e13 },
  };
  const reference = await startService(roomy, { EMSIM_SOLVER_BACKEND: "reference" });
  const wasm = await startService(roomy, { EMSIM_SOLVER_BACKEND: "wasm" });
  try {
    const refKey = await reference.newKey();
    const wasmKey = await wasm.newKey();
    // 600³ needs 5.3 GiB in one WebAssembly memory, but arrays of 0.8 GiB each.
    const onWasm = await call(wasm.baseUrl, "POST", "/v1/simulations/estimate", {
      key: wasmKey,
      body: cube(600),
    });
    assert.equal(onWasm.status, 422, onWasm.text);
    assert.match(onWasm.text, /wasm backend/);
    const onReference = await call(reference.baseUrl, "POST", "/v1/simulations/estimate", {
      key: refKey,
      body: cube(600),
    });
    assert.equal(onReference.status, 200, onReference.text);

    const sub = await call(reference.baseUrl, "POST", "/v1/simulations", {
      key: refKey,
      body: smallSimulation(),
    });
    assert.equal(sub.status, 202, sub.text);
    const done = await waitForStatus(reference.baseUrl, refKey, String(sub.body.job_id), [
      "COMPLETED",
      "FAILED",
    ]);
    assert.equal(done.status, "COMPLETED", String(done.error_detail));
    const report = done.solver_report as Record<string, unknown>;
    assert.equal(report.kernel, "reference");
    assert.equal(report.threads, 1);
  } finally {
    await reference.close();
    await wasm.close();
  }
});

const gpu = await initSolverBackend("webgpu").then(
  () => skipWithoutWebgpu(null),
  (err: Error) => skipWithoutWebgpu(err.message),
);

test(
  "webgpu: health, metrics, the job record and the result file name backend and adapter",
  { skip: gpu },
  async () => {
    const svc = await startService({ rateLimitPerMinute: 0 }, { EMSIM_SOLVER_BACKEND: "webgpu" });
    try {
      const health = await call(svc.baseUrl, "GET", "/health");
      assert.equal(health.status, 200, health.text);
      const solver = health.body.solver as { backend: string; adapter: Record<string, unknown> };
      assert.equal(solver.backend, "webgpu");
      assert.equal(typeof solver.adapter.device, "string");
      // No GPU on the test machines: the adapter is Mesa's, and says it is software.
      assert.equal(solver.adapter.software, true);

      const metrics = await call(svc.baseUrl, "GET", "/metrics");
      assert.match(metrics.text, /emsim_machine_info\{[^}]*solver_backend="webgpu"\} 1/);
      assert.match(metrics.text, /emsim_solver_adapter_info\{[^}]*software="true"\} 1/);

      const key = await svc.newKey();
      // The adapter's per-buffer bound refuses a grid at submission, naming the backend.
      const side = (400 - 24) * 40e-9;
      const big = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
        key,
        body: smallSimulation({
          domain: { size: [side, side, side], resolution: 40e-9 },
          structures: [],
          monitors: [],
          fdtd_settings: { time_steps: 100 },
        }),
      });
      assert.equal(big.status, 422, big.text);
      assert.match(big.text, /webgpu backend/);

      const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
        key,
        body: smallSimulation({
          fdtd_settings: { time_steps: 1200, check_every_n: 200, convergence_threshold: 1e-3 },
        }),
      });
      assert.equal(sub.status, 202, sub.text);
      const id = String(sub.body.job_id);
      const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"]);
      assert.equal(done.status, "COMPLETED", String(done.error_detail));
      const report = done.solver_report as Record<string, unknown>;
      assert.equal(report.kernel, "webgpu");
      assert.deepEqual(report.adapter, solver.adapter);

      const redirect = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
      const file = await fetch(redirect.headers.get("location")!);
      const path = join(tempDir(), "result.h5");
      writeFileSync(path, Buffer.from(await file.arrayBuffer()));
      await h5wasm.ready;
      const f = new h5wasm.File(path, "r");
      try {
        const attrs = (f.get("solver") as Group).attrs;
        assert.equal(attrs.kernel!.value, "webgpu");
        assert.equal(attrs.adapter_device!.value, solver.adapter.device);
        assert.equal(attrs.adapter_description!.value, solver.adapter.description);
        assert.equal(Number(attrs.adapter_software!.value), 1);
      } finally {
        f.close();
      }
    } finally {
      await svc.close();
    }
  },
);
