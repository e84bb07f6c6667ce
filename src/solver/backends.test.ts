/**
 * Backend choice and limits (backend.ts, backends.ts): configuration names a backend, the run
 * report names the one that ran, and the estimate and the simulation ask the chosen backend
 * for its memory bound instead of assuming the wasm32 one.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { largestCube } from "./backend.js";
import {
  initSolverBackend,
  resolvedChoice,
  solverBackend,
  wasmBackendSupported,
} from "./backends.js";
import { findGpuAdapter } from "./webgpu/device.js";
import { gpuBindingLimit } from "./webgpu/engine.js";
import { estimateRun } from "./estimate.js";
import { runWithMaterials } from "./run.js";
import { FdtdSimulation } from "./simulation.js";
import { constantMaterials, lineSpec, pointMonitor } from "./testing/index.js";
import { webgpuSkipReason } from "./testing/require-webgpu.js";
import type { SimulationSpec } from "./types.js";

/** A cube of `cells`³ grid cells with 12 PML layers on every face and 40 nm cells. */
function cube(cells: number): SimulationSpec {
  const spec = lineSpec({
    axis: 2,
    wavelengthM: 1e-6,
    stepM: 40e-9,
    lengthM: (cells - 24) * 40e-9,
    crossCells: cells - 24,
    timeSteps: 10,
  });
  spec.domain.boundary_conditions = ["pml", "pml", "pml"];
  return spec;
}

