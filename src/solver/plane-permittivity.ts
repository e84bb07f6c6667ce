/**
 * The permittivity on a node plane of the grid, as the set-up preview shows it and as the
 * result file records it on each plane field monitor: one sampling and one reading of a
 * medium's tables, whichever medium it is. The preview paints only the plane's cells (a
 * lattice, medium.ts latticeCells); the run reads the medium it stepped (layoutCells). That the
 * two agree is the preview's promise (preview.test.ts, plane-permittivity.test.ts).
 *
 * A plane is the node plane of its normal axis nearest the requested position; sample (i, j)
 * is the Yee cell (i, j) of that plane, at the node (x_i, y_j) where its three E components
 * meet (Ex at i + ½, Ey at j + ½, Ez half a cell off the plane). Its permittivity is that of
 * its E components combined as Meep's get_epsilon combines them, the harmonic mean
 * 3 / Σ_c 1/ε_c: in a uniform region every component's ε, at an interface the mean of the
 * tangential (arithmetic) and normal (harmonic) averages medium.ts gives them. A perfect
 * conductor's component has no permittivity and is left out of the mean; a cell whose three
 * components are all perfect conductor reads 1 (its `conductor` count, 3, says what it is).
 *
 * On an axis with mirror symmetry the run holds the half at coordinates ≥ 0; the plane shows the
 * whole domain, the half below the mirror the image of the half above, as the run's fields are:
 * the sample at node −i takes the components of cell i, but the one normal to the mirror, which
 * sits at −(i − ½), that of cell i − 1.
 */
import { nodeIndexAt, staggerOf, type AxisPlan, type GridPlan } from "./grid.js";
import type { PaintCells } from "./medium.js";
import type { Medium } from "./medium-types.js";
import { tableAt, transverseAxes } from "./modes/plane-medium.js";

/** A plane to sample: normal 0 x, 1 y, 2 z; at most `maxSamples` nodes along each axis. */
export interface PlaneRequest {
  normal: number;
  positionM: number;
  maxSamples: number;
}

/**
 * A sampled position along an axis: its coordinate and the grid indices of the components
 * that sit on its node and half a cell above it (different only below a mirror plane).
 */
export interface AxisSample {
  coordM: number;
  node: number;
  centre: number;
}

/** A plane's samples along each axis (one along the normal) and its in-plane axes. */
export interface PlaneSamples {
  normal: number;
  axes: [number, number];
  along: [AxisSample[], AxisSample[], AxisSample[]];
  /** The grid's nodes along each in-plane axis on the plane, before sampling. */
  nodes: [number, number];
}

/** ε at the samples of a plane, sample (i, j) at i·n_second + j. */
export interface PlaneEps {
  epsRe: Float64Array;
  epsIm: Float64Array;
  /** How many of each cell's three E components are a perfect conductor's (held at zero). */
  conductor: Uint8Array;
}

/** Node i of an axis in the whole domain (a negative i below a mirror plane). */
function axisSample(ax: AxisPlan, i: number): AxisSample {
  if (i >= 0) return { coordM: ax.nodesM[i], node: i, centre: i };
  return { coordM: -ax.nodesM[-i], node: -i, centre: -i - 1 };
}

/** The nodes a plane shows along an in-plane axis: all but the grid's last; mirrored, both halves. */
export function shownNodes(ax: AxisPlan): number[] {
  const first = ax.mirror === "none" ? 0 : -(ax.cells - 1);
  return Array.from({ length: ax.cells - first }, (_, k) => first + k);
}

/** At most `max` of `nodes`, evenly spaced, both ends kept (cells are sampled, not averaged). */
function sampled(nodes: number[], max: number): number[] {
  if (nodes.length <= max) return nodes;
  const m = Math.max(2, max);
  return Array.from({ length: m }, (_, k) => nodes[Math.round((k * (nodes.length - 1)) / (m - 1))]);
}

/** The node of the normal axis nearest `positionM`, kept on the grid. */
function nearestNode(ax: AxisPlan, positionM: number): number {
  const mirrored = ax.mirror !== "none";
  const at = Math.round(nodeIndexAt(ax, mirrored ? Math.abs(positionM) : positionM));
  if (ax.boundary === "periodic") return ((at % ax.cells) + ax.cells) % ax.cells;
  const node = Math.min(ax.cells - 1, Math.max(0, at));
  return mirrored && positionM < 0 ? -node : node;
}

