/**
 * The total-field/scattered-field correction (Taflove & Hagness §5.9) as data, and the one
 * routine that applies it. The plane-wave source (source.ts) describes the corrections of a
 * run once, as terms F += w·inc on a plane normal to the propagation axis, with the weight
 * w = coef·(cb)·e^{i k_t·r} precomputed per cell and the incident value read from the
 * auxiliary line at every step. Every backend applies the same terms: the reference stepper
 * over all x-planes after a half step, the WebAssembly sweep one x-plane at a time as it goes
 * (fast/sweep.ts); a GPU backend uploads the weights once and the incident values per step.
 *
 * At the TFSF plane s (node index along the propagation axis a, sign sg of the direction,
 * u = a+1, v = a+2 mod 3, h the grid step, ch = dt/μ0):
 *   H_u[hIdx] −= sg·ch/h·Einc_v(s),   H_v[hIdx] += sg·ch/h·Einc_u(s),
 *   E_u[s]    += sg·cb/h·Hinc_v(hIdx), E_v[s]    −= sg·cb/h·Hinc_u(hIdx),
 * with hIdx = s − 1 for sg > 0 and s for sg < 0 (the H plane on the scattered-field side).
 */

/** Incident values per time step: 4 complex samples (re, im). */
export const INCIDENT_VALUES_PER_STEP = 8;

/**
 * A TFSF correction of one component on one plane normal to the propagation axis:
 * F += w·inc per cell of the plane, w = coef·(cb)·e^{i k_t·r} precomputed per cell.
 */
export interface TfsfTerm {
  comp: number;
  /** Index of the plane along the propagation axis. */
  plane: number;
  /**
   * Slot of the incident value: re, im at 2·slot, 2·slot+1, plus INCIDENT_VALUES_PER_STEP
   * per step of a block (0–1: E at the plane for H terms, 2–3: H for E terms).
   */
  slot: number;
  /** Re and Im of w per transverse cell (u, v), indexed (iu+1)·(nv+2) + (iv+1). */
  wRe: Float64Array;
  wIm: Float64Array;
}

/** The TFSF corrections of a run (structured-clonable, so kernel threads get a copy). */
export interface TfsfConfig {
  /** Propagation axis a: the terms' planes are normal to it. */
  axis: number;
  h: TfsfTerm[];
  e: TfsfTerm[];
}

/** What the applier needs to know of the padded layout (grid.ts YeeLayout, or a clone). */
export interface TfsfLayout {
  n: readonly number[];
  strides: readonly number[];
  /** Inclusive update range per component and axis: lo[comp·3 + axis]. */
  lo: ArrayLike<number>;
  hi: ArrayLike<number>;
}

/**
 * Applies a run's TFSF terms to field arrays, one x-plane at a time.
 * `sets[s][comp]` are the padded float32 arrays of field set s (two for Bloch runs).
 */
export class TfsfPlanes {
  /** Row length of the weight patterns: n_v + 2 along the second transverse axis. */
  private readonly nv: number;

  constructor(
    private readonly cfg: TfsfConfig,
    private readonly sets: readonly (readonly Float32Array[])[],
    private readonly layout: TfsfLayout,
  ) {
    this.nv = layout.n[(cfg.axis + 2) % 3] + 2;
  }

