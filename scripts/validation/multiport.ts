/**
 * One multi-port waveguide problem described once and built twice, as two-port.ts does for two
 * ports: as an emsim request (`source_type: "ports"`, every port run by default) and as the
 * arguments of scripts/validation/meep_multiport.py (an EigenModeSource at each input port in
 * turn and mode monitors on every port's plane, on the same grid, time step, PML thickness,
 * pulse and stopping rule). Used by coupler-vs-meep.ts. The guides run along x; the cores are
 * polygons in the x-y plane (2-D: one periodic cell along z, E_z the mode's field; 3-D: extruded
 * from z_min to z_max).
 *
 * Each port's plane is normal to x and covers only its own guide's part of the cross-section
 * (`yRangeM`), so that it never cuts a neighbouring guide (docs/ports.md): in emsim an open end
 * reaches past the domain's edge, absorber included; in Meep it stops at the PML, as
 * two-port.ts's planes do.
 */
import { runMeepScript } from "./meep.js";
import { COURANT, MEEP_SOURCE_BACK_CELLS, type Core } from "./two-port.js";
import { pulseFor } from "../../src/solver/sources/pulse.js";
import type { SimulationSpec, SMatrixResult, StructureSpec } from "../../src/solver/types.js";

export interface PortPlace {
  name: string;
  /** The plane's position (m), on a grid node. */
  xM: number;
  /** The way into the device. */
  direction: "+x" | "-x";
  /** The plane's extent across the guides (m); ±Infinity: to the domain's edge. */
  yRangeM: [number, number];
}

export interface MultiPortProblem {
  dims: 2 | 3;
  stepM: number;
  /** Region of interest (PML outside it), [x, y, z]; z is ignored in 2-D (one cell). */
  roiM: [number, number, number];
  pmlCells: number;
  /** Relative permittivity of each material; `clad` fills the cell. */
  eps: Record<string, number>;
  clad: string;
  cores: Core[];
  ports: PortPlace[];
  wavelengthM: number;
  wavelengthsM: number[];
  threshold: number;
  checkEvery: number;
  maxSteps: number;
  /** emsim's inputs (default: every port). */
  runPorts?: string[];
  /** Meep's inputs (default: every port). */
  meepInputs?: string[];
}

/** The emsim request, its materials as constants. */
export function emsimMultiPortSpec(p: MultiPortProblem): SimulationSpec {
  const h = p.stepM;
  const thin = p.dims === 2;
  const size: [number, number, number] = [p.roiM[0], p.roiM[1], thin ? h : p.roiM[2]];
  const far = 10 * size[1];
  const modeSpec = { num_modes: 1, target_neff: null, filter_pol: null };
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
    } as SimulationSpec["domain"],
    source: {
      source_type: "ports",
      wavelength: p.wavelengthM,
      wavelengths: p.wavelengthsM,
      run_ports: p.runPorts ?? p.ports.map((q) => q.name),
    },
    ports: p.ports.map((q) => {
      const [lo, hi] = q.yRangeM.map((y) => Math.max(-far, Math.min(far, y))) as [number, number];
      return {
        name: q.name,
        center: [q.xM, (lo + hi) / 2, 0],
        size: [0, hi - lo, thin ? h : 10 * size[2]],
        direction: q.direction,
        mode_spec: modeSpec,
      };
    }),
    structures,
    monitors: [],
    materials: Object.fromEntries(
      Object.entries(p.eps).map(([name, eps]) => [name, { permittivity: eps }]),
    ),
    fdtd_settings: {
      time_steps: p.maxSteps,
      courant_factor: COURANT,
      convergence_threshold: p.threshold,
      check_every_n: p.checkEvery,
    },
  };
}

/** S[out][in][λ] as (re, im), by port name, for the inputs that were run. */
export interface MultiPortS {
  ports: string[];
  inputs: string[];
  s: Record<string, Record<string, [number, number][]>>;
  /** n_eff of each port's mode at each wavelength. */
  nEff: Record<string, number[]>;
  seconds: number;
  /** Steps of each input's run. */
  steps: number[];
}

