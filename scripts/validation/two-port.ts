/**
 * One two-port waveguide problem described once and built twice: as an emsim request
 * (`source_type: "ports"`, ports o1 at −x facing +x and o2 at +x facing −x) and as the
 * arguments of scripts/validation/meep_ports.py (an EigenModeSource and mode monitors on the
 * same grid, time step, pulse and stopping rule). Shared by ports-vs-meep.ts and
 * bench/sparams.ts. The guide runs along x; the cores are polygons in the x-y plane (2-D:
 * one periodic cell along z, E_z the mode's field; 3-D: extruded from z_min to z_max).
 */
import { runMeepScript } from "./meep.js";
import { pulseFor } from "../../src/solver/sources/pulse.js";
import type { SimulationSpec, SMatrixResult, StructureSpec } from "../../src/solver/types.js";

export interface Core {
  verticesM: [number, number][];
  zMinM: number;
  zMaxM: number;
  material: string;
}

export interface TwoPortProblem {
  dims: 2 | 3;
  stepM: number;
  /** Region of interest (PML outside it), [x, y, z]; z is ignored in 2-D (one cell). */
  roiM: [number, number, number];
  pmlCells: number;
  /** Relative permittivity of each material; `clad` fills the cell. */
  eps: Record<string, number>;
  clad: string;
  cores: Core[];
  /** Port planes at x = ∓portXM. */
  portXM: number;
  wavelengthM: number;
  wavelengthsM: number[];
  threshold: number;
  checkEvery: number;
  maxSteps: number;
  /** 3-D only: mirror planes y = 0 ("pec": E_y normal, even) and z = 0 ("pmc") in both codes. */
  symmetry?: boolean;
  /** Which inputs emsim runs (default o1 only: the devices here are symmetric end to end). */
  runPorts?: string[];
  /** emsim's `mode_spec.target_neff` (default null: the largest index on the plane). */
  targetNeff?: number;
  /** Meep's source this many cells upstream of o1's plane (default MEEP_SOURCE_BACK_CELLS). */
  meepSourceBackCells?: number;
}

export const COURANT = 0.99;

/** How far upstream of o1's plane Meep's source sits, in cells (off the PML in every problem). */
export const MEEP_SOURCE_BACK_CELLS = 10;

/** The emsim request. */
export function emsimSpec(p: TwoPortProblem): SimulationSpec {
  const h = p.stepM;
  const thin = p.dims === 2;
  const size: [number, number, number] = [p.roiM[0], p.roiM[1], thin ? h : p.roiM[2]];
  // The port planes cover the whole cross-section, absorber included (docs/ports.md).
  const plane: [number, number, number] = [0, 10 * size[1], thin ? h : 10 * size[2]];
  const modeSpec = { num_modes: 1, target_neff: p.targetNeff ?? null, filter_pol: null };
  const structures: StructureSpec[] = [
    { type: "box", center: [0, 0, 0], size: [100, 100, 100], material: p.clad },
    ...p.cores.map((c): StructureSpec => ({
      type: "polyslab",
      vertices: c.verticesM,
      z_min: thin ? -1 : c.zMinM,
      z_max: thin ? 1 : c.zMaxM,
      material: c.material,
    })),
  ];
  return {
    solver: "fdtd",
    domain: {
      size,
      resolution: h,
      boundary_conditions: ["pml", "pml", thin ? "periodic" : "pml"],
      pml_layers: p.pmlCells,
      ...(p.symmetry && !thin ? { symmetry: ["none", "pec", "pmc"] as const } : {}),
    } as SimulationSpec["domain"],
    source: {
      source_type: "ports",
      wavelength: p.wavelengthM,
      wavelengths: p.wavelengthsM,
      run_ports: p.runPorts ?? ["o1"],
    },
    ports: [
      { name: "o1", center: [-p.portXM, 0, 0], size: plane, direction: "+x", mode_spec: modeSpec },
      { name: "o2", center: [p.portXM, 0, 0], size: plane, direction: "-x", mode_spec: modeSpec },
    ],
    structures,
    monitors: [],
    fdtd_settings: {
      time_steps: p.maxSteps,
      courant_factor: COURANT,
      convergence_threshold: p.threshold,
      check_every_n: p.checkEvery,
    },
  };
}

/** |S|² and S of the fundamental mode at each wavelength, from either code. */
export interface TwoPortS {
  s11: [number, number][];
  s21: [number, number][];
  nEff: number[];
  seconds: number;
  steppingSeconds?: number;
  steps: number;
}

