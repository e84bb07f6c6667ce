/**
 * Reading a grid that is invariant along some axes (one periodic cell without a Bloch phase:
 * every field equals its images across the axis) without keeping the ghosts across them up
 * to date: the wasm backend's thin grids (wasm/thin.ts) and the plane-wave source's
 * auxiliary line at normal incidence (sources/plane-wave.ts). The ghost copies across those axes are set
 * apart, and sampled streams read the real cell a filled ghost is copied from.
 */
import type { GhostCopies, GhostCopy } from "./boundaries.js";
import type { YeeLayout } from "./grid.js";
import type { SampledComponent } from "./monitors.js";

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
 * Sampled streams (monitors.ts) that read, instead of a ghost across an invariant axis that the ghost
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
      : axis === 1
        ? Math.floor((p % layout.strides[0]) / layout.strides[1]) - 1
        : (p % layout.strides[1]) - 1;
  for (const st of streams) {
    const offsets = Int32Array.from(st.offsets);
    for (let axis = 0; axis < 3; axis++) {
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
