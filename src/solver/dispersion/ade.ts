/**
 * The auxiliary-differential-equation (ADE) update of dispersive cells: each pole's
 * polarisation P (model.ts: P'' + γP' + ω0²P = ε0·a·E) stepped by central differences at
 * integer time levels,
 *
 *   P^{n+1}(1 + γΔt/2) = (2 − ω0²Δt²)·P^n − (1 − γΔt/2)·P^{n−1} + a·Δt²·E^n,
 *
 * and Ampère's law with the polarisation current (P^{n+1} − P^n)/Δt:
 *
 *   E^{n+1} = ca·E^n + cb·(∇×H − (P^{n+1} − P^n)/Δt)
 *           = [the bulk update every cell gets] − ε0·cb/Δt · (P^{n+1} − P^n).
 *
 * P^{n+1} needs only E^n, so one pass per E half step does it all, after the bulk update, the
 * CPML and the source terms of E^{n+1} and before the boundary ghosts are copied: subtract the
 * correction computed in the previous pass, then step P from the now final E^{n+1}. The pass
 * touches only the cells that hold a dispersive material, so the rest of the grid keeps the
 * kernel's throughput. P is stored in units of ε0·V/m, in float64.
 *
 * The scheme is second-order accurate; its stability at a given Courant number is checked
 * by stability.ts.
 */
import { EPS0 } from "../constants.js";
import type { YeeLayout } from "../grid.js";
import type { Medium } from "../medium.js";
import { oscillator } from "./model.js";

/** The dispersive cells of a grid and their coefficients (structured-clonable, for threads). */
export interface AdeTerms {
  /** Per E component: padded offsets of the cells that carry poles, ascending. */
  cells: Int32Array[];
  /** Per E component: per cell, its entry (below). */
  entry: Uint16Array[];
  /**
   * Per E component: per x-plane index i from −1 to n + 1, the position in `cells` of the
   * plane's first cell (plane i's cells are [planeStart[i + 1], planeStart[i + 2])).
   */
  planeStart: Int32Array[];
  /** Per entry: its first pole slot; poleStart[entries] is the number of slots. */
  poleStart: Int32Array;
  /** Per entry: the factor ε0·cb/Δt = 1/(ε_eff·(1 + σΔt/(2ε0ε_eff))) of the E correction. */
  correction: Float64Array;
  /** Per pole slot: P^{n+1} = c1·P^n + c2·P^{n−1} + c3·E^n. */
  c1: Float64Array;
  c2: Float64Array;
  c3: Float64Array;
  /** Cells holding poles, all components together. */
  count: number;
}

/** The ADE terms of a medium, or null when it has no dispersive material. */
export function buildAdeTerms(
  layout: YeeLayout,
  medium: Medium,
  dtSeconds: number,
): AdeTerms | null {
  const poles = medium.poles;
  if (!poles) return null;
  // Entries of the medium's table that carry poles, renumbered densely.
  const entryOf = new Int32Array(poles.length).fill(-1);
  const poleStart: number[] = [0];
  const correction: number[] = [];
  const c1: number[] = [];
  const c2: number[] = [];
  const c3: number[] = [];
  for (let m = 0; m < poles.length; m++) {
    if (poles[m].length === 0) continue;
    entryOf[m] = correction.length;
    correction.push((EPS0 * medium.cb[m]) / dtSeconds);
    for (const pole of poles[m]) {
      const { omega0Sq, gamma, drive } = oscillator(pole);
      const g = (gamma * dtSeconds) / 2;
      c1.push((2 - omega0Sq * dtSeconds * dtSeconds) / (1 + g));
      c2.push(-(1 - g) / (1 + g));
      c3.push((drive * dtSeconds * dtSeconds) / (1 + g));
    }
    poleStart.push(c1.length);
  }
  if (correction.length === 0) return null;

  const cells: Int32Array[] = [];
  const entry: Uint16Array[] = [];
  const planeStart: Int32Array[] = [];
  const [n0, n1, n2] = layout.n;
  let count = 0;
  for (let c = 0; c < 3; c++) {
    const index = medium.index[c];
    const found: number[] = [];
    const entries: number[] = [];
    const starts = new Int32Array(n0 + 4);
    const r = (axis: number) => [layout.lo[c * 3 + axis], layout.hi[c * 3 + axis]];
    const [[i0, i1], [j0, j1], [k0, k1]] = [r(0), r(1), r(2)];
    for (let i = -1; i <= n0 + 1; i++) {
      starts[i + 1] = found.length;
      if (i < i0 || i > i1) continue;
      for (let j = j0; j <= j1 && j < n1 + 1; j++) {
        for (let k = k0; k <= k1 && k < n2 + 1; k++) {
          const p = layout.index(i, j, k);
          const e = entryOf[index[p]];
          if (e < 0) continue;
          found.push(p);
          entries.push(e);
        }
      }
    }
    starts[n0 + 3] = found.length;
    cells.push(Int32Array.from(found));
    entry.push(Uint16Array.from(entries));
    planeStart.push(starts);
    count += found.length;
  }
  return {
    cells,
    entry,
    planeStart,
    poleStart: Int32Array.from(poleStart),
    correction: Float64Array.from(correction),
    c1: Float64Array.from(c1),
    c2: Float64Array.from(c2),
    c3: Float64Array.from(c3),
    count,
  };
}

