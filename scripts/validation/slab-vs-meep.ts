/**
 * A dispersive slab side by side with Meep (docs/validation.md): the same Lorentz medium, slab,
 * grid step and band, R and T from one run each, against the Airy formula with the model's
 * ε(λ). Needs Debian's python3-meep (/usr/bin/python3); prints a markdown table.
 *
 *   node --import tsx scripts/validation/slab-vs-meep.ts
 */
import { runMeepScript } from "./meep.js";
import { SPEED_OF_LIGHT_M_PER_S } from "../../src/solver/constants.js";
import { refractiveIndex, type PoleModel } from "../../src/solver/dispersion/model.js";
import { runWithMaterials } from "../../src/solver/run.js";
import {
  airySlab,
  fluxPlane,
  lineSpec,
  poleMaterials,
  slab,
} from "../../src/solver/testing/index.js";

const omegaOf = (wavelengthM: number) => (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / wavelengthM;
const MODEL: PoleModel = {
  epsInf: 2.5,
  sigma: 0,
  poles: [{ kind: "lorentz", deltaEps: 1, omega0: omegaOf(1.0e-6), gamma: 0.3 * omegaOf(1.0e-6) }],
};
const STEP = 5e-9;
const THICKNESS = 0.4e-6;
const LENGTH = 2e-6;
const PML_CELLS = 40;
const WAVELENGTHS = [0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5].map((w) => w * 1e-6);

const started = performance.now();
const band = {
  start: WAVELENGTHS[0],
  stop: WAVELENGTHS[WAVELENGTHS.length - 1],
  points: WAVELENGTHS.length,
};
const spec = lineSpec({
  axis: 2,
  wavelengthM: 2 / (1 / band.start + 1 / band.stop),
  stepM: STEP,
  lengthM: LENGTH,
  pmlLayers: PML_CELLS,
  structures: [slab(2, -THICKNESS / 2, THICKNESS / 2, "m")],
  monitors: [fluxPlane("R", 2, -0.8e-6, band), fluxPlane("T", 2, 0.8e-6, band)],
  threshold: 1e-6,
});
const ours = await runWithMaterials(spec, poleMaterials({ m: MODEL }));
const oursSeconds = (performance.now() - started) / 1000;
const flux = (name: string) => ours.fluxMonitors.find((f) => f.name === name)!.flux;

const m = runMeepScript<{ R: number[]; T: number[]; seconds: number }>(
  "meep_slab.py",
  {
    eps_inf: MODEL.epsInf,
    poles: MODEL.poles,
    thickness_m: THICKNESS,
    step_m: STEP,
    length_m: LENGTH,
    pml_cells: PML_CELLS,
    wavelengths_m: WAVELENGTHS,
  },
  "R",
);

console.log(
  `Lorentz slab (ε∞ = 2.5, Δε = 1 at 1 µm, γ = 0.3 ω0), ${THICKNESS * 1e9} nm thick, ${STEP * 1e9} nm ` +
    `cells; emsim ${oursSeconds.toFixed(1)} s (${ours.report.stepsRun} steps), Meep ${m.seconds.toFixed(1)} s\n`,
);
console.log("| λ (µm) | T Airy | T emsim | T Meep | R Airy | R emsim | R Meep |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
let worstOurs = 0;
let worstMeep = 0;
WAVELENGTHS.forEach((w, i) => {
  const n = refractiveIndex(MODEL, omegaOf(w));
  const a = airySlab({ re: n.n, im: n.k }, THICKNESS, w);
  worstOurs = Math.max(worstOurs, Math.abs(flux("T")[i] - a.T), Math.abs(flux("R")[i] - a.R));
  worstMeep = Math.max(worstMeep, Math.abs(m.T[i] - a.T), Math.abs(m.R[i] - a.R));
  const f = (x: number) => x.toFixed(4);
  console.log(
    `| ${(w * 1e6).toFixed(2)} | ${f(a.T)} | ${f(flux("T")[i])} | ${f(m.T[i])} | ${f(a.R)} | ${f(flux("R")[i])} | ${f(m.R[i])} |`,
  );
});
console.log(
  `\nworst |ΔR|, |ΔT| against Airy: emsim ${(100 * worstOurs).toFixed(2)} %, Meep ${(100 * worstMeep).toFixed(2)} % of the incident power`,
);
