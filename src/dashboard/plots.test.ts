/**
 * Plot payloads from a real HDF5 result file (written by the service's own writer, with
 * fields known in closed form): monitor summaries, downsampling of large monitors, the 16-bit
 * encoding's accuracy, |E| from the recorded components, lines and volume slices.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DashboardError } from "./context.js";
import { OUTLINE_MAX_VERTICES, PLOT_MAX_SAMPLES, PlotService, type FieldPayload } from "./plots.js";
import { writeResultFile } from "../results/hdf5.js";
import { planAxisNodes } from "../solver/grid.js";
import type { MonitorResult, SolverResult } from "../solver/types.js";
import { LocalFileStorage } from "../storage/local.js";

const STEP = 20e-9;
/** A 400 nm square, clockwise (the summary sends it counter-clockwise, as the solver has it). */
const SQUARE = [
  [-2e-7, -2e-7],
  [-2e-7, 2e-7],
  [2e-7, 2e-7],
  [2e-7, -2e-7],
];

function circle(n: number): number[][] {
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    return [3e-7 * Math.cos(a), 3e-7 * Math.sin(a)];
  });
}
let dir: string;
let plots: PlotService;
const KEY = "results/test.h5";
const GRADED_KEY = "results/graded.h5";

/**
 * Cell centres along x of a graded grid as the solver plans it: 20 nm steps across ±3 µm, 4 nm
 * over ±0.5 µm, growing by up to 1.2× between: more samples than the dashboard sends.
 */
const GRADED_X = (() => {
  const nodes = planAxisNodes(-3e-6, 3e-6, STEP, [{ loM: -0.5e-6, hiM: 0.5e-6, stepM: 4e-9 }], 1.2);
  return Float64Array.from({ length: nodes.length - 1 }, (_, i) => (nodes[i]! + nodes[i + 1]!) / 2);
})();

function axis(n: number, start = 0): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => start + i * STEP);
}

/**
 * A monitor whose components are given as functions of (x, y, z) → [re, im]; `graded` gives an
 * axis its own coordinates instead of samples STEP apart.
 */
function monitor(
  name: string,
  [nx, ny, nz]: [number, number, number],
  fields: Partial<Record<string, (x: number, y: number, z: number) => [number, number]>>,
  wavelengthsM = [1.55e-6],
  graded: { x?: Float64Array } = {},
): MonitorResult {
  const x = graded.x ?? axis(nx, -((nx - 1) * STEP) / 2);
  const y = axis(ny);
  const z = axis(nz, -1e-6);
  const data: MonitorResult["data"] = {};
  for (const [component, f] of Object.entries(fields)) {
    const out = new Float32Array(2 * wavelengthsM.length * nx * ny * nz);
    let o = 0;
    for (let w = 0; w < wavelengthsM.length; w++) {
      for (let i = 0; i < nx; i++) {
        for (let j = 0; j < ny; j++) {
          for (let k = 0; k < nz; k++) {
            const [re, im] = f!(x[i]!, y[j]!, z[k]!);
            out[o++] = re * (w + 1);
            out[o++] = im * (w + 1);
          }
        }
      }
    }
    data[component as keyof MonitorResult["data"]] = out;
  }
  return {
    name,
    center: [0, 0, 0],
    size: [nx > 1 ? x[nx - 1]! - x[0]! : 0, ny > 1 ? (ny - 1) * STEP : 0, (nz - 1) * STEP],
    wavelengthsM,
    frequenciesHz: wavelengthsM.map((w) => 299792458 / w),
    x,
    y,
    z,
    shape: [wavelengthsM.length, nx, ny, nz],
    data,
  };
}

