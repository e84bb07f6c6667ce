/**
 * The sources and far-field monitors of issue #28 through the service: a point dipole's job
 * (the estimate and a submission accept it, bad ones are refused with field errors, the job
 * record's flux report holds the power relative to the dipole in vacuum and in watts, the
 * result file holds /monitors/<name>/power, `emsim inspect` describes the source); a far-field
 * monitor's pattern in the record, the file (h5py) and the Python client; a Gaussian beam's
 * estimate and its plane's check.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runInspect } from "../../src/cli/commands/inspect.js";
import { defaultIo, type CommandIo } from "../../src/cli/output.js";
import { readSpectra } from "../../src/results/read.js";
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
  key = await svc.newKey("dipole@example.com");
});
after(async () => svc.close());

/** A z dipole at the origin on three mirror planes (an eighth of the grid), a box around it. */
function dipoleJob(source: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    solver: "fdtd",
    domain: {
      size: [0.8e-6, 0.8e-6, 0.8e-6],
      resolution: 0.05e-6,
      symmetry: ["pmc", "pmc", "pec"],
    },
    source: {
      source_type: "point_dipole",
      wavelength: 1e-6,
      center: [0, 0, 0],
      polarization: "Ez",
      ...source,
    },
    monitors: [
      {
        name: "box",
        monitor_type: "flux",
        center: [0, 0, 0],
        size: [0.5e-6, 0.5e-6, 0.5e-6],
        wavelengths: [0.9e-6, 1e-6, 1.1e-6],
      },
    ],
    fdtd_settings: { time_steps: 20000, check_every_n: 200, convergence_threshold: 1e-5 },
  };
}

test("a dipole job: its power over the vacuum dipole's in the record and in the file", async () => {
  const estimate = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
    key,
    body: dipoleJob(),
  });
  assert.equal(estimate.status, 200, estimate.text);
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: dipoleJob() });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"]);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  const flux = (done.solver_report as Record<string, unknown>).flux as Record<
    string,
    Record<string, unknown>
  >;
  assert.equal(flux.box.quantity, "power");
  const ratio = flux.box.flux as number[];
  const watts = flux.box.power_w as number[];
  // 20 cells per wavelength: within 2 % of the vacuum dipole (docs/validation.md).
  ratio.forEach((p) => assert.ok(Math.abs(p - 1) < 0.02, `P/P0 ${ratio.join(", ")}`));
  // P0 = η0·k0²·(1 A·m)²/(12π) at 1 µm.
  const k0 = (2 * Math.PI) / 1e-6;
  const p0 = (376.730313 * k0 * k0) / (12 * Math.PI);
  assert.ok(Math.abs(watts[1]! / (ratio[1]! * p0) - 1) < 1e-5, `${watts[1]} W`);

  const redirect = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
  const file = await fetch(redirect.headers.get("location")!);
  const path = join(tempDir(), "dipole.h5");
  writeFileSync(path, Buffer.from(await file.arrayBuffer()));
  const [box] = await readSpectra(path);
  assert.equal(box!.quantity, "power");
  box!.flux.forEach((v, i) => assert.ok(Math.abs(v - ratio[i]!) < 1e-5 * ratio[i]!));

  let text = "";
  const io = { ...defaultIo(), stdout: { write: (t: string) => ((text += t), true) } };
  assert.equal(await runInspect([path], io as CommandIo), 0);
  assert.match(text, /point dipole Ez, λ = 1 µm, at \(0, 0, 0\) µm, amplitude 1 A·m/);
});

test("bad dipoles are refused with the field named", async () => {
  const refused = async (body: Record<string, unknown>) => {
    const res = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
    assert.equal(res.status, 422, res.text);
    return (res.body.errors as { path: string; message: string }[]).map((e) => e.path);
  };
  // Outside the domain, and so off the z mirror plane too.
  assert.deepEqual(await refused(dipoleJob({ center: [0, 0, 0.5e-6] })), [
    "source.center",
    "domain.symmetry[2]",
  ]);
  assert.ok((await refused(dipoleJob({ polarization: "te" }))).includes("source.polarization"));
  assert.ok((await refused(dipoleJob({ center: undefined }))).includes("source.center"));
  // A plane wave's field is not a dipole's.
  assert.ok((await refused(dipoleJob({ direction: [0, 0, 1] }))).includes("source.direction"));
  // On the mirror planes an Ez dipole is odd about z = 0 only.
  const wrong = dipoleJob();
  (wrong.domain as Record<string, unknown>).symmetry = ["pmc", "pec", "pec"];
  assert.deepEqual(await refused(wrong), ["domain.symmetry[1]"]);
});

