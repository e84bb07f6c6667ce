/**
 * Helpers for the solver's tests and validation scripts: a material resolver with constant
 * permittivities (the public API only takes library names) and builders for quasi-1-D
 * problems (a cross-section one cell wide with periodic boundaries).
 */
import { SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import { permittivity, type PoleModel } from "../dispersion/model.js";
import { findMaterial } from "../materials.js";
import type { MaterialResolver } from "../simulation.js";
import type {
  Boundary,
  FieldComponent,
  MonitorSpec,
  SimulationSpec,
  SourceSpec,
  StructureSpec,
  Vec3,
} from "../types.js";

/**
 * vacuum/air plus the given names with constant relative permittivity re + i·im, and the
 * library's PEC (by any of its names) as the perfect conductor.
 */
export function constantMaterials(
  table: Record<string, number | { re: number; im: number }>,
): MaterialResolver {
  const all = new Map<string, { re: number; im: number }>([
    ["vacuum", { re: 1, im: 0 }],
    ["air", { re: 1, im: 0 }],
  ]);
  for (const [k, v] of Object.entries(table)) {
    all.set(k.toLowerCase(), typeof v === "number" ? { re: v, im: 0 } : v);
  }
  return {
    describe: (name) => {
      const library = findMaterial(name);
      if (library?.perfectConductor) return library;
      return all.has(name.toLowerCase())
        ? {
            name,
            model: "constant (test)",
            reference: "test fixture",
            validRangeM: [0, Number.MAX_VALUE],
          }
        : undefined;
    },
    permittivity: (name) => {
      const eps = all.get(name.toLowerCase());
      if (!eps) throw new Error(`unknown material ${name}`);
      return eps;
    },
  };
}

export interface LineProblem {
  /** Propagation axis 0/1/2. */
  axis: number;
  wavelengthM: number;
  stepM: number;
  /** Domain length along the axis in metres. */
  lengthM: number;
  polarization?: "te" | "tm";
  /** Direction; defaults to +axis. */
  direction?: Vec3;
  amplitude?: number;
  structures?: StructureSpec[];
  monitors?: MonitorSpec[];
  timeSteps?: number;
  threshold?: number;
  checkEvery?: number;
  courant?: number;
  pmlLayers?: number;
  /** Cells across (periodic), default 1. */
  crossCells?: number;
}

/** A plane-wave problem along one axis, periodic across with a 1-cell (default) section. */
export function lineSpec(p: LineProblem): SimulationSpec {
  const across = (p.crossCells ?? 1) * p.stepM;
  const size: Vec3 = [across, across, across];
  size[p.axis] = p.lengthM;
  const bc: [Boundary, Boundary, Boundary] = ["periodic", "periodic", "periodic"];
  bc[p.axis] = "pml";
  const dir: Vec3 = p.direction ?? [0, 0, 0];
  if (!p.direction) dir[p.axis] = 1;
  return {
    solver: "fdtd",
    domain: { size, resolution: p.stepM, boundary_conditions: bc, pml_layers: p.pmlLayers ?? 12 },
    source: {
      source_type: "plane_wave",
      wavelength: p.wavelengthM,
      polarization: p.polarization ?? "te",
      direction: dir,
      amplitude: p.amplitude ?? 1,
    },
    structures: p.structures ?? [],
    monitors: p.monitors ?? [],
    fdtd_settings: {
      time_steps: p.timeSteps ?? 100000,
      courant_factor: p.courant ?? 0.99,
      convergence_threshold: p.threshold ?? 1e-7,
      check_every_n: p.checkEvery ?? 200,
    },
  };
}

export interface BoxProblem {
  /** Region of interest in metres. */
  sizeM: Vec3;
  stepM: number;
  wavelengthM: number;
  /** Default pml on every axis. */
  boundaries?: [Boundary, Boundary, Boundary];
  pmlLayers?: number;
  /** Default +z. */
  direction?: Vec3;
  structures?: StructureSpec[];
  monitors?: MonitorSpec[];
  timeSteps: number;
  /** Default 0 (every time step runs). */
  threshold?: number;
  checkEvery?: number;
}

/** A 3-D plane-wave problem in a box, te, amplitude 1, S = 0.99. */
export function boxSpec(p: BoxProblem): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size: p.sizeM,
      resolution: p.stepM,
      boundary_conditions: p.boundaries ?? ["pml", "pml", "pml"],
      pml_layers: p.pmlLayers ?? 8,
    },
    source: {
      source_type: "plane_wave",
      wavelength: p.wavelengthM,
      polarization: "te",
      direction: p.direction ?? [0, 0, 1],
      amplitude: 1,
    },
    structures: p.structures ?? [],
    monitors: p.monitors ?? [],
    fdtd_settings: {
      time_steps: p.timeSteps,
      courant_factor: 0.99,
      convergence_threshold: p.threshold ?? 0,
      check_every_n: p.checkEvery ?? 100,
    },
  };
}

