/**
 * Boundary handling, kept out of the bulk loops: after each half step the ghost planes of the
 * padded arrays are filled so the next half step reads the right neighbours. This module is
 * the one definition of what is copied where (`ghostCopies`) and of the copies themselves
 * (`GhostPlanes`); the reference stepper and the auxiliary line fill a whole grid at once
 * (`fillAll`), the wasm backend's sweep fills x-plane by x-plane as it goes (wasm/sweep.ts,
 * which decides only *when* an x-plane copy may run).
 *
 * - periodic: Bloch-periodic F(r + L) = F(r)·e^{i k·L} (Taflove & Hagness §13.3, "field
 *   transformation" with complex fields, as Meep does). With k·L = 0 the fields are real and
 *   this is a plain copy.
 * - pmc: tangential H is odd about the wall (the image of a perfect magnetic conductor), so
 *   tangential E on the wall is updated with H(−½) = −H(+½).
 * - pec and the PML's outer wall: tangential E on the wall is never updated and stays zero.
 * - a mirror wall (domain.symmetry) on the low face only: pmc as above on that face, pec
 *   needs no copy.
 */
import type { Boundary, Symmetry } from "./types.js";

/** One ghost plane: component `comp`'s plane `dst` along `axis` ← plane `src`·e^{iθ}. */
export interface GhostCopy {
  axis: number;
  comp: number;
  src: number;
  dst: number;
  /** Phase θ in radians: the Bloch phase k·L (±), π for a PMC mirror, 0 for a plain copy. */
  theta: number;
}

/** The copies after the H half step and after the E half step (structured-clonable). */
export interface GhostCopies {
  h: GhostCopy[];
  e: GhostCopy[];
}

/**
 * The ghost copies of a grid with `n` cells per axis. A component on nodes along a periodic
 * axis owns planes 0…n−1 and gets plane n from plane 0; one half a cell off the nodes gets
 * plane −1 from plane n−1 (the only neighbours the next half step reads). PMC mirrors the
 * tangential H on both faces; a pmc mirror wall on the low face only.
 * @param layout the grid's cells, boundaries and low-face mirror walls (grid.ts YeeLayout)
 * @param blochPhase k·L per axis in radians (0 for real runs)
 */
export function ghostCopies(
  layout: {
    readonly boundaries: readonly Boundary[];
    readonly n: readonly number[];
    readonly mirrors: readonly Symmetry[];
  },
  blochPhase: readonly number[],
): GhostCopies {
  const { boundaries, n, mirrors } = layout;
  const h: GhostCopy[] = [];
  const e: GhostCopy[] = [];
  for (let axis = 0; axis < 3; axis++) {
    const last = n[axis] - 1;
    const theta = blochPhase[axis];
    if (boundaries[axis] === "periodic") {
      for (let c = 0; c < 3; c++) {
        // H_c is on nodes along its own axis, E_c half a cell off them.
        if (c === axis) {
          h.push({ axis, comp: 3 + c, src: 0, dst: n[axis], theta });
          e.push({ axis, comp: c, src: last, dst: -1, theta: -theta });
        } else {
          h.push({ axis, comp: 3 + c, src: last, dst: -1, theta: -theta });
          e.push({ axis, comp: c, src: 0, dst: n[axis], theta });
        }
      }
    } else {
      const lowPmc =
        mirrors[axis] === "pmc" || (mirrors[axis] === "none" && boundaries[axis] === "pmc");
      const highPmc = boundaries[axis] === "pmc";
      for (let c = 0; c < 3; c++) {
        if (c === axis) continue;
        if (lowPmc) h.push({ axis, comp: 3 + c, src: 0, dst: -1, theta: Math.PI });
        if (highPmc) h.push({ axis, comp: 3 + c, src: last, dst: n[axis], theta: Math.PI });
      }
    }
  }
  return { h, e };
}

/**
 * The copies on one grid's padded float32 arrays (`sets[s][comp]`, two sets for Bloch runs).
 * Copies along y and z work within one x-plane; copies along x move whole padded x-planes,
 * ghosts included, so they must run after the source plane's y/z ghosts are filled.
 */
export class GhostPlanes {
  constructor(
    private readonly sets: readonly (readonly Float32Array[])[],
    private readonly n: readonly number[],
    private readonly strides: readonly number[],
  ) {}

  /** Every copy over the whole grid: y/z ghosts of each x-plane, then the x-planes. */
  fillAll(copies: readonly GhostCopy[]): void {
    for (let i = 0; i <= this.n[0]; i++) this.inPlane(i, copies);
    for (const c of copies) if (c.axis === 0) this.xPlane(c);
  }

  /** The copies along y and z within x-plane i (those along x are skipped). */
  inPlane(i: number, copies: readonly GhostCopy[]): void {
    for (const c of copies) if (c.axis !== 0) this.copyInPlane(i, c);
  }

  /** Whole padded x-plane c.dst ← c.src·e^{iθ} (a copy along x). */
  xPlane(c: GhostCopy): void {
    const sx = this.strides[0];
    this.copy(c.comp, (c.src + 1) * sx, (c.dst + 1) * sx, 1, sx, c.theta);
  }

  /**
   * Within x-plane i, dst ← src·e^{iθ} along axis 1 or 2, over indices 0…n of the other
   * in-plane axis: the −1 ghosts are never read across a plane, and the +n ghosts of y are
   * carried along by the z copies (y copies run first), so corners are right.
   */
  private copyInPlane(i: number, c: GhostCopy): void {
    const [sx, sy] = this.strides;
    const base = (i + 1) * sx;
    if (c.axis === 1) {
      // Rows j = src → j = dst, k = 0…nz: contiguous.
      const from = base + (c.src + 1) * sy + 1;
      const to = base + (c.dst + 1) * sy + 1;
      this.copy(c.comp, from, to, 1, this.n[2] + 1, c.theta);
    } else {
      // Columns k = src → k = dst for j = 0…ny.
      const from = base + sy + c.src + 1;
      const to = base + sy + c.dst + 1;
      this.copy(c.comp, from, to, sy, this.n[1] + 1, c.theta);
    }
  }

  /** F[to + m·stride] ← F[from + m·stride]·e^{iθ} for m < count, both field sets. */
  private copy(
    comp: number,
    from: number,
    to: number,
    stride: number,
    count: number,
    theta: number,
  ): void {
    const re = this.sets[0][comp];
    const im = this.sets.length > 1 ? this.sets[1][comp] : null;
    const cos = Math.cos(theta);
    const sin = Math.sin(theta);
    if (im === null) {
      // Real runs: θ is 0 (periodic) or π (PMC mirror), sin θ = 0.
      if (stride === 1 && cos >= 0) {
        re.copyWithin(to, from, from + count);
        return;
      }
      const sign = cos >= 0 ? 1 : -1;
      for (let m = 0, o = 0; m < count; m++, o += stride) re[to + o] = sign * re[from + o];
      return;
    }
    for (let m = 0, o = 0; m < count; m++, o += stride) {
      const xr = re[from + o];
      const xi = im[from + o];
      re[to + o] = xr * cos - xi * sin;
      im[to + o] = xr * sin + xi * cos;
    }
  }
}
