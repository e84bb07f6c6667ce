/**
 * A cancel while a ports job solves its port planes' modes. Those solves run for seconds
 * without returning to the thread's event loop (an LU and an Arnoldi iteration a wavelength,
 * the second chain of wavelengths on a helper thread), so a cancel delivered as a message was
 * seen only once they were over, or the thread was terminated at the end of its 5 s grace
 * ("at time step 0"). The worker now also sets the run's stop flag (solver/stop-flag.ts), which
 * the solves read at every Arnoldi step: the run stops by itself, at once, and the next job
 * on the same thread and chain helper gets its S-parameters right. The solves show in the
 * job's set-up progress, a wavelength at a time.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { call, startService, waitForStatus, type TestService } from "../helpers/service.js";

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService({}, { EMSIM_HEARTBEAT_INTERVAL_MS: "100" });
  key = await svc.newKey("cancel-modes@example.com");
});
after(async () => svc.close());

/**
 * A Si wire along z between two ports whose planes span the whole 180 × 140-cell cross-section
 * (absorber included) at 21 wavelengths: many seconds of mode solves on a grid that paints in
 * a fraction of a second.
 */
function widePorts(): Record<string, unknown> {
  const port = (name: string, z: number, direction: string) => ({
    name,
    center: [0, 0, z],
    size: [20e-6, 20e-6, 0],
    direction,
  });
  return {
    solver: "fdtd",
    domain: {
      size: [3.2e-6, 2.4e-6, 0.2e-6],
      resolution: 2e-8,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 10,
    },
    source: {
      source_type: "ports",
      wavelength: 1.55e-6,
      wavelengths: { start: 1.5e-6, stop: 1.6e-6, points: 21 },
      run_ports: ["o1"],
    },
    ports: [port("o1", -6e-8, "+z"), port("o2", 6e-8, "-z")],
    structures: [
      { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "SiO2" },
      { type: "box", center: [0, 0, 0], size: [5e-7, 2.2e-7, 10], material: "Si" },
    ],
    monitors: [],
    fdtd_settings: { time_steps: 4000 },
  };
}

/**
 * The set-up fractions the job reports until its mode solves are under way: past one half,
 * which the painting fills when mode solves follow it (solver/run.ts SetupProgress).
 */
async function untilModesSolving(id: string): Promise<number[]> {
  const fractions: number[] = [];
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call(svc.baseUrl, "GET", `/v1/simulations/${id}`, { key });
    const progress = res.body.progress as Record<string, unknown> | null;
    assert.notEqual(progress?.phase, "stepping", "the mode solves were never seen in progress");
    if (progress?.phase === "setup") fractions.push(Number(progress.setup_fraction));
    if (fractions.length > 0 && fractions.at(-1)! > 0.5) return fractions;
    assert.equal(res.body.status === "QUEUED" || res.body.status === "RUNNING", true, res.text);
    assert.ok(Date.now() < deadline, `no mode solves within 60 s: ${fractions.join(", ")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("a port plane's mode solves show as set-up progress; a cancel during them stops the run at once, and the next ports job is right", async () => {
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: widePorts() });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const fractions = await untilModesSolving(id);
  assert.ok(
    fractions.every((f, i) => i === 0 || f >= fractions[i - 1]!) && fractions.at(-1)! < 1,
    `set-up fractions ${fractions.join(", ")}`,
  );
  const cancelledAt = Date.now();
  const res = await call(svc.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key });
  assert.equal(res.status, 200, res.text);
  const done = await waitForStatus(svc.baseUrl, key, id, ["FAILED", "COMPLETED"]);
  const stoppedMs = Date.now() - cancelledAt;
  // The solver stopped by itself: a thread terminated after its 5 s grace says "at time step 0".
  assert.equal(done.error_detail, "Cancelled by the user while the run was being set up.");
  assert.ok(stoppedMs < 4000, `stopped ${stoppedMs} ms after the cancel`);

  // The same thread and chain helper solve the next job's planes from the start.
  const example = JSON.parse(
    readFileSync(new URL("../../examples/si-wire-sparameters.json", import.meta.url), "utf8"),
  ) as Record<string, unknown>;
  const next = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: example });
  assert.equal(next.status, 202, next.text);
  const nextId = String(next.body.job_id);
  const completed = await waitForStatus(svc.baseUrl, key, nextId, ["COMPLETED", "FAILED"]);
  assert.equal(completed.status, "COMPLETED", String(completed.error_detail));
  const sp = await call(svc.baseUrl, "GET", `/v1/simulations/${nextId}/sparameters`, { key });
  assert.equal(sp.status, 200, sp.text);
  const s = sp.body.s as ([number, number] | null)[][][];
  for (const [re, im] of s[1]![0]!.map((z) => z!)) assert.ok(re * re + im * im > 0.999);
  for (const [re, im] of s[0]![0]!.map((z) => z!)) assert.ok(re * re + im * im < 1e-4);
});
