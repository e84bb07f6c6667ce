/**
 * The batch result file from real result files: tiny simulations run here, each written by the
 * job's own writer, then stacked.
 *
 * - A product sweep of a slab (thickness × material): each variant's transmittance, incident
 *   intensity and field line in the batch file are its job's to the last bit, at the variant's
 *   place in row-major order; the variant given as failed is NaN and /jobs says why.
 * - A zip (thickness, with a monitor's span and the source wavelength along it): the others
 *   are coordinates along `thickness`; the monitor whose sample count follows the span is left
 *   out and named; wavelengths that differ between variants become a coordinate over
 *   (thickness, wavelength_index), a single one a coordinate along thickness.
 * - A ports sweep of a waveguide's width: S(width, port_out, port_in, wavelength) and the mode
 *   monitor's amplitudes equal the jobs' own.
 * - A far-field pattern over a boolean parameter (results written by the job writer from a
 *   made-up pattern: a far-field box needs a 3-D run), and the refusals.
 * - h5py, xarray (engine h5netcdf) and emsim.load read them with the sweep's dimensions named
 *   (clients/python/tests/test_batch.py, run here with the files this test writes).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import h5wasm, { type Dataset, type Group } from "h5wasm/node";
import { applyDefaults } from "../schema/validate.js";
import type { SimulationRequest } from "../schema/simulation.js";
import { runSimulation } from "../solver/index.js";
import type { FarFieldMonitorResult, SolverResult } from "../solver/types.js";
import {
  BATCH_RESULT_FORMAT,
  BatchMergeError,
  writeBatchResultFile,
  type BatchResultInput,
  type BatchSweep,
  type BatchVariantResult,
} from "./batch-merge.js";
import { ResultFileError, writeResultFile } from "./hdf5.js";

const PYTHON = "/usr/bin/python3";
const CLIENT = resolve(import.meta.dirname, "../../clients/python");

let dir: string;
/** Each fixture: the batch file, and per variant its job's file (null: did not complete). */
const batches: Record<string, { path: string; jobs: (string | null)[] }> = {};

const THICKNESS = [0.2e-6, 0.3e-6, 0.4e-6];
let productInput: BatchResultInput;
const MATERIAL = ["SiO2", "Si"];

/** A 1-D slab in a periodic column lit by a plane wave along z (runs in a fraction of a second). */
function slab(o: { thickness: number; material: string; wavelength?: number; span?: number }) {
  const monitors: unknown[] = [
    {
      name: "T",
      monitor_type: "flux",
      center: [0, 0, 1.2e-6],
      size: [0.05e-6, 0.05e-6, 0],
      // Without wavelengths, a flux monitor records the source's.
      ...(o.span ? {} : { wavelengths: { start: 1.3e-6, stop: 1.8e-6, points: 4 } }),
    },
    { name: "line", monitor_type: "field", center: [0, 0, -1e-6], size: [0, 0, 0.5e-6] },
  ];
  if (o.span) {
    monitors.push({
      name: "inside",
      monitor_type: "field",
      center: [0, 0, 0],
      size: [0, 0, o.span],
      components: ["Ex"],
    });
  }
  return {
    solver: "fdtd",
    domain: {
      size: [0.05e-6, 0.05e-6, 3e-6],
      resolution: 0.05e-6,
      boundary_conditions: ["periodic", "periodic", "pml"],
      pml_layers: 12,
    },
    source: {
      source_type: "plane_wave",
      wavelength: o.wavelength ?? 1.55e-6,
      direction: [0, 0, 1],
    },
    structures: [
      { type: "box", center: [0, 0, 0], size: [1, 1, o.thickness], material: o.material },
    ],
    monitors,
    fdtd_settings: { time_steps: 20000, check_every_n: 200, convergence_threshold: 1e-5 },
  };
}

/**
 * A straight slab waveguide (ε 4 in ε 2.1025) of core width `width` between ports o1 and o2,
 * o1 run only (o2's column stays NaN, as in the job's file), with a mode monitor (two runs'
 * worth of the service test's job: about two seconds).
 */
