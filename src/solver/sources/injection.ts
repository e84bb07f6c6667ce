/**
 * The source seam: how every source reaches the main grid, as data, and the one routine that
 * applies it on the CPU. A source (sources/*.ts) is the shared time profile (pulse.ts) times
 * injection terms, F += w·drive, each on a plane of cells normal to one axis a, with a weight
 * w per cell precomputed once and a drive value per time step that the source computes on
 * the CPU (`Source.advance`). Every backend applies the same terms after its half steps: the
 * reference stepper over the whole grid (`applyAll`), the WebAssembly sweep one x-plane at a
 * time as it goes (wasm/sweep.ts, `apply`); the GPU backend uploads the weights once and the
 * drive values per step (webgpu/engine.ts). So a new source is a new file here, and no backend
 * changes.
 *
 * What the terms stand for:
 * - A total-field/scattered-field plane (Taflove & Hagness §5.9; the plane wave, plane-wave.ts):
 *   at the plane s (node index along a, sign sg of the direction, u = a+1, v = a+2 mod 3, h the
 *   grid step, ch = dt/μ0)
 *     H_u[hIdx] −= sg·ch/h·Einc_v(s),   H_v[hIdx] += sg·ch/h·Einc_u(s),
 *     E_u[s]    += sg·cb/h·Hinc_v(hIdx), E_v[s]    −= sg·cb/h·Hinc_u(hIdx),
 *   with hIdx = s − 1 for sg > 0 and s for sg < 0 (the H plane on the scattered-field side),
 *   w = coef·(cb)·e^{i k_t·r} and the drive the incident field of the auxiliary line.
 * - A current J (or a magnetic current M) on cells (point-dipole.ts): E −= cb·J, H −= (dt/μ0)·M
 *   after the update, i.e. w = −cb·(moment/volume) on the cells it is spread over, and the drive
 *   the current's time sample.
 * A real grid adds w_re·drive_re only; a complex (Bloch) grid the complex product.
 */

/** Drive values per time step: 4 complex samples (re, im), whatever the source. */
export const DRIVE_VALUES_PER_STEP = 8;
/** Most time steps one block of drive values covers (a backend's sweep advances at most this many). */
export const MAX_BLOCK_STEPS = 4;

/**
 * An injection term of one component on one plane normal to the config's axis: F += w·drive
 * per cell of the plane, w precomputed per cell (zero where the term does not reach).
 */
export interface InjectionTerm {
  comp: number;
  /** Index of the plane along the config's axis. */
  plane: number;
  /**
   * Slot of the drive value: re, im at 2·slot, 2·slot+1, plus DRIVE_VALUES_PER_STEP per step
   * of a block (which slot means what is the source's business).
   */
  slot: number;
  /** Re and Im of w per transverse cell (u, v), indexed (iu+1)·(nv+2) + (iv+1). */
  wRe: Float64Array;
  wIm: Float64Array;
}

/** The injection terms of a run (structured-clonable, so kernel threads get a copy). */
export interface InjectionConfig {
  /** The axis a the terms' planes are normal to (a plane wave's propagation axis). */
  axis: number;
  h: InjectionTerm[];
  e: InjectionTerm[];
}

/** A config's terms in one list: the h terms, then the e terms. */
export function injectionTerms(cfg: InjectionConfig | null): InjectionTerm[] {
  return cfg ? [...cfg.h, ...cfg.e] : [];
}

/**
 * Where a term's cells lie in a block: `rows` runs of `count` cells, cell n of row r at field
 * index p0 + r·pRow + n·dp and weight index w0 + r·wRow + n·dw.
 */
export interface TermBlock {
  p0: number;
  dp: number;
  pRow: number;
  w0: number;
  dw: number;
  wRow: number;
  count: number;
  rows: number;
}

/**
 * Adds F += w·drive over a block of a term's cells to a real field set: the wasm kernel's
 * `addTerm` on its own memory, where the weights live too. The same operations as `addTerm`
 * (the product and the sum in float64, rounded once to float32), so the same fields.
 */
export type TermAdder = (term: InjectionTerm, block: TermBlock, drive: number) => void;

