/**
 * The cross-section of a request's medium on a mode plane, as the FDTD paints it: the same
 * grid (grid.ts planGrid), the same materials (update-material.ts) and the same sub-cell
 * averaging (medium.ts buildMedium), so that a mode solved here is the mode of the FDTD's own
 * grid. Only a slab two cells thick around the plane is painted: the painter works cell by
 * cell from the shapes, so those cells' entries are the full grid's.
 *
 * The plane (`size` zero along exactly one axis, the normal a) is a node plane of the grid
 * along a, the one nearest its centre. Its transverse axes are Tidy3D's: (y, z) for an
 * x-normal plane, (x, z) for y, (x, y) for z; a y-normal plane is then left-handed, which the
 * solver is told. Its window is the grid's nodes within the plane's extent; where it reaches
 * into the domain's absorber, those cells are absorber on the plane too (leaky and bent
 * guides), else its edges are PEC walls; a periodic axis the window covers whole stays
 * periodic. Mirror symmetry of the domain is not used: the plane is solved whole.
 *
 * ε(ω) of each component's table entry is the entry's model at ω: its effective ε, its
 * conductivity and its (fill-scaled) poles; a perfect conductor's entry becomes a very good
 * conductor (ε = 1 + 10⁶ i), which holds the mode's E at zero there to a part in 10³.
 */
