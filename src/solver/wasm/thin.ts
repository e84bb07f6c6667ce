/**
 * Grids one cell thick along an axis: cross-sections (the README's strip waveguide is
 * 144 × 1 × 144 cells) and 1-D lines. Along such an axis, when it is periodic without a Bloch
 * phase, every field equals its own image one cell on, so every difference along it is
 * exactly zero (∂/∂axis = 0: the 2-D TE/TM equations). The fast backend then
 *  - leaves the derivative terms along the axis out of the kernel (kernel-wat.ts
 *    `invariantAxes`): fewer loads, no reads of the ghosts across it;
 *  - stops filling those ghosts during the run: the monitors read the one real cell instead of
 *    its images (invariant.ts `remapStreams`, the same values), and the ghosts are filled only when the
 *    fields are read back whole (energy, tests);
 *  - sweeps a single-threaded grid in whole-grid passes (one kernel call per half step,
 *    sweep.ts `runWhole`) instead of plane by plane: a y-thin grid's x-planes are one row
 *    each, and the per-plane work in JavaScript (task order, TFSF, ghosts) cost more than the
 *    row's update (docs/benchmarks.md, issue #15).
 * Only x and y qualify: rows run along z (the kernel's SIMD direction). A grid one cell thick
 * along z is stored with its axes relabelled so that it is thin along y (relabel.ts).
 */
import type { YeeLayout } from "../grid.js";

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
