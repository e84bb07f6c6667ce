/**
 * Grid planning and the Yee layout shared by every kernel.
 *
 * Conventions (see docs/solver.md):
 * - Along each axis the region of interest holds `interiorCells` cells between −N·h/2 and
 *   +N·h/2 (h = domain.resolution, N = max(1, round(size / h))); `pml_layers` absorber cells
 *   are added outside it on both faces of a `pml` axis. Without mesh overrides every cell is h
 *   long and node i sits at `originM + i·h`. With them (planAxisNodes) the cells inside an
 *   override are at most its resolution long and the steps grade back to h outside it, each
 *   at most `max_step_ratio` times its neighbour; the absorber cells take the step of the
 *   interior cell next to them. `nodesM[i]` is node i's coordinate, node 0 the outer face.
 * - Yee positions: E_c and H_c sit on the nodes along the axes where their index is whole and
 *   at the cell centres ((x_i + x_{i+1})/2) along the others: Ex (i+½, j, k), Ey (i, j+½, k),
 *   Ez (i, j, k+½), Hx (i, j+½, k+½), Hy (i+½, j, k+½), Hz (i+½, j+½, k). A component stored
 *   at index (i, j, k) lives at those positions. A difference across a cell (H from E) divides
 *   by the cell's step; one across a node (E from H) by the distance between the centres of
 *   the cells on either side (the dual step): the standard non-uniform Yee scheme (Taflove &
 *   Hagness §3.6.8; second-order accurate on smoothly graded grids, Monk & Süli 1994).
 * - Every field array is padded with one ghost plane on each side of every axis, so the
 *   array holds (nx+2)(ny+2)(nz+2) values, z innermost (contiguous). The ghosts carry
 *   periodic (Bloch) and PMC images so the bulk loops never branch on the boundary.
 */
