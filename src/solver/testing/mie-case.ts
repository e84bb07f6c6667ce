/**
 * A sphere in vacuum from one 3-D run over a band, its efficiencies next to the Mie series:
 * shared by the Mie tests (src/solver/dispersion/mie.test.ts, mie-gold.test.ts) and the validation script
 * (scripts/validation/mie.ts), which runs the same cases on finer grids.
 */
import { mieSphere, type MieSphere } from "../analytic/mie.js";
import type { BackendName } from "../backend.js";
import { runSimulation } from "../index.js";
import { refractiveIndexAt } from "../materials.js";
import type { RunReport, SimulationSpec, UserMaterialSpec } from "../types.js";
import { runOn } from "./run-on.js";

export interface MieCaseSpec {
  /** A library name, or a constant index given by `index`. */
  material: string;
  index?: number;
  radiusM: number;
  band: { start: number; stop: number; points: number };
  /** The grid step the validation runs at (docs/validation.md). */
  stepNm: number;
}

export const MIE_CASES = {
  "dielectric-small": {
    material: "n2",
    index: 2,
    radiusM: 0.2e-6,
    band: { start: (2 * Math.PI * 0.2e-6) / 2.5, stop: 2 * Math.PI * 0.2e-6, points: 7 },
    stepNm: 10,
  },
  "dielectric-large": {
    material: "n2",
    index: 2,
    radiusM: 0.2e-6,
    band: { start: (2 * Math.PI * 0.2e-6) / 5, stop: (2 * Math.PI * 0.2e-6) / 2.5, points: 7 },
    stepNm: 5,
  },
  gold: {
    material: "Au",
    radiusM: 50e-9,
    band: { start: 0.45e-6, stop: 1.0e-6, points: 12 },
    stepNm: 2.5,
  },
} satisfies Record<string, MieCaseSpec>;
export type MieCaseName = keyof typeof MIE_CASES;

export interface MieRow {
  wavelengthM: number;
  qExt: number;
  qSca: number;
  qAbs: number;
  mie: MieSphere;
}

/**
 * The spec of a case on a grid of step `stepM`, 10 PML layers; with `baseStepM` (larger), a
 * grid of that step refined to `stepM` over the sphere and the flux box (a mesh override,
 * graded back outside it). With `quarter`, the mirror symmetry of the sphere under the wave
 * along z polarised along y (pmc about x = 0, pec about y = 0): the grid holds a quarter of it.
 */
export function mieSpec(
  c: MieCaseSpec,
  stepM: number,
  baseStepM = stepM,
  quarter = false,
): SimulationSpec {
  // The flux box 4 cells outside the sphere; the absorber beyond it by a quarter of the longest
  // wavelength or three radii, whichever is less, out of the sphere's near field.
  const boxHalf = c.radiusM + 4 * stepM;
  const half = boxHalf + Math.max(6 * stepM, Math.min(c.band.stop / 4, 3 * c.radiusM));
  // A whole number of the base cells.
  const size = baseStepM > stepM ? Math.ceil((2 * half) / baseStepM) * baseStepM : 2 * half;
  const refined = 2 * (boxHalf + 2 * stepM);
  // The source at the band's centre frequency (the pulse covers ±50 % of it).
  const centre = 2 / (1 / c.band.start + 1 / c.band.stop);
  const materials: Record<string, UserMaterialSpec> | undefined =
    c.index !== undefined ? { [c.material]: { permittivity: c.index * c.index } } : undefined;
  return {
    solver: "fdtd",
    domain: {
      size: [size, size, size],
      resolution: baseStepM,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 10,
      ...(quarter ? { symmetry: ["pmc", "pec", "none"] as ["pmc", "pec", "none"] } : {}),
      ...(baseStepM > stepM
        ? {
            mesh_overrides: [
              { center: [0, 0, 0], size: [refined, refined, refined], resolution: stepM },
            ],
          }
        : {}),
    },
    source: {
      source_type: "plane_wave",
      wavelength: centre,
      polarization: "te",
      direction: [0, 0, 1],
      amplitude: 1,
    },
    structures: [{ type: "sphere", center: [0, 0, 0], radius: c.radiusM, material: c.material }],
    ...(materials ? { materials } : {}),
    monitors: [
      {
        name: "box",
        monitor_type: "flux",
        center: [0, 0, 0],
        size: [2 * boxHalf, 2 * boxHalf, 2 * boxHalf],
        wavelengths: c.band,
      },
    ],
    fdtd_settings: {
      time_steps: 200_000,
      courant_factor: 0.99,
      convergence_threshold: 1e-6,
      check_every_n: 200,
    },
  };
}

/**
 * Runs a case and pairs each wavelength's efficiencies with Mie's: on the named backend (the
 * report must name it), else on the one `auto` picks.
 */
export async function mieCase(
  name: MieCaseName,
  stepM: number,
  backend?: BackendName,
  baseStepM = stepM,
): Promise<MieRow[]> {
  return (await mieRun(name, stepM, backend, baseStepM)).rows;
}

/** `mieCase` with the run's report (steps, speed, where the stepping time went). */
export async function mieRun(
  name: MieCaseName,
  stepM: number,
  backend?: BackendName,
  baseStepM = stepM,
  quarter = false,
): Promise<{ rows: MieRow[]; report: RunReport }> {
  const c: MieCaseSpec = MIE_CASES[name];
  const spec = mieSpec(c, stepM, baseStepM, quarter);
  const result = backend ? await runOn(backend, spec) : await runSimulation(spec);
  const box = result.fluxMonitors.find((f) => f.name === "box")!;
  const area = Math.PI * c.radiusM * c.radiusM;
  const rows = box.wavelengthsM.map((w, i) => {
    const index =
      c.index !== undefined
        ? c.index
        : (({ n, k }) => ({ re: n, im: k }))(refractiveIndexAt(c.material, w));
    const sca = box.crossSections!.scattering[i] / area;
    const abs = box.crossSections!.absorption[i] / area;
    return {
      wavelengthM: w,
      qSca: sca,
      qAbs: abs,
      qExt: sca + abs,
      mie: mieSphere(c.radiusM, w, index),
    };
  });
  return { rows, report: result.report };
}

/**
 * 3-D runs of half a million cells and more for thousands of steps: minutes each on the
 * single-threaded reference backend and on a software GPU adapter (docs/validation.md). The 3-D
 * sphere in flux.test.ts runs on every backend instead.
 */
export const MIE_TOO_SLOW = {
  reference:
    "3-D Mie spheres: the 20 nm dielectric case alone takes 138 s on the reference backend " +
    "here (docs/validation.md)",
  webgpu:
    "3-D Mie spheres: the 20 nm dielectric case alone takes 381 s on the software adapter " +
    "here (docs/validation.md)",
};

/** The largest relative error of a pair (value, Mie's) over the rows. */
export const worstMieError = (rows: MieRow[], pick: (r: MieRow) => [number, number]) =>
  Math.max(...rows.map((r) => Math.abs(pick(r)[0] / pick(r)[1] - 1)));
/** The rows as lines of text, for a failure's message. */
export const mieTable = (rows: MieRow[]) =>
  rows
    .map(
      (r) =>
        `${(r.wavelengthM * 1e6).toFixed(3)} µm: Qext ${r.qExt.toFixed(4)} (${r.mie.qExt.toFixed(4)}) ` +
        `Qabs ${r.qAbs.toFixed(4)} (${r.mie.qAbs.toFixed(4)})`,
    )
    .join("\n");
