/**
 * The mode solver side by side with MPB (docs/validation.md, issue #29): the fundamental
 * TE-like mode of a 500 × 220 nm Si strip in SiO2 at 1.55 µm, emsim's `solveModes` at 20, 10,
 * 5 and 2.5 nm against MPB's n_eff and group index converged in resolution
 * (scripts/validation/modes-vs-mpb.py, Debian's python3-meep via /usr/bin/python3). Prints
 * markdown tables.
 *
 *   node --import tsx scripts/validation/modes-vs-mpb.ts [--no-mpb]
 *
 * `STEPS_NM=20,10,5` leaves out 2.5 nm (about three minutes and 1.3 GB); `REQUEST_STEPS_NM`
 * (default 20,10,5) are the steps of the request-painted group index below; `--no-mpb` skips
 * MPB (about five minutes for its five resolutions).
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
 *
 * Group index (issue #29: within 1 % of MPB's). The indices are constants (the library's at
 * 1.55 µm, in both codes), so n_g is the waveguide dispersion alone. emsim's is its energy
 * velocity (`groupIndex`: c·W/P, fields.ts energyGroupIndex), checked on each step against
 * the slope of its own n_eff(λ), n − λ·dn/dλ by a central difference at λ·(1 ± 1e-3) of the
 * same plane. MPB's is c/v_g from its group velocity (the .py file; it checks that against a
 * difference of find_k). The strip is also solved as a request is (`POST /v1/modes` with
 * `group_index: true`: the plane painted by plane-medium.ts from box structures, the request's
 * own materials with a fixed permittivity, PML round the domain), at REQUEST_STEPS_NM; past
 * 20 nm that plane is over the endpoint's synchronous 40 000-cell limit, so it is painted and
 * solved here in-process as solvePlaneModes does, without the limit.
 */
import { withUserMaterials } from "../../src/solver/dispersion/user.js";
import { libraryMaterials } from "../../src/solver/entry-points.js";
import { refractiveIndexAt } from "../../src/solver/materials.js";
import type { ModeAxis, PlanePermittivity } from "../../src/solver/modes/operator.js";
import { modePlane } from "../../src/solver/modes/plane-medium.js";
import { solveModes } from "../../src/solver/modes/solve.js";
import type { DomainSpec } from "../../src/solver/types.js";
import { runMeepScript } from "./meep.js";

const WAVELENGTH_M = 1.55e-6;
const WIDTH_M = 0.5e-6;
const HEIGHT_M = 0.22e-6;
const CELL_X_M = 2.5e-6;
const CELL_Y_M = 2.0e-6;
const STEPS_M = (process.env.STEPS_NM ?? "20,10,5,2.5").split(",").map((s) => Number(s) * 1e-9);
const REQUEST_STEPS_M = (process.env.REQUEST_STEPS_NM ?? "20,10,5")
  .split(",")
  .filter((s) => s !== "")
  .map((s) => Number(s) * 1e-9);
const MPB_RESOLUTIONS = [32, 64, 128, 256, 512];
/** Where MPB also checks its group velocity against a difference of find_k. */
const MPB_FD_RESOLUTIONS = [32, 64, 128, 256];
/** The relative wavelength step of emsim's n − λ·dn/dλ. */
const DL = 1e-3;

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
  /** Energy velocity. */
  nG: number;
  /** n − λ·dn/dλ of the same plane. */
  nGSlope: number;
  unknowns: number;
  seconds: number;
}

const rows: Row[] = [];
for (const h of STEPS_M) {
  const started = performance.now();
  const plane = quarterPlane(h);
  // λ0 first, so that its solve is the one the n_eff table has always had (default shift).
  const r = solveModes({
    axes: plane.axes,
    planeEps: plane.eps,
    wavelengths_m: [WAVELENGTH_M, WAVELENGTH_M * (1 - DL), WAVELENGTH_M * (1 + DL)],
    groupIndex: true,
  });
  const [mode, below, above] = r.modes.map((w) => w[0]!);
  rows.push({
    stepNm: h * 1e9,
    nEff: mode.n_eff,
    teFraction: mode.te_fraction,
    nG: mode.group_index!,
    nGSlope: mode.n_eff - (above.n_eff - below.n_eff) / (2 * DL),
    unknowns: r.unknowns,
    seconds: (performance.now() - started) / 1000,
  });
  console.error(`emsim ${h * 1e9} nm: n_eff ${mode.n_eff.toFixed(7)}, n_g ${mode.group_index}`);
}

/**
 * The strip as a mode request paints it: a y-normal plane of a thin domain with PML round it,
 * the core and cladding as boxes of the request's own constant-permittivity materials.
 */