  /**
   * Adds every H (`isH`) or E term over the whole grid (after a half step): the cells `apply`
   * visits plane by plane, here in runs along the longer of the plane's axes, so that a grid
   * whose x-planes hold one cell of the term each (one cell thick along y, with the TFSF plane
   * normal to z) costs one call, not one per plane.
   */
  applyAll(isH: boolean, incident: Float64Array, slotBase: number): void {
    const { lo, hi, strides } = this.layout;
    const a = this.cfg.axis;
    if (a === 0) {
      for (const term of isH ? this.cfg.h : this.cfg.e) {
        this.applyTerm(term, term.plane, incident, slotBase);
      }
      return;
    }
    const [sx, sy] = strides;
    const nv = this.nv;
    for (const term of isH ? this.cfg.h : this.cfg.e) {
      const comp = term.comp;
      const incRe = incident[slotBase + 2 * term.slot];
      const incIm = incident[slotBase + 2 * term.slot + 1];
      const re = this.sets[0][comp];
      const im = this.sets.length > 1 ? this.sets[1][comp] : null;
      const { wRe, wIm } = term;
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
      if (m1 - m0 >= i1 - i0) {
        for (let i = i0; i <= i1; i++) {
          const p0 = atX(i) + m0 * fieldStep;
          const w0 = weightAtX(i) + weightAtM(m0);
          addTerm(re, im, p0, fieldStep, wRe, wIm, w0, weightStep, m1 - m0 + 1, incRe, incIm);
        }
      } else {
        const dw = a === 1 ? 1 : nv;
        for (let m = m0; m <= m1; m++) {
          const p0 = atX(i0) + m * fieldStep;
          const w0 = weightAtX(i0) + weightAtM(m);
          addTerm(re, im, p0, sx, wRe, wIm, w0, dw, i1 - i0 + 1, incRe, incIm);
        }
      }
    }
  }

  /** The terms' cells on x-plane i for a = 0 (the TFSF plane is that x-plane). */
  private applyTerm(term: TfsfTerm, i: number, incident: Float64Array, slotBase: number): void {
    const { lo, hi, strides } = this.layout;
    const [sx, sy] = strides;
    const nv = this.nv;
    const comp = term.comp;
    const incRe = incident[slotBase + 2 * term.slot];
    const incIm = incident[slotBase + 2 * term.slot + 1];
    const re = this.sets[0][comp];
    const im = this.sets.length > 1 ? this.sets[1][comp] : null;
    const k0 = lo[comp * 3 + 2];
    const k1 = hi[comp * 3 + 2];
    for (let j = lo[comp * 3 + 1]; j <= hi[comp * 3 + 1]; j++) {
      const p0 = (i + 1) * sx + (j + 1) * sy + 1 + k0;
      const w0 = (j + 1) * nv + k0 + 1;
      addTerm(re, im, p0, 1, term.wRe, term.wIm, w0, 1, k1 - k0 + 1, incRe, incIm);
    }
  }

  /**
   * Adds the H (`isH`) or E terms that fall on x-plane i, with the incident values at
   * `incident[slotBase + 2·slot]` (re) and the next entry (im).
   */
  apply(i: number, isH: boolean, incident: Float64Array, slotBase: number): void {
    const { lo, hi, strides } = this.layout;
    const [sx, sy] = strides;
    const a = this.cfg.axis;
    const nv = this.nv;
    const terms = isH ? this.cfg.h : this.cfg.e;
    for (let t = 0; t < terms.length; t++) {
      const term = terms[t];
      const comp = term.comp;
      const incRe = incident[slotBase + 2 * term.slot];
      const incIm = incident[slotBase + 2 * term.slot + 1];
      const re = this.sets[0][comp];
      const im = this.sets.length > 1 ? this.sets[1][comp] : null;
      const { wRe, wIm } = term;
      if (a === 0) {
        // u = y, v = z: the whole plane, row by row.
        if (i === term.plane) this.applyTerm(term, i, incident, slotBase);
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
        addTerm(re, im, p0, 1, wRe, wIm, (from + 1) * nv + i + 1, nv, to - from + 1, incRe, incIm);
      } else {
        // u = x, v = y: the column k = plane, j along it.
        const from = lo[comp * 3 + 1];
        const to = hi[comp * 3 + 1];
        const p0 = (i + 1) * sx + (from + 1) * sy + term.plane + 1;
        addTerm(re, im, p0, sy, wRe, wIm, (i + 1) * nv + from + 1, 1, to - from + 1, incRe, incIm);
      }
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
