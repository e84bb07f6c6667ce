/**
 * Grids one cell thick along an axis: cross-sections (the README's strip waveguide is
 * 144 × 1 × 144 cells) and 1-D lines. Along such an axis, when it is periodic without a Bloch
 * phase, every field equals its own image one cell on, so every difference along it is
 * exactly zero (∂/∂axis = 0: the 2-D TE/TM equations). The fast backend then
 *  - leaves the derivative terms along the axis out of the kernel (kernel-wat.ts
 *    `invariantAxes`): fewer loads, no reads of the ghosts across it;
 *  - stops filling those ghosts during the run: the monitors read the one real cell instead of
 *    its images (`remapStreams`, the same values), and the ghosts are filled only when the
 *    fields are read back whole (energy, tests);
 *  - sweeps a single-threaded grid in whole-grid passes (one kernel call per half step,
 *    sweep.ts `runWhole`) instead of plane by plane: a y-thin grid's x-planes are one row
 *    each, and the per-plane work in JavaScript (task order, TFSF, ghosts) cost more than the
 *    row's update (docs/benchmarks.md, issue #15).
 * Only x and y qualify: rows run along z (the kernel's SIMD direction), so a grid one cell
 * thick along z keeps the general path.
 */
import type { GhostCopies, GhostCopy } from "../boundaries.js";
import type { YeeLayout } from "../grid.js";
import type { SampledComponent } from "../monitors.js";

/**
 * Per axis, whether the grid is invariant along it: one cell, periodic, Bloch phase zero
 * (x and y only, see above).
 */
export function invariantAxes(
  layout: YeeLayout,
  blochPhase: readonly number[],
): [boolean, boolean, boolean] {
  const flat = (a: number) =>
    a < 2 && layout.n[a] === 1 && layout.boundaries[a] === "periodic" && blochPhase[a] === 0;
  return [flat(0), flat(1), false];
}

/** The ghost copies split into those across invariant axes (`thin`) and the rest (`kept`). */
export function splitGhosts(
  ghosts: GhostCopies,
  invariant: readonly boolean[],
): { kept: GhostCopies; thin: GhostCopies } {
  const part = (copies: GhostCopy[], thin: boolean) =>
    copies.filter((c) => invariant[c.axis] === thin);
  return {
    kept: { h: part(ghosts.h, false), e: part(ghosts.e, false) },
    thin: { h: part(ghosts.h, true), e: part(ghosts.e, true) },
  };
}

/**
 * Monitor streams that read, instead of a ghost across an invariant axis that the ghost
 * copies fill, the real cell it is copied from (with n = 1 and no phase, the same value at
 * every moment a monitor samples). Ghosts that no copy fills stay as they are (zero on both
 * paths). Null when a stream's points do not all sit at the same index along the axis (then
 * one offset cannot be remapped for all of them; not the case for any box on a one-cell axis).
 */
export function remapStreams(
  streams: readonly SampledComponent[],
  layout: YeeLayout,
  invariant: readonly boolean[],
  thin: GhostCopies,
): SampledComponent[] | null {
  const out: SampledComponent[] = [];
  // Index of flat padded position p along an axis (−1 … n).
  const along = (p: number, axis: number) =>
    axis === 0
      ? Math.floor(p / layout.strides[0]) - 1
      : Math.floor((p % layout.strides[0]) / layout.strides[1]) - 1;
  for (const st of streams) {
    const offsets = Int32Array.from(st.offsets);
    for (let axis = 0; axis < 2; axis++) {
      if (!invariant[axis] || st.base.length === 0) continue;
      const at = along(st.base[0], axis);
      for (let q = 1; q < st.base.length; q++) if (along(st.base[q], axis) !== at) return null;
      const filled = new Set(
        [...thin.h, ...thin.e]
          .filter((c) => c.axis === axis && c.comp === st.comp)
          .map((c) => c.dst),
      );
      for (let o = 0; o < offsets.length; o++) {
        const idx = along(st.base[0] + offsets[o], axis);
        if (idx !== 0 && filled.has(idx)) offsets[o] -= idx * layout.strides[axis];
      }
    }
    out.push({ comp: st.comp, base: st.base, offsets });
  }
  return out;
}