const k = (2 * Math.PI) / 1.55e-6;
const ex = (x: number, _y: number, z: number): [number, number] => [
  Math.cos(k * z) * (1 + x * 1e5),
  Math.sin(k * z),
];
const ey = (_x: number, _y: number, z: number): [number, number] => [0.5 * Math.cos(k * z), 0];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "emsim-plots-"));
  const storage = new LocalFileStorage(dir, "http://127.0.0.1/storage", "secret");
  const monitors = [
    monitor("wide", [700, 1, 5], { Ex: ex, Ey: ey }, [1.5e-6, 1.55e-6]),
    monitor("line", [1, 1, 50], { Ey: ey }),
    monitor("cube", [4, 6, 8], { Ez: ex, Hx: ey }),
  ];
  const result: SolverResult = {
    grid: { x: axis(3), y: axis(3), z: axis(3), dtSeconds: 1e-17 },
    monitors,
    fluxMonitors: [],
    farFieldMonitors: [],
    materials: [],
    report: {
      stepsRun: 10,
      timeStepsLimit: 10,
      converged: true,
      convergedAtStep: 10,
      lastRelativeChange: 0,
      cells: 27,
      grid: [3, 3, 3],
      dtSeconds: 1e-17,
      gridStepM: STEP,
      minGridStepM: STEP,
      wallSeconds: 0.1,
      mcellsPerSecond: 1,
      kernel: "reference",
      adapter: null,
      threads: 1,
      setupSeconds: 0.05,
      steppingSeconds: 0.05,
      machine: { cores: 2, cpu: "test", memoryBytes: 2 ** 30 },
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
      stepsPerSweep: 1,
      notes: [],
    },
  };
  const request = {
    structures: [
      { type: "box", center: [0, 0, 0], size: [1e-7, 1e-7, 1e-7], material: "Si" },
      {
        type: "polyslab",
        vertices: SQUARE,
        z_min: -1e-7,
        z_max: 1e-7,
        sidewall_angle_deg: 10,
        material: "SiO2",
      },
      // Two more of many vertices each: the second one's rings pass OUTLINE_MAX_VERTICES.
      ...[0, 1].map(() => ({
        type: "polyslab",
        vertices: circle(12_000),
        z_min: 0,
        z_max: 1e-7,
        material: "Si",
      })),
    ],
    source: { wavelength: 1.55e-6 },
    domain: { size: [1e-6, 1e-6, 2e-6] },
    // The request's order, which the file (alphabetical) does not keep.
    monitors: [{ name: "wide" }, { name: "line" }, { name: "cube" }],
  };
  mkdirSync(dirname(storage.pathOf(KEY)), { recursive: true });
  await writeResultFile(storage.pathOf(KEY), {
    jobId: "job-1",
    solverVersion: "test",
    specJson: JSON.stringify(request),
    result,
  });
  // A graded grid's monitor (mesh overrides), in a file of its own.
  await writeResultFile(storage.pathOf(GRADED_KEY), {
    jobId: "job-2",
    solverVersion: "test",
    specJson: JSON.stringify({ ...request, monitors: [{ name: "graded" }] }),
    result: {
      ...result,
      monitors: [
        monitor("graded", [GRADED_X.length, 1, 5], { Ex: ex }, [1.55e-6], { x: GRADED_X }),
      ],
    },
  });
  plots = new PlotService(storage);
});

after(() => rmSync(dir, { recursive: true, force: true }));

function decode(b64: string, scale: number): number[] {
  const buf = Buffer.from(b64, "base64");
  return Array.from({ length: buf.length / 2 }, (_, i) => buf.readInt16LE(2 * i) * scale);
}

test("the summary lists monitors in request order with what each can show", async () => {
  const summary = await plots.summary("job-1", KEY);
  assert.deepEqual(
    summary.monitors.map((m) => [m.name, m.kind, m.axes.join("")]),
    [
      ["wide", "plane", "xz"],
      ["line", "line", "z"],
      ["cube", "volume", "xyz"],
    ],
  );
  assert.deepEqual(summary.monitors[0]!.quantities, ["E", "Ex", "Ey"]);
  assert.deepEqual(summary.monitors[2]!.quantities, ["E", "H", "Ez", "Hx"]);
  assert.deepEqual(summary.monitors[2]!.slice?.axis, "x");
  assert.equal(summary.monitors[2]!.slice?.count, 4);
  assert.equal(summary.source_wavelength_m, 1.55e-6);
  assert.equal(summary.structures[0]!.material, "Si");
});

