/**
 * Ports side by side with Meep (docs/validation.md, "Ports against Meep"; issue #29): emsim's
 * `source_type: "ports"` (mode source, mode monitors, S-matrix) against Meep's EigenModeSource
 * and get_eigenmode_coefficients (scripts/validation/meep_ports.py, Debian's python3-meep via
 * /usr/bin/python3), on the same grid, time step, pulse, PML thickness and stopping rule
 * (two-port.ts). Both 2-D (x-y plane, E_z out of it). Prints markdown tables.
 *
 *   node --import tsx scripts/validation/ports-vs-meep.ts [step] [taper]
 *
 * (a) A width step, Si (n 3.45) in SiO2 (n 1.45), 0.5 → 1.0 µm at x = 0, ports 3 µm either side,
 *     20 nm cells, PML 50 cells, 1.5–1.6 µm: |S21|² and |S11|² of the fundamental mode.
 *     STEP_NM (cell size), PORT_X_UM (the ports' distance from the step), ROI_Y_UM (the width
 *     of the cell inside the PML) and STEP_GUIDE=n2 (a 0.6 → 1.2 µm n = 2 guide in n = 1.45,
 *     src/solver/ports.test.ts's) vary it.
 * (b) Meep's mode-decomposition tutorial: a linear taper from 1 to 2 µm wide in Si (ε 12) in
 *     air at 6.67 µm (both guides single-mode), 40 nm cells (the tutorial's 25 px/µm), taper
 *     lengths L = 0 (a step), 1, 2, 4, 8, 16 µm and a straight 1 µm guide (the reflection floor
 *     of each code's source, monitors and PML), PML 50 cells (2 µm; TAPER_PML_CELLS=100 gave the same figures): |S11|²
 *     against L, which falls as 1/L².
 */
import { runSimulation } from "../../src/solver/index.js";
import type { SimulationSpec } from "../../src/solver/types.js";
import {
  emsimSpec,
  fromSMatrix,
  meepTwoPort,
  power,
  taperOutline,
  type TwoPortProblem,
  type TwoPortS,
} from "./two-port.js";

const PARTS = process.argv.slice(2);
const wants = (part: string) => PARTS.length === 0 || PARTS.includes(part);

/** emsim on the problem, in-process (wasm backend), with its materials as constants. */
async function emsimTwoPort(p: TwoPortProblem): Promise<TwoPortS> {
  const spec: SimulationSpec = {
    ...emsimSpec(p),
    materials: Object.fromEntries(
      Object.entries(p.eps).map(([name, eps]) => [name, { permittivity: eps }]),
    ),
  };
  const started = performance.now();
  const result = await runSimulation(spec, { backend: "wasm" });
  return {
    ...fromSMatrix(result.sMatrix!),
    seconds: (performance.now() - started) / 1000,
    steps: result.report.stepsRun,
  };
}

const f = (x: number, digits = 4) => x.toFixed(digits);
const e = (x: number) => x.toExponential(2);

async function widthStep() {
  const h = Number(process.env.STEP_NM ?? 20) * 1e-9;
  const lowContrast = process.env.STEP_GUIDE === "n2";
  const portXM = Number(process.env.PORT_X_UM ?? 3) * 1e-6;
  const roiYM = Number(process.env.ROI_Y_UM ?? 3) * 1e-6;
  const problem: TwoPortProblem = {
    dims: 2,
    stepM: h,
    roiM: [2 * portXM + 1e-6, roiYM, 0],
    pmlCells: 50,
    eps: { si: lowContrast ? 4 : 3.45 ** 2, sio2: 1.45 ** 2 },
    clad: "sio2",
    cores: [
      {
        verticesM: lowContrast
          ? taperOutline(0.6e-6, 1.2e-6, 0, 10e-6)
          : taperOutline(0.5e-6, 1e-6, 0, 10e-6),
        zMinM: 0,
        zMaxM: 0,
        material: "si",
      },
    ],
    portXM,
    wavelengthM: 1.55e-6,
    wavelengthsM: [1.5e-6, 1.525e-6, 1.55e-6, 1.575e-6, 1.6e-6],
    threshold: 1e-7,
    checkEvery: 500,
    maxSteps: 100000,
  };
  const ours = await emsimTwoPort(problem);
  const meep = meepTwoPort(problem);
  console.log(
    `\n(a) Width step 0.5 → 1.0 µm, Si (n 3.45) in SiO2 (n 1.45), 2-D (E_z), ${h * 1e9} nm cells, ` +
      `PML ${problem.pmlCells} cells, threshold ${problem.threshold}: emsim ${f(ours.seconds, 1)} s ` +
      `(${ours.steps} steps), Meep ${f(meep.seconds, 1)} s (${meep.steps} steps)\n`,
  );
  console.log(
    "| λ (µm) | n_eff in emsim | n_eff in Meep | \\|S21\\|² emsim | \\|S21\\|² Meep | Δ | \\|S11\\|² emsim | \\|S11\\|² Meep | Δ (rel.) |",
  );
  console.log(`|${" --- |".repeat(9)}`);
  problem.wavelengthsM.forEach((w, i) => {
    const [t1, t2] = [power(ours.s21[i]!), power(meep.s21[i]!)];
    const [r1, r2] = [power(ours.s11[i]!), power(meep.s11[i]!)];
    console.log(
      `| ${f(w * 1e6, 3)} | ${f(ours.nEff[i]!)} | ${f(meep.nEff[i]!)} | ${f(t1)} | ${f(t2)} | ` +
        `${(t1 - t2).toFixed(4)} | ${e(r1)} | ${e(r2)} | ${((100 * (r1 - r2)) / r2).toFixed(1)} % |`,
    );
  });
}