import { MAX_MESH_REFINEMENT } from "./bounds.js";
import { SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import { DEFAULT_MAX_STEP_RATIO, type Boundary, type DomainSpec, type Symmetry } from "./types.js";

/** Field component numbers used by the kernels: E then H, x y z. */
export const EX = 0;
export const EY = 1;
export const EZ = 2;
export const HX = 3;
export const HY = 4;
export const HZ = 5;
export const COMPONENT_NAMES = ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"] as const;

export interface AxisPlan {
  boundary: Boundary;
  /**
   * The low face's mirror wall (domain.symmetry): `pec` or `pmc` when the axis is symmetric and
   * the grid holds only its half at coordinates ≥ 0, node 0 on the plane; else `none`.
   */
  mirror: Symmetry;
  /** Requested extent of the region of interest (domain.size) in metres. */
  requestedSizeM: number;
  /** Cells of the region of interest. */
  interiorCells: number;
  /** Absorber cells below and above the region of interest (0 unless `pml`). */
  pmlLo: number;
  pmlHi: number;
  /** All cells along the axis: interiorCells + pmlLo + pmlHi. */
  cells: number;
  /** Coordinate of node 0 (the outer face of the grid) in metres. */
  originM: number;
  /** Coordinates of the nodes 0 … cells in metres (increasing). */
  nodesM: Float64Array;
  /** The step of every cell when the axis is uniform, else null (mesh overrides grade it). */
  uniformStepM: number | null;
  /** The shortest and the longest cell along the axis, in metres. */
  minStepM: number;
  maxStepM: number;
}

export interface GridPlan {
  axes: [AxisPlan, AxisPlan, AxisPlan];
  /** domain.resolution: the step of a uniform grid, the longest step of a graded one. */
  baseStepM: number;
  /** Whether every cell of every axis is `baseStepM` long (no mesh override refines it). */
  uniform: boolean;
  courantFactor: number;
  dtSeconds: number;
}

/**
 * The axes other than `except` along which the grid is one cell thick: a cross-section's
 * invariant axis (a 2-D run).
 */
export function thinAxes(plan: GridPlan, except: number): number[] {
  return [0, 1, 2].filter((a) => a !== except && plan.axes[a].cells === 1);
}

/**
 * The axes along which the grid is periodic and one cell thick: a 2-D cross-section's
 * invariant axis (one), a 1-D column's (two). A source there is a line or a sheet of images.
 */
export function periodicThinAxes(plan: GridPlan): number[] {
  return [0, 1, 2].filter((a) => plan.axes[a].boundary === "periodic" && plan.axes[a].cells === 1);
}

/** Cells of the region of interest along one axis: the documented rounding rule. */
export function interiorCellsFor(sizeM: number, stepM: number): number {
  return Math.max(1, Math.round(sizeM / stepM));
}

/** An interval of one axis whose cells may be at most `stepM` long (a mesh override's span). */
export interface FineInterval {
  loM: number;
  hiM: number;
  stepM: number;
}

/**
 * The slope of the largest allowed step d(x) = s + g·|x − interval| away from a finer
 * interval: with a linear d, neighbouring cells differ by (1 + g/2)/(1 − g/2), so g =
 * 2(r − 1)/(r + 1) keeps that ratio at r; 10 % below it leaves room for the per-segment
 * rounding of the cell counts.
 */
function gradingSlope(maxRatio: number): number {
  return (0.9 * 2 * (maxRatio - 1)) / (maxRatio + 1);
}

/**
 * The intervals finer than `baseStepM` that reach into [loM, hiM], clipped to it.
 * @throws RangeError for a step more than MAX_MESH_REFINEMENT times finer than `baseStepM`, or
 *   not positive (see planAxisNodes)
 */
function fineIntervalsWithin(
  loM: number,
  hiM: number,
  baseStepM: number,
  intervals: readonly FineInterval[],
): { lo: number; hi: number; step: number }[] {
  const fine = intervals
    .filter((iv) => iv.stepM < baseStepM * (1 - 1e-9) && iv.hiM >= loM && iv.loM <= hiM)
    .map((iv) => ({ lo: Math.max(loM, iv.loM), hi: Math.min(hiM, iv.hiM), step: iv.stepM }));
  const finest = fine.find((iv) => !(iv.step >= (baseStepM / MAX_MESH_REFINEMENT) * (1 - 1e-9)));
  if (finest) {
    throw new RangeError(
      `a mesh step of ${finest.step} m is more than ${MAX_MESH_REFINEMENT} times finer than ` +
        `the grid step ${baseStepM} m`,
    );
  }
  return fine;
}

/**
 * The nodes of a region of interest [loM, hiM] whose cells are at most `baseStepM` long, at
 * most each interval's step inside it, growing by at most `maxRatio` from cell to cell away
 * from the intervals. The largest allowed step is d(x) = min(h, min_i(s_i + g·dist(x, I_i)));
 * the interval ends (and loM, hiM) are nodes, and between two such fixed points the cells are
 * n = ⌈∫dx/d⌉ equal parts of ∫dx/d, so each is at most d long and they grade smoothly. A
 * fixed point closer than half the local step to the previous one is dropped (it would make
 * a sliver cell, and the time step with it).
 * @throws RangeError for an interval step more than MAX_MESH_REFINEMENT times finer than
 *   `baseStepM`, or not positive: the walk below could not advance past it (bounds.ts), and
 *   validation refuses such a step (checks/domain.ts)
 */
export function planAxisNodes(
  loM: number,
  hiM: number,
  baseStepM: number,
  intervals: readonly FineInterval[],
  maxRatio: number,
): Float64Array {
  const fine = fineIntervalsWithin(loM, hiM, baseStepM, intervals);
  const g = gradingSlope(maxRatio);
  type Fine = (typeof fine)[number];
  const gap = (iv: Fine, a: number, b: number) =>
    b < iv.lo ? iv.lo - b : a > iv.hi ? a - iv.hi : 0;
  const allowedBy = (near: readonly Fine[], x: number) => {
    let d = baseStepM;
    for (const iv of near) d = Math.min(d, iv.step + g * gap(iv, x, x));
    return d;
  };
  const allowed = (x: number) => allowedBy(fine, x);
  // d over [a, b] when it is one constant there (inside an override and out of reach of any
  // finer one, or out of reach of them all), else null: then the cells are equal and nothing
  // needs integrating, which keeps planning many overrides' cells cheap.
  const constantOver = (a: number, b: number): number | null => {
    let c = baseStepM;
    for (const iv of fine) if (iv.lo <= a && iv.hi >= b) c = Math.min(c, iv.step);
    for (const iv of fine) if (iv.step + g * gap(iv, a, b) < c) return null;
    return c;
  };
  const candidates = [...new Set(fine.flatMap((iv) => [iv.lo, iv.hi]))]
    .filter((x) => x > loM && x < hiM)
    .sort((a, b) => a - b);
  const fixed = [loM];
  for (const x of candidates) {
    if (x - fixed[fixed.length - 1] >= 0.5 * allowed(x)) fixed.push(x);
  }
  if (hiM - fixed[fixed.length - 1] < 0.5 * allowed(hiM) && fixed.length > 1) fixed.pop();
  fixed.push(hiM);

  const nodes: number[] = [loM];
  for (let s = 0; s + 1 < fixed.length; s++) {
    const a = fixed[s];
    const b = fixed[s + 1];
    const constant = constantOver(a, b);
    if (constant !== null) {
      pushEqualNodes(nodes, a, b, Math.max(1, Math.ceil((b - a) / constant - 1e-9)));
      nodes.push(b);
      continue;
    }
    // Only the overrides within reach of [a, b] shape d there.
    const near = fine.filter((iv) => iv.step + g * gap(iv, a, b) < baseStepM);
    pushGradedNodes(nodes, a, b, (x) => allowedBy(near, x));
    nodes.push(b);
  }
  return Float64Array.from(nodes);
}

/** Pushes the n − 1 nodes that cut (a, b) into n equal cells. */
function pushEqualNodes(nodes: number[], a: number, b: number, n: number): void {
  for (let k = 1; k < n; k++) nodes.push(a + ((b - a) * k) / n);
}

/**
 * Pushes the nodes inside (a, b) of n = ⌈∫dx/d⌉ cells of equal ∫dx/d, d the largest allowed
 * step (planAxisNodes).
 */
function pushGradedNodes(nodes: number[], a: number, b: number, d: (x: number) => number): void {
  // ∫dx/d by the midpoint rule on steps of d/16 (d is piecewise linear; the rule's error
  // is far below the rounding of n), kept as a table to invert.
  const xs = [a];
  const cum = [0];
  let dMin = Infinity;
  let dMax = 0;
  for (let x = a; x < b;) {
    const step = Math.min(d(x) / 16, b - x);
    const dHere = d(x + step / 2);
    dMin = Math.min(dMin, dHere);
    dMax = Math.max(dMax, dHere);
    x = b - x - step <= 1e-12 * (b - a) ? b : x + step;
    xs.push(x);
    cum.push(cum[cum.length - 1] + step / dHere);
  }
  const total = cum[cum.length - 1];
  const n = Math.max(1, Math.ceil(total - 1e-9));
  // Constant d: equal steps, exactly.
  if (dMax - dMin <= 1e-12 * dMax) return pushEqualNodes(nodes, a, b, n);
  let j = 0;
  for (let k = 1; k < n; k++) {
    const target = (total * k) / n;
    while (cum[j + 1] < target) j++;
    const t = (target - cum[j]) / (cum[j + 1] - cum[j]);
    nodes.push(xs[j] + t * (xs[j + 1] - xs[j]));
  }
}

/** The fine intervals mesh overrides put on axis `a`. */
function fineIntervals(domain: DomainSpec, a: number): FineInterval[] {
  return (domain.mesh_overrides ?? []).map((o) => ({
    loM: o.center[a] - o.size[a] / 2,
    hiM: o.center[a] + o.size[a] / 2,
    stepM: typeof o.resolution === "number" ? o.resolution : o.resolution[a],
  }));
}

/**
 * Plans the grid of a domain without allocating anything. The time step is the 3-D Courant
 * limit of the shortest cells scaled by S: dt = S/(c·√(Σ_a 1/Δ_a,min²)), which is
 * `dt = S·dx/(c·√3)` on a uniform grid (DESIGN §1).
 */
export function planGrid(domain: DomainSpec, courantFactor: number): GridPlan {
  const axes = [0, 1, 2].map((a) => planAxis(domain, a)) as [AxisPlan, AxisPlan, AxisPlan];
  const uniform = axes.every((ax) => ax.uniformStepM !== null);
  const plan = { axes, baseStepM: domain.resolution, uniform, courantFactor, dtSeconds: 0 };
  plan.dtSeconds =
    (courantFactor * equivalentStepM(plan)) / (SPEED_OF_LIGHT_M_PER_S * Math.sqrt(3));
  return plan;
}

/**
 * The axes of a domain along which its grid will be periodic and one cell thick (as
 * `periodicThinAxes` of its plan), known before the grid is planned: request defaults that
 * differ in a 2-D cross-section read it. A domain whose axis cannot be planned (a mesh step
 * too fine, which the checks refuse) is not thin along it.
 */
export function domainPeriodicThinAxes(domain: DomainSpec): number[] {
  return [0, 1, 2].filter((a) => {
    if (domain.boundary_conditions[a] !== "periodic") return false;
    // An axis of more than one cell is not planned (a long one's nodes would be allocated
    // before the checks see its size); a periodic axis has no mirror halving its cells.
    if (interiorCellsFor(domain.size[a], domain.resolution) !== 1) return false;
    try {
      return planAxis(domain, a).cells === 1;
    } catch {
      return false;
    }
  });
}

/** One axis of planGrid: its nodes, absorber cells and mirror wall. */
function planAxis(domain: DomainSpec, a: number): AxisPlan {
  const h = domain.resolution;
  const boundary = domain.boundary_conditions[a];
  const mirror = domain.symmetry?.[a] ?? "none";
  // A symmetric axis holds the half at coordinates ≥ 0: half the cells (rounded up), the
  // mirror wall at node 0 and the absorber on the high face only.
  const full = interiorCellsFor(domain.size[a], h);
  const interiorCells = mirror === "none" ? full : Math.ceil(full / 2);
  const pml = boundary === "pml" ? domain.pml_layers : 0;
  const pmlLo = mirror === "none" ? pml : 0;
  const loM = mirror === "none" ? -(interiorCells / 2) * h : 0;
  const hiM = mirror === "none" ? (interiorCells / 2) * h : interiorCells * h;
  const fine = fineIntervals(domain, a);
  const interior = fine.some((iv) => iv.stepM < h * (1 - 1e-9))
    ? planAxisNodes(loM, hiM, h, fine, domain.max_step_ratio ?? DEFAULT_MAX_STEP_RATIO)
    : null;
  const common = { boundary, mirror, requestedSizeM: domain.size[a], pmlLo, pmlHi: pml };
  if (!interior) {
    const originM = loM - pmlLo * h;
    const cells = interiorCells + pmlLo + pml;
    const nodesM = Float64Array.from({ length: cells + 1 }, (_, i) => originM + i * h);
    return {
      ...common,
      interiorCells,
      cells,
      originM,
      nodesM,
      uniformStepM: h,
      minStepM: h,
      maxStepM: h,
    };
  }
  const n = interior.length - 1;
  const first = interior[1] - interior[0];
  const last = interior[n] - interior[n - 1];
  const nodesM = new Float64Array(n + 1 + pmlLo + pml);
  for (let i = 0; i < pmlLo; i++) nodesM[i] = interior[0] - (pmlLo - i) * first;
  nodesM.set(interior, pmlLo);
  for (let i = 1; i <= pml; i++) nodesM[pmlLo + n + i] = interior[n] + i * last;
  let minStepM = Infinity;
  let maxStepM = 0;
  for (let i = 0; i + 1 < nodesM.length; i++) {
    minStepM = Math.min(minStepM, nodesM[i + 1] - nodesM[i]);
    maxStepM = Math.max(maxStepM, nodesM[i + 1] - nodesM[i]);
  }
  const cells = n + pmlLo + pml;
  return {
    ...common,
    interiorCells: n,
    cells,
    originM: nodesM[0],
    nodesM,
    uniformStepM: null,
    minStepM,
    maxStepM,
  };
}

/**
 * The region of interest along an axis in the whole domain's coordinates, metres: the grid's
 * interior, and on a symmetric axis (AxisPlan.mirror) that and its mirror image.
 */
export function interiorSpanM(ax: AxisPlan): [number, number] {
  const hi = ax.nodesM[ax.cells - ax.pmlHi];
  return ax.mirror === "none" ? [ax.nodesM[ax.pmlLo], hi] : [-hi, hi];
}

/**
 * The step that gives a uniform grid the same time step as this plan at the same S:
 * √3/√(Σ 1/Δ_min²) (the plan's base step when it is uniform). The stability analysis of
 * dispersive materials (dispersion/stability.ts) runs on a uniform grid of this step.
 */
export function equivalentStepM(plan: Pick<GridPlan, "axes" | "baseStepM" | "uniform">): number {
  if (plan.uniform) return plan.baseStepM;
  return Math.sqrt(3) / Math.sqrt(plan.axes.reduce((s, ax) => s + 1 / ax.minStepM ** 2, 0));
}

/**
 * Index i wrapped or clamped onto the axis' cells: periodic axes wrap (the ghost beyond the
 * last cell is the first cell again), the others repeat their end cell.
 */
function cellOnAxis(ax: AxisPlan, i: number): number {
  if (i >= 0 && i < ax.cells) return i;
  if (ax.boundary === "periodic" && Number.isFinite(i)) {
    return ((i % ax.cells) + ax.cells) % ax.cells;
  }
  return i < 0 ? 0 : ax.cells - 1;
}

/** Length of cell i (−1 … cells: beyond the ends, as cellOnAxis says), metres. */
export function cellStepM(ax: AxisPlan, i: number): number {
  if (ax.uniformStepM !== null) return ax.uniformStepM;
  const c = cellOnAxis(ax, i);
  return ax.nodesM[c + 1] - ax.nodesM[c];
}

/** Coordinate of node i (any i: beyond the ends by the end cells' steps), metres. */
export function nodeM(ax: AxisPlan, i: number): number {
  if (ax.uniformStepM !== null) return ax.originM + i * ax.uniformStepM;
  if (i >= 0 && i <= ax.cells) return ax.nodesM[i];
  if (i < 0) return ax.nodesM[0] + i * cellStepM(ax, -1);
  return ax.nodesM[ax.cells] + (i - ax.cells) * cellStepM(ax, ax.cells);
}

/** Coordinate of the centre of cell i (position i + ½), metres. */
export function centreM(ax: AxisPlan, i: number): number {
  if (ax.uniformStepM !== null) return ax.originM + (i + 0.5) * ax.uniformStepM;
  return nodeM(ax, i) + cellStepM(ax, i) / 2;
}

/** Coordinate of position i + `stagger` (0: node i, ½: centre of cell i), metres. */
export function positionM(ax: AxisPlan, i: number, stagger: number): number {
  return stagger > 0 ? centreM(ax, i) : nodeM(ax, i);
}

/** The dual step at node i: from the centre of cell i − 1 to that of cell i, metres. */
export function dualStepM(ax: AxisPlan, i: number): number {
  if (ax.uniformStepM !== null) return ax.uniformStepM;
  return (cellStepM(ax, i - 1) + cellStepM(ax, i)) / 2;
}

/**
 * Length of the cube a component at position i + `stagger` stands for (its cell along an
 * axis where it sits at a centre, its dual cell where it sits on a node), and that cube's
 * centre, metres.
 */
export function cubeAlong(
  ax: AxisPlan,
  i: number,
  stagger: number,
): { centreM: number; lengthM: number } {
  if (stagger > 0) return { centreM: centreM(ax, i), lengthM: cellStepM(ax, i) };
  const lo = nodeM(ax, i) - cellStepM(ax, i - 1) / 2;
  const hi = nodeM(ax, i) + cellStepM(ax, i) / 2;
  return { centreM: (lo + hi) / 2, lengthM: hi - lo };
}

/**
 * The fractional node index of coordinate x (node i at i, linear within a cell), extended
 * beyond the ends by their cells' steps: (x − origin)/h on a uniform axis.
 */
export function nodeIndexAt(ax: AxisPlan, x: number): number {
  if (ax.uniformStepM !== null) return (x - ax.originM) / ax.uniformStepM;
  const nodes = ax.nodesM;
  const n = ax.cells;
  if (x <= nodes[0]) return (x - nodes[0]) / cellStepM(ax, 0);
  if (x >= nodes[n]) return n + (x - nodes[n]) / cellStepM(ax, n - 1);
  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (nodes[mid] <= x) lo = mid;
    else hi = mid;
  }
  return lo + (x - nodes[lo]) / (nodes[lo + 1] - nodes[lo]);
}