export interface CrossSectionProblem {
  /** Grid step, and the cross-section's thickness along y (one cell). */
  stepM: number;
  /** Region of interest along x and z (m), inside a 12-cell absorber. */
  widthM: number;
  heightM: number;
  source: SourceSpec;
  structures?: StructureSpec[];
  monitors: MonitorSpec[];
  /** Default 1e-6, checked every 100 steps, up to 100 000 steps. */
  threshold?: number;
}

/** A 2-D x–z cross-section: periodic and one cell thick along y, run until it settles. */
export function crossSectionSpec(p: CrossSectionProblem): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size: [p.widthM, p.stepM, p.heightM],
      resolution: p.stepM,
      boundary_conditions: ["pml", "periodic", "pml"],
      pml_layers: 12,
    },
    source: p.source,
    structures: p.structures ?? [],
    monitors: p.monitors,
    fdtd_settings: {
      time_steps: 100000,
      courant_factor: 0.99,
      convergence_threshold: p.threshold ?? 1e-6,
      check_every_n: 100,
    },
  };
}

/**
 * A cube of "glass" a third of the domain's side at the centre of a cube of `cells` cells of
 * `stepM` (absorber on every face), lit by boxSpec's plane wave of 20 cells per wavelength.
 */
export function glassCubeSpec(
  cells: number,
  stepM: number,
  timeSteps: number,
  monitors: MonitorSpec[] = [],
): SimulationSpec {
  const size = cells * stepM;
  return boxSpec({
    sizeM: [size, size, size],
    stepM,
    wavelengthM: 20 * stepM,
    structures: [
      { type: "box", center: [0, 0, 0], size: [size / 3, size / 3, size / 3], material: "glass" },
    ],
    monitors,
    timeSteps,
  });
}

/** A slab (box spanning the cross-section) between `fromM` and `toM` along `axis`. */
export function slab(axis: number, fromM: number, toM: number, material: string): StructureSpec {
  const center: Vec3 = [0, 0, 0];
  const size: Vec3 = [1, 1, 1];
  center[axis] = (fromM + toM) / 2;
  size[axis] = toM - fromM;
  return { type: "box", center, size, material };
}

/** A point monitor at coordinate `atM` along `axis`. */
export function pointMonitor(
  name: string,
  axis: number,
  atM: number,
  components: FieldComponent[],
  wavelengths?: number[],
): MonitorSpec {
  const center: Vec3 = [0, 0, 0];
  center[axis] = atM;
  return {
    name,
    monitor_type: "field",
    center,
    size: [0, 0, 0],
    components,
    ...(wavelengths ? { wavelengths } : {}),
  };
}

