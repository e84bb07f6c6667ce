/**
 * `npm run bench:dispersion`: what dispersive cells cost the fast kernel. The same 3-D grid
 * (BENCH_CELLS³ cells with 12 CPML layers, 20 nm step) with a sphere filling ~5 % of it, once of
 * a constant dielectric and once of gold (the library's multi-pole Au, stepped with its poles
 * by the ADE pass, dispersion/ade.ts), on all threads; the figure is the ratio of the two
 * Mcell/s, measured alternately in the same run (best of BENCH_REPEATS each). Goal (issue 14):
 * gold at ≥ 80 % of the dielectric-only figure.
 *
 * Environment: BENCH_CELLS (128), BENCH_STEPS (400), BENCH_REPEATS (8), BENCH_THREADS (all
 * cores), BENCH_BACKEND (`wasm`, or `webgpu` for the GPU backend on the adapter it finds).
 */
import { availableParallelism, cpus } from "node:os";
import type { BackendName } from "../src/solver/backend.js";
import { describeAdapter } from "../src/solver/webgpu/device.js";
import { initSolverBackend, runSimulation } from "../src/solver/index.js";
import type { SimulationSpec } from "../src/solver/types.js";

const CELLS = Number(process.env.BENCH_CELLS ?? 128);
const STEPS = Number(process.env.BENCH_STEPS ?? 400);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 8);
const THREADS = Number(process.env.BENCH_THREADS ?? availableParallelism());
const BACKEND = (process.env.BENCH_BACKEND ?? "wasm") as BackendName;
const STEP_M = 20e-9;
const PML = 12;

function spec(material: string, materials: SimulationSpec["materials"]): SimulationSpec {
  const interior = (CELLS - 2 * PML) * STEP_M;
  // 5 % of the whole grid's volume.
  const radius = Math.cbrt((0.05 * 3) / (4 * Math.PI)) * CELLS * STEP_M;
  return {
    solver: "fdtd",
    domain: {
      size: [interior, interior, interior],
      resolution: STEP_M,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: PML,
    },
    source: {
      source_type: "plane_wave",
      wavelength: 0.8e-6,
      polarization: "te",
      direction: [0, 0, 1],
      amplitude: 1,
    },
    structures: [{ type: "sphere", center: [0, 0, 0], radius, material }],
    ...(materials ? { materials } : {}),
    monitors: [
      {
        name: "transmitted",
        monitor_type: "flux",
        center: [0, 0, interior / 3],
        size: [interior, interior, 0],
        wavelengths: { start: 0.6e-6, stop: 1.0e-6, points: 21 },
      },
    ],
    fdtd_settings: {
      time_steps: STEPS,
      courant_factor: 0.9,
      convergence_threshold: 0,
      check_every_n: 100,
    },
  };
}

const cases = [
  {
    name: "dielectric sphere (n = 1.5, constant)",
    spec: spec("glass", { glass: { permittivity: 2.25 } }),
  },
  { name: "gold sphere (library Au, poles)", spec: spec("Au", undefined) },
];

const backend = await initSolverBackend(BACKEND);
const on = backend.adapter
  ? `webgpu on ${describeAdapter(backend.adapter)}`
  : `${backend.name}, ${THREADS} threads`;
console.log(
  `# bench:dispersion — ${new Date().toISOString()}, ${cpus()[0]?.model ?? "unknown CPU"}, ` +
    `${on}, ${CELLS}³ cells, ${STEPS} steps, best of ${REPEATS}\n`,
);
const best = cases.map(() => 0);
let auPoles = 0;
for (let r = 0; r < REPEATS; r++) {
  for (let i = 0; i < cases.length; i++) {
    const result = await runSimulation(cases[i].spec, { backend: BACKEND, threads: THREADS });
    best[i] = Math.max(best[i], result.report.mcellsPerSecond);
    const au = result.materials.find((m) => m.name === "Au");
    if (au && au.timeDomain !== "perfect_conductor") auPoles = au.poleModel?.poles.length ?? 0;
  }
}
console.log("| case | Mcell/s (best) |");
console.log("| --- | --- |");
cases.forEach((c, i) => console.log(`| ${c.name} | ${best[i].toFixed(0)} |`));
console.log(
  `\ngold / dielectric: ${((100 * best[1]) / best[0]).toFixed(1)} % ` +
    `(goal ≥ 80 %; Au has ${auPoles} poles)`,
);