/** emsim's S-matrix by port name (each port has one mode, `name@0`). */
export function fromMultiPortSMatrix(sm: SMatrixResult): Omit<MultiPortS, "seconds" | "steps"> {
  const W = sm.wavelengthsM.length;
  const P = sm.ports.length;
  const name = (k: string) => k.slice(0, k.indexOf("@"));
  const s: MultiPortS["s"] = {};
  const nEff: MultiPortS["nEff"] = {};
  sm.ports.forEach((out, o) => {
    nEff[name(out)] = Array.from({ length: W }, (_, w) => sm.nEff[o * W + w]!);
    s[name(out)] = {};
    for (const input of sm.inputs) {
      const i = sm.ports.indexOf(input);
      s[name(out)]![name(input)] = Array.from({ length: W }, (_, w): [number, number] => {
        const at = 2 * ((o * P + i) * W + w);
        return [sm.s[at]!, sm.s[at + 1]!];
      });
    }
  });
  return { ports: sm.ports.map(name), inputs: sm.inputs.map(name), s, nEff };
}

interface MeepMultiOut {
  runs: {
    input: string;
    amps: Record<string, { fwd: [number, number][]; bwd: [number, number][] }>;
    steps: number;
    last_change: number | null;
  }[];
  n_eff: Record<string, number[]>;
  seconds: number;
  cells: number;
}

const divide = (a: [number, number], b: [number, number]): [number, number] => {
  const d = b[0] * b[0] + b[1] * b[1];
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d];
};

/**
 * Meep on the same problem: for each input, the EigenModeSource MEEP_SOURCE_BACK_CELLS cells
 * outside its port's plane (towards the absorber), launching into the device, and mode
 * monitors on every port's plane. S_ji = (what leaves through port j, the amplitude against
 * its direction) / (what enters through port i, the amplitude along its direction), both read
 * in the same run; phases referred to the port planes, as emsim's.
 */
export function meepMultiPort(p: MultiPortProblem): MultiPortS & { cells: number } {
  const h = p.stepM;
  const spec = emsimMultiPortSpec(p);
  const pulse = pulseFor(p.wavelengthM, p.wavelengthsM);
  const half = p.roiM[1] / 2;
  const inputs = p.meepInputs ?? p.ports.map((q) => q.name);
  const out = runMeepScript<MeepMultiOut>(
    "meep_multiport.py",
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
      ports: p.ports.map((q) => {
        const [lo, hi] = q.yRangeM.map((y) => Math.max(-half, Math.min(half, y))) as [
          number,
          number,
        ];
        const sign = q.direction === "+x" ? 1 : -1;
        return {
          name: q.name,
          x_m: q.xM,
          y_m: (lo + hi) / 2,
          size_y_m: hi - lo,
          size_z_m: p.dims === 2 ? 0 : p.roiM[2],
          sign,
          source_x_m: q.xM - sign * MEEP_SOURCE_BACK_CELLS * h,
        };
      }),
      inputs,
      parity: p.dims === 2 ? "ez" : "te",
      wavelengths_m: p.wavelengthsM,
      wavelength_m: p.wavelengthM,
      tau_s: pulse.tau,
      threshold: spec.fdtd_settings.convergence_threshold,
      check_every: spec.fdtd_settings.check_every_n,
      max_steps: spec.fdtd_settings.time_steps,
    },
    "runs",
  );
  const sign = new Map(p.ports.map((q) => [q.name, q.direction === "+x" ? 1 : -1]));
  const s: MultiPortS["s"] = Object.fromEntries(p.ports.map((q) => [q.name, {}]));
  for (const run of out.runs) {
    const at = run.amps[run.input]!;
    const incoming = sign.get(run.input)! > 0 ? at.fwd : at.bwd;
    for (const q of p.ports) {
      const a = run.amps[q.name]!;
      const leaving = sign.get(q.name)! > 0 ? a.bwd : a.fwd;
      s[q.name]![run.input] = leaving.map((x, w) => divide(x, incoming[w]!));
    }
  }
  return {
    ports: p.ports.map((q) => q.name),
    inputs,
    s,
    nEff: out.n_eff,
    seconds: out.seconds,
    steps: out.runs.map((r) => r.steps),
    cells: out.cells,
  };
}

/**
 * A guide of varying width along a polyline, as one polygon: the centreline's points
 * [x, y, width] (m), each edge offset by half the width along the mitred normal, so that
 * straight sections keep their width through a kink. Upper edge left to right, then the lower
 * edge back.
 */
