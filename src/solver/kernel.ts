/**
 * The reference backend's bulk Yee update (Taflove & Hagness, ch. 3 and 4): plain TypeScript
 * loops over a slab of x-planes of one real field set. YeeGrid (yee.ts) runs it over the whole
 * grid for the reference backend (reference/backend.ts) and for the plane-wave source's
 * auxiliary line, which every backend steps this way; the CPML ψ pass (cpml.ts), the source's
 * terms (sources/injection.ts) and the boundary ghosts (boundaries.ts) follow it as separate passes, so it
 * has no branches on boundaries or sources. The wasm backend does not call it: it generates its
 * own kernel from the same equations (wasm/kernel-wat.ts), with the ψ terms fused in, and is
 * checked against this one (wasm/agreement.test.ts).
 *
 * Update equations, with κ folded into the per-axis inverse steps (CPML, Roden & Gedney 2000):
 *   H ← H − (dt/μ0)·(∇×E),   E ← ca·E + cb·(∇×H),
 * where ca, cb come from a small coefficient table indexed by a per-component Uint16 material
 * index (medium.ts), not from per-cell coefficient arrays.
 */
import type { FieldSet } from "./fields.js";
import type { YeeLayout } from "./grid.js";

/** Everything a kernel reads besides the fields. Arrays are indexed like the padded fields. */
export interface KernelGrid {
  readonly layout: YeeLayout;
  /** The grid step when every cell of every axis has it (a uniform grid), else null. */
  readonly uniformStepM: number | null;
  /**
   * Per axis, 1/(κ·Δ) at node positions, index = node + 1 (padded); Δ the dual step there
   * (grid.ts dualStepM: what a difference of H across the node spans).
   */
  readonly invStepNode: [Float64Array, Float64Array, Float64Array];
  /**
   * Per axis, 1/(κ·Δ) at half positions i+½, index = i + 1 (padded); Δ the step of cell i
   * (what a difference of E across the cell spans).
   */
  readonly invStepHalf: [Float64Array, Float64Array, Float64Array];
  /** dt/μ0: the H update coefficient (no magnetic materials). */
  readonly hCoefficient: number;
  /** Per E component, material index per padded cell into `ca`/`cb`. */
  readonly materialIndex: [Uint16Array, Uint16Array, Uint16Array];
  readonly ca: Float64Array;
  readonly cb: Float64Array;
}

/** A bulk update: x-planes [planeLo, planeHi) of one real field set. */
export interface FieldKernel {
  readonly name: string;
  updateH(grid: KernelGrid, fields: FieldSet, planeLo: number, planeHi: number): void;
  updateE(grid: KernelGrid, fields: FieldSet, planeLo: number, planeHi: number): void;
}

/**
 * Plain TypeScript loops over Float32Array, innermost axis z, arithmetic in float64. Clarity
 * wins here (16–20 Mcell/s, docs/solver.md); the wasm backend is where speed goes.
 */
