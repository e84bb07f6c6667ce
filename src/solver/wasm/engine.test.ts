/**
 * The wasm backend's plumbing: thread counts, the 4 GiB limit, a failed thread ending the run
 * with an error instead of a hang, threads stopping with the run, the report's figures, and
 * a large monitor's DFT shared between the threads.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { YeeLayout } from "../grid.js";
import { runWithMaterials } from "../run.js";
import { FdtdSimulation } from "../simulation.js";
import { boxSpec, constantMaterials, glassCubeSpec } from "../testing/index.js";
import type { SimulationSpec } from "../types.js";
import { Command, ControlBlock, KernelFailure } from "./barrier.js";
import { MIN_PARALLEL_DFT_PAIRS, threadsFor } from "./engine.js";
import { keptThreads } from "./pool.js";

const STEP = 50e-9;
const materials = constantMaterials({ glass: 2.25 });

function cube(cells: number, steps: number): SimulationSpec {
  const size = cells * STEP;
  return glassCubeSpec(cells, STEP, steps, [
    {
      name: "t",
      monitor_type: "field",
      center: [0, 0, size / 4],
      size: [size, size, 0],
      components: ["Ey"],
    },
  ]);
}

describe("fast engine", () => {
  it("uses the threads asked for, but no fewer than 64 Ki cells and 2 x-planes per thread", () => {
    const layout = (n: number) => new YeeLayout([n, n, n], ["pml", "pml", "pml"]);
    assert.equal(threadsFor(layout(128), 2, 65536), 2);
    assert.equal(threadsFor(layout(128), 64, 65536), 32);
    assert.equal(threadsFor(layout(40), 8, 65536), 1);
    assert.equal(threadsFor(layout(40), 8, 0), 8);
    assert.equal(threadsFor(new YeeLayout([3, 40, 40], ["pml", "pml", "pml"]), 8, 0), 2);
  });

  it("refuses grids whose kernel memory would pass 4 GiB, naming the limit", () => {
    const spec = cube(600, 10);
    assert.throws(() => new FdtdSimulation(spec, materials), /4 GiB/);
  });

  it("a barrier whose run failed throws instead of waiting", () => {
    const control = new ControlBlock(new SharedArrayBuffer(4096), 2);
    control.command = Command.Step;
    control.fail();
    assert.throws(() => control.arrive(), KernelFailure);
  });

  it("a failed kernel thread ends the step with an error, and dispose still returns", async () => {
    const sim = new FdtdSimulation(cube(40, 10), materials, { threads: 2, minCellsPerThread: 0 });
    await sim.prepare();
    try {
      sim.step();
      // What a worker does when its task throws (thread.ts).
      (sim.stepper as unknown as { control: ControlBlock }).control.fail();
      assert.throws(() => sim.step(), /fast kernel failed/);
    } finally {
      sim.dispose();
    }
  });

  it("keeps a run's kernel threads for the next run, and ends those of a failed run", async () => {
    const twoThreads = { threads: 2, minCellsPerThread: 0 };
    const first = await runWithMaterials(cube(24, 8), materials, twoThreads);
    assert.equal(first.report.threads, 2);
    const kept = await keptThreads();
    assert.ok(kept.length >= 1, "the first run's thread is kept");
    const again = await runWithMaterials(cube(24, 8), materials, twoThreads);
    assert.equal(again.report.threads, 2);
    assert.deepEqual(await keptThreads(), kept, "the second run ran on the kept thread");
    const sim = new FdtdSimulation(cube(24, 8), materials, twoThreads);
    await sim.prepare();
    assert.equal((await keptThreads()).length, kept.length - 1, "the run took a kept thread");
    (sim.stepper as unknown as { control: ControlBlock }).control.fail();
    assert.throws(() => sim.step(), /fast kernel failed/);
    sim.dispose();
    const after = await keptThreads();
    assert.ok(!after.some((id) => !kept.includes(id)), "no new thread kept");
    assert.equal(after.length, kept.length - 1, "the failed run's thread is not kept");
  });

  it("reports kernel, threads and stepping-only Mcell/s, and leaves no thread behind", async () => {
    const r = await runWithMaterials(cube(40, 40), materials, {
      threads: 2,
      minCellsPerThread: 0,
    });
    assert.equal(r.report.kernel, "wasm");
    assert.equal(r.report.threads, 2);
    assert.equal(r.report.stepsRun, 40);
    const cells = r.report.grid[0] * r.report.grid[1] * r.report.grid[2];
    assert.equal(r.report.cells, cells);
    // Stepping time only: implied seconds below the wall time, which includes set-up.
    const stepping = (cells * r.report.stepsRun) / (r.report.mcellsPerSecond * 1e6);
    assert.ok(
      stepping > 0 && stepping < r.report.wallSeconds,
      `${stepping} s vs ${r.report.wallSeconds} s`,
    );
    const reference = await runWithMaterials(cube(40, 40), materials, { backend: "reference" });
    assert.equal(reference.report.threads, 1);
    assert.equal(reference.report.kernel, "reference");
  });

  it("threads sharing a large monitor's DFT give one thread's phasors bit for bit", async () => {
    // Four components over a 40 × 40 plane at 8 wavelengths: past the size where the threads
    // share each sample's points (engine.ts MIN_PARALLEL_DFT_PAIRS). Normal incidence (real
    // fields) and oblique incidence through Bloch-periodic x and y (two field sets).
    const size = 40 * STEP;
    const monitor: SimulationSpec["monitors"][number] = {
      name: "t",
      monitor_type: "field",
      center: [0, 0, size / 4],
      size: [size, size, 0],
      components: ["Ex", "Ey", "Hx", "Hy"],
      wavelengths: { start: 16 * STEP, stop: 24 * STEP, points: 8 },
    };
    const normal = { ...cube(40, 160), monitors: [monitor] };
    const oblique = boxSpec({
      sizeM: [size, size, size],
      stepM: STEP,
      wavelengthM: 20 * STEP,
      boundaries: ["periodic", "periodic", "pml"],
      direction: [0.3, 0.2, 0.93],
      monitors: [monitor],
      timeSteps: 160,
    });
    for (const spec of [normal, oblique]) {
      const one = await runWithMaterials(spec, materials, { threads: 1 });
      const two = await runWithMaterials(spec, materials, { threads: 2, minCellsPerThread: 0 });
      assert.equal(two.report.threads, 2);
      const [a, b] = [one.monitors[0]!, two.monitors[0]!];
      // shape is [wavelengths, nx, ny, nz]: (point, wavelength) pairs per component.
      const pairs = a.shape.reduce((p, n) => p * n, 1);
      assert.ok(4 * pairs >= MIN_PARALLEL_DFT_PAIRS, `${pairs} pairs per component`);
      for (const c of ["Ex", "Ey", "Hx", "Hy"] as const) {
        const [x, y] = [a.data[c]!, b.data[c]!];
        assert.ok(
          x.some((v) => v !== 0),
          `${c} recorded`,
        );
        assert.deepEqual(y, x, `${c}: the same phasors`);
      }
    }
  });
});