function requestGroupIndex(h: number): { nEff: number; nG: number; unknowns: number } {
  const materials = withUserMaterials(libraryMaterials, {
    core: { permittivity: nCore * nCore },
    clad: { permittivity: nClad * nClad },
  });
  const plane = modePlane(
    {
      domain: {
        size: [CELL_X_M, 4 * h, CELL_Y_M],
        resolution: h,
        boundary_conditions: ["pml", "pml", "pml"],
        pml_layers: 10,
      } as DomainSpec,
      structures: [
        { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "clad" },
        { type: "box", center: [0, 0, 0], size: [WIDTH_M, 10, HEIGHT_M], material: "core" },
      ],
      plane: { center: [0, 0, 0], size: [10, 0, 10] },
      wavelengthsM: [WAVELENGTH_M],
    },
    materials,
  );
  const r = solveModes({
    axes: plane.axes,
    planeEps: plane.permittivityAt,
    wavelengths_m: [WAVELENGTH_M],
    // The fundamental is the TE-like mode (checked by its TE fraction below). (filter_pol "te"
    // asks Arnoldi for 4 pairs, and on this PML-edged plane those did not converge.)
    mode_spec: { num_modes: 1 },
    groupIndex: true,
    leftHanded: plane.leftHanded,
  });
  const mode = r.modes[0]![0]!;
  if (mode.te_fraction < 0.9) throw new Error(`not the TE-like mode: ${mode.te_fraction}`);
  return { nEff: mode.n_eff, nG: mode.group_index!, unknowns: r.unknowns };
}

const requestRows = REQUEST_STEPS_M.map((h) => {
  const started = performance.now();
  const out = { stepNm: h * 1e9, ...requestGroupIndex(h) };
  const seconds = (performance.now() - started) / 1000;
  console.error(`request ${h * 1e9} nm: n_eff ${out.nEff.toFixed(7)}, n_g ${out.nG}`);
  return { ...out, seconds };
});

// Richardson extrapolation of emsim's three finest steps (observed order).
const [a, b, c] = rows.slice(-3).map((r) => r.nEff);
const order = Math.log2(Math.abs((b - a) / (c - b)));
const emsimLimit = c + (c - b) / (2 ** order - 1);

interface MpbResult {
  n_eff: number;
  n_eff_by_resolution: [number, number][];
  order: number;
  n_g: number;
  n_g_by_resolution: [number, number][];
  n_g_order: number;
  n_g_fd_by_resolution: [number, number][];
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
        fd_resolutions: MPB_FD_RESOLUTIONS,
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
  console.log(`| extrapolated (order ${mpb.order.toFixed(2)}) | ${mpb.n_eff.toFixed(6)} |`);
}

// The group index: within 1 % of MPB's converged value (issue #29).
const refG = mpb?.n_g ?? NaN;
const rel = (x: number) => (x - refG) / refG;
const verdict = (x: number) => (!mpb ? "—" : Math.abs(rel(x)) < 0.01 ? "yes" : "NO");
const [ga, gb, gc] = rows.slice(-3).map((r) => r.nG);
const gOrder = Math.log2(Math.abs((gb - ga) / (gc - gb)));
const gLimit = gc + (gc - gb) / (2 ** gOrder - 1);
console.log(
  "\n| emsim plane | step | emsim n_g (energy velocity) | emsim n − λ·dn/dλ | (energy − slope)/n_g | " +
    "MPB n_g (converged) | difference | within 1 % |",
);
console.log("|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(
    `| quarter, this script's ε | ${r.stepNm} nm | ${r.nG.toFixed(5)} | ${r.nGSlope.toFixed(5)} | ` +
      `${((r.nG - r.nGSlope) / r.nG).toExponential(1)} | ${refG.toFixed(5)} | ${(100 * rel(r.nG)).toFixed(3)} % | ${verdict(r.nG)} |`,
  );
}
if (rows.length >= 3)
  console.log(
    `| quarter, extrapolated (order ${gOrder.toFixed(2)}) | | ${gLimit.toFixed(5)} | | | ` +
      `${refG.toFixed(5)} | ${(100 * rel(gLimit)).toFixed(3)} % | ${verdict(gLimit)} |`,
  );
for (const r of requestRows) {
  console.log(
    `| request (box structures, PML) | ${r.stepNm} nm | ${r.nG.toFixed(5)} | | | ${refG.toFixed(5)} | ` +
      `${(100 * rel(r.nG)).toFixed(3)} % | ${verdict(r.nG)} |`,
  );
}
if (mpb) {
  const fd = new Map(mpb.n_g_fd_by_resolution);
  console.log("\n| MPB resolution (px/µm) | MPB n_g = c/v_g | c·dk/dω (find_k at f(1 ± 1e-3)) |");
  console.log("|---|---|---|");
  for (const [res, g] of mpb.n_g_by_resolution) {
    const d = fd.get(res);
    console.log(`| ${res} | ${g.toFixed(6)} | ${d === undefined ? "" : d.toFixed(6)} |`);
  }
  console.log(`| extrapolated (order ${mpb.n_g_order.toFixed(2)}) | ${mpb.n_g.toFixed(6)} | |`);
  console.log(`\nMPB: ${mpb.seconds.toFixed(0)} s`);
}