async function taper() {
  const h = 40e-9;
  const lengthsM = [0, 1e-6, 2e-6, 4e-6, 8e-6, 16e-6];
  const pmlCells = Number(process.env.TAPER_PML_CELLS ?? 50);
  const lambda0 = 6.67e-6;
  const base = (lengthM: number, w2M: number): TwoPortProblem => ({
    dims: 2,
    stepM: h,
    roiM: [lengthM + 8e-6, 8e-6, 0],
    pmlCells,
    eps: { si: 12, air: 1 },
    clad: "air",
    cores: [
      { verticesM: taperOutline(1e-6, w2M, lengthM, 30e-6), zMinM: 0, zMaxM: 0, material: "si" },
    ],
    portXM: lengthM / 2 + 3e-6,
    wavelengthM: lambda0,
    wavelengthsM: [6.4e-6, 6.67e-6, 6.95e-6],
    threshold: 1e-7,
    checkEvery: 500,
    maxSteps: 200000,
  });
  const rows: { label: string; L: number; ours: TwoPortS; meep: TwoPortS }[] = [];
  for (const [label, L, w2] of [
    ["straight 1 µm guide", 0, 1e-6],
    ...lengthsM.map((L) => [L === 0 ? "step (L = 0)" : `L = ${L * 1e6} µm`, L, 2e-6]),
  ] as [string, number, number][]) {
    const p = base(L, w2);
    const ours = await emsimTwoPort(p);
    const meep = meepTwoPort(p);
    rows.push({ label, L, ours, meep });
    console.error(`${label}: emsim ${f(ours.seconds, 1)} s, Meep ${f(meep.seconds, 1)} s`);
  }
  const w0 = 1; // λ0 is the middle of the three wavelengths
  console.log(
    `\n(b) Linear taper 1 → 2 µm, Si (ε 12) in air, λ ${lambda0 * 1e6} µm, 2-D (E_z), ${h * 1e9} nm ` +
      `cells, PML ${pmlCells} cells (${(pmlCells * h * 1e6).toFixed(0)} µm), threshold 1e-7 (Meep's mode-decomposition tutorial)\n`,
  );
  console.log(
    "| taper | \\|S11\\|² emsim | \\|S11\\|² Meep | emsim ÷ Meep | L²·\\|S11\\|² emsim (µm²) | L²·\\|S11\\|² Meep (µm²) | \\|S21\\|² emsim | \\|S21\\|² Meep | s emsim | s Meep |",
  );
  console.log(`|${" --- |".repeat(10)}`);
  for (const r of rows) {
    const [a, b] = [power(r.ours.s11[w0]!), power(r.meep.s11[w0]!)];
    const L2 = (r.L * 1e6) ** 2;
    console.log(
      `| ${r.label} | ${e(a)} | ${e(b)} | ${f(a / b, 2)} | ${r.L > 0 ? f(L2 * a, 5) : "—"} | ` +
        `${r.L > 0 ? f(L2 * b, 5) : "—"} | ${f(power(r.ours.s21[w0]!))} | ${f(power(r.meep.s21[w0]!))} | ` +
        `${f(r.ours.seconds, 1)} | ${f(r.meep.seconds, 1)} |`,
    );
  }
  console.log("\nAll three wavelengths, |S11|² (emsim / Meep):\n");
  console.log("| taper | 6.40 µm | 6.67 µm | 6.95 µm |");
  console.log("| --- | --- | --- | --- |");
  for (const r of rows)
    console.log(
      `| ${r.label} | ${r.ours.s11.map((s, w) => `${e(power(s))} / ${e(power(r.meep.s11[w]!))}`).join(" | ")} |`,
    );
}

if (wants("step")) await widthStep();
if (wants("taper")) await taper();
