/**
 * The SDK's `sParameters` against a real service: a straight two-port guide run for real
 * (test/helpers/simulations.ts), refused with 409 `results_not_ready` while it runs, then its
 * S-matrix typed as the job record holds it (|S21|² ≈ 1, |S11|² ≈ 0: a straight guide
 * transmits everything) and as the server's Touchstone 1.1 text (S11 S21 S12 S22 per line,
 * frequency ascending); a job without ports is a 404 `sparameters_not_found`.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { EmsimApiError, EmsimClient, type SMatrix } from "../../src/client/index.js";
import { smallSimulation, startService, type TestService } from "../helpers/service.js";
import { twoPortWaveguide } from "../helpers/simulations.js";

let svc: TestService;
let client: EmsimClient;
let jobId: string;
let early: unknown;

before(async () => {
  svc = await startService();
  client = new EmsimClient({
    baseUrl: svc.baseUrl,
    apiKey: await svc.newKey("sparams-sdk@example.com"),
  });
  const ack = await client.submit(twoPortWaveguide() as never);
  jobId = ack.job_id;
  // Two runs of seconds each: asked at once, the job is still QUEUED or RUNNING.
  early = await client.sParameters(jobId).catch((e: unknown) => e);
  const job = await client.waitFor(jobId, { pollIntervalMs: 200 });
  assert.equal(job.status, "COMPLETED", String(job.error_detail));
});
after(async () => svc.close());

const power = (z: (number | null)[] | null | undefined) => z![0]! ** 2 + z![1]! ** 2;

test("sParameters before the job completes: 409 results_not_ready", () => {
  assert.ok(early instanceof EmsimApiError, String(early));
  assert.equal(early.status, 409);
  assert.equal(early.code, "results_not_ready");
});

test("sParameters: the S-matrix as the job record holds it", async () => {
  const sm: SMatrix = await client.sParameters(jobId);
  const job = await client.get(jobId);
  assert.deepEqual(sm, (job.solver_report as unknown as { s_matrix: SMatrix }).s_matrix);
  assert.deepEqual(sm.ports, ["o1@0", "o2@0"]);
  assert.deepEqual(sm.inputs, ["o1@0", "o2@0"]);
  assert.equal(sm.wavelengths_m.length, 3);
  for (let w = 0; w < 3; w++) {
    assert.ok(Math.abs(power(sm.s[1]![0]![w]) - 1) < 1e-3, `|S21|² ${power(sm.s[1]![0]![w])}`);
    assert.ok(power(sm.s[0]![0]![w]) < 1e-4, `|S11|² ${power(sm.s[0]![0]![w])}`);
    assert.ok(sm.n_eff[0]![w]! > 1.45 && sm.n_eff[0]![w]! < 2, `n_eff ${sm.n_eff[0]![w]}`);
  }
});

test("sParameters as Touchstone: S11 S21 S12 S22 per frequency, ascending", async () => {
  const sm = await client.sParameters(jobId, { format: "json" });
  const text: string = await client.sParameters(jobId, { format: "touchstone" });
  const lines = text.split("\n").filter((l) => l && !l.startsWith("!"));
  assert.equal(lines[0], "# HZ S RI R 50");
  const rows = lines.slice(1).map((l) => l.trim().split(/\s+/).map(Number));
  assert.equal(rows.length, 3);
  assert.ok(rows.every((r) => r.length === 9));
  const c = 299_792_458;
  // The first row is the lowest frequency: the longest wavelength, the record's last.
  const f = c / sm.wavelengths_m[2]!;
  assert.ok(Math.abs(rows[0]![0]! - f) < 1e-8 * f, `${rows[0]![0]} Hz`);
  const [s11, s21, s12] = [sm.s[0]![0]![2]!, sm.s[1]![0]![2]!, sm.s[0]![1]![2]!];
  assert.deepEqual(
    rows[0]!.slice(1, 7).map((v) => Number(v.toPrecision(6))),
    [...s11, ...s21, ...s12].map((v) => Number(v!.toPrecision(6))),
  );
});

test("sParameters of a job without ports: 404 sparameters_not_found", async () => {
  const ack = await client.submit(smallSimulation() as never);
  await client.waitFor(ack.job_id, { pollIntervalMs: 200 });
  await assert.rejects(client.sParameters(ack.job_id), (e: unknown) => {
    assert.ok(e instanceof EmsimApiError);
    assert.equal(e.status, 404);
    assert.equal(e.code, "sparameters_not_found");
    return true;
  });
});
