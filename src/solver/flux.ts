/**
 * Flux monitors: the net Poynting flux through a plane, or out of the closed surface of a
 * box, at each recorded frequency, from running DFTs of the tangential E and H on the
 * surface (Taflove & Hagness §5.6 for the DFT; the same construction as Meep's flux regions).
 *
 * Staggering. A face normal to axis a lies on a node plane k of a. There the tangential E
 * components E_b, E_c (b = a+1, c = a+2 mod 3) sit exactly on the plane, and the H components
 * that pair with them in S_a = E_b·H_c − E_c·H_b sit half a cell either side of it along a at
 * the *same* transverse positions: E_b and H_c at (b + ½, c), E_c and H_b at (b, c + ½). So
 * each product is formed at its own natural points, with H averaged over k − ½ and k + ½ to
 * the plane, and no transverse interpolation is needed. E is stamped at (n+1)·dt and H at
 * (n+½)·dt in the DFT, so the time staggering is exact too. The sum over a face is a
 * midpoint rule along the half-integer direction and a trapezoid along the node direction
 * (end nodes weigh ½), or a plain sum where a plane wraps a periodic axis completely.
 *
 * Incident field. The plane-wave source's auxiliary line knows the incident field in the grid's
 * own discretisation at every index along the propagation axis (sources/plane-wave.ts, incident line);
 * with the transverse Bloch phase it gives the incident value of any stored sample. So the
 * total field is known everywhere (the stored value, plus the incident one where the grid
 * holds the scattered field, upstream of the TFSF plane) and so is the scattered field (minus
 * the incident one where the grid holds the total field). The normalisation uses the incident
 * line's own Poynting flux computed the same way, so a plane in vacuum reads exactly 1 up to
 * float32 round-off, not 1 − O((kh)²).
 */
import { cellStepM, nodeIndexAt, nodeM, type GridPlan, type YeeLayout } from "./grid.js";
import { sampleBox, type SampleBox, type SampledComponent } from "./monitors.js";
import type { FluxQuantity, Vec3 } from "./types.js";

/** One face of a flux surface: a node plane normal to `axis`. */
export interface FluxFace {
  axis: number;
  /** Node index of the plane along `axis`. */
  plane: number;
  /** +1 or −1: positive flux along +axis or −axis. */
  sign: number;
  /**
   * The four DFT streams: E_b and H_c at the (b + ½, c) points, E_c and H_b at the (b, c + ½)
   * points; H averaged over the stored planes k − 1 and k (positions k ∓ ½).
   */
  streams: [SampledComponent, SampledComponent, SampledComponent, SampledComponent];
  /** Integration weights (the face area each point stands for, m²) of the two point sets. */
  weights: [Float64Array, Float64Array];
}

export interface FluxSurface {
  /** Planes: one face; boxes: six, outward. */
  faces: FluxFace[];
  /** The cells the surface spans (a plane's box is one cell thick along its normal). */
  box: SampleBox;
  isBox: boolean;
  /** Normal axis of a plane; −1 for a box. */
  axis: number;
  /** Area of the plane or of the box's surface, m², its mirror images included. */
  areaM2: number;
  /**
   * The symmetric axes (domain.symmetry) the monitor spans both sides of: the grid holds the
   * half at ≥ 0 of each, so the whole surface's power is 2^mirrored.length times the faces'.
   */
  mirrored: number[];
}

/** The axis along which a monitor of this size is a plane, −1 for a box, null otherwise. */
export function fluxShape(size: readonly number[]): number | null {
  const zeros = [0, 1, 2].filter((a) => !(size[a] > 0));
  if (zeros.length === 0) return -1;
  return zeros.length === 1 ? zeros[0] : null;
}

/**
 * Indices along an axis of the nodes bounding cells lo…hi, with the length of the face each
 * stands for (its dual cell inside the box: half the end cells at the two ends, a trapezoid
 * rule); or, where those cells are the whole period of a periodic axis, the nodes lo…hi with
 * their whole dual cells (the node hi + 1 is node lo again).
 */
function nodesOf(plan: GridPlan, layout: YeeLayout, axis: number, lo: number, hi: number) {
  const ax = plan.axes[axis];
  const wraps = layout.boundaries[axis] === "periodic" && lo === 0 && hi === layout.n[axis] - 1;
  const last = wraps ? hi : hi + 1;
  const index: number[] = [];
  const weight: number[] = [];
  for (let j = lo; j <= last; j++) {
    index.push(j);
    const below = j > lo || wraps ? cellStepM(ax, j - 1) / 2 : 0;
    const above = j < last || wraps ? cellStepM(ax, j) / 2 : 0;
    weight.push(below + above);
  }
  return { index, weight };
}

