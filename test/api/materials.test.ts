/**
 * Materials defined in the request, through the service: a Drude metal film's reflectance and
 * transmittance spectra against Airy with the same ε(ω); the result file says it was stepped
 * with its poles; an unstable pole set, a library name and a bad pole are refused with 422s
 * that say what to change; the estimate notes a metal particle resolved too coarsely.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { permittivity } from "../../src/solver/dispersion/model.js";
import { userPoleModel } from "../../src/solver/dispersion/user.js";
import { readResultInfo } from "../../src/results/read.js";
import { airySlab } from "../../src/solver/testing/index.js";
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
  key = await svc.newKey("materials@example.com");
});
after(async () => svc.close());

const EV = 1.519267447e15;
const METAL = { permittivity: 1, poles: [{ type: "drude", omega_p: 9 * EV, gamma: 0.07 * EV }] };
const BAND = { start: 0.9e-6, stop: 1.5e-6, points: 4 };
const STEP = 2e-9;
const FILM = 20e-9;

function filmJob(extra: { courant?: number; materials?: unknown; material?: string } = {}) {
  const plane = (name: string, z: number) => ({
    name,
    monitor_type: "flux",
    center: [0, 0, z],
    size: [STEP, STEP, 0],
    wavelengths: BAND,
  });
  return {
    solver: "fdtd",
    domain: {
      size: [STEP, STEP, 1.2e-6],
      resolution: STEP,
      boundary_conditions: ["periodic", "periodic", "pml"],
      pml_layers: 12,
    },
    source: { source_type: "plane_wave", wavelength: 1.2e-6, direction: [0, 0, 1] },
    materials: extra.materials ?? { film_metal: METAL },
    structures: [
      {
        type: "box",
        center: [0, 0, 0],
        size: [1, 1, FILM],
        material: extra.material ?? "film_metal",
      },
    ],
    monitors: [plane("R", -0.4e-6), plane("T", 0.4e-6)],
    fdtd_settings: {
      time_steps: 60000,
      check_every_n: 500,
      convergence_threshold: 1e-6,
      courant_factor: extra.courant ?? 0.99,
    },
  };
}

test("a Drude film defined in the request: R and T within 1 % of Airy across the band", async () => {
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body: filmJob() });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"], 120_000);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  const flux = (done.solver_report as { flux: Record<string, { flux: number[] }> }).flux;
  const model = userPoleModel(METAL as never);
  for (let i = 0; i < BAND.points; i++) {
    const w = BAND.start + ((BAND.stop - BAND.start) * i) / (BAND.points - 1);
    const eps = permittivity(model, (2 * Math.PI * 299_792_458) / w);
    const m = Math.hypot(eps.re, eps.im);
    const n = { re: Math.sqrt((m + eps.re) / 2), im: Math.sqrt((m - eps.re) / 2) };
    const airy = airySlab(n, FILM, w);
    const R = flux.R.flux[i];
    const T = flux.T.flux[i];
    assert.ok(Math.abs(T - airy.T) < 0.01, `T ${T} vs ${airy.T} at ${w}`);
    assert.ok(Math.abs(R - airy.R) < 0.01, `R ${R} vs ${airy.R} at ${w}`);
  }

  const redirect = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
  const file = await fetch(redirect.headers.get("location")!);
  const path = join(tempDir(), "film.h5");
  writeFileSync(path, Buffer.from(await file.arrayBuffer()));
  const py = spawnSync(
    "/usr/bin/python3",
    [
      "-c",
      "import h5py,sys,json; g=h5py.File(sys.argv[1])['materials/film_metal']; " +
        "print(g.attrs['time_domain'] if 'time_domain' in g.attrs else g['time_domain'][()].decode(), " +
        "len(json.loads(g.attrs['poles'] if 'poles' in g.attrs else g['poles'][()].decode())))",
      path,
    ],
    { encoding: "utf8" },
  );
  assert.equal(py.status, 0, py.stderr);
  assert.equal(py.stdout.trim(), "poles 1");
});

test("an unstable material at the requested Courant factor: 422 naming it and the largest stable courant_factor, which then runs", async () => {
  // ε∞ below 1 lowers the Courant limit to about √ε∞.
  const body = filmJob({ materials: { film_metal: { ...METAL, permittivity: 0.5 } } });
  body.monitors = [];
  const res = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
  assert.equal(res.status, 422, res.text);
  const errors = res.body.errors as { path: string; message: string }[];
  const e = errors.find((x) => x.path === "structures[0].material");
  assert.ok(e, res.text);
  assert.match(e.message, /film_metal/);
  const limit = Number(/largest stable courant_factor is (0\.\d+)/.exec(e.message)?.[1]);
  assert.ok(limit > 0.6 && limit < 0.75, e.message);
  const ok = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key,
    body: { ...body, fdtd_settings: { ...body.fdtd_settings, courant_factor: limit } },
  });
  assert.equal(ok.status, 202, ok.text);
  await call(svc.baseUrl, "DELETE", `/v1/simulations/${String(ok.body.job_id)}`, { key });
});

test("a request material may not take a library name, and poles are validated", async () => {
  const shadow = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key,
    body: filmJob({ materials: { si: METAL }, material: "si" }),
  });
  assert.equal(shadow.status, 422, shadow.text);
  assert.match(shadow.text, /materials\.si/);
  assert.match(shadow.text, /library's Si/);

  const bad = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key,
    body: filmJob({
      materials: { m: { poles: [{ type: "lorentz", delta_eps: 1, omega0: -5, gamma: 0 }] } },
      material: "m",
    }),
  });
  assert.equal(bad.status, 422, bad.text);
  assert.match(bad.text, /omega0/);

  const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`m${i}`, METAL]));
  const tooMany = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key,
    body: filmJob({ materials: many, material: "m0" }),
  });
  assert.equal(tooMany.status, 422, tooMany.text);
  assert.match(tooMany.text, /more than 16/);
});

test("the estimate notes a coarsely resolved metal particle, library or request-defined", async () => {
  const estimate = async (structures: unknown[]) => {
    const body = { ...filmJob(), structures };
    (body.domain as { size: number[] }).size = [0.2e-6, 0.2e-6, 1.2e-6];
    const res = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", { key, body });
    assert.equal(res.status, 200, res.text);
    return res.body.notes as string[];
  };
  // 25 nm of radius at 2 nm cells: 12.5 cells.
  const notes = await estimate([
    { type: "sphere", center: [0, 0, 0], radius: 25e-9, material: "Au" },
    {
      type: "cylinder",
      center: [0, 0, 0.2e-6],
      radius: 25e-9,
      height: 0.1e-6,
      axis: "z",
      material: "film_metal",
    },
    { type: "sphere", center: [0, 0, -0.2e-6], radius: 25e-9, material: "Si3N4" },
  ]);
  assert.equal(notes.length, 2, notes.join("\n"));
  assert.match(notes[0]!, /^structures\[0\] \(a sphere of Au\) has 12\.5 cells across its radius/);
  assert.match(notes[1]!, /^structures\[1\] \(a cylinder of film_metal\) has 12\.5 cells/);
  assert.deepEqual(
    await estimate([{ type: "sphere", center: [0, 0, 0], radius: 50e-9, material: "Ag" }]),
    [],
  );
});

test("PEC: listed as the perfect conductor, accepted by any of its names, and so in the result file", async () => {
  // Its own key: the earlier test's cancelled job may still hold the first one (409).
  const pecKey = await svc.newKey("pec@example.com");
  const list = await call(svc.baseUrl, "GET", "/v1/materials", { key: pecKey });
  assert.equal(list.status, 200, list.text);
  const entries = list.body.materials as { name: string; kind: string; valid_range_m: number[] }[];
  const pec = entries.find((m) => m.name === "PEC");
  assert.ok(pec, list.text);
  assert.equal(pec.kind, "perfect_conductor");
  assert.deepEqual(pec.valid_range_m, [0, Number.MAX_VALUE]);
  assert.equal(entries.find((m) => m.name === "Au")?.kind, "metal");
  assert.equal(entries.find((m) => m.name === "SiO2")?.kind, "dielectric");

  // A mirror behind the film's place: every wavelength of the band reflects fully.
  const mirror = (material: string) => {
    const body = filmJob({ materials: {}, material });
    delete (body as { materials?: unknown }).materials;
    body.structures[0] = { type: "box", center: [0, 0, 0.2e-6], size: [1, 1, 0.1e-6], material };
    return body;
  };
  for (const name of ["perfect conductor", "pec"]) {
    const estimate = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
      key: pecKey,
      body: mirror(name),
    });
    assert.equal(estimate.status, 200, estimate.text);
  }
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key: pecKey,
    body: mirror("PEC"),
  });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const done = await waitForStatus(svc.baseUrl, pecKey, id, ["COMPLETED", "FAILED"], 120_000);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  const flux = (done.solver_report as { flux: Record<string, { flux: number[] }> }).flux;
  for (const R of flux.R.flux) assert.ok(Math.abs(R - 1) < 0.005, `R ${R}`);
  for (const T of flux.T.flux) assert.ok(Math.abs(T) < 1e-6, `T ${T}`);

  const redirect = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key: pecKey });
  const file = await fetch(redirect.headers.get("location")!);
  const path = join(tempDir(), "mirror.h5");
  writeFileSync(path, Buffer.from(await file.arrayBuffer()));
  // The file says what it is, and has no permittivity or conductivity to give.
  const attrs = (await readResultInfo(path)).materials.PEC;
  assert.ok(attrs, "the result file has /materials/PEC");
  assert.equal(attrs.time_domain, "perfect_conductor");
  assert.ok(!("permittivity_real" in attrs) && !("conductivity" in attrs), JSON.stringify(attrs));
});

test("a request material may not be called PEC", async () => {
  const res = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key,
    body: filmJob({ materials: { Pec: METAL }, material: "Pec" }),
  });
  assert.equal(res.status, 422, res.text);
  assert.match(res.text, /materials\.Pec/);
  assert.match(res.text, /library's PEC/);
});
