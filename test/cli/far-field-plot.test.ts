/**
 * `emsim plot --far-field` as a process on a real result file (the service's own writer) whose
 * pattern is known in closed form: U(θ, φ) = U₀·sin²θ·(1 + cos²φ)/2, so the φ = 0° cut is the
 * dipole's sin²θ at the peak and the φ = 90° cut half of it. The PNG is read back with the tests'
 * own decoder and every pixel of each curve must lie where sin²θ puts it (within 2.5 pixels of
 * the analytic polar curve, on both halves of the cut), the linear and the dB scales alike. The
 * options' mistakes and a file without far-field monitors get their messages and exit codes.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeResultFile } from "../../src/results/hdf5.js";
import type { FarFieldMonitorResult, SolverResult } from "../../src/solver/types.js";
import { decodePng, runCli } from "./helpers.js";
import { checkCurve, curvePixels, deg, FIRST, SECOND } from "./polar-curve.js";

/** U₀ in W/sr: a 1 A·m dipole's peak at 1 µm is of this order. */
const U0 = 4.7e13;
const INK: [number, number, number] = [30, 34, 42];

let dir: string;
let withPattern: string;
let without: string;

const range = (n: number, step: number) => Array.from({ length: n }, (_, i) => i * step);

/** The pattern at 0.9 µm (twice as strong) and at 1 µm, θ every 5°, φ every 5°. */
function farField(): FarFieldMonitorResult {
  const [thetaDeg, phiDeg, wavelengthsM] = [range(37, 5), range(72, 5), [0.9e-6, 1e-6]];
  const u = new Float64Array(wavelengthsM.length * thetaDeg.length * phiDeg.length);
  let o = 0;
  for (const scale of [2, 1]) {
    for (const t of thetaDeg) {
      for (const p of phiDeg)
        u[o++] = (scale * U0 * Math.sin(deg(t)) ** 2 * (1 + Math.cos(deg(p)) ** 2)) / 2;
    }
  }
  return {
    name: "pattern",
    center: [0, 0, 0],
    size: [5e-7, 5e-7, 5e-7],
    crossSectionAxis: null,
    wavelengthsM,
    frequenciesHz: wavelengthsM.map((w) => 299792458 / w),
    thetaDeg,
    phiDeg,
    backgroundEps: wavelengthsM.map(() => 1),
    radiantIntensity: u,
    eTheta: new Float64Array(2 * u.length),
    ePhi: new Float64Array(2 * u.length),
  };
}

function result(farFieldMonitors: FarFieldMonitorResult[]): SolverResult {
  const axis = Float64Array.from([0, 5e-8]);
  return {
    grid: { x: axis, y: axis, z: axis, dtSeconds: 1e-17 },
    monitors: [],
    fluxMonitors: [],
    farFieldMonitors,
    materials: [],
    report: {
      stepsRun: 10,
      timeStepsLimit: 10,
      converged: true,
      convergedAtStep: 10,
      lastRelativeChange: 0,
      cells: 8,
      grid: [2, 2, 2],
      dtSeconds: 1e-17,
      gridStepM: 5e-8,
      minGridStepM: 5e-8,
      wallSeconds: 0.1,
      mcellsPerSecond: 1,
      kernel: "reference",
      adapter: null,
      threads: 1,
      setupSeconds: 0.05,
      steppingSeconds: 0.05,
      setup: {
        gridSeconds: 0.01,
        paintingSeconds: 0.01,
        fieldsSeconds: 0.01,
        compileSeconds: 0.01,
        threadStartSeconds: 0.01,
      },
      stepping: {
        kernelSeconds: 0.03,
        sourceSeconds: 0.005,
        monitorSeconds: 0.005,
        checksSeconds: 0.005,
        yieldSeconds: 0.0025,
        otherSeconds: 0.0025,
      },
      machine: { cores: 2, cpu: "test", memoryBytes: 2 ** 30 },
      stepsPerSweep: 1,
      notes: [],
    },
  };
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "emsim-far-field-"));
  const specJson = JSON.stringify({ source: { source_type: "point_dipole", wavelength: 1e-6 } });
  withPattern = join(dir, "pattern.h5");
  without = join(dir, "none.h5");
  await writeResultFile(withPattern, {
    jobId: "job-ff",
    solverVersion: "test",
    specJson,
    result: result([farField()]),
  });
  await writeResultFile(without, {
    jobId: "job-0",
    solverVersion: "test",
    specJson,
    result: result([]),
  });
});