/** A flux plane normal to `axis` at coordinate `atM`, across the whole cross-section. */
export function fluxPlane(
  name: string,
  axis: number,
  atM: number,
  wavelengths?: MonitorSpec["wavelengths"],
): MonitorSpec {
  const center: Vec3 = [0, 0, 0];
  const size: Vec3 = [1, 1, 1];
  center[axis] = atM;
  size[axis] = 0;
  return { name, monitor_type: "flux", center, size, ...(wavelengths ? { wavelengths } : {}) };
}

/** Complex value `index` of a monitor's interleaved component data. */
export function phasor(data: Float32Array | undefined, index = 0): { re: number; im: number } {
  if (!data) throw new Error("component not recorded");
  return { re: data[2 * index], im: data[2 * index + 1] };
}

export const abs2 = (z: { re: number; im: number }) => z.re * z.re + z.im * z.im;

/** Reflectance of a lossless slab of index n and thickness d in vacuum, normal incidence. */
export function airySlabReflectance(n: number, thicknessM: number, wavelengthM: number): number {
  const r1 = (1 - n) / (1 + n);
  const delta = (2 * Math.PI * n * thicknessM) / wavelengthM;
  // r = r1·(1 − e^{2iδ}) / (1 − r1²·e^{2iδ})
  const c = Math.cos(2 * delta);
  const s = Math.sin(2 * delta);
  const numRe = r1 * (1 - c);
  const numIm = -r1 * s;
  const denRe = 1 - r1 * r1 * c;
  const denIm = -r1 * r1 * s;
  return (numRe * numRe + numIm * numIm) / (denRe * denRe + denIm * denIm);
}

/**
 * Reflectance and transmittance of the discretised 1-D problem itself (the exact solution of
 * the Yee equations at angular frequency ω for a given permittivity per E node, vacuum on
 * both sides): the Yee scheme's own "Airy formula". Comparing the solver with it isolates
 * implementation errors from the scheme's O((k·dz)²) discretisation error.
 * @param epsNodes relative permittivity at consecutive E nodes, vacuum at both ends
 * @param courant1d c·dt/dz
 */
export function discreteSlabRT(
  epsNodes: ArrayLike<number>,
  stepM: number,
  courant1d: number,
  wavelengthM: number,
): { R: number; T: number } {
  const dt = (courant1d * stepM) / 299_792_458;
  const omega = (2 * Math.PI * 299_792_458) / wavelengthM;
  // (ω̃·dz/c)² with ω̃ = 2·sin(ω·dt/2)/dt
  const q0 = ((2 * Math.sin((omega * dt) / 2)) / dt) ** 2 * (stepM / 299_792_458) ** 2;
  const theta = 2 * Math.asin(Math.sqrt(q0) / 2); // vacuum phase per cell
  // March from the transmitted side (E_k = e^{ikθ}) back to the incident side.
  const n = epsNodes.length;
  let eNextRe = Math.cos(theta); // E_{k+1}
  let eNextIm = Math.sin(theta);
  let eRe = 1; // E_k at k = n − 1 (last node, vacuum)
  let eIm = 0;
  for (let k = n - 1; k >= 1; k--) {
    // E_{k−1} = (2 − q_k)·E_k − E_{k+1}
    const f = 2 - q0 * epsNodes[k];
    const pr = f * eRe - eNextRe;
    const pi = f * eIm - eNextIm;
    eNextRe = eRe;
    eNextIm = eIm;
    eRe = pr;
    eIm = pi;
  }
  // Now E_0 = (eRe, eIm), E_1 = eNext; E_k = A e^{ikθ} + B e^{−ikθ} in vacuum.
  // A = (E_1 − E_0 e^{−iθ}) / (e^{iθ} − e^{−iθ}),  B = E_0 − A.
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  const numRe = eNextRe - (eRe * c + eIm * s);
  const numIm = eNextIm - (eIm * c - eRe * s);
  // divide by 2i·sinθ
  const aRe = numIm / (2 * s);
  const aIm = -numRe / (2 * s);
  const bRe = eRe - aRe;
  const bIm = eIm - aIm;
  const a2 = aRe * aRe + aIm * aIm;
  return { R: (bRe * bRe + bIm * bIm) / a2, T: 1 / a2 };
}