/** The cells lo…hi along an axis with their lengths. */
function cellsOf(plan: GridPlan, axis: number, lo: number, hi: number) {
  const index: number[] = [];
  const weight: number[] = [];
  for (let i = lo; i <= hi; i++) {
    index.push(i);
    weight.push(cellStepM(plan.axes[axis], i));
  }
  return { index, weight };
}

/** The streams and weights of the face at node `plane` along `axis` over the box's cells. */
function face(
  plan: GridPlan,
  layout: YeeLayout,
  box: SampleBox,
  axis: number,
  plane: number,
  sign: number,
) {
  const b = (axis + 1) % 3;
  const c = (axis + 2) % 3;
  const cellsB = cellsOf(plan, b, box.lo[b], box.hi[b]);
  const cellsC = cellsOf(plan, c, box.lo[c], box.hi[c]);
  const nodesB = nodesOf(plan, layout, b, box.lo[b], box.hi[b]);
  const nodesC = nodesOf(plan, layout, c, box.lo[c], box.hi[c]);
  const points = (along: typeof cellsB, across: typeof cellsC) => {
    const base = new Int32Array(along.index.length * across.index.length);
    const weights = new Float64Array(base.length);
    let q = 0;
    for (let ib = 0; ib < along.index.length; ib++) {
      for (let ic = 0; ic < across.index.length; ic++, q++) {
        const pos = [0, 0, 0];
        pos[axis] = plane;
        pos[b] = along.index[ib];
        pos[c] = across.index[ic];
        base[q] = layout.index(pos[0], pos[1], pos[2]);
        weights[q] = along.weight[ib] * across.weight[ic];
      }
    }
    return { base, weights };
  };
  const first = points(cellsB, nodesC); // E_b, H_c at (b + ½, c)
  const second = points(nodesB, cellsC); // E_c, H_b at (b, c + ½)
  const one = new Int32Array([0]);
  const twoAlongA = new Int32Array([0, -layout.strides[axis]]);
  return {
    axis,
    plane,
    sign,
    streams: [
      { comp: b, base: first.base, offsets: one },
      { comp: c, base: second.base, offsets: one },
      { comp: 3 + b, base: second.base, offsets: twoAlongA },
      { comp: 3 + c, base: first.base, offsets: twoAlongA },
    ],
    weights: [first.weights, second.weights],
  } as FluxFace;
}

/**
 * The surface of a flux monitor: a plane (zero extent along one axis) on the node plane
 * nearest its centre, over the cells whose centres lie within its extent, with positive flux
 * along +axis; or a box's six faces, on the nodes bounding the cells whose centres lie within
 * it, with positive flux outward. Both stay inside the region of interest. On a grid holding
 * half of a symmetric axis (AxisPlan.mirror), a monitor centred on the mirror plane is the
 * half at ≥ 0 of its own mirror image: a box has no face on the plane (the normal flux there
 * is zero by symmetry) and the whole surface carries twice the power of the half.
 */
export function fluxSurface(
  plan: GridPlan,
  layout: YeeLayout,
  center: readonly number[],
  size: readonly number[],
): FluxSurface {
  const shape = fluxShape(size);
  if (shape === null) throw new RangeError("a flux monitor is a plane or a box");
  const box = sampleBox(plan, center, size);
  const mirrored = [0, 1, 2].filter((a) => spansMirror(plan, a, center, size));
  const lengthAcross = (a: number) =>
    (mirrored.includes(a) ? 2 : 1) *
    (nodeM(plan.axes[a], box.hi[a] + 1) - nodeM(plan.axes[a], box.lo[a]));
  if (shape >= 0) {
    const ax = plan.axes[shape];
    const node = Math.round(nodeIndexAt(ax, center[shape]));
    // On a periodic axis node n is node 0 again (and the H beyond it is not kept).
    const lastNode = ax.boundary === "periodic" ? ax.cells - 1 : ax.cells - ax.pmlHi;
    const plane = Math.min(lastNode, Math.max(ax.pmlLo, node));
    box.lo[shape] = box.hi[shape] = Math.min(plane, ax.cells - ax.pmlHi - 1);
    const b = (shape + 1) % 3;
    const c = (shape + 2) % 3;
    return {
      faces: [face(plan, layout, box, shape, plane, 1)],
      box,
      isBox: false,
      axis: shape,
      areaM2: lengthAcross(b) * lengthAcross(c),
      mirrored,
    };
  }
  const faces: FluxFace[] = [];
  let area = 0;
  for (let a = 0; a < 3; a++) {
    // A box spanning a whole period of a periodic axis has no faces normal to it: the flux
    // through the two would cancel exactly (|E·H*| is periodic, Bloch phases cancel).
    const ax = plan.axes[a];
    if (ax.boundary === "periodic" && box.lo[a] === 0 && box.hi[a] === ax.cells - 1) continue;
    // On a periodic axis the face at node n is the one at node 0 (whose H beyond is kept).
    const hiFace = ax.boundary === "periodic" && box.hi[a] === ax.cells - 1 ? 0 : box.hi[a] + 1;
    // A face on a mirror wall carries no normal flux (tangential E or H is zero there).
    if (!(ax.mirror !== "none" && box.lo[a] === 0)) {
      faces.push(face(plan, layout, box, a, box.lo[a], -1));
    }
    faces.push(face(plan, layout, box, a, hiFace, 1));
    area += 2 * lengthAcross((a + 1) % 3) * lengthAcross((a + 2) % 3);
  }
  return { faces, box, isBox: true, axis: -1, areaM2: area, mirrored };
}