after(() => rmSync(dir, { recursive: true, force: true }));

test("the pattern's cuts lie where sin²θ puts them; the peak touches the outer ring", async () => {
  const out = join(dir, "pattern.png");
  // A file whose only monitor is a far-field monitor draws it without --far-field.
  const run = await runCli(["plot", withPattern, "--out", out]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, `${out}\n`);
  assert.match(
    run.stderr,
    /plotted the far field of 'pattern' at 1 µm: φ = 0°, 90° \(peak 4\.70e\+13 W\/sr\)/,
  );
  const image = decodePng(readFileSync(out));
  const sin2 = (t: number) => Math.sin(deg(t)) ** 2;
  // The first cut is drawn 4 pixels wide, the second 2 over it.
  const { cx, cy, radius } = checkCurve(curvePixels(image, FIRST), sin2, "φ = 0° cut", {
    lineWidth: 4,
  });
  const second = checkCurve(curvePixels(image, SECOND), (t) => sin2(t) / 2, "φ = 90° cut");
  assert.ok(Math.abs(second.radius - radius) < 1.5, `radii ${radius} and ${second.radius}`);
  assert.ok(Math.hypot(second.cx - cx, second.cy - cy) < 1.5, "the cuts share a centre");
  // Normalised to the peak: the ring at 1 (ink) lies where the φ = 0° cut reaches at 90°; look
  // at 45° between the spokes.
  const ring = Array.from({ length: 17 }, (_, k) => {
    const along = (radius + (k - 8) / 2) * Math.SQRT1_2;
    return [Math.round(cx - 0.5 + along), Math.round(cy - 0.5 - along)];
  });
  const onRing = ring.some(([x, y]) => {
    const i = (y! * image.width + x!) * 3;
    return INK.every((v, c) => image.rgb[i + c] === v);
  });
  assert.ok(onRing, `no ring at radius ${radius} about (${cx}, ${cy})`);
  assert.equal(image.text.Title, "far field of pattern");
});

test("--wavelength, --phi and --db: one cut in dB at the other wavelength", async () => {
  const out = join(dir, "db.png");
  const run = await runCli([
    "plot",
    withPattern,
    "--far-field",
    "--wavelength",
    "900nm",
    "--phi",
    "90",
    "--db",
    "--out",
    out,
    "--json",
  ]);
  assert.equal(run.code, 0, run.stderr);
  const info = JSON.parse(run.stdout) as Record<string, unknown>;
  assert.equal(info.monitor, "pattern");
  assert.equal(info.wavelength_m, 0.9e-6);
  assert.equal(info.scale, "db");
  assert.ok(Math.abs((info.peak_w_per_sr as number) / (2 * U0) - 1) < 1e-9);
  assert.deepEqual(info.cuts, [{ phi_deg: 90, opposite_phi_deg: 270 }]);
  const image = decodePng(readFileSync(out));
  // Half the peak in this cut: 10·log10(sin²θ / 2) dB, the centre 30 dB below the peak.
  const db = (t: number) => Math.max(0, 1 + (10 * Math.log10(Math.sin(deg(t)) ** 2 / 2)) / 30);
  checkCurve(curvePixels(image, FIRST), db, "φ = 90° cut in dB");
  assert.equal(curvePixels(image, SECOND).length, 0, "one cut only");
});