/**
 * discreteSlabRT on a graded grid: the exact solution of the non-uniform Yee equations
 * (grid.ts) at angular frequency ω for a permittivity per E node. With E at the nodes and H
 * at the cell centres, eliminating H gives
 *   (E_{k+1} − E_k)/Δ_k − (E_k − E_{k−1})/Δ_{k−1} = −(ω̃/c)²·ε_k·d_k·E_k,
 * Δ_k the step of cell k, d_k = (Δ_{k−1} + Δ_k)/2 the dual step, ω̃ = 2·sin(ω·dt/2)/dt, marched
 * from an outgoing wave on the last nodes back to the first. Both ends must be vacuum on
 * uniform cells of one step (waves there are e^{±ikθ} with 4·sin²(θ/2) = (ω̃Δ/c)²); the
 * discrete vacuum impedance is exactly η0 on any step, so T = |t|².
 * @param epsNodes relative permittivity at the nodes
 * @param nodesM the nodes' coordinates (same length)
 */
export function discreteGradedSlabRT(
  epsNodes: ArrayLike<number>,
  nodesM: ArrayLike<number>,
  dtSeconds: number,
  wavelengthM: number,
): { R: number; T: number } {
  const c0 = 299_792_458;
  const n = epsNodes.length;
  const omega = (2 * Math.PI * c0) / wavelengthM;
  const q = ((2 * Math.sin((omega * dtSeconds) / 2)) / dtSeconds / c0) ** 2;
  const step = (k: number) =>
    nodesM[Math.min(n - 1, Math.max(1, k + 1))] - nodesM[Math.min(n - 2, Math.max(0, k))];
  const thetaOf = (h: number) => 2 * Math.asin((Math.sqrt(q) * h) / 2);
  const thetaR = thetaOf(step(n - 1));
  let nextRe = Math.cos(thetaR); // E_{k+1}
  let nextIm = Math.sin(thetaR);
  let eRe = 1; // E_k, k = n − 1
  let eIm = 0;
  for (let k = n - 1; k >= 1; k--) {
    const hk = step(k);
    const hb = step(k - 1);
    const f = q * epsNodes[k] * ((hb + hk) / 2);
    // E_{k−1} = E_k − Δ_{k−1}·[(E_{k+1} − E_k)/Δ_k + f·E_k]
    const pr = eRe - hb * ((nextRe - eRe) / hk + f * eRe);
    const pi = eIm - hb * ((nextIm - eIm) / hk + f * eIm);
    nextRe = eRe;
    nextIm = eIm;
    eRe = pr;
    eIm = pi;
  }
  const theta = thetaOf(step(0));
  const cs = Math.cos(theta);
  const sn = Math.sin(theta);
  const numRe = nextRe - (eRe * cs + eIm * sn);
  const numIm = nextIm - (eIm * cs - eRe * sn);
  const aRe = numIm / (2 * sn);
  const aIm = -numRe / (2 * sn);
  const bRe = eRe - aRe;
  const bIm = eIm - aIm;
  const a2 = aRe * aRe + aIm * aIm;
  return { R: (bRe * bRe + bIm * bIm) / a2, T: 1 / a2 };
}

export type Complex = { re: number; im: number };
const cmul = (a: Complex, b: Complex): Complex => ({
  re: a.re * b.re - a.im * b.im,
  im: a.re * b.im + a.im * b.re,
});
const cdiv = (a: Complex, b: Complex): Complex => {
  const d = b.re * b.re + b.im * b.im;
  return { re: (a.re * b.re + a.im * b.im) / d, im: (a.im * b.re - a.re * b.im) / d };
};
const cexpi = (z: Complex): Complex => {
  // e^{i z}
  const m = Math.exp(-z.im);
  return { re: m * Math.cos(z.re), im: m * Math.sin(z.re) };
};

