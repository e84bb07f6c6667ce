/**
 * A real result file opens in every reader users have: h5py, h5dump (HDFView reads the same
 * structures) and xarray with the h5netcdf engine, where every monitor is a Dataset with
 * named dimensions and coordinates in metres (docs/result-format.md). The coordinates are
 * checked through physics: along the propagation axis of a plane wave in vacuum |Ey| is the
 * source amplitude, |Ey|/|Hx| is the impedance of free space, and the phase grows as
 * 2π z / wavelength at each recorded wavelength, so a scale attached to the wrong axis or a
 * wavelength axis out of order fails.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { call, startService, waitForStatus, type TestService } from "../helpers/service.js";

const PYTHON = "/usr/bin/python3";
const WAVELENGTHS = [1.5e-6, 1.55e-6, 1.6e-6];

// The readers are Debian packages (.ci/run installs them): skipped without them, except in CI.
const readers = spawnSync(PYTHON, ["-c", "import h5py, xarray, h5netcdf"], { encoding: "utf8" });
const h5dump = spawnSync("h5dump", ["--version"], { encoding: "utf8" });
const skip =
  readers.status === 0 && h5dump.status === 0
    ? false
    : `needs h5dump (hdf5-tools) and ${PYTHON} with h5py, xarray and h5netcdf`;
if (skip && process.env.CI) throw new Error(skip);

let svc: TestService;
let path: string;

before(async () => {
  if (skip) return;
  svc = await startService({ rateLimitPerMinute: 0 });
  const key = await svc.newKey();
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", {
    key,
    body: {
      solver: "fdtd",
      domain: {
        size: [0.05e-6, 0.05e-6, 3e-6],
        resolution: 25e-9,
        boundary_conditions: ["periodic", "periodic", "pml"],
      },
      source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
      monitors: [
        {
          name: "axis",
          monitor_type: "field",
          center: [0, 0, 0],
          size: [0, 0, 2.5e-6],
          components: ["Ey", "Hx"],
          wavelengths: WAVELENGTHS,
        },
        {
          name: "point",
          monitor_type: "field",
          center: [0, 0, 0.5e-6],
          size: [0, 0, 0],
          components: ["Ex", "Ey"],
        },
      ],
      fdtd_settings: { time_steps: 6000, check_every_n: 500 },
    },
  });
  assert.equal(sub.status, 202, sub.text);
  const jobId = String(sub.body.job_id);
  const job = await waitForStatus(svc.baseUrl, key, jobId, ["COMPLETED", "FAILED"]);
  assert.equal(job.status, "COMPLETED", String(job.error_detail));
  const redirect = await call(svc.baseUrl, "GET", `/v1/simulations/${jobId}/results`, { key });
  const file = await fetch(redirect.headers.get("location")!);
  path = join(svc.config.dataDir, "result.h5");
  writeFileSync(path, Buffer.from(await file.arrayBuffer()));
});
after(async () => {
  if (!skip) await svc.close();
});

test("h5dump shows dimension scales, their attachments and CF units", { skip }, () => {
  const res = spawnSync("h5dump", ["-A", "-g", "/monitors/axis", path], { encoding: "utf8" });
  assert.equal(res.status, 0, res.stderr);
  const dump = res.stdout;
  for (const scale of ["x", "y", "z", "wavelength"]) {
    assert.match(
      dump,
      new RegExp(
        `DATASET "${scale}" \\{[^]*?"CLASS"[^]*?"DIMENSION_SCALE"[^]*?"NAME"[^]*?"${scale}"`,
      ),
    );
  }
  // Ey's four axes, in order: wavelength, x, y, z.
  assert.match(
    dump,
    /DATASET "Ey" \{[^]*?DIMENSION_LIST[^]*?"\/monitors\/axis\/wavelength"[^]*?"\/monitors\/axis\/x"[^]*?"\/monitors\/axis\/y"[^]*?"\/monitors\/axis\/z"/,
  );
  assert.match(dump, /DATASET "z" \{[^]*?"units"[^]*?"m"/);
  assert.match(dump, /DATASET "Hx" \{[^]*?"units"[^]*?"A\/m"/);
  // The whole file reads, header and data.
  assert.equal(spawnSync("h5dump", [path], { encoding: "utf8" }).status, 0);
});

/** What readers.py reports of one monitor opened with xarray. */
interface XarrayView {
  dims: Record<string, number>;
  coords: Record<string, string[]>;
  coord_units: Record<string, string>;
  data_units: Record<string, string>;
  data_dims: Record<string, string[]>;
  same_values: boolean;
  same_xyz: boolean;
  wavelength: number[];
  physics?: Record<string, number>[];
}