test("mistakes: no far-field monitor, an azimuth or wavelength not recorded, a wrong name", async () => {
  const png = join(dir, "x.png");
  const [none, phi, badPhi, lambda, name, both] = await Promise.all([
    runCli(["plot", without, "--far-field", "--out", png]),
    runCli(["plot", withPattern, "--phi", "47", "--out", png]),
    runCli(["plot", withPattern, "--phi", "east", "--out", png]),
    runCli(["plot", withPattern, "--far-field", "--wavelength", "1.3um"]),
    runCli(["plot", withPattern, "--far-field", "--monitor", "other"]),
    runCli(["plot", withPattern, "--far-field", "--spectrum"]),
  ]);
  assert.equal(none.code, 1, none.stderr);
  assert.match(none.stderr, /none\.h5 has no far-field monitor \(see 'emsim inspect /);
  assert.equal(phi.code, 2, phi.stderr);
  assert.match(
    phi.stderr,
    /monitor 'pattern' did not record φ = 47°; it has 0°, 5°, 10°, …, 355° \(72 azimuths\)/,
  );
  assert.equal(badPhi.code, 2, badPhi.stderr);
  assert.match(badPhi.stderr, /--phi: cannot read 'east'/);
  assert.equal(lambda.code, 2, lambda.stderr);
  assert.match(lambda.stderr, /monitor 'pattern' did not record 1\.3 µm; it has 0\.9 µm, 1 µm/);
  assert.equal(name.code, 2, name.stderr);
  assert.match(name.stderr, /no far-field monitor 'other' in .*; it has pattern/);
  assert.equal(both.code, 2, both.stderr);
  assert.match(both.stderr, /--spectrum and --far-field/);
});

test("a 2-D cross-section's pattern in the x–y plane is drawn whole against φ, in W/rad", async () => {
  // U(φ) = U₀·(3 + sin²φ)/4 at θ = 90° alone; on the screen φ = 90° points up, so the curve
  // is r(t) = (3 + cos²t)/4 with t from up, as checkCurve reads it.
  const phiDeg = range(72, 5);
  const u = Float64Array.from(phiDeg, (p) => (U0 * (3 + Math.sin(deg(p)) ** 2)) / 4);
  const line: FarFieldMonitorResult = {
    ...farField(),
    name: "line",
    crossSectionAxis: 2,
    wavelengthsM: [1e-6],
    frequenciesHz: [299792458 / 1e-6],
    thetaDeg: [90],
    phiDeg,
    radiantIntensity: u,
    eTheta: new Float64Array(2 * u.length),
    ePhi: new Float64Array(2 * u.length),
  };
  const file = join(dir, "line.h5");
  const specJson = JSON.stringify({ source: { source_type: "point_dipole", wavelength: 1e-6 } });
  await writeResultFile(file, {
    jobId: "job-2d",
    solverVersion: "test",
    specJson,
    result: result([line]),
  });
  const out = join(dir, "line.png");
  const run = await runCli(["plot", file, "--out", out]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /plotted the far field of 'line' at 1 µm: the x–y plane \(θ = 90°\) \(peak 4\.70e\+13 W\/rad\)/,
  );
  const image = decodePng(readFileSync(out));
  checkCurve(curvePixels(image, FIRST), (t) => (3 + Math.cos(deg(t)) ** 2) / 4, "x–y plane");
  const json = await runCli(["plot", file, "--out", out, "--json"]);
  const info = JSON.parse(json.stdout) as Record<string, unknown>;
  assert.ok(Math.abs((info.peak_w_per_rad as number) / U0 - 1) < 1e-9, json.stdout);
  assert.deepEqual(info.cuts, []);
  const phi = await runCli(["plot", file, "--phi", "0", "--out", out]);
  assert.equal(phi.code, 2, phi.stderr);
  assert.match(phi.stderr, /recorded the x–y plane alone \(θ = 90°\), drawn whole against φ/);
});
