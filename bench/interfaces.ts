/**
 * `npm run bench:interfaces`: what material interfaces cost the fast kernel (issue #15).
 *
 * A 160³ grid (12 CPML layers, 20 nm cells, a plane wave along z, a plane monitor) empty and
 * with Si3N4 spheres in a cubic lattice over the interior (1, 5³ and 10³ spheres of 0.45 of
 * the pitch, 10³ of 0.2), stepped 300 times on BENCH_THREADS threads (default 2) by the wasm
 * backend, with the mixed pieces of wasm/runs.ts (the default) and without them (every
 * material change ends a span, as before them). Every smoothed interface cell is an entry
 * of its own, so without mixed pieces a row through a sphere's surface is cut into spans of
 * one cell.
 *
 * The cases run in one process, one after another, in BENCH_ROUNDS rounds (default 2; the
 * best rate of each case is kept, as a shared host's load only ever slows a run down).
 * Mcell/s is report.mcellsPerSecond (stepping time only). "ns per interface cell" is the
 * time a case takes per step beyond the empty grid's, divided by its interface cells,
 * counted as 4π r² / h² per sphere (the cells a sphere's surface cuts).
 */
import { runSimulation } from "../src/solver/index.js";
import { boxSpec } from "../src/solver/testing/index.js";
import type { RunOptions, SimulationSpec, StructureSpec } from "../src/solver/types.js";

const THREADS = Number(process.env.BENCH_THREADS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const STEPS = Number(process.env.BENCH_STEPS ?? 300);
const STEP_M = 20e-9;
const CELLS = 160;
const PML = 12;
const INTERIOR_M = (CELLS - 2 * PML) * STEP_M;

interface Case {
  name: string;
  /** Spheres per axis of the lattice (0: none) and radius as a fraction of the pitch. */
  perAxis: number;
  radiusFraction: number;
}

const CASES: Case[] = [
  { name: "empty", perAxis: 0, radiusFraction: 0 },
  { name: "1 sphere, r = 61 cells", perAxis: 1, radiusFraction: 0.45 },
  { name: "5³ spheres, r = 12 cells", perAxis: 5, radiusFraction: 0.45 },
  { name: "10³ spheres, r = 6 cells", perAxis: 10, radiusFraction: 0.45 },
  { name: "10³ spheres, r = 2.7 cells", perAxis: 10, radiusFraction: 0.2 },
];

function spheres(c: Case): StructureSpec[] {
  const pitch = INTERIOR_M / Math.max(1, c.perAxis);
  const at = (n: number) => -INTERIOR_M / 2 + (n + 0.5) * pitch;
  const out: StructureSpec[] = [];
  for (let i = 0; i < c.perAxis; i++) {
    for (let j = 0; j < c.perAxis; j++) {
      for (let k = 0; k < c.perAxis; k++) {
        out.push({
          type: "sphere",
          center: [at(i), at(j), at(k)],
          radius: c.radiusFraction * pitch,
          material: "Si3N4",
        });
      }
    }
  }
  return out;
}

/** Cells the spheres' surfaces cut: 4π r² / h² each. */
function interfaceCells(c: Case): number {
  const radiusCells = (c.radiusFraction * INTERIOR_M) / Math.max(1, c.perAxis) / STEP_M;
  return c.perAxis ** 3 * 4 * Math.PI * radiusCells ** 2;
}

function spec(c: Case): SimulationSpec {
  const size = INTERIOR_M;
  return boxSpec({
    sizeM: [size, size, size],
    stepM: STEP_M,
    wavelengthM: 1.55e-6,
    pmlLayers: PML,
    structures: spheres(c),
    monitors: [
      {
        name: "m",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [size, size, 0],
        components: ["Ex"],
      },
    ],
    timeSteps: STEPS,
    checkEvery: 1000,
  });
}

const variants = [
  { label: "mixed pieces", mixedPieces: true },
  { label: "one span per run", mixedPieces: false },
];
/** Best Mcell/s per case and variant, and the grid's cells. */
const best = new Map<string, number>();
let gridCells = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const c of CASES) {
    for (const v of variants) {
      // mixedPieces is an internal option of the wasm backend (simulation.ts).
      const options = { threads: THREADS, mixedPieces: v.mixedPieces } as RunOptions;
      const r = await runSimulation(spec(c), options);
      const [nx, ny, nz] = r.report.grid;
      gridCells = nx * ny * nz;
      const key = `${c.name}|${v.label}`;
      best.set(key, Math.max(best.get(key) ?? 0, r.report.mcellsPerSecond));
      process.stderr.write(
        `round ${round + 1}: ${c.name}, ${v.label}: ${r.report.mcellsPerSecond.toFixed(0)} Mcell/s\n`,
      );
    }
  }
}

console.log(
  `# bench:interfaces — ${new Date().toISOString()}, ${THREADS} threads, ${STEPS} steps, ` +
    `best of ${ROUNDS} rounds, Node ${process.version}\n`,
);
console.log(
  `| case | interface cells | ${variants.map((v) => `${v.label}: Mcell/s | of empty | ns per interface cell`).join(" | ")} |`,
);
console.log(`|---|---|${variants.map(() => "---|---|---|").join("")}`);
for (const c of CASES) {
  const cols = variants.map((v) => {
    const rate = best.get(`${c.name}|${v.label}`)!;
    const empty = best.get(`empty|${v.label}`)!;
    const extraSeconds = gridCells * (1 / (rate * 1e6) - 1 / (empty * 1e6));
    const perInterface =
      c.perAxis > 0 ? `${((extraSeconds / interfaceCells(c)) * 1e9).toFixed(1)}` : "–";
    return `${rate.toFixed(0)} | ${((100 * rate) / empty).toFixed(0)} % | ${perInterface}`;
  });
  const iface = c.perAxis > 0 ? Math.round(interfaceCells(c)).toLocaleString("en") : "0";
  console.log(`| ${c.name} | ${iface} | ${cols.join(" | ")} |`);
}
