/**
 * One case of `npm run bench:solver`, run in its own process so that its peak RSS is its own:
 *   node --import tsx bench/solver-case.ts '{"kind":"wasm","cells":256,"threads":2,"steps":40}'
 *   node --import tsx bench/solver-case.ts '{"kind":"bandwidth","threads":[1,2]}'
 * Prints one JSON line.
 */
import { bytesPerCellUpdate, planFastMemory } from "../src/solver/fast/memory-plan.js";
import { planGrid, YeeLayout } from "../src/solver/grid.js";
import { runSimulation } from "../src/solver/index.js";
import { measureBandwidth } from "./bandwidth.js";
import { benchSpec, PML_LAYERS, type SolverCase } from "./solver-spec.js";

async function solverCase(c: SolverCase) {
  const spec = benchSpec(c.cells, c.steps);
  // The design's memory plan for this grid (material runs left out: a few kB here).
  const plan = planGrid(spec.domain, spec.fdtd_settings.courant_factor);
  const layout = new YeeLayout(
    [plan.axes[0].cells, plan.axes[1].cells, plan.axes[2].cells],
    [plan.axes[0].boundary, plan.axes[1].boundary, plan.axes[2].boundary],
  );
  const pml = plan.axes.map((a) => ({ lo: a.pmlLo, hi: a.pmlHi }));
  const memoryPlan = planFastMemory(layout, pml, 8, [0, 0, 0], 1);
  const interiorCells = (c.cells - 2 * PML_LAYERS) ** 3;
  const t0 = performance.now();
  const r = await runSimulation(spec, { backend: c.kind, threads: c.threads });
  return {
    ...c,
    gridCells: layout.cells,
    interiorCells,
    stepsRun: r.report.stepsRun,
    threadsUsed: r.report.threads,
    kernel: r.report.kernel,
    mcellsPerSecond: r.report.mcellsPerSecond,
    wallSeconds: r.report.wallSeconds,
    setupSeconds:
      (performance.now() - t0) / 1000 -
      (r.report.cells * r.report.stepsRun) / (r.report.mcellsPerSecond * 1e6),
    bytesPerCellUpdate: bytesPerCellUpdate(memoryPlan, layout),
    kernelBytes: memoryPlan.totalBytes,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    stepsPerSweep: r.report.stepsPerSweep,
  };
}

const arg = JSON.parse(process.argv[2] ?? "{}") as
  SolverCase | { kind: "bandwidth"; threads: number[] };
const result =
  arg.kind === "bandwidth" ? await measureBandwidth(arg.threads) : await solverCase(arg);
console.log(JSON.stringify(result));