/**
 * The polarisation state of the dispersive cells in x-planes [lo, hi) for `sets` field sets
 * (two for Bloch-periodic runs), and the pass that updates them.
 */
export class AdeState {
  /** Per set, per component: P^n and P^{n−1} per pole slot of each cell, and ΔP per cell. */
  private readonly p: Float64Array[][];
  private readonly pOld: Float64Array[][];
  private readonly dp: Float64Array[][];
  /** Per component: state offset of each cell (relative to the first cell of plane lo). */
  private readonly stateAt: Int32Array[];
  private readonly first: number[];

  constructor(
    private readonly terms: AdeTerms,
    private readonly lo: number,
    private readonly hi: number,
    sets: number,
  ) {
    this.stateAt = [];
    this.first = [];
    const sizes: number[] = [];
    for (let c = 0; c < 3; c++) {
      const a = terms.planeStart[c][lo + 1];
      const b = terms.planeStart[c][hi + 1];
      const at = new Int32Array(b - a + 1);
      let slots = 0;
      for (let q = a; q < b; q++) {
        at[q - a] = slots;
        const e = terms.entry[c][q];
        slots += terms.poleStart[e + 1] - terms.poleStart[e];
      }
      at[b - a] = slots;
      this.stateAt.push(at);
      this.first.push(a);
      sizes.push(slots);
    }
    const each = (f: (c: number) => number) =>
      Array.from({ length: sets }, () => [0, 1, 2].map((c) => new Float64Array(f(c))));
    this.p = each((c) => sizes[c]);
    this.pOld = each((c) => sizes[c]);
    this.dp = each((c) => this.stateAt[c].length - 1);
  }

  /** The pass for x-plane i (lo ≤ i < hi) of one field set, given its E components. */
  updatePlane(i: number, set: number, e: readonly Float32Array[]): void {
    const t = this.terms;
    for (let c = 0; c < 3; c++) {
      const a = t.planeStart[c][i + 1];
      const b = t.planeStart[c][i + 2];
      if (a === b) continue;
      const field = e[c];
      const cells = t.cells[c];
      const entry = t.entry[c];
      const at = this.stateAt[c];
      const base = this.first[c];
      const p = this.p[set][c];
      const pOld = this.pOld[set][c];
      const dp = this.dp[set][c];
      for (let q = a; q < b; q++) {
        const local = q - base;
        const cell = cells[q];
        const m = entry[q];
        const value = field[cell] - t.correction[m] * dp[local];
        field[cell] = value;
        let change = 0;
        let s = at[local];
        for (let slot = t.poleStart[m]; slot < t.poleStart[m + 1]; slot++, s++) {
          const now = p[s];
          const next = t.c1[slot] * now + t.c2[slot] * pOld[s] + t.c3[slot] * value;
          pOld[s] = now;
          p[s] = next;
          change += next - now;
        }
        dp[local] = change;
      }
    }
  }

  /** The pass for every plane this state holds. */
  updateAll(set: number, e: readonly Float32Array[]): void {
    for (let i = this.lo; i < this.hi; i++) this.updatePlane(i, set, e);
  }
}
