/**
 * `npm run bench:graded`: what a graded grid (mesh overrides) costs per cell, and what it saves.
 *
 *  1. Per cell-update: the bench:solver problem (a cube of BENCH_CELLS³ cells, 12 CPML layers,
 *     a Si3N4 box over the middle third, 40 nm cells) on a uniform grid, against the same with
 *     the box's cells refined to 20 nm by a mesh override. The wasm kernel steps a graded grid
 *     by its general span path (per-lane z inverse steps, no 1/h folded into the
 *     coefficients), so this is that path's price. Rounds alternate (BENCH_ROUNDS, default 3);
 *     the best rate of each is kept, as a shared host's load only ever slows a run down.
 *  2. Per answer: spheres against the Mie series on a uniform grid and on a coarser one refined
 *     over the sphere: cells, steps, wall time and the worst relative error of Q_ext. The
 *     dielectric sphere (n = 2, r = 0.2 µm) at 10 nm, uniform and from 20 nm; with
 *     BENCH_GOLD=1 also the 100 nm gold sphere at 2.5 nm, uniform and from 10 nm (minutes).
 * BENCH_THREADS (default 2) threads; figures in docs/benchmarks.md.
 */
import { cpus } from "node:os";
import { estimateRun, runSimulation } from "../src/solver/index.js";
import { MIE_CASES, mieCase, mieSpec, type MieCaseName } from "../src/solver/testing/mie-case.js";
import type { SimulationSpec } from "../src/solver/types.js";
import { benchSpec } from "./solver-spec.js";

const THREADS = Number(process.env.BENCH_THREADS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CELLS = Number(process.env.BENCH_CELLS ?? 128);
const STEPS = Number(process.env.BENCH_STEPS ?? 300);

console.log(
  `# bench:graded — ${new Date().toISOString()}, ${cpus()[0]?.model ?? "unknown CPU"}, ` +
    `${THREADS} threads\n`,
);

function refined(spec: SimulationSpec): SimulationSpec {
  const box = spec.structures[0];
  if (box.type !== "box") throw new Error("the bench problem's structure is a box");
  return {
    ...spec,
    domain: {
      ...spec.domain,
      mesh_overrides: [
        { center: box.center, size: box.size, resolution: spec.domain.resolution / 2 },
      ],
    },
  };
}

const uniform = benchSpec(CELLS, STEPS);
const graded = refined(uniform);
const best = { uniform: 0, graded: 0 };
const grids = { uniform: estimateRun(uniform).grid, graded: estimateRun(graded).grid };
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, spec] of [
    ["uniform", uniform],
    ["graded", graded],
  ] as const) {
    const r = await runSimulation(spec, { backend: "wasm", threads: THREADS });
    best[name] = Math.max(best[name], r.report.mcellsPerSecond);
    console.log(`round ${round + 1}, ${name}: ${r.report.mcellsPerSecond.toFixed(0)} Mcell/s`);
  }
}
console.log("\n| grid | cells | best Mcell/s | of uniform |");
console.log("| --- | --- | --- | --- |");
for (const name of ["uniform", "graded"] as const) {
  console.log(
    `| ${name} | ${grids[name].join(" × ")} | ${best[name].toFixed(0)} | ` +
      `${((100 * best[name]) / best.uniform).toFixed(1)} % |`,
  );
}

async function mie(name: MieCaseName, stepNm: number, baseNm: number) {
  const spec = mieSpec(MIE_CASES[name], stepNm * 1e-9, baseNm * 1e-9);
  const cells = estimateRun(spec).totalCells;
  const start = performance.now();
  const rows = await mieCase(name, stepNm * 1e-9, "wasm", baseNm * 1e-9);
  const seconds = (performance.now() - start) / 1000;
  const worst = Math.max(...rows.map((r) => Math.abs(r.qExt / r.mie.qExt - 1)));
  const grid = baseNm > stepNm ? `${baseNm} nm refined to ${stepNm} nm` : `${stepNm} nm uniform`;
  console.log(
    `| ${name} | ${grid} | ${cells.toLocaleString("en-US")} | ${seconds.toFixed(0)} s | ` +
      `${(100 * worst).toFixed(2)} % |`,
  );
}

console.log("\n| sphere | grid | cells | wall | worst Q_ext error |");
console.log("| --- | --- | --- | --- | --- |");
await mie("dielectric-small", 10, 10);
await mie("dielectric-small", 10, 20);
if (process.env.BENCH_GOLD === "1") {
  await mie("gold", 2.5, 2.5);
  await mie("gold", 2.5, 10);
}