export function ribbon(centreline: [number, number, number][]): [number, number][] {
  const n = centreline.length;
  const unit = (a: [number, number, number], b: [number, number, number]): [number, number] => {
    const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
    const l = Math.hypot(dx, dy);
    return [-dy / l, dx / l]; // the left normal
  };
  const offsets = centreline.map((pt, k): [number, number] => {
    const before = k > 0 ? unit(centreline[k - 1]!, pt) : null;
    const after = k < n - 1 ? unit(pt, centreline[k + 1]!) : null;
    const [a, b] = [before ?? after!, after ?? before!];
    // The miter: the sum of the two normals, scaled so that its projection on each is 1.
    const [mx, my] = [a[0] + b[0], a[1] + b[1]];
    const scale = 1 / (1 + a[0] * b[0] + a[1] * b[1]);
    return [mx * scale * (pt[2] / 2), my * scale * (pt[2] / 2)];
  });
  const upper = centreline.map((pt, k): [number, number] => [
    pt[0] + offsets[k]![0],
    pt[1] + offsets[k]![1],
  ]);
  const lower = centreline.map((pt, k): [number, number] => [
    pt[0] - offsets[k]![0],
    pt[1] - offsets[k]![1],
  ]);
  return [...upper, ...lower.reverse()];
}

/** A polygon mirrored in y = 0 (its vertices reversed, so that it keeps its orientation). */
export function mirrorY(vertices: [number, number][]): [number, number][] {
  return vertices.map(([x, y]): [number, number] => [x, -y]).reverse();
}

/** Rounds a coordinate to the grid's nodes (the domain is centred on 0). */
export const onGrid = (xM: number, stepM: number) => Math.round(xM / stepM) * stepM;

/** |z|². */
export const power = (z: [number, number]) => z[0] * z[0] + z[1] * z[1];

/** The largest |S_ij − S_ji| over the inputs run and the wavelengths, per wavelength. */
export function reciprocityError(r: Omit<MultiPortS, "seconds" | "steps">): number[] {
  const W = Object.values(Object.values(r.s)[0]!)[0]!.length;
  return Array.from({ length: W }, (_, w) => {
    let worst = 0;
    for (const i of r.inputs) {
      for (const j of r.inputs) {
        if (i >= j) continue;
        const [a, b] = [r.s[j]![i]![w]!, r.s[i]![j]![w]!];
        worst = Math.max(worst, Math.hypot(a[0] - b[0], a[1] - b[1]));
      }
    }
    return worst;
  });
}

// The two devices of coupler-vs-meep.ts (2-D, Si n 3.45 in SiO2 n 1.45, 1.5–1.6 µm).

const WAVELENGTHS_M = [1.5e-6, 1.525e-6, 1.55e-6, 1.575e-6, 1.6e-6];
const EPS = { si: 3.45 ** 2, sio2: 1.45 ** 2 };
const PML_CELLS = 50;
/** The cell across the guides inside the PML: 1 µm of cladding beyond the outer guides. */
const ROI_Y_M = 4e-6;
/**
 * The guides' width: single-mode in 2-D (TE1 of an E_z slab guide of Si in SiO2 is cut off
 * below λ = 2w·√(n²_Si − n²_SiO2) = 1.38 µm). A 0.5 µm guide also carries TE1 and TE2 in 2-D,
 * and the S-bends put 4–6 % into TE1, which no TE0 port counts (see coupler-vs-meep.ts).
 */
const W_M = 0.22e-6;
/** Outer guides' centres (±): 1.5 µm apart at the edges, so the planes stop 0.75 µm short. */
const Y_OUT_M = 1.0e-6;
/** Straight guide between a port and the device. */
const LEAD_M = 1e-6;
const inf = Number.POSITIVE_INFINITY;
/** Straight segments per S-bend (each turns the guide by under 1.5°). */
const BEND_SEGMENTS = 24;

/**
 * A cosine S-bend's centreline from (x0, y0) to (x1, y1), y = y0 + (y1 − y0)(1 − cos πt)/2, as
 * BEND_SEGMENTS + 1 points: its smallest radius is 2L²/(π²Δy) (L, Δy the bend's length and
 * offset), at its ends.
 */
function sBend(x0: number, y0: number, x1: number, y1: number): [number, number][] {
  return Array.from({ length: BEND_SEGMENTS + 1 }, (_, k): [number, number] => {
    const t = k / BEND_SEGMENTS;
    return [x0 + t * (x1 - x0), y0 + ((y1 - y0) * (1 - Math.cos(Math.PI * t))) / 2];
  });
}