/**
 * The fractional cell-centre index of coordinate x (cell i's centre at i, linear between
 * neighbouring centres): (x − origin)/h − ½ on a uniform axis.
 */
export function centreIndexAt(ax: AxisPlan, x: number): number {
  if (ax.uniformStepM !== null) return (x - ax.originM) / ax.uniformStepM - 0.5;
  const u = nodeIndexAt(ax, x);
  const i = Math.floor(u);
  const c = centreM(ax, i);
  // Between the centres of cells i − 1 and i, or of i and i + 1.
  if (x >= c) return i + (x - c) / (centreM(ax, i + 1) - c);
  const before = centreM(ax, i - 1);
  return i - 1 + (x - before) / (c - before);
}

/**
 * The longest and the mean step of the cells of an axis that [loM, hiM] overlaps (clamped to
 * the grid; a point gives the cell holding it), metres.
 */
export function stepsOver(ax: AxisPlan, loM: number, hiM: number): { maxM: number; meanM: number } {
  if (ax.uniformStepM !== null) return { maxM: ax.uniformStepM, meanM: ax.uniformStepM };
  const clamp = (i: number) => Math.min(ax.cells - 1, Math.max(0, i));
  const i0 = clamp(Math.floor(nodeIndexAt(ax, Math.max(loM, ax.nodesM[0]))));
  const i1 = clamp(Math.ceil(nodeIndexAt(ax, Math.min(hiM, ax.nodesM[ax.cells]))) - 1);
  let maxM = 0;
  for (let i = i0; i <= Math.max(i0, i1); i++) maxM = Math.max(maxM, cellStepM(ax, i));
  const meanM = (ax.nodesM[Math.max(i0, i1) + 1] - ax.nodesM[i0]) / (Math.max(i0, i1) - i0 + 1);
  return { maxM, meanM };
}