export const power = (z: [number, number]) => z[0] * z[0] + z[1] * z[1];

/** emsim's S11 and S21 (o1's column) out of its S-matrix. */
export function fromSMatrix(sm: SMatrixResult): Omit<TwoPortS, "seconds" | "steps"> {
  const W = sm.wavelengthsM.length;
  const P = sm.ports.length;
  const at = (o: number, w: number): [number, number] => [
    sm.s[2 * ((o * P + 0) * W + w)]!,
    sm.s[2 * ((o * P + 0) * W + w) + 1]!,
  ];
  return {
    s11: sm.wavelengthsM.map((_, w) => at(0, w)),
    s21: sm.wavelengthsM.map((_, w) => at(1, w)),
    nEff: sm.wavelengthsM.map((_, w) => sm.nEff[w]!),
  };
}

interface MeepOut {
  amps: Record<string, { fwd: [number, number][]; bwd: [number, number][] }>;
  n_eff: number[];
  seconds: number;
  stepping_seconds: number;
  steps: number;
  cells: number;
  last_change: number | null;
}

const divide = (a: [number, number], b: [number, number]): [number, number] => {
  const d = b[0] * b[0] + b[1] * b[1];
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d];
};

/**
 * Meep on the same problem: the EigenModeSource MEEP_SOURCE_BACK_CELLS upstream of o1's plane,
 * and mode monitors on o1's and o2's planes (emsim's). S11 = a⁻/a⁺ on o1's plane, S21 =
 * a⁺(o2)/a⁺(o1), from one run. (A monitor two cells from Meep's source read up to 8e-5 of
 * backward power in the width step where one 10 cells away read 1e-5: the source's
 * non-modal near field.)
 */
export function meepTwoPort(p: TwoPortProblem): TwoPortS & { cells: number } {
  const h = p.stepM;
  const spec = emsimSpec(p);
  const pulse = pulseFor(p.wavelengthM, p.wavelengthsM);
  const out = runMeepScript<MeepOut>(
    "meep_ports.py",
    {
      dims: p.dims,
      step_m: h,
      courant: COURANT / Math.sqrt(3),
      roi_m: [p.roiM[0], p.roiM[1], p.dims === 2 ? 0 : p.roiM[2]],
      pml_cells: p.pmlCells,
      eps_clad: p.eps[p.clad],
      prisms: p.cores.map((c) => ({
        vertices_m: c.verticesM,
        z_min_m: c.zMinM,
        z_max_m: c.zMaxM,
        eps: p.eps[c.material],
      })),
      source_x_m: -p.portXM - (p.meepSourceBackCells ?? MEEP_SOURCE_BACK_CELLS) * h,
      monitors: [
        { name: "in", x_m: -p.portXM },
        { name: "out", x_m: p.portXM },
      ],
      plane_m: [p.roiM[1], p.dims === 2 ? 0 : p.roiM[2]],
      parity: p.dims === 2 ? "ez" : "te",
      symmetry: p.symmetry ?? false,
      wavelengths_m: p.wavelengthsM,
      wavelength_m: p.wavelengthM,
      tau_s: pulse.tau,
      threshold: spec.fdtd_settings.convergence_threshold,
      check_every: spec.fdtd_settings.check_every_n,
      max_steps: spec.fdtd_settings.time_steps,
    },
    "amps",
  );
  const inc = out.amps.in!.fwd;
  return {
    s11: out.amps.in!.bwd.map((b, w) => divide(b, inc[w]!)),
    s21: out.amps.out!.fwd.map((t, w) => divide(t, inc[w]!)),
    nEff: out.n_eff,
    seconds: out.seconds,
    steppingSeconds: out.stepping_seconds,
    steps: out.steps,
    cells: out.cells,
  };
}

/**
 * A guide of width w1 for x < −L/2, widening linearly to w2 at x = L/2 and w2 beyond (L = 0:
 * a width step at x = 0), symmetric about y = 0, as one polygon reaching `farM` either way.
 */
export function taperOutline(
  w1M: number,
  w2M: number,
  lengthM: number,
  farM: number,
): [number, number][] {
  const [a, b, l] = [w1M / 2, w2M / 2, lengthM / 2];
  return [
    [-farM, -a],
    [-l, -a],
    [l, -b],
    [farM, -b],
    [farM, b],
    [l, b],
    [-l, a],
    [-farM, a],
  ];
}
