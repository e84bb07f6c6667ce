/**
 * Spheres against the Mie series (docs/validation.md): extinction, scattering and absorption
 * efficiencies of a sphere from one 3-D run over a band (a flux box around the sphere, the
 * plane wave injected on a total-field/scattered-field plane), next to mieSphere's.
 *
 *   node --import tsx scripts/validation/mie.ts [case] [step_nm] [base_nm] [backend] [--quarter]
 *
 * With `base_nm` (larger than `step_nm`) the grid has that step and a mesh override refines it
 * to `step_nm` over the sphere and its flux box (a graded grid): the same sphere at a fraction
 * of the cells. `backend` (`reference`, `wasm`, `webgpu`) runs on that backend, as resolved at
 * start-up, and fails rather than fall back; without it the run takes what `auto` picks.
 * `--quarter` uses the problem's mirror symmetry (domain.symmetry pmc about x = 0, pec about
 * y = 0): the grid holds a quarter of the cells, the results are the whole sphere's.
 *
 * Cases: `dielectric-small` (n = 2, x = 1–2.5), `dielectric-large` (n = 2, x = 2.5–5),
 * `gold` (the library's Au, 100 nm diameter, 0.45–1.0 µm). Prints a markdown table and the
 * worst relative error of Q_ext and Q_sca. The test suite runs coarse versions of these
 * (src/solver/dispersion/mie.test.ts); this script is for the figures at the goal's grids.
 */
import type { BackendName } from "../../src/solver/backend.js";
import { initSolverBackend } from "../../src/solver/backends.js";
import { describeAdapter } from "../../src/solver/webgpu/device.js";
import { mieRun, MIE_CASES, type MieCaseName } from "../../src/solver/testing/mie-case.js";

const quarter = process.argv.includes("--quarter");
const args = process.argv.slice(2).filter((a) => a !== "--quarter");
const name = (args[0] ?? "dielectric-small") as MieCaseName;
const stepNm = Number(args[1] ?? MIE_CASES[name].stepNm);
const baseNm = Number(args[2] ?? stepNm);
const chosen = args[3] as BackendName | undefined;
const backend = await initSolverBackend(chosen ?? "auto");
const ranOn = backend.adapter
  ? `${backend.name} (${describeAdapter(backend.adapter)})`
  : backend.name;
const started = performance.now();
const { rows, report } = await mieRun(name, stepNm * 1e-9, backend.name, baseNm * 1e-9, quarter);
const seconds = (performance.now() - started) / 1000;
const grid =
  (baseNm > stepNm ? `${baseNm} nm grid refined to ${stepNm} nm` : `${stepNm} nm grid`) +
  (quarter ? " (a quarter: mirror symmetry about x = 0 and y = 0)" : "");
console.log(`# ${name}, ${grid}, ${seconds.toFixed(0)} s on ${ranOn}\n`);
const t = report.stepping;
console.log(
  `${report.grid.join(" × ")} cells, ${report.stepsRun} steps of ${(report.dtSeconds * 1e18).toFixed(2)} as, ` +
    `${report.mcellsPerSecond.toFixed(0)} Mcell/s; stepping ${report.steppingSeconds.toFixed(1)} s: kernel ` +
    `${t.kernelSeconds.toFixed(1)}, source ${t.sourceSeconds.toFixed(1)}, monitors ` +
    `${t.monitorSeconds.toFixed(1)}, checks ${t.checksSeconds.toFixed(1)}, other ` +
    `${(t.yieldSeconds + t.otherSeconds).toFixed(1)} s\n`,
);
console.log("| λ (µm) | x | Q_ext | Mie | Q_sca | Mie | Q_abs | Mie |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
let worstExt = 0;
let worstSca = 0;
for (const r of rows) {
  worstExt = Math.max(worstExt, Math.abs(r.qExt / r.mie.qExt - 1));
  worstSca = Math.max(worstSca, Math.abs(r.qSca / r.mie.qSca - 1));
  console.log(
    `| ${(r.wavelengthM * 1e6).toFixed(3)} | ${r.mie.sizeParameter.toFixed(2)} | ` +
      `${r.qExt.toFixed(4)} | ${r.mie.qExt.toFixed(4)} | ${r.qSca.toFixed(4)} | ` +
      `${r.mie.qSca.toFixed(4)} | ${r.qAbs.toFixed(4)} | ${r.mie.qAbs.toFixed(4)} |`,
  );
}
console.log(
  `\nworst relative error: Q_ext ${(100 * worstExt).toFixed(2)} %, Q_sca ${(100 * worstSca).toFixed(2)} %`,
);