export const referenceKernel: FieldKernel = {
  name: "reference",

  updateH(grid, fields, planeLo, planeHi) {
    const { layout, hCoefficient: ch } = grid;
    const [sx, sy] = layout.strides;
    const [ixH, iyH, izH] = grid.invStepHalf;
    const [ex, ey, ez, hx, hy, hz] = fields.c;
    const { lo, hi } = layout;

    // Hx(i, j+½, k+½) -= ch·(∂y Ez − ∂z Ey)
    for (let i = Math.max(lo[9], planeLo), iEnd = Math.min(hi[9], planeHi - 1); i <= iEnd; i++) {
      for (let j = lo[10], jEnd = hi[10]; j <= jEnd; j++) {
        const row = (i + 1) * sx + (j + 1) * sy + 1;
        const iy = iyH[j + 1];
        for (let k = lo[11], kEnd = hi[11]; k <= kEnd; k++) {
          const p = row + k;
          hx[p] -= ch * ((ez[p + sy] - ez[p]) * iy - (ey[p + 1] - ey[p]) * izH[k + 1]);
        }
      }
    }
    // Hy(i+½, j, k+½) -= ch·(∂z Ex − ∂x Ez)
    for (let i = Math.max(lo[12], planeLo), iEnd = Math.min(hi[12], planeHi - 1); i <= iEnd; i++) {
      const ix = ixH[i + 1];
      for (let j = lo[13], jEnd = hi[13]; j <= jEnd; j++) {
        const row = (i + 1) * sx + (j + 1) * sy + 1;
        for (let k = lo[14], kEnd = hi[14]; k <= kEnd; k++) {
          const p = row + k;
          hy[p] -= ch * ((ex[p + 1] - ex[p]) * izH[k + 1] - (ez[p + sx] - ez[p]) * ix);
        }
      }
    }
    // Hz(i+½, j+½, k) -= ch·(∂x Ey − ∂y Ex)
    for (let i = Math.max(lo[15], planeLo), iEnd = Math.min(hi[15], planeHi - 1); i <= iEnd; i++) {
      const ix = ixH[i + 1];
      for (let j = lo[16], jEnd = hi[16]; j <= jEnd; j++) {
        const row = (i + 1) * sx + (j + 1) * sy + 1;
        const iy = iyH[j + 1];
        for (let k = lo[17], kEnd = hi[17]; k <= kEnd; k++) {
          const p = row + k;
          hz[p] -= ch * ((ey[p + sx] - ey[p]) * ix - (ex[p + sy] - ex[p]) * iy);
        }
      }
    }
  },

  updateE(grid, fields, planeLo, planeHi) {
    const { layout, ca, cb } = grid;
    const [sx, sy] = layout.strides;
    const [ixE, iyE, izE] = grid.invStepNode;
    const [ex, ey, ez, hx, hy, hz] = fields.c;
    const [mx, my, mz] = grid.materialIndex;
    const { lo, hi } = layout;

    // Ex(i+½, j, k) = ca·Ex + cb·(∂y Hz − ∂z Hy)
    for (let i = Math.max(lo[0], planeLo), iEnd = Math.min(hi[0], planeHi - 1); i <= iEnd; i++) {
      for (let j = lo[1], jEnd = hi[1]; j <= jEnd; j++) {
        const row = (i + 1) * sx + (j + 1) * sy + 1;
        const iy = iyE[j + 1];
        for (let k = lo[2], kEnd = hi[2]; k <= kEnd; k++) {
          const p = row + k;
          const m = mx[p];
          ex[p] =
            ca[m] * ex[p] + cb[m] * ((hz[p] - hz[p - sy]) * iy - (hy[p] - hy[p - 1]) * izE[k + 1]);
        }
      }
    }
    // Ey(i, j+½, k) = ca·Ey + cb·(∂z Hx − ∂x Hz)
    for (let i = Math.max(lo[3], planeLo), iEnd = Math.min(hi[3], planeHi - 1); i <= iEnd; i++) {
      const ix = ixE[i + 1];
      for (let j = lo[4], jEnd = hi[4]; j <= jEnd; j++) {
        const row = (i + 1) * sx + (j + 1) * sy + 1;
        for (let k = lo[5], kEnd = hi[5]; k <= kEnd; k++) {
          const p = row + k;
          const m = my[p];
          ey[p] =
            ca[m] * ey[p] + cb[m] * ((hx[p] - hx[p - 1]) * izE[k + 1] - (hz[p] - hz[p - sx]) * ix);
        }
      }
    }
    // Ez(i, j, k+½) = ca·Ez + cb·(∂x Hy − ∂y Hx)
    for (let i = Math.max(lo[6], planeLo), iEnd = Math.min(hi[6], planeHi - 1); i <= iEnd; i++) {
      const ix = ixE[i + 1];
      for (let j = lo[7], jEnd = hi[7]; j <= jEnd; j++) {
        const row = (i + 1) * sx + (j + 1) * sy + 1;
        const iy = iyE[j + 1];
        for (let k = lo[8], kEnd = hi[8]; k <= kEnd; k++) {
          const p = row + k;
          const m = mz[p];
          ez[p] = ca[m] * ez[p] + cb[m] * ((hy[p] - hy[p - sx]) * ix - (hx[p] - hx[p - sy]) * iy);
        }
      }
    }
  },
};
