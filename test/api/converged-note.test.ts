/**
 * The run report's note about the source pulse, through a server process as users run it
 * (issue #26 item 4): a 1-D vacuum column that converges carries no note that its phasors are
 * not meaningful, and its transmittance is 1 (in vacuum the plane is normalised by the
 * incident wave's own flux there, so anything else is the run's error); a run whose time_steps
 * limit ends it before the pulse is in carries a note that says so.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { createKeyWithCli, startServerProcess, type ServerProcess } from "../helpers/process.js";
import { call, freePort, tempDir, waitForStatus } from "../helpers/service.js";
import { vacuumColumnRequest } from "../../src/solver/testing/index.js";

let server: ServerProcess;
let key: string;
let dataDir: string;
before(async () => {
  dataDir = tempDir();
  key = createKeyWithCli("converged-note@example.com", dataDir);
  server = await startServerProcess(await freePort(), dataDir, {
    EMSIM_RATE_LIMIT_PER_MINUTE: "0",
  });
});
after(async () => {
  await server.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Report {
  converged: boolean;
  steps_run: number;
  notes: string[];
  flux: Record<string, { flux: number[] }>;
}

async function run(body: unknown): Promise<Report> {
  const sub = await call(server.baseUrl, "POST", "/v1/simulations", { key, body });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const done = await waitForStatus(server.baseUrl, key, id, ["COMPLETED", "FAILED"], 120_000);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  return done.solver_report as Report;
}

const pulseNote = /source pulse/;

test("a converged column has no note about the pulse, and its transmittance is 1", async () => {
  const report = await run(vacuumColumnRequest(200000));
  assert.equal(report.converged, true);
  assert.deepEqual(
    report.notes.filter((n) => pulseNote.test(n) || /not meaningful/.test(n)),
    [],
    report.notes.join("\n"),
  );
  // A run stopped with the pulse's tail still to come reads low (0.88 when stopped at the
  // peak); the full run reads 1 to 3e-7.
  const T = report.flux.T.flux[0];
  assert.ok(Math.abs(T - 1) < 1e-6, `T = ${T}`);
});

test("a column cut short by time_steps says that the step limit ended it", async () => {
  const report = await run(vacuumColumnRequest(10000));
  assert.equal(report.converged, false);
  assert.equal(report.steps_run, 10000);
  const notes = report.notes.filter((n) => pulseNote.test(n));
  assert.equal(notes.length, 1, report.notes.join("\n"));
  assert.match(
    notes[0]!,
    /^the time_steps limit \(10000\) ended the run before the source pulse was fully injected/,
  );
  assert.match(notes[0]!, /raise time_steps to at least \d+/);
});
