/**
 * Grid planning and the Yee layout shared by every kernel.
 *
 * Conventions (see docs/solver.md):
 * - Along each axis the region of interest holds `interiorCells = max(1, round(size / step))`
 *   cells, centred on the origin; `pml_layers` absorber cells are added outside it on both
 *   faces of a `pml` axis. Node i sits at `originM + i·step`, node 0 being the outer face.
 * - Yee positions in cell units: Ex (i+½, j, k), Ey (i, j+½, k), Ez (i, j, k+½),
 *   Hx (i, j+½, k+½), Hy (i+½, j, k+½), Hz (i+½, j+½, k). A component stored at index
 *   (i, j, k) lives at those offsets.
 * - Every field array is padded with one ghost plane on each side of every axis, so the
 *   array holds (nx+2)(ny+2)(nz+2) values, z innermost (contiguous). The ghosts carry
 *   periodic (Bloch) and PMC images so the bulk loops never branch on the boundary.
 */
import { SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import type { Boundary, DomainSpec } from "./types.js";

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
  stepM: number;
  /** Requested extent of the region of interest (domain.size) in metres. */
  requestedSizeM: number;
  /** Cells of the region of interest after rounding. */
  interiorCells: number;
  /** Absorber cells below and above the region of interest (0 unless `pml`). */
  pmlLo: number;
  pmlHi: number;
  /** All cells along the axis: interiorCells + pmlLo + pmlHi. */
  cells: number;
  /** Coordinate of node 0 (the outer face of the grid) in metres. */
  originM: number;
}

export interface GridPlan {
  axes: [AxisPlan, AxisPlan, AxisPlan];
  stepM: number;
  courantFactor: number;
  dtSeconds: number;
}

/** Cells of the region of interest along one axis: the documented rounding rule. */
export function interiorCellsFor(sizeM: number, stepM: number): number {
  return Math.max(1, Math.round(sizeM / stepM));
}

/**
 * Plans the grid of a domain without allocating anything.
 * `dt = S·dx/(c·√3)` (DESIGN §1), the 3-D Courant limit scaled by S.
 */
export function planGrid(domain: DomainSpec, courantFactor: number): GridPlan {
  const stepM = domain.resolution;
  const axes = [0, 1, 2].map((a): AxisPlan => {
    const boundary = domain.boundary_conditions[a];
    const interiorCells = interiorCellsFor(domain.size[a], stepM);
    const pml = boundary === "pml" ? domain.pml_layers : 0;
    return {
      boundary,
      stepM,
      requestedSizeM: domain.size[a],
      interiorCells,
      pmlLo: pml,
      pmlHi: pml,
      cells: interiorCells + 2 * pml,
      originM: -(interiorCells / 2 + pml) * stepM,
    };
  }) as [AxisPlan, AxisPlan, AxisPlan];
  const dtSeconds = (courantFactor * stepM) / (SPEED_OF_LIGHT_M_PER_S * Math.sqrt(3));
  return { axes, stepM, courantFactor, dtSeconds };
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
  /** lo[comp * 3 + axis], hi[comp * 3 + axis]: inclusive update range. */
  readonly lo = new Int32Array(18);
  readonly hi = new Int32Array(18);

  constructor(n: [number, number, number], boundaries: [Boundary, Boundary, Boundary]) {
    this.n = [n[0], n[1], n[2]];
    this.boundaries = [boundaries[0], boundaries[1], boundaries[2]];
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
        }
        this.lo[comp * 3 + axis] = lo;
        this.hi[comp * 3 + axis] = hi;
      }
    }
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
