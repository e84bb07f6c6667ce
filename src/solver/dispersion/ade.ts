/**
 * The auxiliary-differential-equation (ADE) update of dispersive cells. Each pole's
 * polarisation P (model.ts: P'' + γP' + ω0²P = ε0·a·E) is stepped at integer time levels by
 * the bilinear (trapezoidal) transform s → (2/Δt)·(z − 1)/(z + 1) of its equation:
 *
 *   (P^{n+1} − 2P^n + P^{n−1}) + g·(P^{n+1} − P^{n−1}) + ω0²Δt²·(P^{n+1} + 2P^n + P^{n−1})/4
 *     = a·Δt²·(E^{n+1} + 2E^n + E^{n−1})/4,                   g = γΔt/2,
 *
 * and Ampère's law carries the polarisation current (P^{n+1} − P^n)/Δt. The transform maps
 * real frequencies to real frequencies, so the discrete susceptibility is as passive as the
 * model at every frequency the grid holds, and the scheme keeps the Courant limit of its
 * instantaneous part (stability.ts checks it per material). The explicit alternative (E^n alone
 * on the right, ω0²P^n) lowers that limit: a pole's own update goes unstable as ω0Δt nears 2,
 * which ordinary glasses' ultraviolet poles reach on coarse grids, and a Drude metal with
 * ε∞ = 1 needs S ≤ 1/√(1 + (ωpΔx/c)²/12); averaging E^{n+1} and E^{n−1} alone turns loss
 * into gain above ωΔt = π/2. The price is that P^{n+1} depends on E^{n+1}, linearly and cell
 * by cell:
 *
 *   P^{n+1} − P^n = h^n + κ·E^{n+1},   κ = a·Δt²/(4D),   D = 1 + g + ω0²Δt²/4,
 *
 * with h^n known from the past, so Ampère's law solves for E^{n+1} in closed form: the cell
 * gets the bulk update with ε∞ + Σκ in its denominator (medium.ts's ca, cb for entries with
 * poles), and after it
 *
 *   E^{n+1} = [bulk update] − ε0·cb/Δt·Σ h^n.
 *
 * One pass per E half step, after the bulk update, the CPML and the source terms of E^{n+1}
 * and before the boundary ghosts are copied, subtracts the Σ h^n kept from the previous pass,
 * then steps the poles and keeps Σ h^{n+1}. It touches only the cells that hold a dispersive
 * material, so the rest of the grid keeps the kernel's throughput.
 *
 * The state per pole is P^n and its last change J^n = P^n − P^{n−1} (units of ε0·V/m), so that
 * a Drude pole's P, which may drift far above its changes, never enters a difference:
 *
 *   J^{n+1} = cP·P^n + cJ·J^n + cE·(E^{n+1} + 2E^n + E^{n−1}),   P^{n+1} = P^n + J^{n+1},
 *   h^{n+1} = cP·P^{n+1} + cJ·J^{n+1} + cE·(2E^{n+1} + E^n),
 *   cP = −ω0²Δt²/D,   cJ = (1 − g + ω0²Δt²/4)/D,   cE = κ;
 *
 * per cell it also keeps E^n and E^{n−1}. AdeState below is the pass in JavaScript, float64,
 * as the reference backend runs it; the fast kernel runs the same update as WebAssembly over
 * its shared memory (wasm/ade-wasm.ts), checked against this one by wasm/agreement.test.ts.
 */
import { EPS0 } from "../constants.js";
import type { YeeLayout } from "../grid.js";
import type { Medium } from "../medium-types.js";
import { oscillator, type Pole } from "./model.js";

/** The update coefficients of one pole at time step Δt (see the module comment). */
export function poleCoefficients(
  pole: Pole,
  dtSeconds: number,
): { cP: number; cJ: number; cE: number } {
  const { omega0Sq, gamma, drive } = oscillator(pole);
  const w0 = omega0Sq * dtSeconds * dtSeconds;
  const g = (gamma * dtSeconds) / 2;
  const d = 1 + g + w0 / 4;
  return { cP: -w0 / d, cJ: (1 - g + w0 / 4) / d, cE: (drive * dtSeconds * dtSeconds) / (4 * d) };
}

/** Σκ of a cell's poles: what they add to ε∞ in the denominator of its E update. */
export function instantaneousSusceptibility(poles: readonly Pole[], dtSeconds: number): number {
  let sum = 0;
  for (const pole of poles) sum += poleCoefficients(pole, dtSeconds).cE;
  return sum;
}

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
  /** Per entry: the factor ε0·cb/Δt = 1/(ε∞ + σΔt/(2ε0) + Σκ) of the E correction. */
  correction: Float64Array;
  /** Per pole slot (see the module comment; cP = 0 for a Drude pole). */
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
      const k = poleCoefficients(pole, dtSeconds);
      cP.push(k.cP);
      cJ.push(k.cJ);
      cE.push(k.cE);
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
  /** Per set, per component: P^n and J^n per pole slot of each cell. */
  private readonly p: Float64Array[][];
  private readonly j: Float64Array[][];
  /** Per set, per component, per cell: Σ h^n, E^n and E^{n−1}. */
  private readonly h: Float64Array[][];
  private readonly e1: Float64Array[][];
  private readonly e2: Float64Array[][];
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
    this.h = each((c) => this.stateAt[c].length - 1);
    this.e1 = each((c) => this.stateAt[c].length - 1);
    this.e2 = each((c) => this.stateAt[c].length - 1);
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
      const h = this.h[set][c];
      const e1 = this.e1[set][c];
      const e2 = this.e2[set][c];
      for (let q = a; q < b; q++) {
        const local = q - base;
        const cell = cells[q];
        const m = entry[q];
        const value = field[cell] - correction[m] * h[local];
        field[cell] = value;
        const previous = e1[local];
        const drive = value + 2 * previous + e2[local];
        let history = 0;
        let kappa = 0;
        let s = at[local];
        for (let slot = poleStart[m]; slot < poleStart[m + 1]; slot++, s++) {
          const kP = cP[slot];
          const kJ = cJ[slot];
          const kE = cE[slot];
          const next = kP * p[s] + kJ * j[s] + kE * drive;
          const pNext = p[s] + next;
          p[s] = pNext;
          j[s] = next;
          history += kP * pNext + kJ * next;
          kappa += kE;
        }
        h[local] = history + kappa * (2 * value + previous);
        e2[local] = previous;
        e1[local] = value;
      }
    }
  }

  /** The pass for every plane this state holds. */
  updateAll(set: number, e: readonly Float32Array[]): void {
    for (let i = this.lo; i < this.hi; i++) this.updatePlane(i, set, e);
  }
}