/** What the applier needs to know of the padded layout (grid.ts YeeLayout, or a clone). */
export interface InjectionLayout {
  n: readonly number[];
  strides: readonly number[];
  /** Inclusive update range per component and axis: lo[comp·3 + axis]. */
  lo: ArrayLike<number>;
  hi: ArrayLike<number>;
}

/**
 * Applies a run's injection terms to field arrays, over the grid or one x-plane at a time.
 * `sets[s][comp]` are the padded float32 arrays of field set s (two for Bloch runs).
 */
export class InjectionPlanes {
  /** Row length of the weight patterns: n_v + 2 along the second transverse axis. */
  private readonly nv: number;

  constructor(
    private readonly cfg: InjectionConfig,
    private readonly sets: readonly (readonly Float32Array[])[],
    private readonly layout: InjectionLayout,
    /** Where the terms are added on one real set instead of by `addTerm` (wasm sweep.ts). */
    private readonly adder: TermAdder | null = null,
  ) {
    this.nv = layout.n[(cfg.axis + 2) % 3] + 2;
  }

  /**
   * Adds every H (`isH`) or E term over the whole grid (after a half step): the cells `apply`
   * visits plane by plane, here in runs along the longer of the plane's axes, so that a grid
   * whose x-planes hold one cell of the term each (one cell thick along y, with the terms' plane
   * normal to z) costs one call, not one per plane.
   */
  applyAll(isH: boolean, drive: Float64Array, slotBase: number): void {
    const { lo, hi, strides } = this.layout;
    const a = this.cfg.axis;
    if (a === 0) {
      for (const term of isH ? this.cfg.h : this.cfg.e) {
        this.applyTerm(term, term.plane, drive, slotBase);
      }
      return;
    }
    const [sx, sy] = strides;
    const nv = this.nv;
    for (const term of isH ? this.cfg.h : this.cfg.e) {
      const comp = term.comp;
      const dRe = drive[slotBase + 2 * term.slot];
      const dIm = drive[slotBase + 2 * term.slot + 1];
      const re = this.sets[0][comp];
      const im = this.sets.length > 1 ? this.sets[1][comp] : null;
      const [i0, i1] = [lo[comp * 3], hi[comp * 3]];
      // a = 1 (u = z, v = x): cells (i, plane, k); a = 2 (u = x, v = y): cells (i, j, plane).
      const second = a === 1 ? 2 : 1;
      const [m0, m1] = [lo[comp * 3 + second], hi[comp * 3 + second]];
      // Field and weight steps along x and along the other axis of the term's plane.
      const atX = (i: number) =>
        a === 1 ? (i + 1) * sx + (term.plane + 1) * sy + 1 : (i + 1) * sx + sy + term.plane + 1;
      const fieldStep = a === 1 ? 1 : sy;
      const weightAtX = (i: number) => (a === 1 ? i + 1 : (i + 1) * nv);
      const weightStep = a === 1 ? nv : 1;
      const weightAtM = (m: number) => (a === 1 ? (m + 1) * nv : m + 1);
      // Runs along the longer of the two axes (the JavaScript fallback's loop per run).
      const block =
        m1 - m0 >= i1 - i0
          ? {
              p0: atX(i0) + m0 * fieldStep,
              dp: fieldStep,
              pRow: sx,
              w0: weightAtX(i0) + weightAtM(m0),
              dw: weightStep,
              wRow: weightAtX(1) - weightAtX(0),
              count: m1 - m0 + 1,
              rows: i1 - i0 + 1,
            }
          : {
              p0: atX(i0) + m0 * fieldStep,
              dp: sx,
              pRow: fieldStep,
              w0: weightAtX(i0) + weightAtM(m0),
              dw: weightAtX(1) - weightAtX(0),
              wRow: weightStep,
              count: i1 - i0 + 1,
              rows: m1 - m0 + 1,
            };
      this.add(term, re, im, block, dRe, dIm);
    }
  }