test("a polyslab's outline comes with its rings at both ends, the sidewall applied", async () => {
  const summary = await plots.summary("job-1", KEY);
  const slab = summary.structures[1]!;
  assert.equal(slab.type, "polyslab");
  assert.equal(slab.material, "SiO2");
  assert.deepEqual([slab.z_min_m, slab.z_max_m], [-1e-7, 1e-7]);
  // Walls 10° from vertical over 200 nm: each side moves in by 200 nm · tan 10°, so each
  // corner moves that much along both axes.
  const d = 2e-7 * Math.tan((10 * Math.PI) / 180);
  const { bottom, top } = slab.rings_m!;
  assert.equal(bottom.length, 1);
  assert.equal(bottom[0]!.length, 4);
  const twiceArea = (ring: [number, number][]) =>
    ring.reduce((sum, [x, y], i) => {
      const [nx, ny] = ring[(i + 1) % ring.length]!;
      return sum + x * ny - nx * y;
    }, 0);
  assert.ok(twiceArea(bottom[0]!) > 0, "counter-clockwise");
  bottom[0]!.forEach(([x, y], i) => {
    const [tx, ty] = top[0]![i]!;
    assert.ok(Math.abs(tx - (x - Math.sign(x) * d)) < 1e-18, `${tx} vs ${x}`);
    assert.ok(Math.abs(ty - (y - Math.sign(y) * d)) < 1e-18, `${ty} vs ${y}`);
  });
  // 4 + 12 000 vertices fit; the third polyslab's would pass the limit: outlined no more.
  assert.ok(4 + 12_000 <= OUTLINE_MAX_VERTICES && 4 + 24_000 > OUTLINE_MAX_VERTICES);
  assert.equal(summary.structures[2]!.rings_m?.bottom[0]!.length, 12_000);
  assert.equal(summary.structures[3]!.rings_m, undefined);
  assert.equal(summary.structures[3]!.z_max_m, 1e-7);
});

test("a large monitor is downsampled on the server, and 16-bit samples keep the values", async () => {
  const field: FieldPayload = await plots.field("job-1", KEY, {
    monitor: "wide",
    quantity: "Ex",
    wavelengthIndex: 1,
    sliceIndex: null,
  });
  assert.deepEqual(field.axes, ["x", "z"]);
  assert.deepEqual(field.full_shape, [700, 5]);
  assert.ok(field.shape[0]! <= PLOT_MAX_SAMPLES && field.shape[0]! >= PLOT_MAX_SAMPLES / 2);
  assert.equal(field.coords_um[0]!.length, field.shape[0]);
  const re = decode(field.re!, field.scale);
  const im = decode(field.im!, field.scale);
  assert.equal(re.length, field.shape[0]! * field.shape[1]!);
  const tolerance = field.max_abs / 32767 + 1e-6 * field.max_abs;
  for (let a = 0; a < field.shape[0]!; a += 37) {
    for (let b = 0; b < field.shape[1]!; b++) {
      const [eRe, eIm] = ex(field.coords_um[0]![a]! * 1e-6, 0, field.coords_um[1]![b]! * 1e-6);
      // Wavelength index 1 was written with a factor 2.
      assert.ok(Math.abs(re[a * field.shape[1]! + b]! - 2 * eRe) <= tolerance);
      assert.ok(Math.abs(im[a * field.shape[1]! + b]! - 2 * eIm) <= tolerance);
    }
  }
  assert.equal(field.wavelength_m, 1.55e-6);
  assert.ok(JSON.stringify(field).length < 200_000, "compact");
});

test("|E| combines the recorded E components", async () => {
  const field = await plots.field("job-1", KEY, {
    monitor: "wide",
    quantity: "E",
    wavelengthIndex: 0,
    sliceIndex: null,
  });
  assert.deepEqual(field.from_components, ["Ex", "Ey"]);
  assert.equal(field.re, undefined);
  const abs = decode(field.abs!, field.scale);
  const [a, b] = [100, 3];
  const x = field.coords_um[0]![a]! * 1e-6;
  const z = field.coords_um[1]![b]! * 1e-6;
  const [r1, i1] = ex(x, 0, z);
  const [r2, i2] = ey(x, 0, z);
  const expected = Math.hypot(r1, i1, r2, i2);
  assert.ok(Math.abs(abs[a * field.shape[1]! + b]! - expected) <= field.max_abs / 32767 + 1e-6);
  assert.ok(abs.every((v) => v >= 0));
});

