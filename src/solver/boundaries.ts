/**
 * Boundary handling, kept out of the bulk loops: after each half step the ghost planes of the
 * padded arrays are filled so the next half step reads the right neighbours.
 *
 * - periodic: Bloch-periodic F(r + L) = F(r)·e^{i k·L} (Taflove & Hagness §13.3, "field
 *   transformation" with complex fields, as Meep does). With k·L = 0 the fields are real and
 *   this is a plain copy.
 * - pmc: tangential H is odd about the wall (the image of a perfect magnetic conductor), so
 *   tangential E on the wall is updated with H(−½) = −H(+½).
 * - pec and the PML's outer wall: tangential E on the wall is never updated and stays zero.
 */
import type { FieldSet } from "./fields.js";
import type { YeeLayout } from "./grid.js";

export interface BoundaryState {
  layout: YeeLayout;
  /** Bloch phase k·L per axis in radians (0 for real runs and non-periodic axes). */
  blochPhase: [number, number, number];
}

/** Fills the H ghosts after the H update; `im` is the imaginary field set of Bloch runs. */
export function fillGhostsH(state: BoundaryState, re: FieldSet, im: FieldSet | null): void {
  const { layout } = state;
  for (let a = 0; a < 3; a++) {
    const n = layout.n[a];
    const b = layout.boundaries[a];
    if (b === "periodic") {
      const theta = state.blochPhase[a];
      for (let c = 0; c < 3; c++) {
        const comp = 3 + c;
        if (c === a)
          copyPlane(layout, a, re, im, comp, 0, n, theta); // node along a
        else copyPlane(layout, a, re, im, comp, n - 1, -1, -theta); // half along a
      }
    } else if (b === "pmc") {
      for (let c = 0; c < 3; c++) {
        if (c === a) continue;
        copyPlane(layout, a, re, im, 3 + c, 0, -1, Math.PI);
        copyPlane(layout, a, re, im, 3 + c, n - 1, n, Math.PI);
      }
    }
  }
}

/** Fills the E ghosts after the E update. */
export function fillGhostsE(state: BoundaryState, re: FieldSet, im: FieldSet | null): void {
  const { layout } = state;
  for (let a = 0; a < 3; a++) {
    if (layout.boundaries[a] !== "periodic") continue;
    const n = layout.n[a];
    const theta = state.blochPhase[a];
    for (let c = 0; c < 3; c++) {
      if (c === a) copyPlane(layout, a, re, im, c, n - 1, -1, -theta);
      else copyPlane(layout, a, re, im, c, 0, n, theta);
    }
  }
}

/**
 * dst plane ← src plane · e^{iθ} for one component, over indices 0…n of the other two axes.
 */
function copyPlane(
  layout: YeeLayout,
  axis: number,
  re: FieldSet,
  im: FieldSet | null,
  comp: number,
  src: number,
  dst: number,
  theta: number,
): void {
  const s = layout.strides;
  const b = (axis + 1) % 3;
  const c = (axis + 2) % 3;
  // Indices 0…n along the other axes (padded 1…n+1): the −1 ghosts are never read across
  // a plane, and the +n ghosts of earlier axes are carried along, so corners are right.
  const nb = layout.n[b] + 1;
  const nc = layout.n[c] + 1;
  const sb = s[b];
  const sc = s[c];
  const srcBase = (src + 1) * s[axis] + sb + sc;
  const dstBase = (dst + 1) * s[axis] + sb + sc;
  const fr = re.c[comp];
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  if (im === null) {
    // Real runs: θ is 0 (periodic) or π (PMC mirror), sin θ = 0.
    const sign = cos >= 0 ? 1 : -1;
    for (let ib = 0; ib < nb; ib++) {
      for (let ic = 0; ic < nc; ic++) {
        const o = ib * sb + ic * sc;
        fr[dstBase + o] = sign * fr[srcBase + o];
      }
    }
    return;
  }
  const fi = im.c[comp];
  for (let ib = 0; ib < nb; ib++) {
    for (let ic = 0; ic < nc; ic++) {
      const o = ib * sb + ic * sc;
      const xr = fr[srcBase + o];
      const xi = fi[srcBase + o];
      fr[dstBase + o] = xr * cos - xi * sin;
      fi[dstBase + o] = xr * sin + xi * cos;
    }
  }
}