test("a far-field monitor: the pattern in the record and in the file, a cut box refused", async () => {
  // On the dipole's three mirror planes: the grid holds an eighth, the pattern is the whole box's.
  const body = dipoleJob();
  body.monitors = [
    {
      name: "pattern",
      monitor_type: "far_field",
      center: [0, 0, 0],
      size: [0.5e-6, 0.5e-6, 0.5e-6],
      wavelengths: [0.9e-6, 1.1e-6],
      theta_deg: [0, 45, 90, 135, 180],
      phi_deg: { start: 0, stop: 270, points: 4 },
    },
  ];
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"]);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  const far = (done.solver_report as Record<string, unknown>).far_field as Record<
    string,
    { theta_deg: number[]; phi_deg: number[]; radiant_intensity: number[][][] }
  >;
  const u = far.pattern!.radiant_intensity;
  assert.deepEqual(far.pattern!.phi_deg, [0, 90, 180, 270]);
  assert.deepEqual([u.length, u[0]!.length, u[0]![0]!.length], [2, 5, 4]);
  // A z dipole: nothing along its axis, the most across it.
  assert.ok(
    u[0]![0]![0]! < 0.02 * u[0]![2]![0]!,
    `U(0°) ${u[0]![0]![0]} vs U(90°) ${u[0]![2]![0]}`,
  );

  const redirect = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
  const file = await fetch(redirect.headers.get("location")!);
  const path = join(tempDir(), "far.h5");
  writeFileSync(path, Buffer.from(await file.arrayBuffer()));
  const py = spawnSync(
    "/usr/bin/python3",
    [
      "-c",
      [
        "import h5py, json, sys",
        "g = h5py.File(sys.argv[1])['monitors/pattern']",
        "u = g['radiant_intensity']",
        "print(json.dumps({'type': g.attrs['type'], 'shape': list(u.shape),",
        "  'dims': [d[0].name for d in u.dims], 'e': str(g['E_theta'].dtype),",
        "  'u': float(u[0, 2, 0])}))",
      ].join("\n"),
      path,
    ],
    { encoding: "utf8" },
  );
  assert.equal(py.status, 0, py.stderr);
  const h5 = JSON.parse(py.stdout) as Record<string, unknown>;
  assert.equal(h5.type, "far_field");
  assert.deepEqual(h5.shape, [2, 5, 4]);
  assert.deepEqual(h5.dims, [
    "/monitors/pattern/wavelength",
    "/monitors/pattern/theta",
    "/monitors/pattern/phi",
  ]);
  assert.equal(h5.e, "complex128");
  // The Python client's load: an xarray Dataset along wavelength, theta, phi.
  const client = spawnSync(
    "/usr/bin/python3",
    [
      "-c",
      [
        "import json, sys, emsim",
        "ds = emsim.load(sys.argv[1], 'pattern')",
        "print(json.dumps({'dims': list(ds['radiant_intensity'].dims),",
        "  'complex': str(ds['E_theta'].dtype), 'theta': ds['theta'].values.tolist()}))",
      ].join("\n"),
      path,
    ],
    {
      encoding: "utf8",
      env: { ...process.env, PYTHONPATH: join(process.cwd(), "clients/python/src") },
    },
  );
  assert.equal(client.status, 0, client.stderr);
  const loaded = JSON.parse(client.stdout) as Record<string, unknown>;
  assert.deepEqual(loaded.dims, ["wavelength", "theta", "phi"]);
  assert.equal(loaded.complex, "complex128");
  assert.deepEqual(loaded.theta, [0, 45, 90, 135, 180]);
  assert.ok(Math.abs((h5.u as number) / u[0]![2]![0]! - 1) < 1e-5);
  let text = "";
  const io = { ...defaultIo(), stdout: { write: (t: string) => ((text += t), true) } };
  assert.equal(await runInspect([path], io as CommandIo), 0);
  assert.match(text, /pattern\s+far field/);

  // A structure crossing the surface: the projection needs one medium all round it.
  const cut = structuredClone(body);
  (cut.domain as Record<string, unknown>).symmetry = undefined;
  cut.structures = [
    { type: "box", center: [0, 0, -0.3e-6], size: [1, 1, 0.2e-6], material: "SiO2" },
  ];
  const res = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: cut });
  assert.equal(res.status, 422, res.text);
  const errors = res.body.errors as { path: string; message: string }[];
  assert.equal(errors[0]!.path, "monitors[0].size");
  assert.match(errors[0]!.message, /structures\[0\] \(box of SiO2\) crosses the far-field surface/);
});

