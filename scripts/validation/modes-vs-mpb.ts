/**
 * The mode solver side by side with MPB (docs/validation.md, issue #29): the fundamental
 * TE-like mode of a 500 × 220 nm Si strip in SiO2 at 1.55 µm, emsim's `solveModes` at 20, 10,
 * 5 and 2.5 nm against MPB's n_eff converged in resolution (scripts/validation/modes-vs-mpb.py,
 * Debian's python3-meep via /usr/bin/python3). Prints a markdown table.
 *
 *   node --import tsx scripts/validation/modes-vs-mpb.ts [--no-mpb]
 *
 * `STEPS_NM=20,10,5` leaves out 2.5 nm (about a minute and 1.3 GB); `--no-mpb` skips MPB
 * (about four minutes for its five resolutions).
 *
 * The plane: a 2.5 × 2.0 µm cell (1 µm of cladding around the core, as in the MPB script)
 * with PEC outer walls, solved as its quarter by the mode's two mirror planes (x = 0: a PEC
 * mirror, as E_y and E_z of the E_x-dominant mode are odd in x; y = 0: a PMC mirror, E_x and
 * E_z even in y), which makes 2.5 nm affordable.
 *
 * Permittivity: each component sampled at its Yee position (operator.ts's staggering) and
 * averaged over the cell-sized square around it, the way subpixel averaging reduces for
 * axis-aligned faces: harmonic across the faces normal to the component, arithmetic along
 * the faces parallel to it (ε_xx = 1/⟨1/⟨ε⟩_y⟩_x, ε_yy = 1/⟨1/⟨ε⟩_x⟩_y, ε_zz = ⟨ε⟩). It is
 * exact for a layered medium and leaves a first-order error only at the core's corners.
 * This is this script's sampling, not the FDTD's painting of a GDS or box structure.
 */
import { refractiveIndexAt } from "../../src/solver/materials.js";
import type { ModeAxis, PlanePermittivity } from "../../src/solver/modes/operator.js";
import { solveModes } from "../../src/solver/modes/solve.js";
import { runMeepScript } from "./meep.js";

const WAVELENGTH_M = 1.55e-6;
const WIDTH_M = 0.5e-6;
const HEIGHT_M = 0.22e-6;
const CELL_X_M = 2.5e-6;
const CELL_Y_M = 2.0e-6;
const STEPS_M = (process.env.STEPS_NM ?? "20,10,5,2.5").split(",").map((s) => Number(s) * 1e-9);
const MPB_RESOLUTIONS = [32, 64, 128, 256, 512];

const nCore = refractiveIndexAt("Si", WAVELENGTH_M).n;
const nClad = refractiveIndexAt("SiO2", WAVELENGTH_M).n;

/** The fraction of [c − h/2, c + h/2] inside [−half, half]. */
function inside(c: number, h: number, half: number): number {
  const lo = Math.max(c - h / 2, -half);
  const hi = Math.min(c + h / 2, half);
  return Math.max(0, hi - lo) / h;
}

/** The quarter plane (x ≥ 0, y ≥ 0) at grid step h: axes and averaged permittivity. */
function quarterPlane(h: number): { axes: [ModeAxis, ModeAxis]; eps: PlanePermittivity } {
  const nu = Math.round(CELL_X_M / 2 / h);
  const nv = Math.round(CELL_Y_M / 2 / h);
  const core = nCore * nCore;
  const clad = nClad * nClad;
  const nodes = (n: number) => Float64Array.from({ length: n + 1 }, (_, i) => i * h);
  const component = (su: number, sv: number, kind: "u" | "v" | "w") => {
    const re = new Float64Array(nu * nv);
    for (let i = 0; i < nu; i++) {
      for (let j = 0; j < nv; j++) {
        const fx = inside((i + su) * h, h, WIDTH_M / 2);
        const fy = inside((j + sv) * h, h, HEIGHT_M / 2);
        const across = (f: number, along: number) => {
          const mixed = clad + along * (core - clad);
          return 1 / (f / mixed + (1 - f) / clad);
        };
        re[i * nv + j] =
          kind === "u"
            ? across(fx, fy)
            : kind === "v"
              ? across(fy, fx)
              : clad + fx * fy * (core - clad);
      }
    }
    return { re };
  };
  return {
    axes: [
      { nodesM: nodes(nu), boundary: "pec", mirror: "pec" },
      { nodesM: nodes(nv), boundary: "pec", mirror: "pmc" },
    ],
    eps: { uu: component(0.5, 0, "u"), vv: component(0, 0.5, "v"), ww: component(0, 0, "w") },
  };
}

interface Row {
  stepNm: number;
  nEff: number;
  teFraction: number;
  unknowns: number;
  seconds: number;
}

const rows: Row[] = [];
for (const h of STEPS_M) {
  const started = performance.now();
  const plane = quarterPlane(h);
  const r = solveModes({ axes: plane.axes, planeEps: plane.eps, wavelengths_m: [WAVELENGTH_M] });
  const mode = r.modes[0][0];
  rows.push({
    stepNm: h * 1e9,
    nEff: mode.n_eff,
    teFraction: mode.te_fraction,
    unknowns: r.unknowns,
    seconds: (performance.now() - started) / 1000,
  });
  console.error(`emsim ${h * 1e9} nm: n_eff ${mode.n_eff.toFixed(7)}`);
}

// Richardson extrapolation of emsim's three finest steps (observed order).
const [a, b, c] = rows.slice(-3).map((r) => r.nEff);
const order = Math.log2(Math.abs((b - a) / (c - b)));
const emsimLimit = c + (c - b) / (2 ** order - 1);

interface MpbResult {
  n_eff: number;
  n_eff_by_resolution: [number, number][];
  order: number;
  seconds: number;
}
const mpb = process.argv.includes("--no-mpb")
  ? null
  : runMeepScript<MpbResult>(
      "modes-vs-mpb.py",
      {
        n_core: nCore,
        n_clad: nClad,
        width_um: WIDTH_M * 1e6,
        height_um: HEIGHT_M * 1e6,
        cell_x_um: CELL_X_M * 1e6,
        cell_y_um: CELL_Y_M * 1e6,
        wavelength_um: WAVELENGTH_M * 1e6,
        resolutions: MPB_RESOLUTIONS,
      },
      "n_eff",
    );

const ref = mpb?.n_eff ?? NaN;
console.log(`Si n = ${nCore}, SiO2 n = ${nClad} (materials.ts at 1.55 µm)\n`);
console.log(
  "| emsim step | unknowns | emsim n_eff | TE fraction | MPB (converged) | difference | time |",
);
console.log("|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(
    `| ${r.stepNm} nm | ${r.unknowns} | ${r.nEff.toFixed(6)} | ${r.teFraction.toFixed(3)} | ` +
      `${ref.toFixed(6)} | ${(r.nEff - ref).toExponential(2)} | ${r.seconds.toFixed(1)} s |`,
  );
}
console.log(
  `| extrapolated (order ${order.toFixed(2)}) | | ${emsimLimit.toFixed(6)} | | ${ref.toFixed(6)} | ` +
    `${(emsimLimit - ref).toExponential(2)} | |`,
);
if (mpb) {
  console.log("\n| MPB resolution (px/µm) | MPB n_eff |");
  console.log("|---|---|");
  for (const [res, n] of mpb.n_eff_by_resolution) console.log(`| ${res} | ${n.toFixed(6)} |`);
  console.log(
    `| extrapolated (order ${mpb.order.toFixed(2)}) | ${mpb.n_eff.toFixed(6)} |\n\nMPB: ${mpb.seconds.toFixed(0)} s`,
  );
}
