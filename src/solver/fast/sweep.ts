/**
 * One thread's share of a time step: a single sweep over its slab of x-planes that updates H
 * and then E plane by plane, so each plane's E update finds the H planes it needs (i and i−1)
 * still in cache. Measured against two passes (all H, then all E) this reads and writes each
 * field value once per step instead of re-reading H for the E pass (≈48 instead of ≈72 bytes
 * per cell-update at the DRAM).
 *
 * Fusing requires everything between the two half steps to happen per plane as well, in the
 * reference order (bulk, CPML, TFSF, ghosts):
 *   for i in slab: H(i) [+ψ] → TFSF H(i) → H ghosts of plane i along y, z →
 *                  E(i) [+ψ] → TFSF E(i) → E ghosts of plane i along y, z
 * E(i) reads H(i) and H(i−1); H(i) reads E(i) and E(i+1), which must still be old. So each
 * thread defers E of its first plane (whose H(i−1) belongs to the neighbour) until every
 * thread has finished its sweep (the "mid" barrier). That also keeps E(first) old while the
 * neighbour's last H plane reads it. Ghost planes along x (periodic, PMC) are copied whole
 * once their source planes are final; see the comments at each copy.
 *
 * The sweep runs in every kernel thread, the calling thread included, on views of the one
 * shared memory.
 */
import type { Boundary } from "../types.js";
import { INCIDENT_BYTE_OFFSET } from "./barrier.js";

/**
 * A TFSF correction of one component on one plane normal to the propagation axis:
 * F += w·inc per cell of the plane, w = coef·(cb)·e^{i k_t·r} precomputed per cell.
 */
export interface TfsfTerm {
  comp: number;
  /** Index of the plane along the propagation axis. */
  plane: number;
  /** Slot (re, im at 2·slot, 2·slot+1) of the incident value in the control block. */
  slot: number;
  /** Re and Im of w per transverse cell (u, v), indexed (iu+1)·(nv+2) + (iv+1). */
  wRe: Float64Array;
  wIm: Float64Array;
}

export interface TfsfConfig {
  axis: number;
  h: TfsfTerm[];
  e: TfsfTerm[];
}

/** Everything a thread needs besides the memory and the compiled kernel (structured-clonable). */
export interface SweepConfig {
  n: [number, number, number];
  strides: [number, number, number];
  paddedCells: number;
  boundaries: [Boundary, Boundary, Boundary];
  blochPhase: [number, number, number];
  sets: number;
  /** Byte address of each component of field set 0, and the distance to set 1. */
  components: number[];
  setBytes: number;
  lo: number[];
  hi: number[];
  /** Per thread, its x-planes [lo, hi). */
  slabs: [number, number][];
  tfsf: TfsfConfig | null;
}

export interface KernelExports {
  h(i: number, set: number): void;
  e(i: number, set: number): void;
  energy(i: number, set: number): number;
}

export class SlabSweeper {
  private readonly f: Float32Array[][];
  private readonly incident: Float64Array;
  private readonly lo: number;
  private readonly hi: number;
  private readonly first: boolean;
  private readonly last: boolean;
  /** Row length of the TFSF cb patterns: n_v + 2 along the second transverse axis. */
  private readonly tfsfStride: number;

  constructor(
    private readonly kernel: KernelExports,
    buffer: ArrayBufferLike,
    private readonly cfg: SweepConfig,
    readonly thread: number,
  ) {
    this.f = [];
    for (let s = 0; s < cfg.sets; s++) {
      this.f.push(
        cfg.components.map(
          (at) => new Float32Array(buffer, at + s * cfg.setBytes, cfg.paddedCells),
        ),
      );
    }
    this.incident = new Float64Array(buffer, INCIDENT_BYTE_OFFSET, 8);
    [this.lo, this.hi] = cfg.slabs[thread];
    this.first = thread === 0;
    this.last = thread === cfg.slabs.length - 1;
    this.tfsfStride = cfg.tfsf ? cfg.n[(cfg.tfsf.axis + 2) % 3] + 2 : 0;
  }

  /** The sweep: every plane of the slab, E of the first plane deferred to `finish`. */
  sweep(): void {
    const { n, boundaries } = this.cfg;
    const nx = n[0];
    for (let i = this.lo; i < this.hi; i++) {
      for (let s = 0; s < this.cfg.sets; s++) this.kernel.h(i, s);
      this.tfsf(i, true);
      this.ghostsH(i);
      if (boundaries[0] === "pmc") {
        // The slab split keeps planes n−1 and n in one thread, so this mirror cannot race the
        // ghost fill of plane n.
        if (i === 0) for (const c of [4, 5]) this.copyPlaneX(c, 0, -1, Math.PI);
        if (i === nx - 1) for (const c of [4, 5]) this.copyPlaneX(c, nx - 1, nx, Math.PI);
      }
      if (i > this.lo) this.finishE(i);
    }
    if (this.last && boundaries[0] === "periodic") {
      // Hy, Hz ghosts at −1 are read only by E(0), which thread 0 updates after the barrier.
      const t = -this.cfg.blochPhase[0];
      for (const c of [4, 5]) this.copyPlaneX(c, nx - 1, -1, t);
    }
  }

