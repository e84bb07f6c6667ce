/**
 * Mirror symmetry (`domain.symmetry`) through the HTTP API of a real service (SQLite, local
 * storage, in-process worker): a request that is not symmetric is refused with a 422 naming the
 * field, the estimate counts the cells stepped, and a job on a quarter of the grid completes
 * with the same result file as the whole job (read back with h5py): the whole grid's
 * coordinates, every field monitor's phasors over both halves, the flux of the whole box.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  call,
  startService,
  tempDir,
  waitForStatus,
  type TestService,
} from "../helpers/service.js";

let svc: TestService;
let key: string;
before(async () => {
  svc = await startService();
  key = await svc.newKey("symmetry@example.com");
});
after(async () => svc.close());

/**
 * A glass sphere under a wave along z polarised along y (te), 8 × 8 × 16 cells of 50 nm with
 * pml on every face: a field plane through the sphere (normal to y, so unfolded along x only),
 * a field box around it and a flux box. With `symmetry` the same request on a quarter.
 */
function sphere(symmetry?: string[]) {
  return {
    solver: "fdtd",
    domain: {
      size: [0.4e-6, 0.4e-6, 0.8e-6],
      resolution: 0.05e-6,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 8,
      ...(symmetry ? { symmetry } : {}),
    },
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
    structures: [{ type: "sphere", center: [0, 0, 0], radius: 0.12e-6, material: "SiO2" }],
    monitors: [
      {
        name: "xz",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [0.4e-6, 0, 0.6e-6],
        components: ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"],
      },
      {
        name: "cube",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [0.3e-6, 0.3e-6, 0.3e-6],
        components: ["Ey", "Hx"],
        wavelengths: [1.4e-6, 1.7e-6],
      },
      {
        name: "box",
        monitor_type: "flux",
        center: [0, 0, 0],
        size: [0.3e-6, 0.3e-6, 0.3e-6],
        wavelengths: { start: 1.3e-6, stop: 1.8e-6, points: 3 },
      },
    ],
    // A fixed number of steps: the convergence test would stop the two runs at different steps.
    fdtd_settings: { time_steps: 1200, convergence_threshold: 0 },
  };
}

test("a request that is not mirror-symmetric is refused with a 422 naming the field", async () => {
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [{ ...sphere(["odd", "none", "none"]) }, "domain.symmetry", /./],
    [{ ...sphere(["pec", "pec", "none"]) }, "domain.symmetry[0]", /the symmetry is pmc, not pec/],
    [{ ...sphere(["pmc", "pec", "pec"]) }, "domain.symmetry[2]", /has a z component/],
    [
      {
        ...sphere(["pmc", "pec", "none"]),
        structures: [{ type: "sphere", center: [0.1e-6, 0, 0], radius: 0.05e-6, material: "SiO2" }],
      },
      "structures[0]",
      /needs its mirror image about x = 0/,
    ],
    [
      {
        ...sphere(["pmc", "pec", "none"]),
        monitors: [
          {
            name: "p",
            monitor_type: "field",
            center: [-0.1e-6, 0, 0],
            size: [0, 0, 0],
            components: ["Ey"],
          },
        ],
      },
      "monitors[0].center",
      /centred on x = 0 \(its own mirror image\) or lie at x ≥ 0/,
    ],
  ];
  for (const [body, path, message] of cases) {
    const res = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key, body });
    assert.equal(res.status, 422, res.text);
    const errs = res.body.errors as Array<{ path: string; message: string }>;
    assert.ok(
      errs.some((e) => e.path.startsWith(path) && message.test(e.message)),
      `${path} ${message}: ${JSON.stringify(errs)}`,
    );
    assert.equal(typeof res.body.detail, "string");
  }
});