/** True when component `comp` sits half a cell off the nodes along `axis`. */
export function isHalfAlong(comp: number, axis: number): boolean {
  return comp < 3 ? comp === axis : comp - 3 !== axis;
}

/** Offset (0 or ½) of component `comp` along `axis`, in cells. */
export function staggerOf(comp: number, axis: number): number {
  return isHalfAlong(comp, axis) ? 0.5 : 0;
}

/**
 * Index arithmetic of the padded arrays and, per component and axis, the inclusive index
 * range the bulk update covers. Outside those ranges values are either boundary values that
 * stay zero (tangential E on PEC / the PML's outer PEC wall) or ghosts filled by
 * `boundaries.ts`.
 */
export class YeeLayout {
  readonly n: [number, number, number];
  readonly padded: [number, number, number];
  readonly strides: [number, number, number];
  readonly cells: number;
  readonly paddedCells: number;
  readonly boundaries: [Boundary, Boundary, Boundary];
  /** The low faces' mirror walls (AxisPlan.mirror): `pec`, `pmc` or `none` per axis. */
  readonly mirrors: [Symmetry, Symmetry, Symmetry];
  /** lo[comp * 3 + axis], hi[comp * 3 + axis]: inclusive update range. */
  readonly lo = new Int32Array(18);
  readonly hi = new Int32Array(18);