/** The samples of a requested plane: its node plane, and its shown nodes, sampled. */
export function planeSamples(plan: Pick<GridPlan, "axes">, request: PlaneRequest): PlaneSamples {
  const a = request.normal;
  const [u, v] = transverseAxes(a);
  const along: PlaneSamples["along"] = [[], [], []];
  along[a] = [axisSample(plan.axes[a], nearestNode(plan.axes[a], request.positionM))];
  const nodes: [number, number] = [0, 0];
  [u, v].forEach((b, k) => {
    const all = shownNodes(plan.axes[b]);
    nodes[k] = all.length;
    along[b] = sampled(all, request.maxSamples).map((i) => axisSample(plan.axes[b], i));
  });
  return { normal: a, axes: [u, v], along, nodes };
}

/** Along each axis the distinct grid indices the samples' components need (a paint lattice). */
export function latticeOf(samples: PlaneSamples): number[][] {
  return samples.along.map((list) => [...new Set(list.flatMap((p) => [p.node, p.centre]))]);
}

/** ε(ω) of a medium's entries, and which are a perfect conductor's. */
interface EntryTable {
  re: Float64Array;
  im: Float64Array;
  conductor: Uint8Array;
}

/** The entries' ε(ω); a perfect conductor's is the one whose cb is 0 (E held at zero). */
function entryTable(medium: Medium, omega: number): EntryTable {
  const { re, im } = tableAt(medium, omega);
  return { re, im, conductor: Uint8Array.from(medium.cb, (cb) => (cb === 0 ? 1 : 0)) };
}

/**
 * ε at angular frequency `omega` on a plane's samples, read from `medium` whose index arrays
 * are stored as `cells` says (the preview's lattice, or the run's whole layout).
 */
export function planeEps(
  medium: Medium,
  cells: PaintCells,
  samples: PlaneSamples,
  omega: number,
): PlaneEps {
  const a = samples.normal;
  const [u, v] = samples.axes;
  const table = entryTable(medium, omega);
  // Per component, each sample's storage offset along u and v and the plane's along a (its
  // node's or its centre's index, as the component sits).
  const offsetsAlong = (c: number, b: number) =>
    Int32Array.from(samples.along[b], (p) =>
      cells.offset(b, staggerOf(c, b) > 0 ? p.centre : p.node),
    );
  const offU = [0, 1, 2].map((c) => offsetsAlong(c, u));
  const offV = [0, 1, 2].map((c) => offsetsAlong(c, v));
  const offA = [0, 1, 2].map((c) => offsetsAlong(c, a)[0]);
  const nu = samples.along[u].length;
  const nv = samples.along[v].length;
  const out: PlaneEps = {
    epsRe: new Float64Array(nu * nv),
    epsIm: new Float64Array(nu * nv),
    conductor: new Uint8Array(nu * nv),
  };
  const entries = [0, 0, 0];
  for (let i = 0; i < nu; i++) {
    for (let j = 0; j < nv; j++) {
      for (let c = 0; c < 3; c++) entries[c] = medium.index[c][offU[c][i] + offV[c][j] + offA[c]];
      const eps = harmonicMean(entries, table);
      out.epsRe[i * nv + j] = eps.re;
      out.epsIm[i * nv + j] = eps.im;
      out.conductor[i * nv + j] =
        table.conductor[entries[0]] + table.conductor[entries[1]] + table.conductor[entries[2]];
    }
  }
  return out;
}

/** 3 / Σ 1/ε_c over the components that are not perfect conductor (see the module comment). */
function harmonicMean(entries: readonly number[], table: EntryTable): { re: number; im: number } {
  let sumRe = 0;
  let sumIm = 0;
  let n = 0;
  for (const e of entries) {
    if (table.conductor[e] === 1) continue;
    const re = table.re[e];
    const im = table.im[e];
    const mag2 = re * re + im * im;
    sumRe += re / mag2;
    sumIm -= im / mag2;
    n++;
  }
  if (n === 0) return { re: 1, im: 0 };
  const mag2 = sumRe * sumRe + sumIm * sumIm;
  return { re: (n * sumRe) / mag2, im: (-n * sumIm) / mag2 };
}
