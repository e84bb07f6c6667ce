/**
 * Mode-solver benchmark (issue 29's goal: under 2 s on the 2-core machine): a 500 × 220 nm
 * Si strip (n 3.4757) in SiO2 (n 1.444) at 1.55 µm on a 2 × 1.5 µm plane at 10 nm
 * (200 × 150 cells, about 60 000 unknowns), PEC walls, one mode, the default target (the
 * largest index on the plane). Prints each run's wall and CPU time (user + system, which
 * other processes on a shared host disturb less than the wall time), then the best and the
 * median, and the load average.
 * Run: node --import tsx bench/modes.ts [runs, default 5]
 */
import { loadavg } from "node:os";
import { stripCase } from "../src/solver/modes/slab-case.js";
import { solveModes } from "../src/solver/modes/solve.js";

const plane = stripCase({
  core: 3.4757 ** 2,
  clad: 1.444 ** 2,
  widthM: 0.5e-6,
  heightM: 0.22e-6,
  nu: 200,
  nv: 150,
  stepM: 10e-9,
});
const runs = Number(process.argv[2] ?? 5);
const wall: number[] = [];
const cpu: number[] = [];
for (let run = 0; run < runs; run++) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // No mode cache: every run solves (the cache would answer runs after the first).
  const r = solveModes({ axes: plane.axes, planeEps: plane.eps, wavelengths_m: [1.55e-6] }, null);
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu0);
  wall.push(ms);
  cpu.push((used.user + used.system) / 1000);
  const m = r.modes[0][0];
  console.log(
    `run ${run}: ${ms.toFixed(0)} ms (CPU ${cpu[run].toFixed(0)} ms), ${r.unknowns} unknowns, ` +
      `${r.factorEntries} factor entries, n_eff ${m.n_eff.toFixed(6)}, ` +
      `te_fraction ${m.te_fraction.toFixed(3)}`,
  );
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `best ${Math.min(...wall).toFixed(0)} ms, median ${median(wall).toFixed(0)} ms; CPU best ` +
    `${Math.min(...cpu).toFixed(0)} ms, median ${median(cpu).toFixed(0)} ms; load average ` +
    loadavg()
      .map((l) => l.toFixed(2))
      .join(" "),
);