  constructor(
    n: [number, number, number],
    boundaries: [Boundary, Boundary, Boundary],
    mirrors: readonly Symmetry[] = ["none", "none", "none"],
  ) {
    this.n = [n[0], n[1], n[2]];
    this.boundaries = [boundaries[0], boundaries[1], boundaries[2]];
    this.mirrors = [mirrors[0], mirrors[1], mirrors[2]];
    this.padded = [n[0] + 2, n[1] + 2, n[2] + 2];
    this.strides = [this.padded[1] * this.padded[2], this.padded[2], 1];
    this.cells = n[0] * n[1] * n[2];
    this.paddedCells = this.padded[0] * this.padded[1] * this.padded[2];
    for (let comp = 0; comp < 6; comp++) {
      for (let axis = 0; axis < 3; axis++) {
        const size = n[axis];
        let lo = 0;
        let hi = size - 1;
        if (!isHalfAlong(comp, axis)) {
          // Node along this axis: the faces at 0 and n are boundary nodes.
          const b = boundaries[axis];
          if (b === "pml" || b === "pec") {
            lo = 1;
            hi = size - 1;
          } else if (b === "pmc") {
            lo = 0;
            hi = size;
          }
          // A mirror wall on the low face: tangential E on it stays zero (pec) or is updated
          // from the mirrored H ghosts (pmc).
          if (this.mirrors[axis] === "pec") lo = 1;
          else if (this.mirrors[axis] === "pmc") lo = 0;
        }
        this.lo[comp * 3 + axis] = lo;
        this.hi[comp * 3 + axis] = hi;
      }
    }
  }

