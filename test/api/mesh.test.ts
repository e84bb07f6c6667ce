/**
 * Mesh overrides (graded grids) through the HTTP API of a real service (SQLite, local storage,
 * in-process worker): bad overrides are refused with a 422 naming the field, the resolution
 * check counts a structure's own cells, the estimate and the stored request show the graded
 * grid, and a graded job runs to COMPLETED with its cell coordinates in the result file (read
 * back with h5py) and its shortest step in the job record.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
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
  key = await svc.newKey("mesh@example.com");
});
after(async () => svc.close());

const NM = 1e-9;

/** The small column (50 nm cells, 3 µm along z) with a domain change. */
function graded(domain: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const base = smallSimulation(extra);
  return { ...base, domain: { ...(base.domain as Record<string, unknown>), ...domain } };
}

const refine = (resolution: unknown, more: Record<string, unknown> = {}) => ({
  center: [0, 0, 0.5e-6],
  size: [0, 0, 0.6e-6],
  resolution,
  ...more,
});

async function errorsOf(body: unknown) {
  const res = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key, body });
  assert.equal(res.status, 422, res.text);
  return res.body.errors as Array<{ path: string; message: string }>;
}

test("bad mesh overrides are refused with a 422 naming the field", async () => {
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [
      { mesh_overrides: [refine(60 * NM)] },
      "domain.mesh_overrides[0].resolution",
      /coarser than domain.resolution/,
    ],
    [
      { mesh_overrides: [refine([50 * NM, 50 * NM, 80 * NM])] },
      "domain.mesh_overrides[0].resolution",
      /along z is coarser/,
    ],
    [{ mesh_overrides: [refine(0)] }, "domain.mesh_overrides[0].resolution", /./],
    [
      { mesh_overrides: [refine(10 * NM, { size: [0, 0, -1e-7] })] },
      "domain.mesh_overrides[0].size[2]",
      /./,
    ],
    [
      { mesh_overrides: [refine(10 * NM, { center: [0, 0, 5e-6] })] },
      "domain.mesh_overrides[0].center",
      /outside the domain/,
    ],
    [
      { mesh_overrides: [refine(1e-14)] },
      "domain.mesh_overrides",
      /more than 100000 cells along z/,
    ],
    [
      // A vanishing step: the count in the message stays readable.
      { mesh_overrides: [refine(1e-300)] },
      "domain.mesh_overrides",
      /more than 100000 cells along z \(about \d(\.\d{1,2})?e\+\d+\)/,
    ],
    [{ mesh_overrides: [refine([10 * NM, 10 * NM])] }, "domain.mesh_overrides[0].resolution", /./],
    [
      { mesh_overrides: [refine(10 * NM, { step: 1 })] },
      "domain.mesh_overrides[0].step",
      /not an allowed field/,
    ],
    [{ mesh_overrides: [refine(10 * NM)], max_step_ratio: 1 }, "domain.max_step_ratio", /1.05/],
    [{ mesh_overrides: [refine(10 * NM)], max_step_ratio: 3 }, "domain.max_step_ratio", /2/],
  ];
  for (const [domain, path, message] of cases) {
    const errs = await errorsOf(graded(domain));
    assert.ok(
      errs.some((e) => e.path.startsWith(path) && message.test(e.message)),
      `${path} ${message}: ${JSON.stringify(errs)}`,
    );
  }
  // Oblique incidence keeps the grid across the beam uniform (its Bloch phase).
  const oblique = graded(
    {
      size: [0.4e-6, 0.05e-6, 3e-6],
      mesh_overrides: [{ center: [0, 0, 0.5e-6], size: [0.1e-6, 0, 0.6e-6], resolution: 10 * NM }],
    },
    { source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0.3, 0, 1] } },
  );
  const errs = await errorsOf(oblique);
  assert.ok(
    errs.some(
      (e) =>
        e.path === "domain.mesh_overrides[0].resolution" && /uniform grid along x/.test(e.message),
    ),
    JSON.stringify(errs),
  );
});

test("the resolution check counts a structure's own cells: an override over it makes a coarse grid acceptable", async () => {
  // Si (n ≈ 3.48) at 1.55 µm needs cells of at most 44 nm; the grid's are 60 nm.
  const body = (overrides: unknown[]) =>
    graded(
      { resolution: 60 * NM, size: [0.06e-6, 0.06e-6, 3e-6], mesh_overrides: overrides },
      {
        structures: [
          { type: "box", center: [0, 0, 0.5e-6], size: [0.06e-6, 0.06e-6, 0.4e-6], material: "Si" },
        ],
      },
    );
  const errs = await errorsOf(body([]));
  assert.ok(
    errs.some(
      (e) => e.path === "domain.resolution" && /cells per wavelength in Si/.test(e.message),
    ),
    JSON.stringify(errs),
  );
  const ok = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
    key,
    body: body([refine([60 * NM, 60 * NM, 20 * NM], { size: [0, 0, 0.4e-6] })]),
  });
  assert.equal(ok.status, 200, ok.text);
});

