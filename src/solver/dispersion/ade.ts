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
 * kernel's throughput.
 *
 * The state per pole is P^n and its last change J^n = P^n − P^{n−1} (units of ε0·V/m), so the
 * recurrence reads
 *
 *   J^{n+1} = cP·P^n + cJ·J^n + cE·E^n,   P^{n+1} = P^n + J^{n+1},
 *   cP = −ω0²Δt²/(1 + g),  cJ = (1 − g)/(1 + g),  cE = a·Δt²/(1 + g),  g = γΔt/2,
 *
 * which carries no cancellation (a Drude pole's P may drift far above its changes). The state
 * is float64. This pass is plain JavaScript, about 4 ns per pole and cell component on this
 * machine (docs/benchmarks.md): a gold region costs several times its share of the kernel.
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
  /** Per pole slot: J^{n+1} = cP·P^n + cJ·J^n + cE·E^n (cP = 0 for a Drude pole). */
  cP: Float64Array;
  cJ: Float64Array;
  cE: Float64Array;
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
  const cP: number[] = [];
  const cJ: number[] = [];
  const cE: number[] = [];
  for (let m = 0; m < poles.length; m++) {
    if (poles[m].length === 0) continue;
    entryOf[m] = correction.length;
    correction.push((EPS0 * medium.cb[m]) / dtSeconds);
    for (const pole of poles[m]) {
      const { omega0Sq, gamma, drive } = oscillator(pole);
      const g = (gamma * dtSeconds) / 2;
      cP.push(-(omega0Sq * dtSeconds * dtSeconds) / (1 + g));
      cJ.push((1 - g) / (1 + g));
      cE.push((drive * dtSeconds * dtSeconds) / (1 + g));
    }
    poleStart.push(cP.length);
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
    cP: Float64Array.from(cP),
    cJ: Float64Array.from(cJ),
    cE: Float64Array.from(cE),
    count,
  };
}

/**
 * The polarisation state of the dispersive cells in x-planes [lo, hi) for `sets` field sets
 * (two for Bloch-periodic runs), and the pass that updates them.
 */
export class AdeState {
  /** Per set, per component: P^n and J^n per pole slot of each cell, and ΔP per cell. */
  private readonly p: Float64Array[][];
  private readonly j: Float64Array[][];
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
    this.j = each((c) => sizes[c]);
    this.dp = each((c) => this.stateAt[c].length - 1);
  }

  /** The pass for x-plane i (lo ≤ i < hi) of one field set, given its E components. */
  updatePlane(i: number, set: number, e: readonly Float32Array[]): void {
    const { poleStart, correction, cP, cJ, cE } = this.terms;
    for (let c = 0; c < 3; c++) {
      const a = this.terms.planeStart[c][i + 1];
      const b = this.terms.planeStart[c][i + 2];
      if (a === b) continue;
      const field = e[c];
      const cells = this.terms.cells[c];
      const entry = this.terms.entry[c];
      const at = this.stateAt[c];
      const base = this.first[c];
      const p = this.p[set][c];
      const j = this.j[set][c];
      const dp = this.dp[set][c];
      for (let q = a; q < b; q++) {
        const local = q - base;
        const cell = cells[q];
        const m = entry[q];
        const value = field[cell] - correction[m] * dp[local];
        field[cell] = value;
        let change = 0;
        let s = at[local];
        for (let slot = poleStart[m]; slot < poleStart[m + 1]; slot++, s++) {
          const now = p[s];
          const next = cP[slot] * now + cJ[slot] * j[s] + cE[slot] * value;
          j[s] = next;
          p[s] = now + next;
          change += next;
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
