/**
 * EMSIM_SOLVER_BACKEND through the service: the configured backend runs the job (its report
 * names it), and submission applies that backend's own memory bound, not the wasm32 one.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadConfig } from "../../src/config.js";
import { call, smallSimulation, startService, waitForStatus } from "../helpers/service.js";

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
  assert.throws(
    () => loadConfig({ EMSIM_SOLVER_BACKEND: "gpu" }),
    /EMSIM_SOLVER_BACKEND must be one of auto, wasm, reference, got "gpu"/,
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