function waveguide(width: number) {
  const port = (name: string, z: number, direction: string) => ({
    name,
    center: [0, 0, z],
    size: [3e-6, 0.025e-6, 0],
    direction,
  });
  return {
    solver: "fdtd",
    domain: {
      size: [3.6e-6, 0.025e-6, 4e-6],
      resolution: 0.025e-6,
      boundary_conditions: ["pml", "periodic", "pml"],
    },
    materials: { core: { permittivity: 4 }, clad: { permittivity: 2.1025 } },
    source: {
      source_type: "ports",
      wavelength: 1.55e-6,
      wavelengths: { start: 1.5e-6, stop: 1.6e-6, points: 3 },
      run_ports: ["o1"],
    },
    ports: [port("o1", -1.4e-6, "+z"), port("o2", 1.4e-6, "-z")],
    structures: [
      { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "clad" },
      { type: "box", center: [0, 0, 0], size: [width, 10, 10], material: "core" },
    ],
    monitors: [
      {
        name: "mid",
        monitor_type: "mode",
        center: [0, 0, 0],
        size: [3e-6, 0.025e-6, 0],
        mode_spec: { num_modes: 2 },
      },
    ],
    fdtd_settings: { convergence_threshold: 1e-6, check_every_n: 500 },
  };
}

/** Runs a request as a job would and writes its result file; returns the file's path. */
async function runJob(jobId: string, request: unknown): Promise<string> {
  const spec = applyDefaults(request as SimulationRequest);
  const result = await runSimulation(spec);
  const path = join(dir, `${jobId}.h5`);
  await writeResultFile(path, {
    jobId,
    solverVersion: "test",
    specJson: JSON.stringify(spec),
    result,
  });
  return path;
}

const completed = (jobId: string, result: string | Uint8Array): BatchVariantResult => ({
  jobId,
  status: "COMPLETED",
  result,
});

async function productFixture(): Promise<void> {
  const variants: BatchVariantResult[] = [];
  const jobs: (string | null)[] = [];
  for (const thickness of THICKNESS) {
    for (const material of MATERIAL) {
      const jobId = `slab-${variants.length}`;
      if (variants.length === 3) {
        variants.push({ jobId, status: "FAILED", errorDetail: "the fields diverged" });
        jobs.push(null);
        continue;
      }
      const path = await runJob(jobId, slab({ thickness, material }));
      // The first given as bytes, as a batch's files may come from object storage.
      variants.push(completed(jobId, variants.length === 0 ? readFileSync(path) : path));
      jobs.push(path);
    }
  }
  const path = join(dir, "product.h5");
  productInput = {
    batchId: "batch-product",
    sweep: {
      combine: "product",
      parameters: [
        { name: "thickness", path: "/structures/0/size/2", values: THICKNESS, unit: "m" },
        { name: "material", path: "/structures/0/material", values: MATERIAL },
      ],
    },
    variants,
  };
  const summary = await writeBatchResultFile(path, productInput);
  assert.deepEqual(summary, { stacked: ["monitors/T", "monitors/line"], dropped: [] });
  batches.product = { path, jobs };
}

const SOURCE_WAVELENGTH = [1.5e-6, 1.55e-6, 1.6e-6];

async function zipFixture(): Promise<void> {
  const jobs: string[] = [];
  for (const [i, thickness] of THICKNESS.entries()) {
    const request = slab({
      thickness,
      material: "SiO2",
      span: thickness,
      wavelength: SOURCE_WAVELENGTH[i],
    });
    jobs.push(await runJob(`zip-${i}`, request));
  }
  const path = join(dir, "zip.h5");
  const summary = await writeBatchResultFile(path, {
    batchId: "batch-zip",
    sweep: {
      combine: "zip",
      parameters: [
        { name: "thickness", path: "/structures/0/size/2", values: THICKNESS, unit: "m" },
        { name: "span", path: "/monitors/2/size/2", values: THICKNESS, unit: "m" },
        {
          name: "source_wavelength",
          path: "/source/wavelength",
          values: SOURCE_WAVELENGTH,
          unit: "m",
        },
      ],
    },
    variants: jobs.map((p, i) => completed(`zip-${i}`, p)),
  });
  assert.deepEqual(summary.stacked, ["monitors/T", "monitors/line"]);
  assert.equal(summary.dropped.length, 1);
  assert.equal(summary.dropped[0]!.group, "monitors/inside");
  batches.zip = { path, jobs };
}

