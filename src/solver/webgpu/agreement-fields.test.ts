/**
 * The WebGPU backend against the reference backend (agreement.test.ts says how and why), value by
 * value: every stored field value and the energy after a run in single steps and sweeps, the
 * convergence test's change reduced on the GPU, the run report's dispatches and bytes, 16-bit
 * material indices, and a long running DFT against float64 sums.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FdtdSimulation } from "../simulation.js";
import { runWithMaterials } from "../run.js";
import { constantMaterials, lineSpec, pointMonitor, slab } from "../testing/index.js";
import {
  AGREEMENT_MATERIALS as materials,
  AGREEMENT_STEP,
  AGREEMENT_WAVELENGTH as WAVELENGTH,
  agreementSpec,
  worstFieldDifference,
  worstMonitorDifference,
  type AgreementCase,
} from "../testing/agreement.js";
import { CASES, skip, spec, TOLERANCE } from "../testing/webgpu-agreement.js";
import { fieldEnergy } from "../yee.js";
import { FUSED_STEP_ENV } from "./engine.js";

/**
 * Bytes per cell-update the report gives for spec(CASES[2]) (the report test's comment) with
 * `perNode` bytes of fields and indices a node.
 */
function bytesOf(perNode: number): number {
  const slabNodes = 2 * (7 * 22 * 34 + 22 * 7 * 34 + 22 * 22 * 7);
  return (perNode * 21 * 21 * 33 + 32 * slabNodes) / (20 * 20 * 32);
}

describe("webgpu fields, reductions and report agree with the reference backend", { skip }, () => {
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
    assert.ok(Math.abs(gpu.bytesPerCellUpdate - bytesOf(75)) < 1e-9, `${gpu.bytesPerCellUpdate}`);
    assert.equal(gpu.passSeconds, undefined, "not a profiled run");
  });

  // The fused step (fused-step.ts, EMSIM_WEBGPU_FUSED=1): the same updates in another order of
  // loads and stores, so the same values to the bit; one pass a step, each value read and
  // written once (51 B a node). Its ghost-free cases above run without it.
  // A dipole of 1e4 A·m on 20 nm cells drives some 6e24 V/m near it: float32 holds the
  // fields, not their squares (3.4e38), which the energy once summed as they are, infinite.
  // On this case's coarser cells the moment is raised past the API's range to get there. The
  // convergence test's sums of the monitors' running sums squared likewise (they came out NaN:
  // a run that never converged).
  it("the energy and the monitors' change of fields whose squares pass float32's range", async () => {
    const s = spec(CASES[0], 300);
    s.source = {
      source_type: "point_dipole",
      wavelength: WAVELENGTH,
      center: [0, 0, 0],
      polarization: "Ez",
      amplitude: 1e14,
    };
    const gpu = new FdtdSimulation(s, materials, { backend: "webgpu", dftEvery: 4 });
    await gpu.prepare();
    try {
      const ones = gpu.monitors.map((m) => new Float64Array(m.frequencyIndex.length).fill(1));
      assert.equal(await gpu.monitorChange!(ones), null, "the first call records the sums");
      while (gpu.stepIndex < 300) gpu.step(300);
      const eCpu = fieldEnergy(await gpu.fields(), gpu.model.medium);
      const eGpu = await gpu.energy();
      assert.ok(eCpu > 1e40 && Number.isFinite(eCpu), `${eCpu}`);
      assert.ok(Math.abs(eGpu / eCpu - 1) < 1e-5, `energy ${eGpu} vs ${eCpu}`);
      const change = await gpu.monitorChange!(ones);
      assert.ok(
        change && change.total2 > 0 && Number.isFinite(change.total2),
        JSON.stringify(change),
      );
      assert.ok(Number.isFinite(change.diff2) && change.diff2 <= change.total2 * 4);
    } finally {
      gpu.dispose();
    }
  });

  it("a step as one fused pass: one dispatch, 51 B a node, the two passes' fields", async (t) => {
    const s = spec(CASES[2], 40);
    // An odd DFT interval: the monitors sample both copies.
    const split = new FdtdSimulation(s, materials, { backend: "webgpu", dftEvery: 3 });
    await split.prepare();
    // The setting is read when a run's stepper is made (prepare).
    process.env[FUSED_STEP_ENV] = "1";
    const fused = new FdtdSimulation(s, materials, { backend: "webgpu", dftEvery: 3 });
    let run;
    try {
      await fused.prepare();
      run = await runWithMaterials(spec(CASES[2], 4), materials, { backend: "webgpu" });
    } finally {
      delete process.env[FUSED_STEP_ENV];
    }
    const gpu = run.report.stepping.gpu!;
    assert.equal(gpu.dispatchesPerStep, 1 + 3 + 6 + 3);
    assert.ok(Math.abs(gpu.bytesPerCellUpdate - bytesOf(51)) < 1e-9, `${gpu.bytesPerCellUpdate}`);
    try {
      // Single steps, then sweeps, and an odd count: the copies alternate.
      while (fused.stepIndex < 21) fused.step();
      while (fused.stepIndex < 41) fused.step(41);
      while (split.stepIndex < fused.stepIndex) split.step();
      const worst = worstFieldDifference(await split.fields(), await fused.fields());
      t.diagnostic(
        `fused against two passes after 41 steps: ${worst.toExponential(2)} of the peak`,
      );
      assert.ok(worst < 1e-6, `${worst}`);
      assert.ok(Math.abs((await fused.energy()) / (await split.energy()) - 1) < 1e-6);
      // The monitors' running sums, each stream's DFT pass bound to the copy a step ends in.
      const [a, b] = [(await split.monitorSums()).flat(), (await fused.monitorSums()).flat()];
      let peak = 0;
      let diff = 0;
      a.forEach((sums, i) =>
        sums.forEach((x, o) => {
          peak = Math.max(peak, Math.abs(x));
          diff = Math.max(diff, Math.abs(x - b[i]![o]!));
        }),
      );
      assert.ok(peak > 0 && diff <= 1e-6 * peak, `monitor sums: ${diff} of ${peak}`);
    } finally {
      fused.dispose();
      split.dispose();
    }
  });

  // A grid past about 710³ keeps its material indices in three bindings, one per component
  // (material-index.ts): the same values as in one.
  it("material indices in three bindings: the same fields, energy and monitor sums", async (t) => {
    // float16 after 300 steps, when the pulse is strong against the scale its range is set to.
    for (const [fieldStorage, steps] of [
      ["float32", 30],
      ["float16", 300],
    ] as const) {
      const s = spec(CASES[2], steps);
      const options = { backend: "webgpu", dftEvery: 3, fieldStorage } as const;
      const one = new FdtdSimulation(s, materials, options);
      const three = new FdtdSimulation(s, materials, { ...options, splitIndices: true });
      await one.prepare();
      await three.prepare();
      try {
        while (one.stepIndex < steps) one.step(steps);
        while (three.stepIndex < steps) three.step(steps);
        const worst = worstFieldDifference(await one.fields(), await three.fields());
        t.diagnostic(`${fieldStorage}, three bindings against one: ${worst} of the peak`);
        assert.equal(worst, 0);
        assert.ok((await one.energy()) > 0, "the fields are not all zero");
        assert.equal(await three.energy(), await one.energy());
        assert.deepEqual(await three.monitorSums(), await one.monitorSums());
      } finally {
        one.dispose();
        three.dispose();
      }
    }
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
