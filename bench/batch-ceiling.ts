/**
 * What two cores give two solvers with no service around them: `bench:batch`'s jobs run by
 * plain processes calling the solver, one job after another, first one process
 * with every job, then two processes with half each at once. Their speed-up is the most a second
 * worker could add on this machine (bench/batch.ts prints it beside the service's).
 *
 *   node --import tsx bench/batch-ceiling.ts <jobs> <steps> [first] [count]
 *     (without first/count: runs the two rounds and prints the wall times as JSON)
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { applyDefaults } from "../src/schema/validate.js";
import { runSimulation } from "../src/solver/entry-points.js";

/** The jobs of bench/batch.ts: a strip's 2-D cross-section, every width different. */
export function stripJob(width: number, steps: number) {
  return {
    solver: "fdtd",
    domain: {
      size: [3e-6, 2e-6, 20e-9],
      resolution: 20e-9,
      boundary_conditions: ["pml", "pml", "periodic"],
      pml_layers: 10,
    },
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [1, 0, 0] },
    structures: [
      { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "SiO2" },
      { type: "box", center: [0.5e-6, 0, 0], size: [1e-6, width, 10], material: "Si" },
    ],
    monitors: [
      {
        name: "T",
        monitor_type: "flux",
        center: [1.2e-6, 0, 0],
        size: [0, 2e-6, 20e-9],
        wavelengths: { start: 1.5e-6, stop: 1.6e-6, points: 11 },
      },
    ],
    fdtd_settings: { time_steps: steps, check_every_n: 500, convergence_threshold: 0 },
  };
}

export function widthOf(i: number, jobs: number): number {
  return 0.4e-6 + (0.3e-6 * i) / (jobs - 1);
}

/**
 * Runs jobs first … first + count − 1 one after another in this process, one solver thread, and
 * prints when it started and ended (epoch ms): the parent times the jobs, not Node's start.
 */
async function runJobs(jobs: number, steps: number, first: number, count: number) {
  const start = performance.timeOrigin + performance.now();
  for (let i = first; i < first + count; i++) {
    await runSimulation(applyDefaults(stripJob(widthOf(i, jobs), steps) as never), {
      threads: 1,
    });
  }
  console.log(JSON.stringify({ start, end: performance.timeOrigin + performance.now() }));
}

/**
 * Seconds from the first process's first job to the last one's end, of processes each running
 * its share of the jobs, all started together.
 */
async function processes(jobs: number, steps: number, shares: [number, number][]) {
  const self = fileURLToPath(import.meta.url);
  const spans = await Promise.all(
    shares.map(
      ([first, count]) =>
        new Promise<{ start: number; end: number }>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            ["--import", "tsx", self, String(jobs), String(steps), String(first), String(count)],
            { stdio: ["ignore", "pipe", "inherit"] },
          );
          let out = "";
          child.stdout.on("data", (d: Buffer) => (out += d.toString()));
          child.on("exit", (code) =>
            code === 0 ? resolve(JSON.parse(out.trim())) : reject(new Error(`exit ${code}`)),
          );
        }),
    ),
  );
  return (Math.max(...spans.map((s) => s.end)) - Math.min(...spans.map((s) => s.start))) / 1000;
}

/** One process with every job, then two with half each: their wall seconds. */
export async function ceiling(jobs: number, steps: number) {
  const half = Math.floor(jobs / 2);
  const one = await processes(jobs, steps, [[0, jobs]]);
  const two = await processes(jobs, steps, [
    [0, half],
    [half, jobs - half],
  ]);
  return { one, two };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [jobs, steps, first, count] = process.argv.slice(2).map(Number);
  if (first !== undefined && count !== undefined) await runJobs(jobs!, steps!, first, count);
  else console.log(JSON.stringify(await ceiling(jobs!, steps!)));
}
