/**
 * One case of `npm run bench:solver`, run in its own process so that its peak RSS is its own:
 *   node --import tsx bench/solver-case.ts '{"kind":"wasm","cells":256,"threads":2,"steps":40}'
 *   node --import tsx bench/solver-case.ts '{"kind":"bandwidth","threads":[1,2]}'
 *   node --import tsx bench/solver-case.ts '{"kind":"webgpu","cells":128,"threads":1,"steps":5}'
 *   node --import tsx bench/solver-case.ts '{"kind":"wasm","cells":128,"threads":2,"steps":200,
 *     "source":"point_dipole","monitor":"far_field_box"}'
 *   node --import tsx bench/solver-case.ts '{"kind":"gpu-probe"}'
 *   node --import tsx bench/solver-case.ts '{"kind":"gpu-bandwidth"}'
 *   node --import tsx bench/solver-case.ts '{"kind":"webgpu","cells":128,"threads":1,"steps":50,
 *     "profile":true}'
 * Prints one JSON line. `profile` (webgpu): time each kind of pass on the GPU (the run's
 * `profilePasses` option; slower). The gpu-bandwidth case also takes `maxBytes` and
 * `maxGroupsPerDimension` (bench/gpu-bandwidth.ts), to try it small.
 */
import { bytesPerCellUpdate, planFastMemory } from "../src/solver/wasm/memory-plan.js";
import { planGrid, YeeLayout } from "../src/solver/grid.js";
import { initSolverBackend, libraryMaterials } from "../src/solver/index.js";
import { withUserMaterials } from "../src/solver/dispersion/user.js";
import { runWithMaterials } from "../src/solver/run.js";
import type { SimulationSpec, SolverProgress } from "../src/solver/types.js";
import { MIE_CASES, mieSpec } from "../src/solver/testing/mie-case.js";
import { findGpuAdapter } from "../src/solver/webgpu/device.js";
import { BYTES_PER_CELL_UPDATE } from "../src/solver/webgpu/shaders.js";
import { measureBandwidth } from "./bandwidth.js";
import { measureGpuBandwidth, type GpuBandwidthOptions } from "./gpu-bandwidth.js";
import { benchSpec, PML_LAYERS, type SolverCase } from "./solver-spec.js";

/**
 * A solver case; `profile`: the webgpu backend times its passes, `bulkShape`: the shape of its
 * bulk passes (both InternalRunOptions).
 */
type BenchCase = SolverCase & {
  profile?: boolean;
  bulkShape?: { x: number; y: number };
  /** In place of the bench grid, a real job's (jobSpec). */
  job?: BenchJob;
};

/**
 * A real job: the 100 nm gold sphere of the Mie validation (scripts/validation/mie.ts gold
 * 1.25 10: a 10 nm grid graded to 1.25 nm over the sphere and its flux box, a TFSF plane wave,
 * 12 wavelengths, the library's 6-pole gold, a convergence check every 200 steps that never
 * stops it here), or the same grid and monitors with no sphere ("empty"), or the gold sphere
 * on a quarter of the grid (domain.symmetry).
 */
type BenchJob = "gold" | "empty" | "gold-quarter";

function jobSpec(job: BenchJob, steps: number): SimulationSpec {
  const spec = mieSpec(MIE_CASES.gold, 1.25e-9, 10e-9, job === "gold-quarter");
  return {
    ...spec,
    structures: job === "empty" ? [] : spec.structures,
    fdtd_settings: { ...spec.fdtd_settings, time_steps: steps, convergence_threshold: 1e-30 },
  };
}

