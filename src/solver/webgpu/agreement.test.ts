/**
 * The WebGPU backend against the reference backend, on whatever adapter `webgpu` finds: on
 * machines without a GPU (CI) that is Mesa's llvmpipe through Dawn's OpenGL ES compatibility
 * mode, which runs the same WGSL on the CPU (slowly: a few ms per step whatever the grid, so
 * the grids and step counts here are small).
 *
 * The cases between them use every boundary kind, oblique (complex Bloch) incidence with the
 * TFSF plane normal to x, y and z, a lossy slab through the absorber, a dispersive sphere (the
 * ADE pass), a PEC plate (E held at zero by the coefficient table) and multi-wavelength
 * monitors. The reference computes in float64 on float32
 * storage, the GPU in float32 throughout, so they agree to float32 rounding accumulated over
 * the run: within 1e-5 of the largest value compared, where a wrong sign, index, phase or
 * coefficient anywhere gives differences of order 1 (wasm/agreement.test.ts uses the same
 * bound for the wasm backend). The analytic checks (Airy, Fresnel, phase velocity, PML
 * reflection, flux, dispersion) run on the GPU with every other backend's, in the physics
 * tests themselves (testing/backends.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { initSolverBackend } from "../backends.js";
import { runWithMaterials } from "../run.js";
import { FdtdSimulation } from "../simulation.js";
import { constantMaterials, lineSpec, pointMonitor, slab } from "../testing/index.js";
import {
  AGREEMENT_MATERIALS as materials,
  AGREEMENT_STEP,
  AGREEMENT_WAVELENGTH as WAVELENGTH,
  agreementSpec,
  worstFieldDifference,
  worstMonitorDifference,
  MIRROR_CASES,
  type AgreementCase,
} from "../testing/agreement.js";
import { fieldEnergy } from "../yee.js";
import { describeAdapter } from "./device.js";
import { skipWithoutWebgpu } from "../testing/require-webgpu.js";

const TOLERANCE = 1e-5;

// Found once: naming `webgpu` allows a software adapter (backends.ts).
const found = await initSolverBackend("webgpu").then(
  (backend) => ({ backend, reason: "" }),
  (err: Error) => ({ backend: null, reason: err.message }),
);
const skip = skipWithoutWebgpu(found.backend ? null : found.reason);

const CASES: AgreementCase[] = [
  {
    name: "+z, graded along x, y and z (mesh override), pml on every face",
    boundaries: ["pml", "pml", "pml"],
    direction: [0, 0, 1],
    polarization: "te",
    cells: [8, 8, 20],
    refine: [true, true, true],
  },
  {
    name: "oblique about x (Bloch along y and z), graded along x",
    boundaries: ["pml", "periodic", "periodic"],
    direction: [1, 0.25, -0.2],
    polarization: "tm",
    cells: [20, 8, 7],
    refine: [true, false, false],
  },
  {
    name: "+z, pml on every face",
    boundaries: ["pml", "pml", "pml"],
    direction: [0, 0, 1],
    polarization: "te",
    cells: [8, 8, 20],
  },
  {
    name: "−x, periodic y, pmc z",
    boundaries: ["pml", "periodic", "pmc"],
    direction: [-1, 0, 0],
    polarization: "tm",
    cells: [20, 7, 9],
  },
  {
    name: "+y, pec x, periodic z",
    boundaries: ["pec", "pml", "periodic"],
    direction: [0, 1, 0],
    polarization: "te",
    cells: [9, 20, 8],
  },
  {
    name: "oblique about z (Bloch along x and y)",
    boundaries: ["periodic", "periodic", "pml"],
    direction: [0.3, 0.2, 1],
    polarization: "tm",
    cells: [12, 9, 20],
  },
  {
    name: "oblique about −x (Bloch along y and z)",
    boundaries: ["pml", "periodic", "periodic"],
    direction: [-1, 0.25, -0.2],
    polarization: "te",
    cells: [20, 8, 7],
  },
  {
    name: "oblique about y (Bloch along x and z), pmc walls absent",
    boundaries: ["periodic", "pml", "periodic"],
    direction: [0.2, 1, 0.3],
    polarization: "tm",
    cells: [11, 20, 9],
  },
  ...MIRROR_CASES,
  {
    name: "+z, graded along x, y and z, a PEC plate over half the section, pml on every face",
    boundaries: ["pml", "pml", "pml"],
    direction: [0, 0, 1],
    polarization: "te",
    cells: [8, 8, 20],
    refine: [true, true, true],
    pecPlate: true,
  },
  {
    name: "oblique about z (Bloch along x and y), a PEC plate over half the section",
    boundaries: ["periodic", "periodic", "pml"],
    direction: [0.3, 0.2, 1],
    polarization: "tm",
    cells: [12, 9, 20],
    pecPlate: true,
  },
];

/** The monitors 6 cells behind the centre and 7 in front. */
const spec = (c: AgreementCase, steps: number) =>
  agreementSpec(c, steps, { transmitted: 6, reflected: 7 });

