/**
 * The WebGPU backend's float16 field storage against the reference backend (agreement.test.ts
 * says how the backends are compared).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FdtdSimulation } from "../simulation.js";
import { runWithMaterials } from "../run.js";
import { constantMaterials, lineSpec, pointMonitor, slab } from "../testing/index.js";
import {
  AGREEMENT_MATERIALS as materials,
  worstFieldDifference,
  worstMonitorDifference,
  type AgreementCase,
} from "../testing/agreement.js";
import { CASES, referenceRun, skip, spec } from "../testing/webgpu-agreement.js";
import { fieldEnergy } from "../yee.js";

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
    assert.ok(!r16.report.notes.some((n) => /dispersive/.test(n)), "no dispersive material");
    const [a, b] = [r32, r16].map((r) => r.monitors[0].data.Ey!);
    const difference = Math.hypot(a[0] - b[0], a[1] - b[1]) / Math.hypot(a[0], a[1]);
    t.diagnostic(
      `${r16.report.stepsRun} steps (float32 ${r32.report.stepsRun}), T off by ${difference.toExponential(2)}`,
    );
    assert.ok(difference < 1e-3, `${difference}`);
  });

  it("says that it does not hold dispersive materials to float32's accuracy", async () => {
    // Every case has the dispersive sphere (its ADE pass).
    const r = await runWithMaterials(spec(CASES[1], 20), materials, float16);
    assert.ok(
      r.report.notes.some((n) => /float16 .*dispersive materials/.test(n)),
      r.report.notes.join("\n"),
    );
  });
});