import { entryPermittivity } from "../entry-permittivity.js";
import { domainFaces, shapeOf } from "../geometry.js";
import { YeeLayout, nodeIndexAt, planGrid, type AxisPlan, type GridPlan } from "../grid.js";
import { buildMedium, type PaintedStructure } from "../medium.js";
import type { Medium } from "../medium-types.js";
import { SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import type { DomainSpec, StructureSpec, Vec3 } from "../types.js";
import { resolveUpdateMaterial, type MaterialResolver } from "../update-material.js";
import type { ModeAxis, PlanePermittivity } from "./operator.js";

/** ε of a perfect conductor's cells on a mode plane (see the module comment). */
const PEC_EPS = { re: 1, im: 1e6 };

export interface ModePlaneInput {
  domain: DomainSpec;
  structures: readonly StructureSpec[];
  plane: { center: Vec3; size: Vec3 };
  /** The wavelengths the modes are wanted at (more than one: materials step with poles). */
  wavelengthsM: readonly number[];
}

/** A plane of the grid and its medium, ready for solveModes. */
export interface ModePlane {
  /** The plane's normal axis and its transverse axes u, v (0 x, 1 y, 2 z). */
  normal: number;
  transverse: [number, number];
  /** Whether (u, v, normal) is left-handed (a y-normal plane). */
  leftHanded: boolean;
  /** The node plane's coordinate along the normal (metres). */
  positionM: number;
  axes: [ModeAxis, ModeAxis];
  /** ε per component at a wavelength. */
  permittivityAt(wavelengthM: number): PlanePermittivity;
}

/** The normal axis of a plane (the one axis of zero size), or −1 if it is not one plane. */
export function planeNormal(size: Vec3): number {
  const zeros = [0, 1, 2].filter((a) => size[a] === 0);
  return zeros.length === 1 ? zeros[0]! : -1;
}

/** Tidy3D's transverse axes of a plane normal to `a`. */
export function transverseAxes(a: number): [number, number] {
  return a === 0 ? [1, 2] : a === 1 ? [0, 2] : [0, 1];
}

/** The nodes [first, last] of an axis within lo … hi (metres), clamped to the grid. */
export function windowNodes(ax: AxisPlan, lo: number, hi: number): [number, number] {
  const first = Math.max(0, Math.ceil(nodeIndexAt(ax, lo) - 1e-9));
  const last = Math.min(ax.cells, Math.floor(nodeIndexAt(ax, hi) + 1e-9));
  return [first, last];
}

/** The plane's grid and medium, painted as the FDTD paints the request. */
export function modePlane(input: ModePlaneInput, materials: MaterialResolver): ModePlane {
  const { domain, plane } = input;
  const a = planeNormal(plane.size);
  if (a < 0) throw new RangeError("a mode plane has zero size along exactly one axis");
  const full = planGrid({ ...domain, symmetry: undefined }, 0.99);
  const normalAxis = full.axes[a];
  const periodic = normalAxis.boundary === "periodic";
  // A periodic normal axis (a cross-section invariant along it) wraps: any node will do.
  const s = periodic
    ? Math.round(nodeIndexAt(normalAxis, plane.center[a])) % normalAxis.cells
    : Math.round(nodeIndexAt(normalAxis, plane.center[a]));
  if (!periodic && (s < 1 || s > normalAxis.cells - 1)) {
    throw new RangeError("the mode plane must lie inside the domain, off its faces");
  }
  const [u, v] = transverseAxes(a);
  const windows = [u, v].map((b) =>
    windowNodes(
      full.axes[b],
      plane.center[b] - plane.size[b] / 2,
      plane.center[b] + plane.size[b] / 2,
    ),
  ) as [[number, number], [number, number]];
  const thin = thinPlan(full, a, s, [u, v], windows);
  const layout = YeeLayout.ofPlan(thin);
  const mediumAt = planeMedia(full, thin, input, materials);
  return {
    normal: a,
    transverse: [u, v],
    leftHanded: a === 1,
    positionM: full.axes[a].nodesM[s]!,
    axes: [modeAxis(full.axes[u], windows[0]), modeAxis(full.axes[v], windows[1])],
    permittivityAt: (wavelengthM) =>
      planePermittivity(
        mediumAt(wavelengthM),
        layout,
        a,
        1,
        [u, v],
        [0, 0],
        [layout.n[u], layout.n[v]],
        wavelengthM,
      ),
  };
}

/** The plan of a slab two cells thick around node s along a, over the window across. */
function thinPlan(
  full: GridPlan,
  a: number,
  s: number,
  [u, v]: [number, number],
  windows: [[number, number], [number, number]],
): GridPlan {
  const axes = [...full.axes] as GridPlan["axes"];
  axes[a] = slabAcross(full.axes[a], s);
  axes[u] = subAxis(full.axes[u], windows[0][0], windows[0][1]);
  axes[v] = subAxis(full.axes[v], windows[1][0], windows[1][1]);
  return { ...full, axes };
}

/**
 * The two cells around node s along the normal: the grid's own, or, on a periodic axis whose
 * period has fewer cells than that (a 2-D cross-section one cell thick), cells of its step
 * either side of the node (the structures are invariant along it).
 */
function slabAcross(ax: AxisPlan, s: number): AxisPlan {
  if (s >= 1 && s <= ax.cells - 1) return subAxis(ax, s - 1, s + 1);
  const h = ax.nodesM[1]! - ax.nodesM[0]!;
  const at = ax.nodesM[s]!;
  const nodesM = Float64Array.of(at - h, at, at + h);
  return { ...subAxis(ax, 0, 1), nodesM, cells: 2, interiorCells: 2, originM: at - h };
}

/** Nodes first … last of an axis as an axis of its own, walled (no absorber, no images). */
function subAxis(ax: AxisPlan, first: number, last: number): AxisPlan {
  const nodesM = ax.nodesM.slice(first, last + 1);
  const steps = Array.from({ length: last - first }, (_, i) => nodesM[i + 1]! - nodesM[i]!);
  return {
    boundary: "pec",
    mirror: "none",
    requestedSizeM: nodesM[nodesM.length - 1]! - nodesM[0]!,
    interiorCells: last - first,
    pmlLo: 0,
    pmlHi: 0,
    cells: last - first,
    originM: nodesM[0]!,
    nodesM,
    uniformStepM: ax.uniformStepM,
    minStepM: Math.min(...steps),
    maxStepM: Math.max(...steps),
  };
}

/**
 * The solver's view of one transverse axis over nodes first … last: its nodes, absorber where
 * the grid has it, a mirror where the grid's low face is one and the window starts there.
 */
export function modeAxis(ax: AxisPlan, [first, last]: [number, number]): ModeAxis {
  const nodesM = ax.nodesM.slice(first, last + 1);
  if (ax.boundary === "periodic" && first === 0 && last === ax.cells) {
    return { nodesM, boundary: "periodic" };
  }
  const mirror = first === 0 && ax.mirror !== "none" ? { mirror: ax.mirror } : {};
  const pmlLo = Math.max(0, ax.pmlLo - first);
  const pmlHi = Math.max(0, last - (ax.cells - ax.pmlHi));
  if (pmlLo === 0 && pmlHi === 0) return { nodesM, boundary: "pec", ...mirror };
  return { nodesM, boundary: "pml", pmlLo, pmlHi, ...mirror };
}

/**
 * The thin slab's medium at a wavelength: the request's structures, resolved as the FDTD
 * resolves them. A band's materials step with their poles, one medium for every wavelength; a
 * single wavelength's hold their values there, as a run at it does, and a neighbouring
 * wavelength (the group index's) is painted with the materials' own values at it, so that n_g
 * sees their dispersion whatever the number of wavelengths.
 */
function planeMedia(
  full: GridPlan,
  thin: GridPlan,
  input: ModePlaneInput,
  materials: MaterialResolver,
): (wavelengthM: number) => Medium {
  const lambda0 = input.wavelengthsM[0]!;
  const broadband = input.wavelengthsM.some((w) => Math.abs(w - lambda0) > 1e-12 * w);
  const faces = domainFaces(full);
  const shapes = input.structures.map((s) => shapeOf(s, faces));
  const paint = (wl: number): Medium => {
    const resolve = (name: string) => resolveUpdateMaterial(materials, name, wl, broadband).mat;
    const painted: PaintedStructure[] = input.structures.map((s, i) => ({
      shape: shapes[i]!,
      material: resolve(s.material),
    }));
    return buildMedium(thin, YeeLayout.ofPlan(thin), resolve("vacuum"), painted);
  };
  const media = new Map([[lambda0, paint(lambda0)]]);
  return (wl) => {
    const at = broadband ? lambda0 : wl;
    const known = media.get(at);
    if (known) return known;
    const medium = paint(at);
    media.set(at, medium);
    return medium;
  };
}

/**
 * ε of the E components on node plane s along a of a painted grid, at one wavelength, over the
 * window of cells that starts at `origin` (grid indices along u, v) and spans `cells`.
 */
export function planePermittivity(
  medium: Medium,
  layout: YeeLayout,
  a: number,
  s: number,
  [u, v]: readonly [number, number],
  origin: readonly [number, number],
  [nu, nv]: readonly [number, number],
  wavelengthM: number,
): PlanePermittivity {
  const omega = (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / wavelengthM;
  const entryEps = tableAt(medium, omega);
  const sample = (comp: number) => {
    const re = new Float64Array(nu * nv);
    const im = new Float64Array(nu * nv);
    const at: [number, number, number] = [0, 0, 0];
    at[a] = s;
    for (let i = 0; i < nu; i++) {
      for (let j = 0; j < nv; j++) {
        at[u] = origin[0] + i;
        at[v] = origin[1] + j;
        const entry = medium.index[comp]![layout.index(at[0], at[1], at[2])]!;
        re[i * nv + j] = entryEps.re[entry]!;
        im[i * nv + j] = entryEps.im[entry]!;
      }
    }
    return { re, im };
  };
  return { uu: sample(u), vv: sample(v), ww: sample(a) };
}

/** ε(ω) of every table entry. */
export function tableAt(medium: Medium, omega: number): { re: Float64Array; im: Float64Array } {
  const n = medium.epsEff.length;
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let e = 0; e < n; e++) {
    const eps = medium.cb[e] === 0 ? PEC_EPS : entryPermittivity(medium, e, omega);
    re[e] = eps.re;
    im[e] = eps.im;
  }
  return { re, im };
}