test("a graded job: estimate, stored defaults, COMPLETED with graded coordinates in the file", async () => {
  const body = graded({ mesh_overrides: [refine([50 * NM, 50 * NM, 10 * NM])] });
  const est = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key, body });
  assert.equal(est.status, 200, est.text);
  const uniform = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
    key,
    body: smallSimulation(),
  });
  const cellsOf = (r: typeof est) => (r.body.grid as number[])[2];
  // 0.6 µm at 10 nm (60 cells) in place of 12, and the grading either side.
  assert.ok(cellsOf(est) > cellsOf(uniform) + 48, `${cellsOf(est)} vs ${cellsOf(uniform)}`);
  // The time step follows the 10 nm cells: S/(c·√(2/50² + 1/10²)) with steps in nm.
  const dt = 0.99 / (299_792_458 * Math.sqrt(2 / (50 * NM) ** 2 + 1 / (10 * NM) ** 2));
  assert.ok(Math.abs(Number(est.body.dt_seconds) / dt - 1) < 1e-9, String(est.body.dt_seconds));
  // The estimate says why: 10–50 nm cells along z, dt 3.0× shorter than on the 50 nm grid.
  const gradedNote =
    /^graded grid \(mesh_overrides\): cells of 1e-8–4\.99\d*e-8 m along z; the time step follows the shortest cells, 3\.0× shorter/;
  assert.ok(
    (est.body.notes as string[]).some((n) => gradedNote.test(n)),
    String(est.body.notes),
  );

  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"]);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  const job = await svc.service.stores.jobs.getJob(id);
  const stored = (JSON.parse(job!.specJson) as { domain: Record<string, unknown> }).domain;
  assert.equal(stored.max_step_ratio, 1.2, "the default is filled in");
  const report = done.solver_report as Record<string, number>;
  assert.equal(report.grid_step_m, 0.05e-6);
  assert.ok(Math.abs(report.min_grid_step_m - 10 * NM) < 1e-15, String(report.min_grid_step_m));
  assert.ok((done.solver_report as { notes: string[] }).notes.some((n) => gradedNote.test(n)));

  const redirect = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
  const file = await fetch(redirect.headers.get("location")!);
  const path = join(tempDir(), "graded.h5");
  writeFileSync(path, Buffer.from(await file.arrayBuffer()));
  const py = spawnSync(
    "/usr/bin/python3",
    [
      "-c",
      [
        "import h5py, json, sys, numpy",
        "f = h5py.File(sys.argv[1])",
        "z = f['grid/z'][...]",
        "line = f['monitors/line/z'][...]",
        "d = numpy.diff(z)",
        "print(json.dumps({'min': float(d.min()), 'max': float(d.max()),",
        "  'grid_step': float(f['grid'].attrs['grid_step']),",
        "  'min_grid_step': float(f['grid'].attrs['min_grid_step']),",
        "  'line_sorted': bool((numpy.diff(line) > 0).all()), 'line': len(line)}))",
      ].join("\n"),
      path,
    ],
    { encoding: "utf8" },
  );
  assert.equal(py.status, 0, py.stderr);
  const h5 = JSON.parse(py.stdout) as Record<string, number | boolean>;
  // Cell centres 10 nm apart inside the override, up to 50 nm outside it (a little less where
  // the steps of a stretch between the override and the face are scaled to fit it).
  assert.ok(Math.abs((h5.min as number) - 10 * NM) < 1e-12, String(h5.min));
  assert.ok((h5.max as number) <= 50 * NM + 1e-15 && (h5.max as number) > 45 * NM, String(h5.max));
  assert.equal(h5.grid_step, 0.05e-6);
  assert.ok(Math.abs((h5.min_grid_step as number) - 10 * NM) < 1e-15);
  assert.ok(h5.line_sorted);
  assert.ok((h5.line as number) > 40, "the 2 µm line monitor samples the refined cells");
});

test("a max_step_ratio without mesh overrides is accepted, and the estimate and run report say it has no effect", async () => {
  const body = graded({ max_step_ratio: 1.5 });
  const unused = /^domain\.max_step_ratio has no effect without domain\.mesh_overrides/;
  const est = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key, body });
  assert.equal(est.status, 200, est.text);
  assert.ok(
    (est.body.notes as string[]).some((n) => unused.test(n)),
    String(est.body.notes),
  );
  // With overrides the ratio grades the grid: no such note.
  const used = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
    key,
    body: graded({ max_step_ratio: 1.5, mesh_overrides: [refine(10 * NM)] }),
  });
  assert.equal(used.status, 200, used.text);
  assert.ok(!(used.body.notes as string[]).some((n) => unused.test(n)), String(used.body.notes));

  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
  assert.equal(sub.status, 202, sub.text);
  const done = await waitForStatus(svc.baseUrl, key, String(sub.body.job_id), [
    "COMPLETED",
    "FAILED",
  ]);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  const notes = (done.solver_report as { notes: string[] }).notes;
  assert.ok(
    notes.some((n) => unused.test(n)),
    String(notes),
  );
});
