/**
 * Flux monitors through the service: a wavelength range is accepted, bad ones are refused with
 * field errors, the job record's solver report carries the spectra, the result file holds
 * /monitors/<name>/flux along a /monitors/<name>/wavelength dimension scale (read back with
 * h5py and xarray), the CLI's reader still lists the monitors, `emsim plot --spectrum` draws
 * the spectra and `emsim inspect` prints them.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runInspect } from "../../src/cli/commands/inspect.js";
import { runPlot } from "../../src/cli/commands/plot.js";
import { defaultIo, type CommandIo } from "../../src/cli/output.js";
import { readResultInfo, readSpectra } from "../../src/results/read.js";
import { decodePng } from "../cli/helpers.js";
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
  key = await svc.newKey("flux@example.com");
});
after(async () => svc.close());

const BAND = { start: 1.3e-6, stop: 1.8e-6, points: 6 };

function fluxJob(monitors: unknown[]) {
  return smallSimulation({
    monitors,
    fdtd_settings: { time_steps: 20000, check_every_n: 200, convergence_threshold: 1e-5 },
  });
}

const plane = (name: string, z: number, wavelengths: unknown = BAND) => ({
  name,
  monitor_type: "flux",
  center: [0, 0, z],
  size: [0.05e-6, 0.05e-6, 0],
  wavelengths,
});

test("a flux job: spectra in the job record and in the result file", async () => {
  const body = fluxJob([
    plane("T", 1.2e-6),
    plane("R", -1e-6),
    { name: "box", monitor_type: "flux", center: [0, 0, 0.5e-6], size: [0.05e-6, 0.05e-6, 1e-6] },
  ]);
  const sub = await call(svc.baseUrl, "POST", "/v1/simulations", { key, body });
  assert.equal(sub.status, 202, sub.text);
  const id = String(sub.body.job_id);
  const done = await waitForStatus(svc.baseUrl, key, id, ["COMPLETED", "FAILED"]);
  assert.equal(done.status, "COMPLETED", String(done.error_detail));
  const report = done.solver_report as Record<string, unknown>;
  const flux = report.flux as Record<string, Record<string, number[] | string>>;
  assert.deepEqual(Object.keys(flux).sort(), ["R", "T", "box"]);
  assert.equal(flux.T.quantity, "transmittance");
  assert.equal(flux.R.quantity, "reflectance");
  assert.equal(flux.box.quantity, "box");
  const T = flux.T.flux as number[];
  const R = flux.R.flux as number[];
  assert.equal(T.length, 6);
  const expected = [1.3e-6, 1.4e-6, 1.5e-6, 1.6e-6, 1.7e-6, 1.8e-6];
  const near = (values: unknown) =>
    (values as number[]).every((w, i) => Math.abs(w - expected[i]) < 1e-15);
  assert.ok(near(flux.T.wavelengths_m), String(flux.T.wavelengths_m));
  // A lossless SiO2 box (n ≈ 1.44): R + T = 1, R of a few per cent.
  for (let i = 0; i < 6; i++) {
    assert.ok(Math.abs(R[i] + T[i] - 1) < 0.005, `R + T = ${R[i] + T[i]}`);
    assert.ok(R[i] > 0.001 && R[i] < 0.2, `R ${R[i]}`);
  }
  assert.equal((flux.box.absorption_cross_section_m2 as number[]).length, 1);

  const redirect = await call(svc.baseUrl, "GET", `/v1/simulations/${id}/results`, { key });
  const file = await fetch(redirect.headers.get("location")!);
  const path = join(tempDir(), "flux.h5");
  writeFileSync(path, Buffer.from(await file.arrayBuffer()));
  const py = spawnSync(
    "/usr/bin/python3",
    [
      "-c",
      [
        "import h5py, json, sys",
        "f = h5py.File(sys.argv[1])",
        "t = f['monitors/T']",
        "b = f['monitors/box']",
        "import xarray",
        "ds = xarray.open_dataset(sys.argv[1], group='monitors/T', engine='h5netcdf')",
        "print(json.dumps({'type': t.attrs['type'], 'quantity': t.attrs['quantity'],",
        "  'flux': t['flux'][...].tolist(), 'wavelengths': t['wavelength'][...].tolist(),",
        "  'scale': t['flux'].dims[0][0].name, 'xarray': list(ds['flux'].dims),",
        "  'normal': t.attrs['normal'].tolist(), 'box': b.attrs['quantity'],",
        "  'sca': b['scattering_cross_section'].shape[0]}))",
      ].join("\n"),
      path,
    ],
    { encoding: "utf8" },
  );
  assert.equal(py.status, 0, py.stderr);
  const h5 = JSON.parse(py.stdout) as Record<string, unknown>;
  assert.equal(h5.type, "flux");
  assert.equal(h5.quantity, "transmittance");
  assert.deepEqual(h5.normal, [0, 0, 1]);
  assert.equal(h5.box, "box");
  assert.equal(h5.sca, 1);
  // The spectra hang on a wavelength dimension scale, as the field monitors' axes do.
  assert.equal(h5.scale, "/monitors/T/wavelength");
  assert.deepEqual(h5.xarray, ["wavelength"]);
  const fileFlux = h5.flux as number[];
  assert.ok(near(h5.wavelengths), String(h5.wavelengths));
  for (let i = 0; i < 6; i++) assert.ok(Math.abs(fileFlux[i] - T[i]) < 1e-5 * T[i]);

  // The CLI's and dashboard's reader still opens the file and lists every monitor.
  const info = await readResultInfo(path);
  assert.deepEqual(info.monitors.map((m) => m.name).sort(), ["R", "T", "box"]);

  // The spectra read back as the job record has them, and `emsim plot` draws them.
  const spectra = await readSpectra(path);
  assert.deepEqual(spectra.map((x) => x.quantity).sort(), ["box", "reflectance", "transmittance"]);
  const t = spectra.find((x) => x.name === "T")!;
  for (let i = 0; i < 6; i++) assert.ok(Math.abs(t.flux[i] - T[i]) < 1e-5 * T[i]);
  const out = join(tempDir(), "spectra.png");
  const captured = { stdout: "", stderr: "" };
  const code = await runPlot([path, "--spectrum", "--out", out], {
    ...defaultIo(),
    stdout: { write: (text: string) => ((captured.stdout += text), true) },
    stderr: { write: (text: string) => ((captured.stderr += text), true) },
  } as CommandIo);
  assert.equal(code, 0, captured.stderr);
  const png = decodePng(readFileSync(out));
  // Curves in the order of the planes (blue, then orange): the transmittance's near 1, above
  // the reflectance's near 0.
  const rows = (rgb: number) => {
    const ys: number[] = [];
    for (let y = 0; y < png.height; y++) {
      for (let x = Math.floor(png.width / 4); x < Math.floor((3 * png.width) / 4); x++) {
        const i = (y * png.width + x) * 3;
        if (((png.rgb[i]! << 16) | (png.rgb[i + 1]! << 8) | png.rgb[i + 2]!) === rgb) ys.push(y);
      }
    }
    return ys.reduce((a, b) => a + b, 0) / ys.length;
  };
  const planes = spectra.filter((x) => x.quantity !== "box").map((x) => x.name);
  const y = {
    [planes[0]!]: rows((31 << 16) | (95 << 8) | 168),
    [planes[1]!]: rows((204 << 16) | (85 << 8) | 0),
  };
  assert.ok(y.T! < y.R!, `T's curve (y ${y.T}) above R's (y ${y.R})`);

  // `emsim inspect` names them flux monitors and prints each spectrum, as text and as JSON.
  const inspect = async (args: string[]) => {
    const io = { stdout: "", stderr: "" };
    const status = await runInspect([path, ...args], {
      ...defaultIo(),
      stdout: { write: (text: string) => ((io.stdout += text), true) },
      stderr: { write: (text: string) => ((io.stderr += text), true) },
    } as CommandIo);
    assert.equal(status, 0, io.stderr);
    return io.stdout;
  };
  const text = await inspect([]);
  assert.match(text, /^T +flux \(transmittance\) /m);
  assert.match(text, /^box +flux \(box\) /m);
  const tTable = text.split("Flux monitor 'T' (transmittance)\n")[1]!.split("\n");
  assert.match(tTable[0]!, /^λ \(µm\) +transmittance$/);
  // Five decimals of the file's value: the record's to within the last one's rounding (the record
  // keeps 6 significant digits, the file all: 0.955925 and 0.9559248 round apart).
  const printed = tTable.slice(1, 7).map((line) => line.split(/ +/).map(Number));
  assert.deepEqual(
    printed.map(([w]) => w),
    expected.map((w) => Number((w * 1e6).toPrecision(4))),
  );
  printed.forEach(([, t], i) => assert.ok(Math.abs(t! - T[i]!) <= 6e-6, `${t} vs ${T[i]}`));
  const json = JSON.parse(await inspect(["--json"])) as {
    monitors: { name: string; kind: string; flux?: number[] }[];
  };
  const tJson = json.monitors.find((m) => m.name === "T")!;
  assert.equal(tJson.kind, "flux (transmittance)");
  for (let i = 0; i < 6; i++) assert.ok(Math.abs(tJson.flux![i]! - T[i]) < 1e-5 * T[i]);
});

test("bad flux monitors and bands are refused with field errors", async () => {
  const cases: [unknown[], string, RegExp][] = [
    [[{ ...plane("line", 0), size: [0, 0, 1e-6] }], "monitors[0].size", /plane .* or a box/],
    [
      [plane("wide", 0, { start: 0.9e-6, stop: 1.8e-6, points: 10 })],
      "monitors[0].wavelengths.start",
      /outside the source pulse's band/,
    ],
    [
      [plane("many", 0, { start: 1.4e-6, stop: 1.7e-6, points: 201 })],
      "monitors[0].wavelengths.points",
      /200/,
    ],
    [
      [plane("flat", 0, { start: 1.4e-6, stop: 1.4e-6, points: 3 })],
      "monitors[0].wavelengths.stop",
      /differ/,
    ],
    [
      [{ ...plane("comp", 0), components: ["Ex"] }],
      "monitors[0].components",
      /not an allowed field/,
    ],
  ];
  for (const [monitors, path, message] of cases) {
    const res = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
      key,
      body: fluxJob(monitors),
    });
    assert.equal(res.status, 422, res.text);
    const errors = res.body.errors as { path: string; message: string }[];
    const hit = errors.find((e) => e.path.startsWith(path));
    assert.ok(hit, `${path}: ${JSON.stringify(errors)}`);
    assert.match(hit.message, message);
  }
  // A field monitor may record at most 64 wavelengths even as a range.
  const field = {
    name: "f",
    monitor_type: "field",
    center: [0, 0, 0],
    size: [0, 0, 0],
    wavelengths: { start: 1.4e-6, stop: 1.7e-6, points: 65 },
  };
  const res = await call(svc.baseUrl, "POST", "/v1/simulations/estimate", {
    key,
    body: fluxJob([field]),
  });
  assert.equal(res.status, 422, res.text);
  assert.match(res.text, /64/);
});
