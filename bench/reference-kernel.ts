/**
 * Throughput of the reference kernel's bulk update (no CPML, no source), in million
 * cell-updates per second (one cell-update = the H and the E half step of one cell):
 *   npx tsx bench/reference-kernel.ts [cells per axis = 96] [steps = 20]
 * Run on an otherwise idle machine; the figures in docs/solver.md came from this script.
 */
import { planGrid, YeeLayout } from "../src/solver/grid.js";
import { referenceKernel } from "../src/solver/kernel.js";
import { buildMedium } from "../src/solver/medium.js";
import { buildGridModel, YeeGrid } from "../src/solver/yee.js";

const n = Number(process.argv[2] ?? 96);
const steps = Number(process.argv[3] ?? 20);
const step = 10e-9;
const plan = planGrid(
  {
    size: [n * step, n * step, n * step],
    resolution: step,
    boundary_conditions: ["periodic", "periodic", "periodic"],
    pml_layers: 0,
  },
  0.99,
);
const layout = new YeeLayout([n, n, n], ["periodic", "periodic", "periodic"]);
const grid = new YeeGrid(
  buildGridModel(plan, layout, buildMedium(plan, layout, { epsRe: 2, sigma: 0 }, []), {
    omega0: 1e15,
  }),
);
for (const f of grid.re.c) for (let i = 0; i < f.length; i++) f[i] = Math.random() - 0.5;
for (let rep = 0; rep < 3; rep++) {
  const t0 = performance.now();
  for (let s = 0; s < steps; s++) {
    referenceKernel.updateH(grid.kernelGrid, grid.re, 0, n + 1);
    referenceKernel.updateE(grid.kernelGrid, grid.re, 0, n + 1);
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(`${n}³, ${steps} steps: ${((n ** 3 * steps) / seconds / 1e6).toFixed(1)} Mcell/s`);
}