const WIDTH = [0.5e-6, 0.6e-6];

async function portsFixture(): Promise<void> {
  const jobs: string[] = [];
  for (const [i, width] of WIDTH.entries()) jobs.push(await runJob(`ports-${i}`, waveguide(width)));
  const path = join(dir, "ports.h5");
  const summary = await writeBatchResultFile(path, {
    batchId: "batch-ports",
    sweep: {
      combine: "product",
      parameters: [{ name: "width", path: "/structures/1/size/0", values: WIDTH, unit: "m" }],
    },
    variants: jobs.map((p, i) => completed(`ports-${i}`, p)),
  });
  assert.deepEqual(summary.dropped, []);
  batches.ports = { path, jobs };
}

/** A far-field pattern made up for variant `k` (a real one needs a 3-D box around a source). */
function farFieldResult(base: SolverResult, k: number): SolverResult {
  const [thetaDeg, phiDeg, wavelengthsM] = [
    [0, 90, 180],
    [0, 90],
    [1e-6, 1.1e-6],
  ];
  const n = wavelengthsM.length * thetaDeg.length * phiDeg.length;
  const pattern: FarFieldMonitorResult = {
    name: "pattern",
    center: [0, 0, 0],
    size: [5e-7, 5e-7, 5e-7],
    crossSectionAxis: null,
    wavelengthsM,
    frequenciesHz: wavelengthsM.map((w) => 299792458 / w),
    thetaDeg,
    phiDeg,
    backgroundEps: wavelengthsM.map(() => 1),
    radiantIntensity: Float64Array.from({ length: n }, (_, i) => (k + 1) * Math.sin(i + 0.1)),
    eTheta: Float64Array.from({ length: 2 * n }, (_, i) => k - i / 3),
    ePhi: Float64Array.from({ length: 2 * n }, (_, i) => (k * i) / 7),
  };
  return { ...base, farFieldMonitors: [pattern] };
}

async function farFieldFixture(): Promise<void> {
  const request = slab({ thickness: 0.2e-6, material: "SiO2" }) as SimulationRequest;
  const base = await runSimulation(applyDefaults(request));
  const jobs: string[] = [];
  for (const k of [0, 1]) {
    const path = join(dir, `ff-${k}.h5`);
    const result = farFieldResult(base, k);
    await writeResultFile(path, {
      jobId: `ff-${k}`,
      solverVersion: "test",
      specJson: "{}",
      result,
    });
    jobs.push(path);
  }
  const path = join(dir, "far-field.h5");
  await writeBatchResultFile(path, {
    batchId: "batch-ff",
    sweep: {
      combine: "product",
      parameters: [{ name: "mirrored", path: "/metadata/mirrored", values: [false, true] }],
    },
    variants: jobs.map((p, k) => completed(`ff-${k}`, p)),
  });
  batches.farField = { path, jobs };
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "emsim-batch-test-"));
  await productFixture();
  await zipFixture();
  await portsFixture();
  await farFieldFixture();
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Opens a file with h5wasm for `fn`; always closes it. */
async function withFile<T>(path: string, fn: (file: InstanceType<typeof h5wasm.File>) => T) {
  await h5wasm.ready;
  const file = new h5wasm.File(path, "r");
  try {
    return fn(file);
  } finally {
    file.close();
  }
}

/** A dataset's raw bytes as h5wasm reads them (floats and complex compounds alike). */
function bytesOf(d: Dataset, ranges?: [number, number][]): Buffer {
  const value = ranges ? d.slice(ranges) : d.value;
  if (ArrayBuffer.isView(value))
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  // A compound: rows [r, i] of numbers, float32 or float64 as stored.
  const size = d.metadata.size / 2;
  const rows = (value as unknown as [number, number][]).flat();
  const array = size === 4 ? Float32Array.from(rows) : Float64Array.from(rows);
  return Buffer.from(array.buffer);
}

function dataset(file: InstanceType<typeof h5wasm.File>, path: string): Dataset {
  const d = file.get(path);
  assert.ok(d instanceof h5wasm.Dataset, `${path} is a dataset`);
  return d;
}