test("a line monitor is one axis; a volume is cut at the chosen slice", async () => {
  const line = await plots.field("job-1", KEY, {
    monitor: "line",
    quantity: "Ey",
    wavelengthIndex: 0,
    sliceIndex: null,
  });
  assert.equal(line.kind, "line");
  assert.deepEqual(line.axes, ["z"]);
  assert.deepEqual(line.shape, [50]);
  assert.equal(decode(line.re!, line.scale).length, 50);

  const cut = await plots.field("job-1", KEY, {
    monitor: "cube",
    quantity: "H",
    wavelengthIndex: 0,
    sliceIndex: 3,
  });
  assert.equal(cut.kind, "volume");
  assert.deepEqual(cut.axes, ["y", "z"]);
  assert.deepEqual(cut.slice && [cut.slice.axis, cut.slice.index, cut.slice.count], ["x", 3, 4]);
  assert.deepEqual(cut.from_components, ["Hx"]);
});

test("a graded monitor's samples keep their own coordinates, downsampled too", async () => {
  assert.ok(GRADED_X.length > PLOT_MAX_SAMPLES, `${GRADED_X.length} samples`);
  const summary = await plots.summary("job-2", GRADED_KEY);
  assert.deepEqual(summary.monitors[0]!.shape, [GRADED_X.length, 1, 5]);
  const field = await plots.field("job-2", GRADED_KEY, {
    monitor: "graded",
    quantity: "Ex",
    wavelengthIndex: 0,
    sliceIndex: null,
  });
  assert.deepEqual(field.full_shape, [GRADED_X.length, 5]);
  // Every second sample (the stride that fits), each at the file's own coordinate: 8 nm apart
  // in the override, 40 nm apart outside it, never spread evenly.
  const stride = Math.ceil(GRADED_X.length / PLOT_MAX_SAMPLES);
  const xs = field.coords_um[0]!;
  assert.equal(xs.length, Math.ceil(GRADED_X.length / stride));
  xs.forEach((x, a) => assert.equal(x, Math.round(GRADED_X[a * stride]! * 1e12) / 1e6));
  const steps = xs.slice(1).map((x, a) => x - xs[a]!);
  assert.ok(
    Math.abs(Math.min(...steps) - 0.008) < 1e-6 && Math.max(...steps) > 0.039,
    `steps from ${Math.min(...steps)} to ${Math.max(...steps)} µm`,
  );
  const re = decode(field.re!, field.scale);
  const nv = field.shape[1]!;
  const tolerance = field.max_abs / 32767 + 1e-6 * field.max_abs;
  xs.forEach((x, a) => {
    const [eRe] = ex(x * 1e-6, 0, field.coords_um[1]![2]! * 1e-6);
    assert.ok(Math.abs(re[a * nv + 2]! - eRe) <= tolerance, `sample ${a} at x = ${x} µm`);
  });
});

test("unknown monitors, quantities and wavelengths are 404s", async () => {
  const attempts = [
    { monitor: "nope", quantity: "E", wavelengthIndex: 0, sliceIndex: null },
    { monitor: "line", quantity: "Hz", wavelengthIndex: 0, sliceIndex: null },
    { monitor: "line", quantity: "Ey", wavelengthIndex: 3, sliceIndex: null },
  ];
  for (const request of attempts) {
    await assert.rejects(
      plots.field("job-1", KEY, request),
      (err: unknown) => err instanceof DashboardError && err.statusCode === 404,
    );
  }
});

test("results from other storage are copied into a folder of this process's own", async () => {
  // The storage of an S3 deployment: objects only read, no local path.
  const local = new LocalFileStorage(dir, "http://127.0.0.1/storage", "secret");
  const remote = { read: (key: string) => local.read(key) } as unknown as LocalFileStorage;
  const [one, two] = [new PlotService(remote), new PlotService(remote)];
  const summary = await one.summary("job-1", KEY);
  assert.deepEqual(summary, await plots.summary("job-1", KEY), "the same file, read from its copy");
  const [a, b] = [await one.copiesDir(), await two.copiesDir()];
  assert.notEqual(a, b, "no folder shared with another process");
  assert.equal(statSync(a).mode & 0o777, 0o700);
  assert.equal(readdirSync(a).length, 1);
  for (const d of [a, b]) rmSync(d, { recursive: true, force: true });
});