async function solverCase(c: BenchCase) {
  const spec = c.job ? jobSpec(c.job, c.steps) : benchSpec(c.cells, c.steps, c.source, c.monitor);
  // The design's memory plan for this grid (material runs left out: a few kB here).
  const plan = planGrid(spec.domain, spec.fdtd_settings.courant_factor);
  const layout = new YeeLayout(
    [plan.axes[0].cells, plan.axes[1].cells, plan.axes[2].cells],
    [plan.axes[0].boundary, plan.axes[1].boundary, plan.axes[2].boundary],
  );
  const pml = plan.axes.map((a) => ({ lo: a.pmlLo, hi: a.pmlHi }));
  const memoryPlan = planFastMemory(layout, pml, 8, [0, 0, 0], 1);
  const interiorCells = (c.cells - 2 * PML_LAYERS) ** 3;
  if (c.kind === "webgpu") await initSolverBackend("webgpu");
  // The process's CPU time at the progress reports while stepping: on a loaded machine the
  // wall time counts the other processes' turns on the cores too, the CPU time much less.
  const cpu: { step: number; seconds: number }[] = [];
  const onProgress = (p: SolverProgress) => {
    if (p.phase !== "stepping" || p.step === 0) return;
    const { user, system } = process.cpuUsage();
    cpu.push({ step: p.step, seconds: (user + system) / 1e6 });
  };
  const t0 = performance.now();
  // What runSimulation does, with the internal option `profilePasses` where asked for.
  const r = await runWithMaterials(spec, withUserMaterials(libraryMaterials, spec.materials), {
    backend: c.kind,
    threads: c.threads,
    onProgress,
    ...(c.profile ? { profilePasses: true } : {}),
    ...(c.bulkShape ? { bulkShape: c.bulkShape } : {}),
  });
  const totalSeconds = (performance.now() - t0) / 1000;
  const [first, last] = [cpu[0], cpu[cpu.length - 1]];
  const cpuMcellsPerSecond =
    first && last && last.step > first.step
      ? (layout.cells * (last.step - first.step)) / (last.seconds - first.seconds) / 1e6
      : null;
  return {
    ...c,
    gridCells: layout.cells,
    interiorCells,
    stepsRun: r.report.stepsRun,
    threadsUsed: r.report.threads,
    kernel: r.report.kernel,
    mcellsPerSecond: r.report.mcellsPerSecond,
    // Cell updates per second of the process's CPU time (all its threads) between the first
    // and the last progress report while stepping; null with fewer than two reports.
    cpuMcellsPerSecond,
    wallSeconds: r.report.wallSeconds,
    setupSeconds:
      totalSeconds - (r.report.cells * r.report.stepsRun) / (r.report.mcellsPerSecond * 1e6),
    // The report's wall time ends with the last step: what follows it is the result's assembly
    // (monitor sums read back, normalised, flux summed, far fields projected) and clean-up.
    resultSeconds: totalSeconds - r.report.wallSeconds,
    stepping: r.report.stepping,
    bytesPerCellUpdate:
      c.kind === "webgpu" ? BYTES_PER_CELL_UPDATE : bytesPerCellUpdate(memoryPlan, layout),
    adapter: r.report.adapter,
    kernelBytes: memoryPlan.totalBytes,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    stepsPerSweep: r.report.stepsPerSweep,
  };
}

/** The adapter `webgpu` would run on (software ones included), or why there is none. */
async function gpuProbe() {
  const probe = await findGpuAdapter(true);
  return probe.adapter
    ? { adapter: probe.adapter.report }
    : { adapter: null, reason: probe.reason };
}

const arg = JSON.parse(process.argv[2] ?? "{}") as
  | BenchCase
  | { kind: "bandwidth"; threads: number[] }
  | { kind: "gpu-probe" }
  | ({ kind: "gpu-bandwidth" } & GpuBandwidthOptions);
const result =
  arg.kind === "bandwidth"
    ? await measureBandwidth(arg.threads)
    : arg.kind === "gpu-probe"
      ? await gpuProbe()
      : arg.kind === "gpu-bandwidth"
        ? await measureGpuBandwidth(arg)
        : await solverCase(arg);
console.log(JSON.stringify(result));