/**
 * Whether a monitor spans both sides of axis a's mirror plane (the grid holding the half at
 * ≥ 0 of a symmetric axis): its results are those of the half and its mirror image together.
 * The checks (checks/symmetry.ts) admit only monitors centred on the plane or wholly at ≥ 0.
 */
export function spansMirror(
  plan: GridPlan,
  a: number,
  center: readonly number[],
  size: readonly number[],
): boolean {
  return plan.axes[a].mirror !== "none" && size[a] > 0 && center[a] - size[a] / 2 < 0;
}

/**
 * ½·Re Σ w·(E_b·conj(H_c) − E_c·conj(H_b)) over a face at frequency w, in units of the DFT
 * sums squared times m², times the face's sign. `streams` are the four streams' sums in
 * DftRecorder layout ([w][point], re/im), each with a correction added (the incident field,
 * or its negative) when given.
 */
export function facePower(
  f: FluxFace,
  sums: readonly Float64Array[],
  corrections: readonly (Float64Array | null)[],
  w: number,
): number {
  const pair = (e: number, h: number, weights: Float64Array) => {
    const P = weights.length;
    const E = sums[e];
    const H = sums[h];
    const dE = corrections[e];
    const dH = corrections[h];
    let sum = 0;
    for (let q = 0, o = 2 * w * P; q < P; q++, o += 2) {
      const er = E[o] + (dE ? dE[o] : 0);
      const ei = E[o + 1] + (dE ? dE[o + 1] : 0);
      const hr = H[o] + (dH ? dH[o] : 0);
      const hi = H[o + 1] + (dH ? dH[o + 1] : 0);
      // Re(E·conj(H))
      sum += weights[q] * (er * hr + ei * hi);
    }
    return sum;
  };
  // Streams: 0 E_b, 1 E_c, 2 H_b, 3 H_c.
  return 0.5 * f.sign * (pair(0, 3, f.weights[0]) - pair(1, 2, f.weights[1]));
}

/** The unit vector of positive flux of a plane along `axis` with `sign`. */
export function planeNormal(axis: number, sign: number): Vec3 {
  const n: Vec3 = [0, 0, 0];
  n[axis] = sign;
  return n;
}

/**
 * What a plane normal to `axis` at `coordinateM` measures (types.ts FluxQuantity): a plane
 * normal to the propagation axis upstream of the TFSF plane, or upstream of every structure
 * (there being one), measures the reflectance; one downstream of a structure the
 * transmittance; a plane normal to another axis the total flux along +axis.
 * @param structureExtents [lo, hi] of each structure along the propagation axis (m)
 */
export function planeQuantity(
  axis: number,
  coordinateM: number,
  propagationAxis: number,
  propagationSign: number,
  sourcePlaneM: number,
  structureExtents: readonly [number, number][],
): FluxQuantity {
  if (axis !== propagationAxis) return "flux";
  const upstreamOf = (x: number) =>
    propagationSign > 0 ? coordinateM < x - 1e-12 : coordinateM > x + 1e-12;
  if (upstreamOf(sourcePlaneM)) return "reflectance";
  const front = propagationSign > 0 ? (e: [number, number]) => e[0] : (e: [number, number]) => e[1];
  if (structureExtents.length > 0 && structureExtents.every((e) => upstreamOf(front(e)))) {
    return "reflectance";
  }
  return "transmittance";
}