  /** The layout of a planned grid: its cells, boundaries and mirror walls per axis. */
  static ofPlan(plan: Pick<GridPlan, "axes">): YeeLayout {
    const [x, y, z] = plan.axes;
    return new YeeLayout(
      [x.cells, y.cells, z.cells],
      [x.boundary, y.boundary, z.boundary],
      [x.mirror, y.mirror, z.mirror],
    );
  }

  /** Flat index of logical cell (i, j, k); each may be -1 … n (ghosts). */
  index(i: number, j: number, k: number): number {
    return (i + 1) * this.strides[0] + (j + 1) * this.strides[1] + (k + 1);
  }
}

/**
 * The field components a source on `driven` components can ever make nonzero: the closure of
 * the Yee curl couplings (H_c with E_{c+2} through ∂_{c+1}, with E_{c+1} through ∂_{c+2}),
 * leaving out those through axes along which nothing varies (`varies[axis]` false: a grid
 * one periodic cell thick without a Bloch phase, where every difference along it is exactly
 * zero). With every axis varying that is all six; on a grid invariant along y it splits into
 * {Ey, Hx, Hz} and {Ex, Ez, Hy} (the 2-D TE and TM sets), of which a source drives one or both.
 * Conductivity, dispersion, CPML and ghost copies act per component and couple nothing.
 */