/** The names of the scales attached to each axis of a dataset. */
function dims(d: Dataset): string[] {
  return Array.from({ length: d.shape!.length }, (_, axis) =>
    d
      .get_attached_scales(axis)
      .map((p) => p.slice(p.lastIndexOf("/") + 1))
      .join("|"),
  );
}

describe("a product sweep of a slab's thickness and material", () => {
  it("stacks each job's spectra and fields at its place, to the last bit", async () => {
    const { path, jobs } = batches.product!;
    const jobBytes = new Map<string, Buffer>();
    for (const [index, job] of jobs.entries()) {
      if (!job) continue;
      await withFile(job, (f) => {
        for (const name of ["T/flux", "T/incident_intensity", "line/Ex", "line/Ey", "line/Ez"]) {
          jobBytes.set(`${index}/${name}`, bytesOf(dataset(f, `monitors/${name}`)));
        }
      });
    }
    await withFile(path, (f) => {
      const flux = dataset(f, "monitors/T/flux");
      assert.deepEqual(flux.shape, [3, 2, 4]);
      assert.deepEqual(dims(flux), ["thickness", "material", "wavelength"]);
      const ex = dataset(f, "monitors/line/Ex");
      // One wavelength: (x, y, z) in the job's file, the sweep's dimensions before them here.
      assert.deepEqual(dims(ex), ["thickness", "material", "x", "y", "z"]);
      assert.deepEqual(dataset(f, "monitors/T/thickness").value, Float64Array.from(THICKNESS));
      assert.deepEqual(dataset(f, "monitors/T/material").value, MATERIAL);
      for (const [index, job] of jobs.entries()) {
        const [t, m] = [Math.floor(index / 2), index % 2];
        for (const name of ["T/flux", "T/incident_intensity", "line/Ex", "line/Ey", "line/Ez"]) {
          const d = dataset(f, `monitors/${name}`);
          const rest = d.shape!.slice(2).map((n): [number, number] => [0, n]);
          const got = bytesOf(d, [[t, t + 1], [m, m + 1], ...rest]);
          if (job) {
            assert.ok(got.equals(jobBytes.get(`${index}/${name}`)!), `${name} of variant ${index}`);
          } else {
            const values = d.metadata.compound_type
              ? new Float32Array(got.buffer, got.byteOffset, got.byteLength / 4)
              : new Float64Array(got.buffer, got.byteOffset, got.byteLength / 8);
            assert.ok(values.every(Number.isNaN), `${name} of the failed variant is NaN`);
          }
        }
      }
      // Silicon reflects more than silica at every thickness: the variants are not mixed up.
      const T = flux.value as Float64Array;
      assert.ok(T[0 * 8 + 1 * 4]! < T[0 * 8 + 0 * 4]!, `T(Si) ${T[4]} < T(SiO2) ${T[0]}`);
    });
  });

  it("holds the same bytes when large stacks are written a variant at a time", async () => {
    // Every stack above 0 bytes: none is assembled in memory, each variant's part is written
    // into chunks of its own and read back against its job's file.
    const path = join(dir, "product-by-variant.h5");
    await writeBatchResultFile(path, productInput, { inMemoryBytes: 0 });
    const names = ["T/flux", "T/incident_intensity", "line/Ex", "line/Ey", "line/Ez"];
    const inMemory = await withFile(batches.product!.path, (f) =>
      names.map((name) => {
        const d = dataset(f, `monitors/${name}`);
        return { bytes: bytesOf(d), chunks: d.metadata.chunks };
      }),
    );
    await withFile(path, (f) => {
      names.forEach((name, k) => {
        const d = dataset(f, `monitors/${name}`);
        assert.ok(bytesOf(d).equals(inMemory[k]!.bytes), name);
        assert.deepEqual(d.metadata.chunks!.slice(0, 2), [1, 1], `${name}: a chunk per variant`);
      });
      // In memory, the small stacks share chunks between variants.
      assert.deepEqual(inMemory[0]!.chunks, [1, 2, 4]);
    });
  });

  it("records the sweep, each variant's job and why one failed", async () => {
    await withFile(batches.product!.path, (f) => {
      assert.equal(f.attrs.format!.value, BATCH_RESULT_FORMAT);
      assert.equal(Number(f.attrs.format_version!.value), 1);
      assert.equal(f.attrs.batch_id!.value, "batch-product");
      assert.equal(f.attrs.combine!.value, "product");
      assert.equal(f.attrs.dimensions!.value, "thickness,material");
      assert.equal(f.attrs.units!.value, "SI");
      assert.equal(f.attrs.solver_version!.value, "test");
      const parameters = JSON.parse(String(f.attrs.parameters_json!.value));
      // {name, path, values} as result-format.md lists them; a length's unit is its coordinate's.
      assert.deepEqual(Object.keys(parameters[0]), ["name", "path", "values"]);
      assert.deepEqual(parameters[1], {
        name: "material",
        path: "/structures/0/material",
        values: MATERIAL,
      });
      const status = dataset(f, "jobs/status");
      assert.deepEqual(status.shape, [3, 2]);
      assert.deepEqual(dims(status), ["thickness", "material"]);
      assert.deepEqual(status.value, [
        ...["COMPLETED", "COMPLETED", "COMPLETED", "FAILED", "COMPLETED", "COMPLETED"],
      ]);
      assert.deepEqual(
        dataset(f, "jobs/job_id").value,
        [0, 1, 2, 3, 4, 5].map((i) => `slab-${i}`),
      );
      assert.equal((dataset(f, "jobs/error_detail").value as string[])[3], "the fields diverged");
      const steps = dataset(f, "jobs/steps_run").value as BigInt64Array;
      assert.equal(steps[3], -1n);
      assert.ok(steps[0]! > 0n);
      assert.ok(Number.isNaN((dataset(f, "jobs/wall_seconds").value as Float64Array)[3]));
      const simulation = f.get("simulation") as Group;
      assert.equal(simulation.attrs.job_id!.value, "slab-0");
      const request = JSON.parse(String(simulation.attrs.request_json!.value));
      assert.equal(request.structures[0].size[2], THICKNESS[0]);
      assert.equal(request.structures[0].material, "SiO2");
    });
  });
});