/** The frame of a device whose ports lie at x0 (left) and x1 (right) before centring. */
function frame(x0M: number, x1M: number, h: number) {
  const shift = -(x0M + x1M) / 2;
  const portX = onGrid((x1M - x0M) / 2, h);
  const roiX = 2 * (portX + onGrid(0.5e-6, h));
  const far = roiX / 2 + PML_CELLS * h + 2e-6;
  return { shift, portX, roiX, far };
}

function problem(
  h: number,
  threshold: number,
  roiX: number,
  cores: [number, number][][],
  ports: PortPlace[],
): MultiPortProblem {
  return {
    dims: 2,
    stepM: h,
    roiM: [roiX, ROI_Y_M, 0],
    pmlCells: PML_CELLS,
    eps: EPS,
    clad: "sio2",
    cores: cores.map((v) => ({ verticesM: v, zMinM: 0, zMaxM: 0, material: "si" })),
    ports,
    wavelengthM: 1.55e-6,
    wavelengthsM: WAVELENGTHS_M,
    threshold,
    checkEvery: 500,
    maxSteps: 200000,
  };
}

/** The directional coupler (coupler-vs-meep.ts describes it): coupling length and gap in m. */
export function coupler(
  h: number,
  lengthM: number,
  threshold: number,
  gap = 0.2e-6,
): MultiPortProblem {
  const yIn = (W_M + gap) / 2;
  const [bendLeft, bendRight] = [4e-6, 3e-6];
  const xL1 = -lengthM / 2;
  const xL0 = xL1 - bendLeft;
  const xR1 = lengthM / 2;
  const xR0 = xR1 + bendRight;
  const f = frame(xL0 - LEAD_M, xR0 + LEAD_M, h);
  const upper = ribbon(
    [
      [-f.far - f.shift, Y_OUT_M],
      ...sBend(xL0, Y_OUT_M, xL1, yIn),
      ...sBend(xR1, yIn, xR0, Y_OUT_M),
      [f.far - f.shift, Y_OUT_M],
    ].map(([x, y]): [number, number, number] => [x! + f.shift, y!, W_M]),
  );
  return problem(
    h,
    threshold,
    f.roiX,
    [upper, mirrorY(upper)],
    [
      { name: "o1", xM: -f.portX, direction: "+x", yRangeM: [-inf, 0] },
      { name: "o2", xM: -f.portX, direction: "+x", yRangeM: [0, inf] },
      { name: "o3", xM: f.portX, direction: "-x", yRangeM: [0, inf] },
      { name: "o4", xM: f.portX, direction: "-x", yRangeM: [-inf, 0] },
    ],
  );
}

/** The 1 × 2 MMI (coupler-vs-meep.ts describes it). */
export function mmi(h: number, threshold: number): MultiPortProblem {
  const [taperW, width, length, taperL, yo, bend] = [0.8e-6, 2e-6, 4.9e-6, 3e-6, 0.55e-6, 3e-6];
  const xM0 = -length / 2;
  const xM1 = length / 2;
  const xT0 = xM0 - taperL;
  const xB1 = xM1 + taperL + bend;
  const f = frame(xT0 - LEAD_M, xB1 + LEAD_M, h);
  const arm = ribbon([
    [xM1, yo, taperW],
    ...sBend(xM1 + taperL, yo, xB1, Y_OUT_M).map(([x, y]): [number, number, number] => [x, y, W_M]),
    [f.far - f.shift, Y_OUT_M, W_M],
  ]);
  // The upper half's outline from the far left to the MMI's end face below the upper arm.
  const top: [number, number][] = [
    [-f.far - f.shift, W_M / 2],
    [xT0, W_M / 2],
    [xM0, taperW / 2],
    [xM0, width / 2],
    [xM1, width / 2],
    ...arm,
  ];
  const outline = [...top, ...mirrorY(top)].map(([x, y]): [number, number] => [x + f.shift, y]);
  return problem(
    h,
    threshold,
    f.roiX,
    [outline],
    [
      { name: "o1", xM: -f.portX, direction: "+x", yRangeM: [-inf, inf] },
      { name: "o2", xM: f.portX, direction: "-x", yRangeM: [0, inf] },
      { name: "o3", xM: f.portX, direction: "-x", yRangeM: [-inf, 0] },
    ],
  );
}
