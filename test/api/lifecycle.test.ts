/**
 * The happy path end to end (spec §4): submit → 202, poll to COMPLETED, results → 302 to a
 * pre-signed storage address, download, verify the SHA-256, read the HDF5 back. Plus the 409
 * rules, cancellation, listing and the estimate.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import h5wasm, { type Dataset, type Group } from "h5wasm/node";
import {
  call,
  longSimulation,
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
  key = await svc.newKey("life@example.com");
});
after(async () => svc.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("submit, poll, 409s while active, download a verified HDF5 result", async () => {
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: smallSimulation() });
  assert.equal(sub.status, 202);
  assert.deepEqual(Object.keys(sub.body).sort(), ["created_at", "job_id", "message", "status"]);
  assert.match(String(sub.body.job_id), UUID);
  assert.equal(sub.body.status, "QUEUED");
  assert.ok(!Number.isNaN(Date.parse(String(sub.body.created_at))));
  assert.match(String(sub.body.created_at), /Z$/);
  const id = String(sub.body.job_id);

  // A second submission while the first is active: 409 with exactly the spec's fields.
  const conflict = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key,
    body: smallSimulation(),
  });
  if (conflict.status === 409) {
    assert.equal(conflict.body.active_job_id, id);
    assert.ok(
      Number.isInteger(conflict.body.retry_after) && Number(conflict.body.retry_after) >= 1,
    );
    assert.equal(conflict.headers.get("retry-after"), String(conflict.body.retry_after));
    assert.equal(typeof conflict.body.detail, "string");
  } else {
    assert.fail(`expected 409, got ${conflict.status}`);
  }

  // Results before completion: 409 (unless it already finished, which the small job may).
  const early = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
  if (early.status === 409) {
    assert.equal(early.body.error_code, "results_not_ready");
    assert.ok(["QUEUED", "RUNNING"].includes(String(early.body.status)));
  } else assert.equal(early.status, 302);

  const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"]);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  const report = done.solver_report as Record<string, Record<string, number> & number>;
  assert.ok(report.result_writing_seconds > 0);
  assert.ok(report.stepping.kernel_seconds > 0 && report.setup.compile_seconds >= 0);
  assert.equal((done.progress as Record<string, unknown>).phase, "stepping");
  for (const field of [
    "job_id",
    "status",
    "created_at",
    "updated_at",
    "result_url",
    "checksum",
    "error_detail",
    "solver",
    "duration_seconds",
    "metadata",
  ]) {
    assert.ok(field in done, `job record lacks ${field}`);
  }
  assert.equal(done.error_detail, null);
  assert.equal(done.solver, "fdtd");
  assert.deepEqual(done.metadata, { project: "test", run: 1 });
  assert.ok(Number(done.duration_seconds) > 0);
  assert.ok(Date.parse(String(done.updated_at)) >= Date.parse(String(done.created_at)));
  assert.equal(done.result_url, `${svc.baseUrl}/v1/simulations/${id}/results`);
  assert.match(String(done.checksum), /^[0-9a-f]{64}$/);

  const redirect = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
  assert.equal(redirect.status, 302);
  const location = redirect.headers.get("location")!;
  assert.ok(location.startsWith(`${svc.config.storageUrl}/`), location);
  const expires = Number(new URL(location).searchParams.get("expires"));
  const ttl = expires - Date.now() / 1000;
  assert.ok(ttl > 890 && ttl <= 900, `download address valid for ${ttl} s, want 15 minutes`);

  const file = await fetch(location);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get("content-type"), "application/x-hdf5");
  assert.match(
    file.headers.get("content-disposition") ?? "",
    /attachment; filename="emsim-.*\.h5"/,
  );
  const bytes = Buffer.from(await file.arrayBuffer());
  assert.equal(Number(file.headers.get("content-length")), bytes.length);
  assert.equal(createHash("sha256").update(bytes).digest("hex"), done.checksum);

  const path = join(tempDir(), "result.h5");
  writeFileSync(path, bytes);
  await h5wasm.ready;
  const f = new h5wasm.File(path, "r");
  try {
    assert.equal(f.attrs.format!.value, "emsim-result");
    assert.equal(f.attrs.job_id!.value, id);
    assert.equal(f.attrs.units!.value, "SI");
    const request = JSON.parse(String((f.get("simulation") as Group).attrs.request_json!.value));
    assert.equal(request.domain.pml_layers, 12);
    assert.equal(request.source.polarization, "te");
    const ex = f.get("monitors/line/Ex") as Dataset;
    const z = (f.get("monitors/line/z") as Dataset).value as Float64Array;
    assert.equal(ex.shape!.length, 3);
    assert.equal(ex.shape![2], z.length);
    assert.ok(f.get("materials/SiO2"));
    assert.ok(Number((f.get("solver") as Group).attrs.steps_run!.value) > 0);
    const stepsPerSweep = Number((f.get("solver") as Group).attrs.steps_per_sweep!.value);
    assert.ok([1, 2, 4].includes(stepsPerSweep), String(stepsPerSweep));
    // Where the time went and what the speed depended on.
    const solver = (f.get("solver") as Group).attrs;
    const setup = Number(solver.setup_seconds!.value);
    const stepping = Number(solver.stepping_seconds!.value);
    const wall = Number(solver.wall_seconds!.value);
    assert.ok(setup > 0 && stepping > 0 && Math.abs(setup + stepping - wall) < 1e-6 * wall + 1e-9);
    assert.ok(Number(solver.machine_cores!.value) >= 1);
    assert.ok(String(solver.machine_cpu!.value).length > 0);
    // The parts add up to the totals: set-up within the clock's rounding plus what runs
    // between the parts (small), stepping exactly (its "other" part is the remainder).
    const part = (name: string) => Number(solver[name]!.value);
    const setupParts = ["grid", "painting", "fields", "compile", "thread_start"].map((n) =>
      part(`setup_${n}_seconds`),
    );
    const steppingParts = ["kernel", "source", "monitor", "checks", "yield", "other"].map((n) =>
      part(`stepping_${n}_seconds`),
    );
    assert.ok(setupParts.every((s) => s >= 0) && steppingParts.every((s) => s >= 0));
    const setupSum = setupParts.reduce((a, b) => a + b);
    assert.ok(setupSum <= setup + 1e-6 && setupSum > 0.8 * setup, `${setupSum} of ${setup}`);
    const steppingSum = steppingParts.reduce((a, b) => a + b);
    assert.ok(Math.abs(steppingSum - stepping) < 1e-6 * stepping + 1e-9, `${steppingSum}`);
    assert.ok(part("stepping_kernel_seconds") > 0);
  } finally {
    f.close();
  }

  // h5py (the reader most users have) sees complex64 data of the same shape.
  const py = spawnSync(
    "/usr/bin/python3",
    [
      "-c",
      "import h5py,sys; f=h5py.File(sys.argv[1]); d=f['monitors/line/Ey']; print(d.dtype, d.shape)",
      path,
    ],
    { encoding: "utf8" },
  );
  if (py.status === 0) assert.match(py.stdout, /^complex64 \(1, 1, \d+\)/);
  else if (process.env.CI) assert.fail(`h5py could not read the result: ${py.stderr}`);

  // Ranged download resumes from the middle.
  const ranged = await fetch(location, { headers: { range: `bytes=100-` } });
  assert.equal(ranged.status, 206);
  assert.equal(
    ranged.headers.get("content-range"),
    `bytes 100-${bytes.length - 1}/${bytes.length}`,
  );
  assert.ok(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100)));
});

test("list pages newest first; estimate validates and never queues; a job keeps its estimate", async () => {
  const k = await svc.newKey("lister@example.com");
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
      key: k,
      body: smallSimulation(),
    });
    assert.equal(sub.status, 202);
    ids.push(String(sub.body.job_id));
    await waitForStatus(svc.baseUrl, k, ids[i]!, ["COMPLETED", "FAILED"]);
  }
  const page1 = await call(svc.baseUrl, "GET", "/v1/simulations?limit=2", { key: k });
  assert.equal(page1.status, 200);
  const jobs1 = page1.body.jobs as { job_id: string }[];
  assert.deepEqual(
    jobs1.map((j) => j.job_id),
    [ids[2], ids[1]],
  );
  const page2 = await call(
    svc.baseUrl,
    "GET",
    `/v1/simulations?limit=2&cursor=${String(page1.body.next_cursor)}`,
    { key: k },
  );
  assert.deepEqual(
    (page2.body.jobs as { job_id: string }[]).map((j) => j.job_id),
    [ids[0]],
  );
  assert.equal(page2.body.next_cursor, null);
  const bad = await call(svc.baseUrl, "GET", "/v1/simulations?limit=abc", { key: k });
  assert.equal(bad.status, 422);

  const est = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
    key: k,
    body: smallSimulation(),
  });
  assert.equal(est.status, 200);
  assert.equal(est.body.grid && (est.body.grid as number[]).length, 3);
  assert.ok(Number(est.body.cells) > 0 && Number(est.body.memory_bytes) > 0);
  const after = await call(svc.baseUrl, "GET", "/v1/simulations", { key: k });
  assert.equal((after.body.jobs as unknown[]).length, 3);

  // A job keeps the estimate it was submitted with: the estimate's answer, field for field.
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key: k,
    body: smallSimulation(),
  });
  assert.equal(sub.status, 202, sub.text);
  const jobId = String(sub.body.job_id);
  const record = await call(svc.baseUrl, "GET", `/v1/simulations/${jobId}`, { key: k });
  assert.deepEqual(record.body.estimate, est.body);
  await waitForStatus(svc.baseUrl, k, jobId, ["COMPLETED"]);
  const done = await call(svc.baseUrl, "GET", `/v1/simulations/${jobId}`, { key: k });
  assert.deepEqual(done.body.estimate, est.body, "kept as it was, after the run");
});

test("cancel: a running job ends FAILED saying it was cancelled; finished jobs refuse", async () => {
  const k = await svc.newKey("cancel@example.com");
  const long = longSimulation();
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key: k, body: long });
  assert.equal(sub.status, 202);
  const id = String(sub.body.job_id);
  await waitForStatus(svc.baseUrl, k, id, ["RUNNING"]);
  const res = await call(svc.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key: k });
  assert.equal(res.status, 200);
  assert.equal(res.body.cancel_requested, true);
  const done = await waitForStatus(svc.baseUrl, k, id, ["FAILED", "COMPLETED"], 30_000);
  assert.equal(done.status, "FAILED");
  assert.match(String(done.error_detail), /[Cc]ancelled/);
  const again = await call(svc.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key: k });
  assert.equal(again.status, 409);
  const results = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key: k });
  assert.equal(results.status, 409);
  assert.equal(results.body.status, "FAILED");
  // The account may submit again now that nothing is active.
  const next = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key: k,
    body: smallSimulation(),
  });
  assert.equal(next.status, 202);
});

test("a job cancelled while stepping keeps the step it stopped at as its last progress", async () => {
  const k = await svc.newKey("cancel-step@example.com");
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key: k,
    body: longSimulation(),
  });
  const id = String(sub.body.job_id);
  const stepping = async () => {
    const r = await call(svc.baseUrl, "GET", `/v1/simulations/${id}`, { key: k });
    const p = r.body.progress as { phase?: string; step: number } | null;
    return p?.phase === "stepping" && p.step > 0;
  };
  while (!(await stepping())) await new Promise((r) => setTimeout(r, 50));
  // Half-way to the next heartbeat (every 2 s): the solver has reported steps since the last.
  await new Promise((r) => setTimeout(r, 1000));
  await call(svc.baseUrl, "POST", `/v1/simulations/${id}/cancel`, { key: k });
  const done = await waitForStatus(svc.baseUrl, k, id, ["FAILED"], 30_000);
  const said = /at time step (\d+) of (\d+)/.exec(String(done.error_detail));
  assert.ok(said, String(done.error_detail));
  const progress = done.progress as { step: number; total_steps: number; fraction: number };
  // The record's last progress was the last heartbeat's, up to seconds of steps before.
  assert.equal(progress.step, Number(said[1]), JSON.stringify(progress));
  assert.equal(progress.total_steps, Number(said[2]));
  assert.ok(Math.abs(progress.fraction - progress.step / progress.total_steps) < 1e-12);
});

test("signed download addresses: tampering and expiry give 403", async () => {
  const short = await startService({ downloadUrlTtlSeconds: 1 });
  try {
    const k = await short.newKey();
    const sub = await call(short.baseUrl, "POST", "/v1/simulations", {
      key: k,
      body: smallSimulation(),
    });
    const id = String(sub.body.job_id);
    await waitForStatus(short.baseUrl, k, id, ["COMPLETED"]);
    const loc = (
      await call(short.baseUrl, "GET", `/v1/simulations/${id}/results`, { key: k })
    ).headers.get("location")!;
    const url = new URL(loc);
    const tampered = [
      (() => {
        const u = new URL(url);
        u.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 3600));
        return u;
      })(),
      (() => {
        const u = new URL(url);
        u.searchParams.set("name", "other.h5");
        return u;
      })(),
      (() => {
        const u = new URL(url);
        u.searchParams.set("signature", "A".repeat(43));
        return u;
      })(),
    ];
    for (const u of tampered) {
      const res = await fetch(u);
      assert.equal(res.status, 403, u.toString());
      assert.match(((await res.json()) as { detail: string }).detail, /signature is invalid/);
    }
    assert.equal((await fetch(url)).status, 200);
    await new Promise((r) => setTimeout(r, 2100));
    const expired = await fetch(url);
    assert.equal(expired.status, 403);
    assert.match(((await expired.json()) as { detail: string }).detail, /expired/);
  } finally {
    await short.close();
  }
});