describe("a zip of thickness, a monitor's span and the source wavelength", () => {
  it("puts the other parameters along the first and leaves out what cannot stack", async () => {
    const { path, jobs } = batches.zip!;
    const wavelengths: Buffer[] = [];
    for (const job of jobs) {
      await withFile(job!, (f) => wavelengths.push(bytesOf(dataset(f, "monitors/T/wavelength"))));
    }
    await withFile(path, (f) => {
      assert.equal(f.attrs.dimensions!.value, "thickness");
      assert.equal(f.attrs.dropped_groups!.value, "monitors/inside");
      assert.match(String(f.attrs.notes!.value), /monitors\/inside is not stacked: .*Ex is shaped/);
      assert.equal((f.get("monitors") as Group).keys().includes("inside"), false);
      const flux = dataset(f, "monitors/T/flux");
      // The source's wavelength differs between variants: a dimension wavelength_index, and
      // the wavelength a coordinate over (thickness, wavelength_index).
      assert.deepEqual(dims(flux), ["thickness", "wavelength_index"]);
      assert.match(
        String(flux.attrs.coordinates!.value),
        /\bwavelength\b.*\bspan\b.*\bsource_wavelength\b/,
      );
      const wavelength = dataset(f, "monitors/T/wavelength");
      assert.deepEqual(dims(wavelength), ["thickness", "wavelength_index"]);
      assert.ok(bytesOf(wavelength).equals(Buffer.concat(wavelengths)));
      assert.deepEqual(dims(dataset(f, "monitors/T/span")), ["thickness"]);
      assert.deepEqual(
        dataset(f, "monitors/T/source_wavelength").value,
        Float64Array.from(SOURCE_WAVELENGTH),
      );
      // A field monitor's single wavelength: a coordinate along thickness.
      const line = dataset(f, "monitors/line/wavelength");
      assert.deepEqual(dims(line), ["thickness"]);
      assert.deepEqual(line.value, Float64Array.from(SOURCE_WAVELENGTH));
      assert.deepEqual(dims(dataset(f, "monitors/line/Ey")), ["thickness", "x", "y", "z"]);
      // wavelengths and frequencies differ: left out of the group's attributes, and named.
      const T = f.get("monitors/T") as Group;
      assert.equal(T.attrs.varying_attributes!.value, "frequencies,wavelengths");
      assert.equal(T.attrs.wavelengths, undefined);
      assert.equal(T.attrs.quantity!.value, "transmittance");
    });
  });
});