/**
 * R and T of a slab of complex index n (Im n ≥ 0 for loss) and thickness d in vacuum at
 * normal incidence: r = r1(1 − e^{2iδ})/(1 − r1²e^{2iδ}), t = (1 − r1²)e^{iδ}/(1 − r1²e^{2iδ}),
 * r1 = (1 − n)/(1 + n), δ = n·k0·d.
 */
export function airySlab(
  n: Complex,
  thicknessM: number,
  wavelengthM: number,
): { R: number; T: number } {
  const { r, t } = airySlabAmplitudes(n, thicknessM, wavelengthM);
  return { R: abs2(r), T: abs2(t) };
}

/**
 * The complex amplitudes behind airySlab: the reflected field at the front face and the
 * transmitted field at the back face, both for a unit incident field at the front face.
 */
export function airySlabAmplitudes(
  n: Complex,
  thicknessM: number,
  wavelengthM: number,
): { r: Complex; t: Complex } {
  const k0d = (2 * Math.PI * thicknessM) / wavelengthM;
  const r1 = cdiv({ re: 1 - n.re, im: -n.im }, { re: 1 + n.re, im: n.im });
  const r1sq = cmul(r1, r1);
  const e1 = cexpi({ re: n.re * k0d, im: n.im * k0d });
  const e2 = cmul(e1, e1);
  const den = {
    re: 1 - (r1sq.re * e2.re - r1sq.im * e2.im),
    im: -(r1sq.re * e2.im + r1sq.im * e2.re),
  };
  const r = cdiv(cmul(r1, { re: 1 - e2.re, im: -e2.im }), den);
  const t = cdiv(cmul({ re: 1 - r1sq.re, im: -r1sq.im }, e1), den);
  return { r, t };
}

/**
 * Materials given by multi-pole models (dispersion/model.ts), stepped with their poles at
 * every wavelength (as the library's metals are), plus vacuum.
 */
export function poleMaterials(table: Record<string, PoleModel>): MaterialResolver {
  const models = new Map(Object.entries(table).map(([k, v]) => [k.toLowerCase(), v]));
  const vacuum = constantMaterials({});
  const modelOf = (name: string) => models.get(name.toLowerCase());
  return {
    describe: (name) =>
      modelOf(name)
        ? {
            name,
            model: "multi-pole (test)",
            reference: "test fixture",
            validRangeM: [0, Number.MAX_VALUE],
          }
        : vacuum.describe(name),
    permittivity: (name, wavelengthM) => {
      const model = modelOf(name);
      if (!model) return vacuum.permittivity(name, wavelengthM);
      return permittivity(model, (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / wavelengthM);
    },
    dispersion: (name) => {
      const model = modelOf(name);
      return model ? { model, always: true } : undefined;
    },
  };
}

/**
 * A request (no defaults filled in) for issue #26's column: 2 nm × 2 nm × 1 µm of vacuum at
 * 2 nm cells, periodic across and pml along z (16 layers), a plane wave at 1.55 µm along +z and
 * a flux plane "T" at z = 0.3 µm, converging to 1e-6 checked every 500 steps. Its pulse is long
 * against the grid's transit, so the source sets the step at which it may converge.
 */
export function vacuumColumnRequest(timeSteps: number) {
  return {
    solver: "fdtd",
    domain: {
      size: [2e-9, 2e-9, 1e-6],
      resolution: 2e-9,
      boundary_conditions: ["periodic", "periodic", "pml"],
      pml_layers: 16,
    },
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
    monitors: [{ name: "T", monitor_type: "flux", center: [0, 0, 0.3e-6], size: [2e-9, 2e-9, 0] }],
    fdtd_settings: { time_steps: timeSteps, convergence_threshold: 1e-6, check_every_n: 500 },
  };
}