  /** After the mid barrier: E of the first plane, and the x ghosts that depend on it. */
  finish(): void {
    if (this.hi > this.lo) this.finishE(this.lo);
    if (this.cfg.boundaries[0] !== "periodic") return;
    const nx = this.cfg.n[0];
    const t = this.cfg.blochPhase[0];
    if (this.first) {
      this.copyPlaneX(3, 0, nx, t);
      this.copyPlaneX(1, 0, nx, t);
      this.copyPlaneX(2, 0, nx, t);
    }
    if (this.last) this.copyPlaneX(0, nx - 1, -1, -t);
  }

  /** Σ ε|E|² + η0²|H|² over this thread's padded planes (thread 0 adds plane −1). */
  energy(): number {
    let sum = 0;
    const from = this.first ? -1 : this.lo;
    for (let s = 0; s < this.cfg.sets; s++) {
      for (let i = from; i < this.hi; i++) sum += this.kernel.energy(i, s);
    }
    return sum;
  }

  private finishE(i: number): void {
    for (let s = 0; s < this.cfg.sets; s++) this.kernel.e(i, s);
    this.tfsf(i, false);
    this.ghostsE(i);
  }

  /** Ghosts of x-plane i along y and z after its H update (boundaries.ts, fillGhostsH). */
  private ghostsH(i: number): void {
    const { n, boundaries, blochPhase } = this.cfg;
    for (let a = 1; a < 3; a++) {
      const b = boundaries[a];
      if (b === "periodic") {
        const t = blochPhase[a];
        for (let c = 0; c < 3; c++) {
          if (c === a) this.copyInPlane(i, a, 3 + c, 0, n[a], t);
          else this.copyInPlane(i, a, 3 + c, n[a] - 1, -1, -t);
        }
      } else if (b === "pmc") {
        for (let c = 0; c < 3; c++) {
          if (c === a) continue;
          this.copyInPlane(i, a, 3 + c, 0, -1, Math.PI);
          this.copyInPlane(i, a, 3 + c, n[a] - 1, n[a], Math.PI);
        }
      }
    }
  }

  /** Ghosts of x-plane i along y and z after its E update (boundaries.ts, fillGhostsE). */
  private ghostsE(i: number): void {
    const { n, boundaries, blochPhase } = this.cfg;
    for (let a = 1; a < 3; a++) {
      if (boundaries[a] !== "periodic") continue;
      const t = blochPhase[a];
      for (let c = 0; c < 3; c++) {
        if (c === a) this.copyInPlane(i, a, c, n[a] - 1, -1, -t);
        else this.copyInPlane(i, a, c, 0, n[a], t);
      }
    }
  }

  /**
   * Within x-plane i, dst ← src·e^{iθ} along axis a (1 or 2), over indices 0…n of the other
   * in-plane axis, like boundaries.ts's copyPlane restricted to one x-plane.
   */
  private copyInPlane(
    i: number,
    a: number,
    comp: number,
    src: number,
    dst: number,
    theta: number,
  ): void {
    const [sx, sy] = this.cfg.strides;
    const n = this.cfg.n;
    const base = (i + 1) * sx;
    const re = this.f[0][comp];
    const im = this.f.length > 1 ? this.f[1][comp] : null;
    const cos = Math.cos(theta);
    const sin = Math.sin(theta);
    if (a === 1) {
      // Rows j = src → j = dst, k = 0…nz: contiguous.
      const from = base + (src + 1) * sy + 1;
      const to = base + (dst + 1) * sy + 1;
      const len = n[2] + 1;
      if (im === null) {
        if (cos >= 0) re.copyWithin(to, from, from + len);
        else for (let k = 0; k < len; k++) re[to + k] = -re[from + k];
        return;
      }
      for (let k = 0; k < len; k++) {
        const xr = re[from + k];
        const xi = im[from + k];
        re[to + k] = xr * cos - xi * sin;
        im[to + k] = xr * sin + xi * cos;
      }
      return;
    }
    // Columns k = src → k = dst for j = 0…ny.
    const sign = cos >= 0 ? 1 : -1;
    for (let j = 0; j <= n[1]; j++) {
      const row = base + (j + 1) * sy;
      const from = row + src + 1;
      const to = row + dst + 1;
      if (im === null) {
        re[to] = sign * re[from];
      } else {
        const xr = re[from];
        const xi = im[from];
        re[to] = xr * cos - xi * sin;
        im[to] = xr * sin + xi * cos;
      }
    }
  }