describe("a ports sweep of a waveguide's width", () => {
  it("gives S(width, port_out, port_in, wavelength) and the mode amplitudes, each job's own", async () => {
    const { path, jobs } = batches.ports!;
    const own: Record<string, Buffer>[] = [];
    for (const job of jobs) {
      own.push(
        await withFile(job!, (f) => ({
          S: bytesOf(dataset(f, "s_matrix/S")),
          amps: bytesOf(dataset(f, "monitors/mid@o1@0/amps")),
          n_eff: bytesOf(dataset(f, "monitors/mid@o1@0/n_eff")),
        })),
      );
    }
    await withFile(path, (f) => {
      const S = dataset(f, "s_matrix/S");
      assert.deepEqual(dims(S), ["width", "port_out", "port_in", "wavelength"]);
      assert.deepEqual(S.shape, [2, 2, 2, 3]);
      assert.deepEqual(dataset(f, "s_matrix/port_out").value, ["o1@0", "o2@0"]);
      assert.deepEqual(dims(dataset(f, "s_matrix/n_eff")), ["width", "port_out", "wavelength"]);
      assert.equal((f.get("s_matrix") as Group).attrs.inputs!.value, "o1@0");
      const amps = dataset(f, "monitors/mid@o1@0/amps");
      assert.deepEqual(dims(amps), ["width", "direction", "wavelength", "mode_index"]);
      for (const [w, bytes] of own.entries()) {
        const at = (d: Dataset): [number, number][] => [
          [w, w + 1],
          ...d.shape!.slice(1).map((n): [number, number] => [0, n]),
        ];
        assert.ok(bytesOf(S, at(S)).equals(bytes.S!), `S at width ${w}`);
        assert.ok(bytesOf(amps, at(amps)).equals(bytes.amps!), `amps at width ${w}`);
        const nEff = dataset(f, "monitors/mid@o1@0/n_eff");
        assert.ok(bytesOf(nEff, at(nEff)).equals(bytes.n_eff!), `n_eff at width ${w}`);
      }
      // |S21|² ≈ 1 for a straight guide, at either width.
      const s = bytesOf(S);
      const values = new Float64Array(s.buffer, s.byteOffset, s.byteLength / 8);
      for (const w of [0, 1]) {
        const at = ((w * 2 + 1) * 2 + 0) * 3 + 1; // S[w, o2, o1, 1.55 µm]
        const t = values[2 * at]! ** 2 + values[2 * at + 1]! ** 2;
        assert.ok(Math.abs(t - 1) < 0.05, `|S21|² ${t} at width ${WIDTH[w]}`);
      }
    });
  });
});

describe("a far-field pattern over a boolean parameter", () => {
  it("stacks the pattern along a boolean dimension stored as xarray stores booleans", async () => {
    const { path, jobs } = batches.farField!;
    const own = await Promise.all(
      jobs.map((j) => withFile(j!, (f) => bytesOf(dataset(f, "monitors/pattern/E_theta")))),
    );
    await withFile(path, (f) => {
      const mirrored = dataset(f, "monitors/pattern/mirrored");
      assert.deepEqual(mirrored.value, Int8Array.from([0, 1]));
      assert.equal(mirrored.attrs.dtype!.value, "bool");
      const e = dataset(f, "monitors/pattern/E_theta");
      assert.deepEqual(dims(e), ["mirrored", "wavelength", "theta", "phi"]);
      assert.ok(bytesOf(e).equals(Buffer.concat(own)));
    });
  });
});