export function coupledComponents(
  driven: readonly number[],
  varies: readonly boolean[],
): boolean[] {
  const on = [false, false, false, false, false, false];
  const stack = [...driven];
  while (stack.length > 0) {
    const comp = stack.pop()!;
    if (on[comp]) continue;
    on[comp] = true;
    // H_c's neighbours are E_{c+2} (via ∂_{c+1}) and E_{c+1} (via ∂_{c+2}); E_c's are the
    // H components whose curl holds it.
    const c = comp % 3;
    for (const [other, axis] of [
      [(c + 2) % 3, (c + 1) % 3],
      [(c + 1) % 3, (c + 2) % 3],
    ]) {
      if (!varies[axis]) continue;
      stack.push(comp < 3 ? 3 + other : other);
    }
  }
  return on;
}

/** Sample coordinates on the ≥ 0 side with their mirror images before them: −c reversed, c. */
export function mirroredCoordinates(c: Float64Array): Float64Array {
  const out = new Float64Array(2 * c.length);
  for (let i = 0; i < c.length; i++) {
    out[c.length - 1 - i] = -c[i];
    out[c.length + i] = c[i];
  }
  return out;
}

/**
 * The sign a component takes in the mirror image across a symmetry plane normal to `axis`:
 * with `pec` symmetry tangential E and normal H are odd, with `pmc` normal E and tangential H
 * (H is a pseudovector: it mirrors with the opposite signs to E).
 */
export function mirrorSign(mirror: "pec" | "pmc", comp: number, axis: number): number {
  const normal = comp % 3 === axis;
  const isE = comp < 3;
  const odd = mirror === "pec" ? isE !== normal : isE === normal;
  return odd ? -1 : 1;
}