test("a quarter job's result file equals the whole job's", async () => {
  const whole = sphere();
  const quarter = sphere(["pmc", "pec", "none"]);
  const est = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key, body: quarter });
  assert.equal(est.status, 200, est.text);
  assert.deepEqual(est.body.grid, [12, 12, 32], "the half at ≥ 0 of x and y with pml above");
  const mirrorNote =
    /^mirror symmetry \(pmc on x = 0, pec on y = 0\): the grid holds the part at x ≥ 0, y ≥ 0, 4 times fewer cells/;
  assert.ok(
    (est.body.notes as string[]).some((n) => mirrorNote.test(n)),
    String(est.body.notes),
  );
  const paths: string[] = [];
  for (const [name, body] of [
    ["whole", whole],
    ["quarter", quarter],
  ] as const) {
    const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
    assert.equal(sub.status, 202, sub.text);
    const id = String(sub.body.job_id);
    const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"]);
    assert.equal(done.status, "COMPLETED", String(done.error_detail));
    const notes = (done.solver_report as { notes: string[] }).notes;
    assert.equal(
      notes.some((n) => mirrorNote.test(n)),
      name === "quarter",
      String(notes),
    );
    const redirect = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
    const file = await fetch(redirect.headers.get("location")!);
    const path = join(tempDir(), `${name}.h5`);
    writeFileSync(path, Buffer.from(await file.arrayBuffer()));
    paths.push(path);
  }
  // Every dataset of the two files' grids and monitors, compared in h5py.
  const py = spawnSync(
    "/usr/bin/python3",
    [
      "-c",
      [
        "import h5py, json, sys, numpy",
        "a, b = h5py.File(sys.argv[1]), h5py.File(sys.argv[2])",
        "out = {'shapes': {}, 'worst': 0.0, 'compared': 0, 'where': ''}",
        "def visit(name, obj):",
        "  if not isinstance(obj, h5py.Dataset) or not (name.startswith('grid') or name.startswith('monitors')): return",
        "  x, y = a[name][...], b[name][...]",
        "  out['shapes'][name] = [list(x.shape), list(y.shape)]",
        "  if x.shape != y.shape: return",
        "  scale = numpy.abs(x).max() or 1.0",
        "  # A lossless sphere absorbs nothing: its absorption and net flux are round-off, on",
        "  # the scale of what it scatters.",
        "  if name.split('/')[-1] in ('absorption_cross_section', 'flux'):",
        "    scale = numpy.abs(a['monitors/box/scattering_cross_section'][...]).max()",
        "  # Field phasors on the scale of the monitor's largest E or H component (a weak one,",
        "  # such as Hy here, carries the float32 rounding of the strong ones).",
        "  parts = name.split('/')",
        "  if parts[-1] in ('Ex', 'Ey', 'Ez', 'Hx', 'Hy', 'Hz'):",
        "    g = a['/'.join(parts[:-1])]",
        "    same = [parts[-1][0] + x for x in 'xyz']",
        "    scale = max(numpy.abs(g[c][...]).max() for c in same if c in g)",
        "  d = float(numpy.abs(x - y).max() / scale)",
        "  if d > out['worst']: out['worst'], out['where'] = d, name",
        "  out['compared'] += 1",
        "a.visititems(visit)",
        "out['cube_Ey_x'] = int(a['monitors/cube/Ey'].shape[1])",
        "print(json.dumps(out))",
      ].join("\n"),
      ...paths,
    ],
    { encoding: "utf8" },
  );
  assert.equal(py.status, 0, py.stderr);
  const r = JSON.parse(py.stdout) as {
    shapes: Record<string, number[][]>;
    worst: number;
    where: string;
    compared: number;
    cube_Ey_x: number;
  };
  for (const [name, [x, y]] of Object.entries(r.shapes)) assert.deepEqual(y, x, name);
  // grid x, y, z; xz: 6 components + x, y, z; cube: 2 + x, y, z + wavelength, frequency;
  // box: x, y, z, wavelength, frequency, flux, intensity, 3 cross-sections.
  assert.ok(r.compared >= 25, String(r.compared));
  assert.equal(r.cube_Ey_x, 6, "the cube's 6 cells along x, both halves");
  assert.ok(r.worst < 1e-5, `largest difference ${r.worst} of ${r.where}'s peak`);
});
