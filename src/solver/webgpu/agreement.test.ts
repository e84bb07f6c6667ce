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
 * tests themselves (testing/backends.ts): on a software adapter in the full tier only
 * (`npm run test:full`), where `npm test` leaves the GPU's kernels to these files. This file: the monitors of every case;
 * agreement-fields.test.ts: every field value, the GPU's own reductions and the report;
 * agreement-float16.test.ts: float16 storage.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runWithMaterials } from "../run.js";
import { AGREEMENT_MATERIALS as materials, worstMonitorDifference } from "../testing/agreement.js";
import { CASES, found, referenceRun, skip, spec, TOLERANCE } from "../testing/webgpu-agreement.js";
import { describeAdapter } from "./device.js";

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
});