test("a Gaussian beam through the API: estimated, and a plane across its direction refused", async () => {
  const beam = (size: number[]) => ({
    solver: "fdtd",
    domain: { size: [4e-6, 4e-6, 4e-6], resolution: 0.1e-6 },
    source: {
      source_type: "gaussian_beam",
      wavelength: 1.55e-6,
      center: [0, 0, -1.5e-6],
      size,
      direction: [0, 0, 1],
      waist_radius: 1e-6,
      waist_distance: 1.5e-6,
    },
    monitors: [{ name: "focus", monitor_type: "field", center: [0, 0, 0], size: [3e-6, 3e-6, 0] }],
  });
  const ok = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
    key,
    body: beam([3.5e-6, 3.5e-6, 0]),
  });
  assert.equal(ok.status, 200, ok.text);
  const bad = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
    key,
    body: beam([3.5e-6, 0, 3.5e-6]),
  });
  assert.equal(bad.status, 422, bad.text);
  const errors = bad.body.errors as { path: string; message: string }[];
  assert.ok(
    errors.some((e) => e.path === "source.size" && /normal to z/.test(e.message)),
    bad.text,
  );
});

test("a 2-D cross-section's far field: its plane's directions by default, W/rad in the record, the file and the client", async () => {
  // An Ey row of dipoles (periodic and one cell thick along y): the x–z plane's pattern.
  const body = {
    solver: "fdtd",
    domain: {
      size: [1e-6, 0.04e-6, 1e-6],
      resolution: 0.04e-6,
      boundary_conditions: ["pml", "periodic", "pml"],
    },
    source: {
      source_type: "point_dipole",
      wavelength: 1e-6,
      center: [0, 0, 0],
      polarization: "Ey",
    },
    monitors: [
      {
        name: "line",
        monitor_type: "far_field",
        center: [0, 0, 0],
        size: [0.6e-6, 0.04e-6, 0.6e-6],
      },
    ],
    fdtd_settings: { time_steps: 20000, check_every_n: 200, convergence_threshold: 1e-5 },
  };
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
  assert.equal(sub.status, 202, sub.text);
  const done = await waitForStatus(svc.baseUrl, key, String(sub.body.job_id), [
    "COMPLETED",
    "FAILED",
  ]);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  const line = ((done.solver_report as Record<string, unknown>).far_field as Record<string, never>)
    .line as Record<string, unknown>;
  assert.deepEqual(line.phi_deg, [0, 180]);
  assert.equal((line.theta_deg as number[]).length, 37);
  assert.equal(line.radiant_intensity_unit, "W/rad");
  assert.equal(line.cross_section_axis, "y");
  // A line along its own moment radiates the same all round its plane.
  const u = (line.radiant_intensity as number[][][])[0]!.flat();
  assert.ok(Math.max(...u) < 1.05 * Math.min(...u), `${Math.min(...u)} … ${Math.max(...u)}`);

  const redirect = await call(
    svc.baseUrl,
    "GET",
    `/v1/simulations/${String(sub.body.job_id)}/results`,
    { key },
  );
  const path = join(tempDir(), "line.h5");
  writeFileSync(
    path,
    Buffer.from(await (await fetch(redirect.headers.get("location")!)).arrayBuffer()),
  );
  const client = spawnSync(
    "/usr/bin/python3",
    [
      "-c",
      [
        "import json, sys, emsim",
        "ds = emsim.load(sys.argv[1], 'line')",
        "print(json.dumps({'unit': ds['radiant_intensity'].attrs['units'],",
        "  'e': ds['E_phi'].attrs['units'], 'axis': str(ds.attrs['cross_section_axis'])}))",
      ].join("\n"),
      path,
    ],
    {
      encoding: "utf8",
      env: { ...process.env, PYTHONPATH: join(process.cwd(), "clients/python/src") },
    },
  );
  assert.equal(client.status, 0, client.stderr);
  assert.deepEqual(JSON.parse(client.stdout), { unit: "W/rad", e: "V m-0.5", axis: "y" });

  // Off the plane, a direction is refused with the plane named.
  const off = structuredClone(body) as Record<string, unknown>;
  (off.monitors as Record<string, unknown>[])[0]!.phi_deg = [0, 90];
  const refused = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: off });
  assert.equal(refused.status, 422, refused.text);
  assert.match(refused.text, /monitors\[0\]\.phi_deg.*φ = 0° or 180° \(the x–z plane\)/);
});