  /** The terms' cells on x-plane i for a = 0 (the terms' plane is that x-plane). */
  private applyTerm(term: InjectionTerm, i: number, drive: Float64Array, slotBase: number): void {
    const { lo, hi, strides } = this.layout;
    const [sx, sy] = strides;
    const nv = this.nv;
    const comp = term.comp;
    const dRe = drive[slotBase + 2 * term.slot];
    const dIm = drive[slotBase + 2 * term.slot + 1];
    const re = this.sets[0][comp];
    const im = this.sets.length > 1 ? this.sets[1][comp] : null;
    const [j0, j1] = [lo[comp * 3 + 1], hi[comp * 3 + 1]];
    const [k0, k1] = [lo[comp * 3 + 2], hi[comp * 3 + 2]];
    const block = {
      p0: (i + 1) * sx + (j0 + 1) * sy + 1 + k0,
      dp: 1,
      pRow: sy,
      w0: (j0 + 1) * nv + k0 + 1,
      dw: 1,
      wRow: nv,
      count: k1 - k0 + 1,
      rows: j1 - j0 + 1,
    };
    this.add(term, re, im, block, dRe, dIm);
  }

  /** A block of a term's cells, by the adder where there is one real set. */
  private add(
    term: InjectionTerm,
    re: Float32Array,
    im: Float32Array | null,
    block: TermBlock,
    dRe: number,
    dIm: number,
  ): void {
    if (block.count <= 0 || block.rows <= 0) return;
    if (im === null && this.adder) {
      this.adder(term, block, dRe);
      return;
    }
    const { p0, dp, pRow, w0, dw, wRow, count, rows } = block;
    for (let r = 0; r < rows; r++) {
      addTerm(re, im, p0 + r * pRow, dp, term.wRe, term.wIm, w0 + r * wRow, dw, count, dRe, dIm);
    }
  }

  /**
   * Adds the H (`isH`) or E terms that fall on x-plane i, with the drive values at
   * `drive[slotBase + 2·slot]` (re) and the next entry (im).
   */
  apply(i: number, isH: boolean, drive: Float64Array, slotBase: number): void {
    const { lo, hi, strides } = this.layout;
    const [sx, sy] = strides;
    const a = this.cfg.axis;
    const nv = this.nv;
    const terms = isH ? this.cfg.h : this.cfg.e;
    for (let t = 0; t < terms.length; t++) {
      const term = terms[t];
      const comp = term.comp;
      const dRe = drive[slotBase + 2 * term.slot];
      const dIm = drive[slotBase + 2 * term.slot + 1];
      const re = this.sets[0][comp];
      const im = this.sets.length > 1 ? this.sets[1][comp] : null;
      if (a === 0) {
        // u = y, v = z: the whole plane, row by row.
        if (i === term.plane) this.applyTerm(term, i, drive, slotBase);
        continue;
      }
      if (i < lo[comp * 3] || i > hi[comp * 3]) continue;
      // The cells of this x-plane on the term's plane: a run of `count` cells, field index
      // p0 + n·dp, weight index w0 + n·dw.
      if (a === 1) {
        // u = z, v = x: the row j = plane, k along it.
        const from = lo[comp * 3 + 2];
        const to = hi[comp * 3 + 2];
        const p0 = (i + 1) * sx + (term.plane + 1) * sy + 1 + from;
        this.add(term, re, im, run(p0, 1, (from + 1) * nv + i + 1, nv, to - from + 1), dRe, dIm);
      } else {
        // u = x, v = y: the column k = plane, j along it.
        const from = lo[comp * 3 + 1];
        const to = hi[comp * 3 + 1];
        const p0 = (i + 1) * sx + (from + 1) * sy + term.plane + 1;
        this.add(term, re, im, run(p0, sy, (i + 1) * nv + from + 1, 1, to - from + 1), dRe, dIm);
      }
    }
  }
}

/** One run of cells as a block of one row. */
function run(p0: number, dp: number, w0: number, dw: number, count: number): TermBlock {
  return { p0, dp, pRow: 0, w0, dw, wRow: 0, count, rows: 1 };
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
  dRe: number,
  dIm: number,
): void {
  let p = p0;
  let w = w0;
  if (im === null) {
    for (let n = 0; n < count; n++, p += dp, w += dw) re[p] += wRe[w] * dRe;
    return;
  }
  for (let n = 0; n < count; n++, p += dp, w += dw) {
    re[p] += wRe[w] * dRe - wIm[w] * dIm;
    im[p] += wIm[w] * dRe + wRe[w] * dIm;
  }
}
