/**
 * Set-up through the API: a job with 1 000 structures on a large grid shows its painting in
 * `progress` (phase "setup", a rising setup_fraction) while RUNNING, and a cancel during the
 * painting stops it promptly (the solver thread stops between slices; it is not terminated).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, startService, type TestService } from "../helpers/service.js";

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService({}, { EMSIM_HEARTBEAT_INTERVAL_MS: "100" });
  key = await svc.newKey("setup@example.com");
});
after(async () => svc.close());

/** A 240³ grid (PML included) with a 10 × 10 × 10 lattice of Si3N4 spheres. */
function sphereLattice(): Record<string, unknown> {
  const h = 20e-9;
  const L = (240 - 24) * h;
  const pitch = L / 10;
  const at = (m: number) => -L / 2 + (m + 0.5) * pitch;
  const structures = [];
  for (let i = 0; i < 10; i++) {
    for (let j = 0; j < 10; j++) {
      for (let k = 0; k < 10; k++) {
        structures.push({
          type: "sphere",
          center: [at(i), at(j), at(k)],
          radius: 0.45 * pitch,
          material: "Si3N4",
        });
      }
    }
  }
  return {
    solver: "fdtd",
    domain: {
      size: [L, L, L],
      resolution: h,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 12,
    },
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
    structures,
    monitors: [],
    fdtd_settings: { time_steps: 2000 },
  };
}

test("painting 1 000 structures shows as set-up progress, and a cancel during it stops the run", async () => {
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: sphereLattice() });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const fractions: number[] = [];
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call(svc.baseUrl, "GET", `/v1/simulations/${id}`, { key });
    const p = res.body.progress as Record<string, unknown> | null;
    if (p && p.phase === "setup") {
      assert.equal(res.body.status, "RUNNING");
      assert.equal(p.step, 0);
      assert.equal(p.total_steps, 2000);
      fractions.push(Number(p.setup_fraction));
      if (Number(p.setup_fraction) > 0) break;
    }
    assert.notEqual(p?.phase, "stepping", "the painting was never seen in progress");
    assert.ok(Date.now() < deadline, "no set-up progress within 60 s");
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(fractions.at(-1)! > 0 && fractions.at(-1)! < 1, String(fractions));
  const cancelledAt = Date.now();
  const res = await call(svc.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key });
  assert.equal(res.status, 200);
  let done: Record<string, unknown>;
  for (;;) {
    done = (await call(svc.baseUrl, "GET", `/v1/simulations/${id}`, { key })).body;
    if (done.status !== "RUNNING") break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const stoppedMs = Date.now() - cancelledAt;
  assert.equal(done.status, "FAILED");
  // The solver stopped by itself (a forced stop after 5 s would say "at time step 0").
  assert.equal(done.error_detail, "Cancelled by the user while the run was being set up.");
  // Heartbeats every 100 ms carry the cancel to the worker; painting stops within a slice.
  assert.ok(stoppedMs < 2000, `stopped ${stoppedMs} ms after the cancel`);
});
