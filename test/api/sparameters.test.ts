/**
 * A ports job through the service (issue #29): a straight slab waveguide between two ports
 * (a 2-D cross-section), submitted, run (two runs in one job), its S-matrix in the record,
 * GET …/sparameters as JSON and as Touchstone 1.1, the result file's /s_matrix; a job without
 * ports has none (404); bad ports are refused with the field named.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import h5wasm, { type Dataset } from "h5wasm/node";
import { twoPortWaveguide } from "../helpers/simulations.js";
import {
  call,
  smallSimulation,
  startService,
  tempDir,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService();
  key = await svc.newKey("ports@example.com");
});
after(async () => svc.close());

type SMatrix = { ports: string[]; s: [number, number][][][]; wavelengths_m: number[] };

test("a two-port job: S21 ≈ 1, S11 ≈ 0 in the record, as JSON, as Touchstone and in the file", async () => {
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: twoPortWaveguide() });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"]);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  const record = (done.solver_report as { s_matrix: SMatrix }).s_matrix;
  const res = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/sparameters`, { key });
  assert.equal(res.status, 200, res.text);
  const sm = res.body as unknown as SMatrix;
  assert.deepEqual(sm, record);
  assert.deepEqual(sm.ports, ["o1@0", "o2@0"]);
  const p = (z: [number, number]) => z[0] ** 2 + z[1] ** 2;
  for (let w = 0; w < 3; w++) {
    assert.ok(Math.abs(p(sm.s[1]![0]![w]!) - 1) < 1e-3, `|S21|² ${p(sm.s[1]![0]![w]!)}`);
    assert.ok(p(sm.s[0]![0]![w]!) < 1e-4, `|S11|² ${p(sm.s[0]![0]![w]!)}`);
  }
  const ts = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/sparameters?format=touchstone`, {
    key,
  });
  assert.equal(ts.status, 200);
  assert.match(ts.headers.get("content-disposition") ?? "", /\.s2p"/);
  const lines = ts.text.split("\n").filter((l) => l && !l.startsWith("!"));
  assert.equal(lines[0], "# HZ S RI R 50");
  const rows = lines.slice(1).map((l) => l.trim().split(/\s+/).map(Number));
  assert.equal(rows.length, 3);
  // Frequency ascending (the longest wavelength first); S11 S21 S12 S22 as re, im.
  assert.ok(rows[0]![0]! < rows[1]![0]! && rows[1]![0]! < rows[2]![0]!);
  const last = rows[0]!; // 1.6 µm, the record's last wavelength
  assert.ok(Math.abs(last[3]! - sm.s[1]![0]![2]![0]!) < 1e-8);
  const redirect = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
  const file = await fetch(redirect.headers.get("location")!);
  const path = join(tempDir(), "ports.h5");
  writeFileSync(path, Buffer.from(await file.arrayBuffer()));
  await h5wasm.ready;
  const f = new h5wasm.File(path, "r");
  try {
    assert.deepEqual((f.get("s_matrix/S") as Dataset).shape, [2, 2, 3]);
    assert.deepEqual((f.get("s_matrix/port_in") as Dataset).value, ["o1@0", "o2@0"]);
  } finally {
    f.close();
  }
});

test("a job without ports has no S-parameters; bad ports are refused by field", async () => {
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: smallSimulation() });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  // Known from the request: a 404 at once, not a 409 "come back later" while it runs.
  const early = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/sparameters`, { key });
  assert.equal(early.status, 404, early.text);
  await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"]);
  const res = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/sparameters`, { key });
  assert.equal(res.status, 404, res.text);
  assert.match(res.text, /sparameters_not_found/);
  const bad = twoPortWaveguide();
  (bad.source as Record<string, unknown>).run_ports = ["o3"];
  const refused = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key, body: bad });
  assert.equal(refused.status, 422, refused.text);
  assert.match(refused.text, /source\.run_ports\[0\]/);
  const noPorts = { ...twoPortWaveguide(), ports: [] };
  const refused2 = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
    key,
    body: noPorts,
  });
  assert.equal(refused2.status, 422, refused2.text);
  assert.match(refused2.text, /"path":"ports"/);
  const sym = twoPortWaveguide();
  (sym.source as Record<string, unknown>).run_ports = ["o1"];
  (sym.source as Record<string, unknown>).port_symmetries = {
    "o2@0,o1@0": ["o1@0,o2@0", "o2@0,o1@0"],
    "o1@0,o9@0": ["o2@0,o2@0"],
  };
  const refused3 = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key, body: sym });
  assert.equal(refused3.status, 422, refused3.text);
  // A target whose input is run, and a key naming no port@mode.
  assert.match(refused3.text, /port_symmetries\[\\"o2@0,o1@0\\"\]\[1\]/);
  assert.match(refused3.text, /port_symmetries\[\\"o1@0,o9@0\\"\]/);
});