describe("refusals", () => {
  const sweep: BatchSweep = {
    combine: "product",
    parameters: [{ name: "thickness", path: "/structures/0/size/2", values: THICKNESS, unit: "m" }],
  };
  const refused = async (input: Parameters<typeof writeBatchResultFile>[1], message: RegExp) => {
    await assert.rejects(writeBatchResultFile(join(dir, "refused.h5"), input), (err: Error) => {
      assert.ok(err instanceof BatchMergeError, String(err));
      assert.match(err.message, message);
      return true;
    });
  };
  const failed = (jobId: string): BatchVariantResult => ({
    jobId,
    status: "CANCELLED",
    errorDetail: "cancelled",
  });

  it("a sweep that does not match the variants, a reserved name, nothing completed", async () => {
    const job = batches.product!.jobs[1]!;
    await refused(
      { batchId: "b", sweep, variants: [completed("a", job)] },
      /3 variants but 1 were given/,
    );
    await refused(
      {
        batchId: "b",
        sweep: {
          combine: "zip",
          parameters: [sweep.parameters[0]!, { name: "w", path: "/a", values: [1] }],
        },
        variants: [],
      },
      /as many values each/,
    );
    await refused(
      {
        batchId: "b",
        sweep: {
          combine: "product",
          parameters: [{ name: "wavelength", path: "/source/wavelength", values: [1e-6] }],
        },
        variants: [completed("a", job)],
      },
      /"wavelength" is a name the result file uses/,
    );
    await refused(
      {
        batchId: "b",
        sweep: {
          combine: "product",
          parameters: [{ name: "t", path: "/structures/0/size/2", values: [1e-7, "2e-7"] }],
        },
        variants: [completed("a", job), completed("b", job)],
      },
      /"t" mixes kinds of values/,
    );
    await refused(
      { batchId: "b", sweep, variants: [failed("a"), failed("b"), failed("c")] },
      /no variant of the batch completed/,
    );
  });

  it("a file that is not a current result file, named by its job and parameters", async () => {
    const notResult = join(dir, "not-a-result.h5");
    writeFileSync(notResult, "not HDF5");
    const job = batches.product!.jobs[1]!;
    await refused(
      {
        batchId: "b",
        sweep,
        variants: [completed("a", job), completed("b", notResult), failed("c")],
      },
      /job b \(thickness=3e-7\): its result file does not open/,
    );
  });

  it("a batch file the disk does not take is a ResultFileError, not a TypeError", async () => {
    // HDF5 refuses quietly (audit F4): a folder that is gone takes h5wasm down the path a full
    // disk does. The API answers it 503, try again (src/batches/results.ts).
    const path = join(dir, "gone", "batch.h5");
    const job = batches.product!.jobs[1]!;
    const input = {
      batchId: "b",
      sweep,
      variants: [completed("a", job), failed("b"), failed("c")],
    };
    await assert.rejects(writeBatchResultFile(path, input), (err: Error) => {
      assert.ok(err instanceof ResultFileError, `${err.name}: ${err.message}`);
      return true;
    });
    assert.equal(existsSync(path), false);
  });
});

// The readers are Debian packages (.ci/run installs them): skipped without them, except in CI.
const readers = spawnSync(PYTHON, ["-c", "import h5py, numpy, xarray, h5netcdf"], {
  encoding: "utf8",
});
const skip = readers.status === 0 ? false : `needs ${PYTHON} with h5py, numpy, xarray and h5netcdf`;
if (skip && process.env.CI) throw new Error(skip);

describe("Python readers", () => {
  it("h5py, xarray (h5netcdf) and emsim.load see the sweep's dimensions", { skip }, () => {
    const manifest = join(dir, "manifest.json");
    writeFileSync(manifest, JSON.stringify(batches));
    const res = spawnSync(PYTHON, ["-m", "unittest", "-v", "test_batch"], {
      cwd: join(CLIENT, "tests"),
      encoding: "utf8",
      env: {
        PATH: process.env.PATH ?? "",
        PYTHONPATH: join(CLIENT, "src"),
        PYTHONDONTWRITEBYTECODE: "1",
        EMSIM_TEST_BATCH_MANIFEST: manifest,
      },
    });
    assert.equal(res.status, 0, res.stderr + res.stdout);
    assert.match(res.stderr, /\nOK\n?$/, res.stderr);
  });
});
