/**
 * The set-up as the run steps it, on planes (POST /v1/simulations/preview, `emsim preview`):
 * the permittivity of each sampled cell of a plane at the source wavelength, after the run's
 * painting and sub-cell averaging, the material at each sample point, and where the grid, the
 * absorber and the source's injection planes lie.
 *
 * One painting: the run's (simulation.ts paintingOf gives the grid, the shapes and the update
 * materials, medium.ts paints). Only the cells of the requested planes are painted (a lattice,
 * medium.ts latticeCells): the painter works cell by cell from the shapes, so each cell's
 * entry is the one a whole painting gives it, to the table's quantum (medium.ts: cells whose
 * states round alike share an entry, whose exact value is the first such cell's). A plane of a
 * 5-million-cell grid is then tens of thousands of cells, not millions.
 *
 * Which cells of a plane are sampled and how their three E components' ε combine into the
 * one shown is plane-permittivity.ts's, which the run's result file uses too.
 */
import { permittivity } from "./dispersion/model.js";
import { TFSF_OFFSET_CELLS, planeWaveGeometry } from "./sources/plane-wave.js";
import { YeeLayout, dualStepM, interiorSpanM, nodeIndexAt, planGrid } from "./grid.js";
import { isMetal, latticeCells, paintCells, type UpdateMaterial } from "./medium.js";
import {
  latticeOf,
  planeEps,
  planeSamples,
  shownNodes,
  type PlaneRequest,
} from "./plane-permittivity.js";
import { domainFaces, shapeOf } from "./geometry.js";
import { transverseAxes } from "./modes/plane-medium.js";
import { SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import { portRuns } from "./ports.js";
import type { Painting } from "./simulation.js";
import { setupWarnings, type SetupWarning } from "./preview-warnings.js";
import type {
  Boundary,
  ModeSourceSpec,
  SimulationSpec,
  SpecProblem,
  Symmetry,
  Vec3,
} from "./types.js";
import { numberText } from "./number-text.js";

/** Six significant digits, as the checks write lengths (checks/common.ts). */
const fmt = (v: number) => numberText(v);

/** The most samples per axis of a preview plane. */
export const MAX_PREVIEW_SAMPLES = 2000;

/** A plane to preview: normal 0 x, 1 y, 2 z; at most `maxSamples` cells along each axis. */
export type PreviewPlaneRequest = PlaneRequest;

/** A material of the preview: what the picture marks (metals and perfect conductors apart). */
export interface PreviewMaterial {
  name: string;
  /** pec: a perfect conductor; metal: Re ε < 0 at the source wavelength; else dielectric. */
  kind: "dielectric" | "metal" | "pec";
}

/** One plane's cells as the run steps them. */
export interface PreviewPlane {
  normal: number;
  /** The in-plane axes (first, second): Tidy3D's, (y, z), (x, z) or (x, y). */
  axes: [number, number];
  /** The node plane's coordinate along the normal (metres). */
  positionM: number;
  /** The grid's step across the plane there: the dual step at its node (metres). */
  normalStepM: number;
  /** The grid's nodes along each in-plane axis on the plane, before sampling. */
  nodes: [number, number];
  /** The sampled nodes' coordinates along the first and the second axis (metres). */
  coordsM: [Float64Array, Float64Array];
  /** ε at the source wavelength, real and imaginary parts, sample (i, j) at i·n_second + j. */
  epsRe: Float64Array;
  epsIm: Float64Array;
  /** The material at each sample point: an index into SetupPreview.materials. */
  material: Uint16Array;
  /** How many of each cell's three E components are a perfect conductor's (held at zero). */
  conductor: Uint8Array;
}

/** One axis of the grid in the whole domain's coordinates (a mirrored one both halves). */
export interface PreviewAxis {
  boundary: Boundary;
  mirror: Symmetry;
  /** The grid, absorber included (metres). */
  gridM: [number, number];
  /** The region of interest as the grid rounded it (metres). */
  interiorM: [number, number];
  /** The shortest and the longest cell (metres). */
  minStepM: number;
  maxStepM: number;
}

/** A plane where the run injects its source (the solver snaps each to a node plane). */
export interface InjectionPlane {
  /** What it is: "TFSF plane", "beam plane", "mode plane", "port o1 source". */
  name: string;
  normal: number;
  positionM: number;
}

export interface SetupPreview {
  planes: PreviewPlane[];
  /** The background's first, then each structure's in order of first use. */
  materials: PreviewMaterial[];
  /** Per structure, its material's index in `materials`. */
  structureMaterial: number[];
  axes: [PreviewAxis, PreviewAxis, PreviewAxis];
  injections: InjectionPlane[];
  warnings: SetupWarning[];
}

/** One plane, painted and sampled. */
function previewPlane(
  painting: Painting,
  request: PreviewPlaneRequest,
  omega: number,
  materialAt: (p: Vec3) => number,
): PreviewPlane {
  const { plan, background, painted } = painting;
  const samples = planeSamples(plan, request);
  const cells = latticeCells(latticeOf(samples));
  const medium = paintCells(plan, YeeLayout.ofPlan(plan), cells, background, painted);
  const a = samples.normal;
  const [u, v] = samples.axes;
  const [alongU, alongV] = [samples.along[u], samples.along[v]];
  const material = new Uint16Array(alongU.length * alongV.length);
  const at: Vec3 = [0, 0, 0];
  at[a] = samples.along[a][0].coordM;
  alongU.forEach((su, i) => {
    at[u] = su.coordM;
    alongV.forEach((sv, j) => {
      at[v] = sv.coordM;
      material[i * alongV.length + j] = materialAt(at);
    });
  });
  return {
    normal: a,
    axes: [u, v],
    positionM: samples.along[a][0].coordM,
    normalStepM: dualStepM(plan.axes[a], samples.along[a][0].node),
    nodes: samples.nodes,
    coordsM: [
      Float64Array.from(alongU, (p) => p.coordM),
      Float64Array.from(alongV, (p) => p.coordM),
    ],
    ...planeEps(medium, cells, samples, omega),
    material,
  };
}

/** The whole-domain extent of each axis. */
function previewAxes(painting: Painting): SetupPreview["axes"] {
  return painting.plan.axes.map((ax): PreviewAxis => {
    const top = ax.nodesM[ax.cells];
    return {
      boundary: ax.boundary,
      mirror: ax.mirror,
      gridM: [ax.mirror === "none" ? ax.nodesM[0] : -top, top],
      interiorM: interiorSpanM(ax),
      minStepM: ax.minStepM,
      maxStepM: ax.maxStepM,
    };
  }) as SetupPreview["axes"];
}

/** The preview's materials (background first) and each structure's index among them. */
function previewMaterials(spec: SimulationSpec, painting: Painting, omega: number) {
  const materials: PreviewMaterial[] = [];
  const keys: string[] = [];
  const kindOf = (m: UpdateMaterial): PreviewMaterial["kind"] => {
    if (m.perfectConductor) return "pec";
    if (isMetal(m.poles)) return "metal";
    const eps = permittivity({ epsInf: m.epsRe, sigma: m.sigma, poles: m.poles ?? [] }, omega);
    return eps.re < 0 ? "metal" : "dielectric";
  };
  const indexOf = (name: string, m: UpdateMaterial) => {
    const key = name.trim().toLowerCase();
    let k = keys.indexOf(key);
    if (k < 0) {
      keys.push(key);
      materials.push({ name, kind: kindOf(m) });
      k = keys.length - 1;
    }
    return k;
  };
  indexOf("vacuum", painting.background);
  const structureMaterial = spec.structures.map((s, i) =>
    indexOf(s.material, painting.painted[i].material),
  );
  return { materials, structureMaterial };
}

/**
 * The material at a point (metres): the last structure whose shape holds it (its surface
 * included), else the background. The shapes are the painter's (periodic images, extension
 * through the absorber), built anew: a polyslab's keeps rows as fine as the finest box it has
 * measured (polyslab.ts PolygonArea), and a point's probe would leave the painter's far too
 * fine for its cells. Below a mirror plane the point's image above it.
 */
function materialLookup(
  spec: SimulationSpec,
  painting: Painting,
  structureMaterial: number[],
): (p: Vec3) => number {
  const { plan } = painting;
  const faces = domainFaces(plan);
  const shapes = spec.structures.map((s) => shapeOf(s, faces));
  const probe: Vec3 = plan.axes.map((ax) => ax.minStepM * 1e-6) as Vec3;
  const q: Vec3 = [0, 0, 0];
  const normal: Vec3 = [0, 0, 0];
  return (p) => {
    for (let b = 0; b < 3; b++) q[b] = plan.axes[b].mirror === "none" ? p[b] : Math.abs(p[b]);
    for (let s = shapes.length - 1; s >= 0; s--) {
      const { lo, hi } = shapes[s];
      if (q[0] < lo[0] || q[0] > hi[0] || q[1] < lo[1] || q[1] > hi[1]) continue;
      if (q[2] < lo[2] || q[2] > hi[2]) continue;
      if (shapes[s].fill(q, probe, normal) >= 0.5) return structureMaterial[s];
    }
    return 0;
  };
}

/** Where the run injects its source: node planes, as the sources place them. */
function injectionPlanes(spec: SimulationSpec, painting: Painting): InjectionPlane[] {
  const { plan } = painting;
  const node = (a: number, x: number) => {
    const ax = plan.axes[a];
    return ax.nodesM[Math.min(ax.cells, Math.max(0, Math.round(nodeIndexAt(ax, x))))];
  };
  const source = spec.source;
  switch (source.source_type) {
    case "plane_wave": {
      // plane-wave.ts: TFSF_OFFSET_CELLS inside the upstream face of the region of interest.
      const g = planeWaveGeometry(source);
      const ax = plan.axes[g.axis];
      const s = g.sign > 0 ? ax.pmlLo + TFSF_OFFSET_CELLS : ax.cells - ax.pmlHi - TFSF_OFFSET_CELLS;
      return [{ name: "TFSF plane", normal: g.axis, positionM: ax.nodesM[s] }];
    }
    case "gaussian_beam": {
      const a = planeWaveGeometry({ ...source, source_type: "plane_wave", amplitude: 1 }).axis;
      return [{ name: "beam plane", normal: a, positionM: node(a, source.center[a]) }];
    }
    case "mode": {
      const a = "xyz".indexOf(source.direction[1]);
      return [{ name: "mode plane", normal: a, positionM: node(a, source.center[a]) }];
    }
    case "ports":
      // ports.ts: each launched port's source a few cells into the device.
      return portRuns(spec)
        .filter((r) => r.mode === 0)
        .map((r) => {
          const a = "xyz".indexOf(r.port.direction[1]);
          const positionM = (r.spec.source as ModeSourceSpec).center[a];
          return { name: `port ${r.port.name} source`, normal: a, positionM };
        });
    default:
      return [];
  }
}

/**
 * The set-up of a checked request on the given planes, painted as its run paints it.
 * `painting`: simulation.ts paintingOf of the spec the run steps (for a ports request, a port
 * run's: the same grid and structures, materials over the S-matrix's band).
 */
export function previewSetup(
  spec: SimulationSpec,
  painting: Painting,
  planes: readonly PreviewPlaneRequest[],
): SetupPreview {
  const omega = (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / spec.source.wavelength;
  const { materials, structureMaterial } = previewMaterials(spec, painting, omega);
  const materialAt = materialLookup(spec, painting, structureMaterial);
  return {
    planes: planes.map((p) => previewPlane(painting, p, omega, materialAt)),
    materials,
    structureMaterial,
    axes: previewAxes(painting),
    injections: injectionPlanes(spec, painting),
    warnings: setupWarnings(spec, painting.plan),
  };
}

/**
 * The most samples of all a preview's planes together (the default request, three planes of
 * 400 × 400, has 480 000): a sample costs about 2 µs on the event loop (painting, the material
 * at its point, the answer's JSON; a plane of a million took 1.0–1.2 s) and 12 bytes of JSON,
 * so the bound holds a preview to about a second and 6 MB.
 */
export const MAX_PREVIEW_TOTAL_SAMPLES = 500_000;

/**
 * The problems of a checked request's preview planes: a plane must cross the grid, absorber
 * included (`planes[k].position`), and the planes together may hold at most
 * MAX_PREVIEW_TOTAL_SAMPLES samples (`max_samples`).
 */
export function previewPlaneProblems(
  spec: SimulationSpec,
  planes: readonly PreviewPlaneRequest[],
): SpecProblem[] {
  const plan = planGrid(spec.domain, spec.fdtd_settings.courant_factor);
  const problems: SpecProblem[] = [];
  let samples = 0;
  planes.forEach((p, k) => {
    const ax = plan.axes[p.normal];
    const [u, v] = transverseAxes(p.normal);
    const shown = (b: number) => Math.min(p.maxSamples, shownNodes(plan.axes[b]).length);
    samples += shown(u) * shown(v);
    const top = ax.nodesM[ax.cells];
    const [lo, hi] = [ax.mirror === "none" ? ax.nodesM[0] : -top, top];
    const slack = 1e-9 * (hi - lo);
    if (Number.isFinite(p.positionM) && p.positionM >= lo - slack && p.positionM <= hi + slack) {
      return;
    }
    problems.push({
      path: `planes[${k}].position`,
      message:
        `${fmt(p.positionM)} m is outside the grid, which spans [${fmt(lo)}, ${fmt(hi)}] m ` +
        `along ${"xyz"[p.normal]} (absorber included)`,
    });
  });
  if (samples > MAX_PREVIEW_TOTAL_SAMPLES) {
    problems.push({
      path: "max_samples",
      message:
        `the planes would hold ${samples} samples, more than ${MAX_PREVIEW_TOTAL_SAMPLES}: ` +
        "ask for fewer planes or fewer samples per axis",
    });
  }
  return problems;
}