  /**
   * Whole padded x-plane dst ← src·e^{iθ}. Copying the ghosts along y and z with it gives the
   * same values the reference gets by copying indices 0…n first and filling those ghosts of
   * the destination afterwards, since the source plane's ghosts are already final.
   */
  private copyPlaneX(comp: number, src: number, dst: number, theta: number): void {
    const sx = this.cfg.strides[0];
    const from = (src + 1) * sx;
    const to = (dst + 1) * sx;
    const re = this.f[0][comp];
    const im = this.f.length > 1 ? this.f[1][comp] : null;
    const cos = Math.cos(theta);
    const sin = Math.sin(theta);
    if (im === null) {
      if (cos >= 0) re.copyWithin(to, from, from + sx);
      else for (let p = 0; p < sx; p++) re[to + p] = -re[from + p];
      return;
    }
    for (let p = 0; p < sx; p++) {
      const xr = re[from + p];
      const xi = im[from + p];
      re[to + p] = xr * cos - xi * sin;
      im[to + p] = xr * sin + xi * cos;
    }
  }

  /**
   * The TFSF terms that fall on x-plane i (source.ts's applyPlane, one x-plane at a time):
   * F += w·inc with w = coef·(cb)·e^{i k_t·r}, complex for Bloch runs.
   */
  private tfsf(i: number, isH: boolean): void {
    const cfg = this.cfg.tfsf;
    if (!cfg) return;
    const { lo, hi } = this.cfg;
    const [sx, sy] = this.cfg.strides;
    const a = cfg.axis;
    const nv = this.tfsfStride;
    const terms = isH ? cfg.h : cfg.e;
    for (let t = 0; t < terms.length; t++) {
      const term = terms[t];
      const comp = term.comp;
      const incRe = this.incident[2 * term.slot];
      const incIm = this.incident[2 * term.slot + 1];
      const re = this.f[0][comp];
      const im = this.f.length > 1 ? this.f[1][comp] : null;
      const wRe = term.wRe;
      const wIm = term.wIm;
      // Cells of this x-plane on the term's plane: a run of `count` cells, field index
      // p0 + n·dp, weight index w0 + n·dw.
      let p0: number;
      let dp: number;
      let w0: number;
      let dw: number;
      let from: number;
      let to: number;
      if (a === 0) {
        // u = y, v = z: the whole plane, row by row.
        if (i !== term.plane) continue;
        const k0 = lo[comp * 3 + 2];
        const k1 = hi[comp * 3 + 2];
        for (let j = lo[comp * 3 + 1]; j <= hi[comp * 3 + 1]; j++) {
          addTerm(
            re,
            im,
            (i + 1) * sx + (j + 1) * sy + 1 + k0,
            1,
            wRe,
            wIm,
            (j + 1) * nv + k0 + 1,
            1,
            k1 - k0 + 1,
            incRe,
            incIm,
          );
        }
        continue;
      }
      if (i < lo[comp * 3] || i > hi[comp * 3]) continue;
      if (a === 1) {
        // u = z, v = x: the row j = plane, k along it.
        from = lo[comp * 3 + 2];
        to = hi[comp * 3 + 2];
        p0 = (i + 1) * sx + (term.plane + 1) * sy + 1 + from;
        dp = 1;
        w0 = (from + 1) * nv + i + 1;
        dw = nv;
      } else {
        // u = x, v = y: the column k = plane, j along it.
        from = lo[comp * 3 + 1];
        to = hi[comp * 3 + 1];
        p0 = (i + 1) * sx + (from + 1) * sy + term.plane + 1;
        dp = sy;
        w0 = (i + 1) * nv + from + 1;
        dw = 1;
      }
      addTerm(re, im, p0, dp, wRe, wIm, w0, dw, to - from + 1, incRe, incIm);
    }
  }
}

/** F[p0 + n·dp] += w[w0 + n·dw]·inc for n < count (complex when `im` is given). */
function addTerm(
  re: Float32Array,
  im: Float32Array | null,
  p0: number,
  dp: number,
  wRe: Float64Array,
  wIm: Float64Array,
  w0: number,
  dw: number,
  count: number,
  incRe: number,
  incIm: number,
): void {
  let p = p0;
  let w = w0;
  if (im === null) {
    for (let n = 0; n < count; n++, p += dp, w += dw) re[p] += wRe[w] * incRe;
    return;
  }
  for (let n = 0; n < count; n++, p += dp, w += dw) {
    re[p] += wRe[w] * incRe - wIm[w] * incIm;
    im[p] += wIm[w] * incRe + wRe[w] * incIm;
  }
}