/** The reference backend's run of a request, once per request (float32 and float16 compare). */
const referenceRuns = new Map<string, ReturnType<typeof runWithMaterials>>();
function referenceRun(s: ReturnType<typeof spec>): ReturnType<typeof runWithMaterials> {
  const key = JSON.stringify(s);
  if (!referenceRuns.has(key)) {
    referenceRuns.set(key, runWithMaterials(s, materials, { backend: "reference" }));
  }
  return referenceRuns.get(key)!;
}

describe("webgpu backend agrees with the reference backend", { skip }, () => {
  it("runs on the adapter it names", (t) => {
    const adapter = found.backend!.adapter!;
    t.diagnostic(`adapter: ${describeAdapter(adapter)} (Dawn ${adapter.dawnBackend})`);
    assert.equal(found.backend!.name, "webgpu");
  });

  for (const c of CASES) {
    it(`${c.name}: monitor phasors within ${TOLERANCE} relative`, async (t) => {
      const s = spec(c, 400);
      const ref = await referenceRun(s);
      const gpu = await runWithMaterials(s, materials, { backend: "webgpu" });
      assert.equal(gpu.report.kernel, "webgpu");
      const worst = worstMonitorDifference(ref.monitors, gpu.monitors);
      t.diagnostic(`largest difference ${worst.toExponential(2)} of the monitor peak`);
      assert.ok(worst < TOLERANCE, `${worst}`);
    });
  }

  // Every stored value, ghosts included, both field sets; and the energy the GPU reduces
  // against fieldEnergy over the GPU's own fields (float32 partial sums: 1e-5).
  it("every field value and the energy after 120 steps, in steps of 1 and sweeps of 4", async (t) => {
    // A graded case's time step follows its cells a third of the step: three times the steps
    // reach the same time.
    const stepsOf = (c: AgreementCase) => (c.refine ? 3 : 1) * 120;
    for (const c of [
      CASES[0],
      CASES[2],
      CASES[3],
      CASES[5],
      CASES[7],
      CASES[8],
      CASES[9],
      // The oblique PEC case; the graded one's cross-polarised Hy is too small a peak to
      // measure float32 rounding against (wasm/agreement.test.ts).
      CASES[11],
    ]) {
      const steps = stepsOf(c);
      const s = spec(c, steps);
      const ref = new FdtdSimulation(s, materials, { backend: "reference", dftEvery: 4 });
      await ref.prepare();
      for (let n = 0; n < steps; n++) ref.step();
      const sets = await ref.fields();
      const gpu = new FdtdSimulation(s, materials, { backend: "webgpu", dftEvery: 4 });
      await gpu.prepare();
      assert.ok(gpu.model.ade && gpu.model.ade.count > 0, "the sphere's cells step the ADE pass");
      try {
        // Single steps for the first half, whole sweeps after: both paths encode alike.
        while (gpu.stepIndex < steps / 2) gpu.step();
        while (gpu.stepIndex < steps) gpu.step(steps);
        const gpuSets = await gpu.fields();
        const worst = worstFieldDifference(sets, gpuSets);
        t.diagnostic(`${c.name}: largest field difference ${worst.toExponential(2)} of the peak`);
        assert.ok(worst < 2 * TOLERANCE, `${c.name}: ${worst}`);
        const eCpu = fieldEnergy(gpuSets, gpu.model.medium);
        const eGpu = await gpu.energy();
        assert.ok(Math.abs(eGpu / eCpu - 1) < 1e-5, `energy ${eGpu} vs ${eCpu}`);
        const eRef = await ref.energy();
        assert.ok(Math.abs(eGpu / eRef - 1) < 1e-4, `energy ${eGpu} vs reference ${eRef}`);
      } finally {
        gpu.dispose();
      }
    }
  });

  // The convergence test's sums, reduced on the GPU from the running sums it holds, against
  // the same sums from the sums read back (run.ts ConvergenceTest), with a weight per
  // wavelength that differs between wavelengths so a misplaced weight shows.
  it("the monitors' change between checks, reduced on the GPU, equals the read-back sums'", async (t) => {
    // Ungraded (the graded case's step is a third of this one's, for the same physics): 1000
    // steps reach the same late, converging time as 3000 of the graded case.
    const s = spec(CASES[2], 1000);
    const gpu = new FdtdSimulation(s, materials, { backend: "webgpu", dftEvery: 2 });
    await gpu.prepare();
    try {
      const change = gpu.monitorChange!;
      assert.ok(change, "the webgpu stepper measures the change itself");
      const weights = gpu.monitors.map((m) =>
        Float64Array.from(m.frequencyIndex, (_, w) => 1e-20 * (1 + 3 * w)),
      );
      const stepTo = (n: number) => {
        while (gpu.stepIndex < n) gpu.step(n);
      };
      // Checks early (large changes) and late (converging: small ones, where float32 shows).
      let before: Float64Array[][] | null = null;
      for (const at of [40, 60, 140, 930, 1000]) {
        stepTo(at);
        const sums = await gpu.monitorSums();
        const onGpu = await change(weights);
        if (!before) {
          assert.equal(onGpu, null, "the first check only records the sums");
          before = sums;
          continue;
        }
        let diff2 = 0;
        let total2 = 0;
        gpu.monitors.forEach((m, mi) => {
          sums[mi].forEach((values, k) => {
            const perWavelength = values.length / m.frequencyIndex.length;
            for (let q = 0; q < values.length; q++) {
              const w = weights[mi][Math.floor(q / perWavelength)];
              diff2 += w * (values[q] - before![mi][k][q]) ** 2;
              total2 += w * values[q] ** 2;
            }
          });
        });
        before = sums;
        const expected = Math.sqrt(diff2 / total2);
        const measured = Math.sqrt(onGpu!.diff2 / onGpu!.total2);
        t.diagnostic(
          `step ${at}: change ${measured.toExponential(4)} (read back: ${expected.toExponential(4)})`,
        );
        assert.ok(
          Math.abs(measured / expected - 1) < 1e-4,
          `step ${at}: ${measured} vs ${expected}`,
        );
      }
    } finally {
      gpu.dispose();
    }
  });

  // The running DFT over a long run: 4000 float32 samples per phasor (a sample every step)
  // against the reference's float64 sums, within 5e-6 of each phasor. Measured on llvmpipe the
  // difference (8.5e-7) is the float32 fields' own, the same with the Kahan compensation
  // switched off: what the compensation is worth over 10⁵ samples on a GPU is not measured.
  // What bench:solver reads of a run: the dispatches of a step and the bytes of a cell-update.
  it("the run report gives a step's dispatches and a cell-update's bytes", async () => {
    const r = await runWithMaterials(spec(CASES[2], 4), materials, { backend: "webgpu" });
    const gpu = r.report.stepping.gpu!;
    // Two bulk passes, the sphere's ADE pass for each of Ex, Ey, Ez, one DFT pass per stream
    // (six components on the plane monitor, three at the point); PML on every face: no ghosts.
    assert.equal(gpu.dispatchesPerStep, 2 + 3 + 6 + 3);
    // 8 × 8 × 20 cells and 6 PML layers a face: 20 × 20 × 32 cells, 21 × 21 × 33 nodes, padded
    // 22 × 22 × 34; a slab along x holds 7 × 22 × 34 nodes, along y 22 × 7 × 34, along z
    // 22 × 22 × 7, two of each. A handful of materials: 8-bit indices, 75 B a node; ψ 32 B
    // per absorber node and step.
    assert.deepEqual(r.report.grid, [20, 20, 32]);
    const slabNodes = 2 * (7 * 22 * 34 + 22 * 7 * 34 + 22 * 22 * 7);
    const expected = (75 * 21 * 21 * 33 + 32 * slabNodes) / (20 * 20 * 32);
    assert.ok(Math.abs(gpu.bytesPerCellUpdate - expected) < 1e-9, `${gpu.bytesPerCellUpdate}`);
    assert.equal(gpu.passSeconds, undefined, "not a profiled run");
  });

  // Most grids here tabulate a few dozen materials (8-bit indices, material-index.ts); a
  // large smoothed sphere needs hundreds of interface entries, which 16-bit indices hold.
  it("16-bit material indices: a smoothed sphere of more than 256 table entries", async (t) => {
    const c: AgreementCase = {
      name: "a lossy sphere 12 cells in radius, pml on every face",
      boundaries: ["pml", "pml", "pml"],
      direction: [0, 0, 1],
      polarization: "te",
      cells: [30, 30, 36],
    };
    const steps = 60;
    const s = agreementSpec(c, steps, { transmitted: 15, reflected: 16 });
    const radius = 12 * AGREEMENT_STEP;
    s.structures[0] = { type: "sphere", center: [0, 0, 0], radius, material: "lossy" };
    const ref = new FdtdSimulation(s, materials, { backend: "reference", dftEvery: 4 });
    const gpu = new FdtdSimulation(s, materials, { backend: "webgpu", dftEvery: 4 });
    const entries = gpu.model.medium.ca.length;
    assert.ok(entries > 256, `${entries} table entries: the case must need 16-bit indices`);
    await ref.prepare();
    await gpu.prepare();
    try {
      for (let n = 0; n < steps; n++) ref.step();
      while (gpu.stepIndex < steps) gpu.step();
      const worst = worstFieldDifference(await ref.fields(), await gpu.fields());
      t.diagnostic(`${entries} entries: largest field difference ${worst.toExponential(2)}`);
      assert.ok(worst < 2 * TOLERANCE, `${worst}`);
    } finally {
      gpu.dispose();
    }
  });

  it("monitor DFT over 4000 samples agrees with float64 sums", async (t) => {
    const length = 3e-6;
    const step = WAVELENGTH / 40;
    const s = lineSpec({
      axis: 2,
      wavelengthM: WAVELENGTH,
      stepM: step,
      lengthM: length,
      structures: [slab(2, 0, 0.3e-6, "glass")],
      monitors: [
        pointMonitor("reflected", 2, -length / 2 + step / 2, ["Ey"]),
        pointMonitor("transmitted", 2, length / 2 - step / 2, ["Ey", "Hx"]),
      ],
      threshold: 0,
      timeSteps: 4000,
    });
    const glass = constantMaterials({ glass: 4 });
    const ref = await runWithMaterials(s, glass, { backend: "reference", dftEvery: 1 });
    const gpu = await runWithMaterials(s, glass, { backend: "webgpu", dftEvery: 1 });
    const worst = worstMonitorDifference(ref.monitors, gpu.monitors, "perComponent");
    t.diagnostic(`largest relative difference ${worst.toExponential(2)}`);
    assert.ok(worst < 5e-6, `${worst}`);
  });
});