describe("solver backends", () => {
  it("auto picks wasm where SIMD and shared memory exist; names resolve; unknown throws", () => {
    assert.equal(wasmBackendSupported(), true, "Node 20 on this machine has WASM SIMD");
    assert.equal(solverBackend("auto").name, "wasm");
    assert.equal(solverBackend("wasm").name, "wasm");
    assert.equal(solverBackend("reference").name, "reference");
    assert.throws(() => solverBackend("webgl" as never), /unknown solver backend "webgl"/);
  });

  it("other threads get auto as resolved here, so that none of them looks for a GPU again", () => {
    // The worker hands its solver threads this: a thread ended while Dawn was looking for an
    // adapter took the whole process down (seen in CI as a client test file that failed after
    // all its tests passed).
    assert.equal(resolvedChoice("auto"), solverBackend("auto").name);
    assert.equal(resolvedChoice("auto"), "wasm");
    for (const name of ["wasm", "reference", "webgpu"] as const)
      assert.equal(resolvedChoice(name), name);
  });

  it("reports the largest grid each holds: ~541³ (427³ oblique) for wasm32, ~1022³ for JS arrays", () => {
    // wasm: 24 B per cell (48 with two field sets) in one 4 GiB memory.
    assert.equal(largestCube(solverBackend("wasm"), false), 541);
    assert.equal(largestCube(solverBackend("wasm"), true), 427);
    // reference: one Float32Array per component, at most 4 GiB each: (n + 2)³ ≤ 2³⁰.
    assert.equal(largestCube(solverBackend("reference"), false), 1022);
  });

  it("the estimate applies the chosen backend's bound", () => {
    const big = estimateRun(cube(600));
    assert.equal(big.backend, "wasm");
    assert.ok(big.backendBytes > big.backendLimitBytes, "600³ does not fit in wasm32 memory");
    assert.equal(big.backendLimitBytes, 2 ** 32);
    assert.equal(big.backendLargestCube, 541);
    const ref = estimateRun(cube(600), "reference");
    assert.equal(ref.backend, "reference");
    assert.ok(ref.backendBytes <= ref.backendLimitBytes, "600³ fits JS arrays");
    assert.equal(ref.backendBytes, 4 * 602 ** 3);
    const fits = estimateRun(cube(540));
    assert.ok(fits.backendBytes <= fits.backendLimitBytes);
  });

  it("a simulation refuses a grid its backend cannot hold before building the medium", () => {
    const materials = constantMaterials({});
    assert.throws(
      () => new FdtdSimulation(cube(600), materials, { backend: "wasm" }),
      /needs 5\.\d+ GiB of kernel memory.*wasm backend holds at most 4 GiB \(about 541³ cells/,
    );
    // The reference backend holds it (nothing is allocated before prepare()).
    const sim = new FdtdSimulation(cube(600), materials, { backend: "reference" });
    assert.equal(sim.backend.name, "reference");
  });

  it("the report names the backend that ran, with its threads and steps per sweep", async () => {
    const spec = lineSpec({
      axis: 2,
      wavelengthM: 1e-6,
      stepM: 1e-6 / 20,
      lengthM: 2e-6,
      monitors: [pointMonitor("p", 2, 0, ["Ey"])],
      timeSteps: 200,
      threshold: 0,
      checkEvery: 100,
    });
    const materials = constantMaterials({});
    const ref = await runWithMaterials(spec, materials, { backend: "reference" });
    assert.deepEqual(
      [ref.report.kernel, ref.report.threads, ref.report.stepsPerSweep],
      ["reference", 1, 1],
    );
    const wasm = await runWithMaterials(spec, materials, { backend: "wasm", threads: 1 });
    assert.equal(wasm.report.kernel, "wasm");
    assert.equal(wasm.report.threads, 1);
  });

  // Last: it resolves `auto` for the rest of the process.
  it("webgpu is found at start-up; auto never takes a software adapter; its bound is the adapter's", async (t) => {
    assert.throws(() => solverBackend("webgpu"), /found at start-up: await initSolverBackend/);
    const probe = await findGpuAdapter(true);
    if (!probe.adapter) {
      t.skip(webgpuSkipReason(probe.reason));
      return;
    }
    const { report, limits } = probe.adapter;
    t.diagnostic(`adapter: ${report.device} (${report.description}), software ${report.software}`);
    const auto = await initSolverBackend("auto");
    assert.equal(auto.name, report.software ? "wasm" : "webgpu");
    const gpu = await initSolverBackend("webgpu");
    assert.equal(gpu.name, "webgpu");
    assert.equal(solverBackend("webgpu"), gpu);
    assert.deepEqual(gpu.adapter, report);
    // The largest buffer: where the adapter binds ten storage buffers (llvmpipe and the GPUs
    // tried bind sixteen) a float32 field component, the material indices then one buffer per
    // component (material-index.ts), 4 B per padded cell; else the indices in one buffer, 6 B.
    const limit = gpuBindingLimit(limits);
    const n = largestCube(gpu, false);
    const perCell = limits.maxStorageBuffersPerShaderStage >= 10 ? 4 : 6;
    const [fits, over] = [(n + 2) ** 3, (n + 3) ** 3].map((cells) => perCell * cells);
    assert.ok(fits! <= limit && over! > limit, `${n}³ for ${limit} B`);
    assert.throws(
      () => new FdtdSimulation(cube(n + 40), constantMaterials({}), { backend: "webgpu" }),
      /of its largest GPU storage buffer.*webgpu backend holds at most/,
    );
    // A grid that fits, with a monitor over all of it whose running sums (16 B per point,
    // component and wavelength, in one buffer) do not: counted before the run, not an
    // internal error at its set-up (an outside audit).
    const small = cube(Math.max(40, Math.floor(n / 4)));
    const [nx, ny, nz] = small.domain.size;
    const whole = {
      ...small,
      monitors: [
        {
          name: "all",
          monitor_type: "field",
          center: [0, 0, 0],
          size: [nx, ny, nz],
          components: ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"],
          wavelengths: { start: 0.9e-6, stop: 1.1e-6, points: 64 },
        },
      ],
    } as SimulationSpec;
    const e = estimateRun(whole, "webgpu");
    assert.ok(
      e.backendBytes > e.backendLimitBytes,
      `${e.backendBytes} B of ${e.backendLimitBytes}`,
    );
    assert.match(e.backendMemoryWhat, /the monitors' running sums/);
    assert.ok(estimateRun(small, "webgpu").backendBytes <= e.backendLimitBytes);
  });
});