test("h5py and xarray (engine h5netcdf) read every monitor with its coordinates", { skip }, () => {
  const res = spawnSync(PYTHON, [join(import.meta.dirname, "readers.py"), path], {
    encoding: "utf8",
  });
  assert.equal(res.status, 0, res.stderr);
  const seen = JSON.parse(res.stdout) as {
    h5py: Record<string, Record<string, Record<string, unknown>>>;
    xarray: Record<string, XarrayView>;
  };

  const axis = seen.h5py.axis!;
  assert.deepEqual(axis.scales, { wavelength: "wavelength", x: "x", y: "y", z: "z" });
  const scaled = ["/monitors/axis/wavelength", "/monitors/axis/x", "/monitors/axis/y"];
  assert.deepEqual(axis.attached!.Ey, [...scaled.map((s) => [s]), ["/monitors/axis/z"]]);
  assert.equal(axis.dtype!.Ey, "complex64");
  assert.deepEqual(axis.units, {
    Ey: "V/m",
    Hx: "A/m",
    x: "m",
    y: "m",
    z: "m",
    wavelength: "m",
    frequency: "Hz",
  });
  const point = seen.h5py.point!;
  assert.deepEqual(point.attached!.Ex, [
    ["/monitors/point/x"],
    ["/monitors/point/y"],
    ["/monitors/point/z"],
  ]);

  const xa = seen.xarray.axis!;
  assert.deepEqual(xa.dims, { wavelength: 3, x: 1, y: 1, z: 100 });
  assert.deepEqual(xa.data_dims, {
    Ey: ["wavelength", "x", "y", "z"],
    Hx: ["wavelength", "x", "y", "z"],
  });
  assert.deepEqual(xa.coord_units, { wavelength: "m", x: "m", y: "m", z: "m", frequency: "Hz" });
  assert.deepEqual(xa.data_units, { Ey: "V/m", Hx: "A/m" });
  assert.deepEqual(xa.coords.frequency, ["wavelength"]);
  assert.equal(xa.same_values, true);
  assert.equal(xa.same_xyz, true);
  assert.deepEqual(xa.wavelength, WAVELENGTHS);
  assert.equal(xa.physics?.length, 3);
  for (const p of xa.physics ?? []) {
    const at = `at ${p.wavelength! * 1e9} nm`;
    assert.ok(Math.abs(p.amplitude_min! - 1) < 0.01, `${at}: |Ey| min ${p.amplitude_min}`);
    assert.ok(Math.abs(p.amplitude_max! - 1) < 0.01, `${at}: |Ey| max ${p.amplitude_max}`);
    assert.ok(Math.abs(p.k_ratio! - 1) < 0.005, `${at}: phase slope / k = ${p.k_ratio}`);
    assert.ok(Math.abs(p.eta_ratio! - 1) < 0.02, `${at}: |E|/|H| / eta0 = ${p.eta_ratio}`);
  }

  // One wavelength: 3-D data, the wavelength a scalar coordinate.
  const xp = seen.xarray.point!;
  assert.deepEqual(xp.dims, { x: 1, y: 1, z: 1 });
  assert.deepEqual(xp.data_dims, { Ex: ["x", "y", "z"], Ey: ["x", "y", "z"] });
  assert.deepEqual(xp.coords.wavelength, []);
  assert.deepEqual(xp.wavelength, [1.55e-6]);
  assert.equal(xp.same_values, true);
});