// Float16 field storage (field-storage.ts) against the reference: float32 arithmetic on values
// rounded to 11 significant bits at every store, so the runs agree to that rounding
// accumulated (docs/benchmarks.md gives the figures), where a wrong storage scale, half, word
// or weight anywhere gives differences of order 1. The cases between them cover ghost copies
// along every axis (periodic, PMC, Bloch), the absorber, a graded grid, a PEC plate and, in
// every case, the dispersive sphere's ADE pass.
describe("webgpu float16 field storage agrees with the reference backend", { skip }, () => {
  const FLOAT16_TOLERANCE = 3e-3;
  const FLOAT16_FIELD_TOLERANCE = 5e-2;
  // A graded case's time step is a third of the others': three times the steps reach as far
  // into the pulse.
  const stepsOf = (c: AgreementCase, steps: number) => (c.refine ? 3 : 1) * steps;
  const float16 = { backend: "webgpu", fieldStorage: "float16" } as const;

  for (const c of [CASES[1], CASES[3], CASES[11]]) {
    it(`${c.name}: monitor phasors within ${FLOAT16_TOLERANCE} relative`, async (t) => {
      const s = spec(c, stepsOf(c, 400));
      const ref = await referenceRun(s);
      const gpu = await runWithMaterials(s, materials, float16);
      const worst = worstMonitorDifference(ref.monitors, gpu.monitors);
      t.diagnostic(`largest difference ${worst.toExponential(2)} of the monitor peak`);
      assert.ok(worst < FLOAT16_TOLERANCE, `${worst}`);
    });
  }

  // After 300 steps, when the pulse has reached its full strength (before, the fields are small
  // against the source's amplitude, to which float16's range is scaled).
  it("every field value after 300 steps, the energy the GPU sums of them, the bytes", async (t) => {
    const steps = 300;
    for (const c of [CASES[2], CASES[5]]) {
      const s = spec(c, steps);
      const ref = new FdtdSimulation(s, materials, { backend: "reference", dftEvery: 4 });
      await ref.prepare();
      for (let n = 0; n < steps; n++) ref.step();
      const gpu = new FdtdSimulation(s, materials, { ...float16, dftEvery: 4 });
      await gpu.prepare();
      try {
        while (gpu.stepIndex < steps) gpu.step(steps);
        const gpuSets = await gpu.fields();
        const worst = worstFieldDifference(await ref.fields(), gpuSets);
        t.diagnostic(`${c.name}: largest field difference ${worst.toExponential(2)} of the peak`);
        assert.ok(worst < FLOAT16_FIELD_TOLERANCE, `${c.name}: ${worst}`);
        const eCpu = fieldEnergy(gpuSets, gpu.model.medium);
        const eGpu = await gpu.energy();
        assert.ok(Math.abs(eGpu / eCpu - 1) < 1e-5, `energy ${eGpu} vs ${eCpu}`);
      } finally {
        gpu.dispose();
      }
    }
    // Half the field bytes of the float32 run's 75 B a node (shaders.ts bulkBytesPerCellUpdate).
    const r = await runWithMaterials(spec(CASES[2], 4), materials, float16);
    const slabNodes = 2 * (7 * 22 * 34 + 22 * 7 * 34 + 22 * 22 * 7);
    const expected = (39 * 21 * 21 * 33 + 32 * slabNodes) / (20 * 20 * 32);
    const bytes = r.report.stepping.gpu!.bytesPerCellUpdate;
    assert.ok(Math.abs(bytes - expected) < 1e-9, `${bytes}`);
  });
  // The run's own end: the convergence test stops at float16's change floor (field-storage.ts)
  // with a note, where the default floor of float32 would never be met, and the slab's
  // transmission phasor is as float32's to 1e-3 (Fabry–Pérot against the analytic answer is
  // the physics tests' part).
  it("converges at float16's change floor, with a note, on a slab float32 reads alike", async (t) => {
    const W = 1.55e-6;
    const step = W / 30;
    const length = 4e-6;
    const s = lineSpec({
      axis: 2,
      wavelengthM: W,
      stepM: step,
      lengthM: length,
      structures: [slab(2, 0, 0.4e-6, "glass")],
      monitors: [pointMonitor("transmitted", 2, length / 2 - step / 2, ["Ey"])],
      threshold: 1e-7,
      timeSteps: 20000,
    });
    const glass = constantMaterials({ glass: 2.25 });
    const r32 = await runWithMaterials(s, glass, { backend: "webgpu" });
    const r16 = await runWithMaterials(s, glass, float16);
    assert.ok(r16.report.converged, `${r16.report.stepsRun} steps`);
    assert.ok(r16.report.notes.some((n) => /float16.*converged at that change/.test(n)));
    const [a, b] = [r32, r16].map((r) => r.monitors[0].data.Ey!);
    const difference = Math.hypot(a[0] - b[0], a[1] - b[1]) / Math.hypot(a[0], a[1]);
    t.diagnostic(
      `${r16.report.stepsRun} steps (float32 ${r32.report.stepsRun}), T off by ${difference.toExponential(2)}`,
    );
    assert.ok(difference < 1e-3, `${difference}`);
  });
});
