/**
 * Field monitors: a running DFT (Taflove & Hagness §5.6) of the requested components at the
 * cell centres inside the monitor box, updated every step over the monitor's cells only.
 *
 * Staggering: every component is interpolated to the cell centre (i+½, j+½, k+½) by averaging
 * the Yee samples around it: E_c over the 4 neighbours across the two axes where it sits on
 * nodes, H_c over the 2 neighbours along its own axis. E is sampled at t = (n+1)·dt and H at
 * (n+½)·dt after step n, each with its own time stamp, so E and H phasors are consistent.
 * Phasor convention e^{−iωt}: X(ω) = Σ F(t_n)·e^{iωt_n}.
 */
import type { FieldSet } from "./fields.js";
import { centreIndexAt, centreM, type GridPlan, type YeeLayout } from "./grid.js";
import type { WavelengthRange } from "./types.js";

export interface SampleBox {
  /** Inclusive cell index ranges along x, y, z. */
  lo: [number, number, number];
  hi: [number, number, number];
}

/**
 * Cells whose centres lie in [center − size/2, center + size/2] along each axis, within the
 * region of interest; along an axis with zero extent (or an extent holding no centre), the
 * single cell whose centre is nearest to `center`.
 */
export function sampleBox(
  plan: GridPlan,
  center: readonly number[],
  size: readonly number[],
): SampleBox {
  const lo: [number, number, number] = [0, 0, 0];
  const hi: [number, number, number] = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const ax = plan.axes[a];
    const first = ax.pmlLo;
    const last = ax.cells - ax.pmlHi - 1;
    const clamp = (i: number) => Math.min(last, Math.max(first, i));
    let [i0, i1] = centresWithin(plan, a, center, size);
    if (size[a] <= 0 || i1 < i0) {
      i0 = i1 = Math.round(centreIndexAt(ax, center[a]));
    }
    lo[a] = clamp(i0);
    hi[a] = clamp(i1);
  }
  return { lo, hi };
}

/** The first and last cells along axis a whose centres lie within the extent (i1 < i0: none). */
function centresWithin(
  plan: GridPlan,
  a: number,
  center: readonly number[],
  size: readonly number[],
): [number, number] {
  const pos = (x: number) => centreIndexAt(plan.axes[a], x);
  const eps = 1e-9;
  return [
    Math.ceil(pos(center[a] - size[a] / 2) - eps),
    Math.floor(pos(center[a] + size[a] / 2) + eps),
  ];
}

/** How many cells along axis a have their centres within the extent. */
export function cellCentresWithin(
  plan: GridPlan,
  a: number,
  center: readonly number[],
  size: readonly number[],
): number {
  const [i0, i1] = centresWithin(plan, a, center, size);
  return Math.max(0, i1 - i0 + 1);
}

/**
 * The axes along which an extent of non-zero size holds no cell centre: a sample box there
 * falls back to the one cell nearest its centre, which a closed surface (a flux or far-field
 * box) cannot stand for.
 */
export function axesWithoutCells(
  plan: GridPlan,
  center: readonly number[],
  size: readonly number[],
): number[] {
  return [0, 1, 2].filter((a) => size[a]! > 0 && cellCentresWithin(plan, a, center, size) === 0);
}

/** Cell-centre coordinates (metres) of a sample box along one axis. */
export function sampleCoordinates(plan: GridPlan, box: SampleBox, axis: number): Float64Array {
  const ax = plan.axes[axis];
  const out = new Float64Array(box.hi[axis] - box.lo[axis] + 1);
  for (let i = 0; i < out.length; i++) out[i] = centreM(ax, box.lo[axis] + i);
  return out;
}

/**
 * One recorded stream: component `comp` at a set of points, each the mean of the stored
 * values at `base[q] + offsets[o]` (padded flat indices), e.g. the 4 (E) or 2 (H) Yee samples
 * around a cell centre, or the two H samples either side of a flux plane.
 */
export interface SampledComponent {
  comp: number;
  base: Int32Array;
  offsets: Int32Array;
}

/** Flat padded indices of the cells of a box, x outermost and z innermost (C order). */
export function boxIndices(layout: YeeLayout, box: SampleBox): Int32Array {
  const n = [0, 1, 2].map((a) => box.hi[a] - box.lo[a] + 1);
  const out = new Int32Array(n[0] * n[1] * n[2]);
  let q = 0;
  for (let i = box.lo[0]; i <= box.hi[0]; i++) {
    for (let j = box.lo[1]; j <= box.hi[1]; j++) {
      for (let k = box.lo[2]; k <= box.hi[2]; k++) out[q++] = layout.index(i, j, k);
    }
  }
  return out;
}

/**
 * A field monitor's streams: each component interpolated to the cell centres of the box, E_c
 * over its 4 neighbours across the two axes where it sits on nodes, H_c over its 2
 * neighbours along its own axis.
 */
export function cellCentreStreams(
  layout: YeeLayout,
  box: SampleBox,
  components: readonly number[],
): SampledComponent[] {
  const base = boxIndices(layout, box);
  const s = layout.strides;
  return components.map((comp) => {
    if (comp >= 3) return { comp, base, offsets: new Int32Array([0, s[comp - 3]]) };
    const [b, c] = [(comp + 1) % 3, (comp + 2) % 3];
    return { comp, base, offsets: new Int32Array([0, s[b], s[c], s[b] + s[c]]) };
  });
}

export class DftRecorder {
  readonly streams: readonly SampledComponent[];
  readonly omegas: Float64Array;
  /** Per stream: [wavelength][point] interleaved (re, im), float64. */
  readonly sums: Float64Array[];
  /** Scratch for one part of a stream's gathered values, sized on first use. */
  private gatherRe = new Float64Array(0);
  private gatherIm = new Float64Array(0);
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  /** Per component (Ex … Hz), false where it is known to stay zero (its sums stay zero). */
  private readonly nonzero: readonly boolean[];

  /**
   * @param sums the running sums to add to, one array per stream (e.g. shared between the
   *   threads that each record a part of the points); zeroed arrays of their own when absent
   */
  constructor(
    streams: readonly SampledComponent[],
    omegas: Float64Array,
    nonzero: readonly boolean[] = [true, true, true, true, true, true],
    sums?: Float64Array[],
  ) {
    this.streams = streams;
    this.nonzero = nonzero;
    this.omegas = omegas;
    this.sums = sums ?? streams.map((st) => new Float64Array(2 * omegas.length * st.base.length));
    this.cos = new Float64Array(omegas.length);
    this.sin = new Float64Array(omegas.length);
  }

  /**
   * Adds the current fields: E stamped at `tE`, H at `tH` seconds, weighted by `sampleWeight`
   * (k when only every k-th step is recorded, see dft-cadence.ts). With `parts` > 1, only
   * part `part` of each stream's points (the parts are disjoint, so threads sharing the sums
   * may each add theirs at once, and every sum gets the same additions as with one part).
   */
  record(
    re: FieldSet,
    im: FieldSet | null,
    tE: number,
    tH: number,
    sampleWeight = 1,
    part = 0,
    parts = 1,
  ): void {
    const W = this.omegas.length;
    for (let si = 0; si < this.streams.length; si++) {
      const { comp, base, offsets } = this.streams[si];
      if (!this.nonzero[comp]) continue;
      const P = base.length;
      const q0 = Math.floor((P * part) / parts);
      const q1 = Math.floor((P * (part + 1)) / parts);
      if (q1 <= q0) continue;
      const t = comp < 3 ? tE : tH;
      for (let w = 0; w < W; w++) {
        this.cos[w] = sampleWeight * Math.cos(this.omegas[w] * t);
        this.sin[w] = sampleWeight * Math.sin(this.omegas[w] * t);
      }
      const weight = 1 / offsets.length;
      if (W === 1 && !im) {
        // One wavelength of a real run: gather and sum in one pass (the same arithmetic
        // without the intermediate array; most runs, and a tenth of a thin grid's stepping).
        const c0 = this.cos[0];
        const s0 = this.sin[0];
        accumulateReal(re.c[comp], base, offsets, weight, c0, s0, this.sums[si], q0, q1);
        continue;
      }
      // The part's values at fr[0 … q1 − q0): scratch the size of a part, not of a stream.
      const n = q1 - q0;
      if (this.gatherRe.length < n) this.gatherRe = new Float64Array(n);
      if (im && this.gatherIm.length < n) this.gatherIm = new Float64Array(n);
      gather(re.c[comp], base, offsets, weight, this.gatherRe, q0, q1);
      if (im) gather(im.c[comp], base, offsets, weight, this.gatherIm, q0, q1);
      const sums = this.sums[si];
      const fr = this.gatherRe;
      const fi = this.gatherIm;
      for (let w = 0; w < W; w++) {
        const cw = this.cos[w];
        const sw = this.sin[w];
        let o = 2 * (w * P + q0);
        if (im) {
          for (let i = 0; i < n; i++, o += 2) {
            sums[o] += fr[i] * cw - fi[i] * sw;
            sums[o + 1] += fr[i] * sw + fi[i] * cw;
          }
        } else {
          for (let i = 0; i < n; i++, o += 2) {
            sums[o] += fr[i] * cw;
            sums[o + 1] += fr[i] * sw;
          }
        }
      }
    }
  }
}

/**
 * sums[2q] += F(q)·cw, sums[2q+1] += F(q)·sw for q in [q0, q1), with F(q) as `gather`
 * computes it.
 */
function accumulateReal(
  field: Float32Array,
  base: Int32Array,
  off: Int32Array,
  weight: number,
  cw: number,
  sw: number,
  sums: Float64Array,
  q0: number,
  q1: number,
): void {
  if (off.length === 4) {
    const [o0, o1, o2, o3] = [off[0], off[1], off[2], off[3]];
    for (let q = q0, o = 2 * q0; q < q1; q++, o += 2) {
      const p = base[q];
      const f = (field[p + o0] + field[p + o1] + field[p + o2] + field[p + o3]) * weight;
      sums[o] += f * cw;
      sums[o + 1] += f * sw;
    }
  } else if (off.length === 2) {
    const [o0, o1] = [off[0], off[1]];
    for (let q = q0, o = 2 * q0; q < q1; q++, o += 2) {
      const p = base[q];
      const f = (field[p + o0] + field[p + o1]) * weight;
      sums[o] += f * cw;
      sums[o + 1] += f * sw;
    }
  } else {
    const o0 = off[0];
    for (let q = q0, o = 2 * q0; q < q1; q++, o += 2) {
      const f = field[base[q] + o0];
      sums[o] += f * cw;
      sums[o + 1] += f * sw;
    }
  }
}

/** out[q − q0] for q in [q0, q1): the mean of the stored values at base[q] + off[o]. */
function gather(
  field: Float32Array,
  base: Int32Array,
  off: Int32Array,
  weight: number,
  out: Float64Array,
  q0: number,
  q1: number,
): void {
  if (off.length === 1) {
    const o0 = off[0];
    for (let q = q0; q < q1; q++) out[q - q0] = field[base[q] + o0];
  } else if (off.length === 2) {
    const [o0, o1] = [off[0], off[1]];
    for (let q = q0; q < q1; q++) {
      const p = base[q];
      out[q - q0] = (field[p + o0] + field[p + o1]) * weight;
    }
  } else {
    const [o0, o1, o2, o3] = [off[0], off[1], off[2], off[3]];
    for (let q = q0; q < q1; q++) {
      const p = base[q];
      out[q - q0] = (field[p + o0] + field[p + o1] + field[p + o2] + field[p + o3]) * weight;
    }
  }
}

/** What a backend records for one monitor: its streams and angular frequencies (rad/s). */
export interface MonitorSampling {
  streams: readonly SampledComponent[];
  omegas: Float64Array;
}

/**
 * The running DFTs of a run's monitors over fields a CPU backend keeps in JS-visible memory
 * (its own arrays or views of a WebAssembly memory).
 */
export class MonitorRecorders {
  readonly recorders: DftRecorder[];

  /**
   * @param nonzero per component, false where a backend knows it stays exactly zero (a
   *   polarisation the source does not drive on a grid one cell thick): not sampled.
   */
  constructor(
    monitors: readonly MonitorSampling[],
    nonzero?: readonly boolean[],
    sums?: readonly Float64Array[][],
  ) {
    this.recorders = monitors.map(
      (m, i) => new DftRecorder(m.streams, m.omegas, nonzero, sums?.[i]),
    );
  }

  /** Adds one sample of every monitor, or part `part` of `parts` (see DftRecorder.record). */
  record(
    re: FieldSet,
    im: FieldSet | null,
    tE: number,
    tH: number,
    sampleWeight: number,
    part = 0,
    parts = 1,
  ): void {
    for (const r of this.recorders) r.record(re, im, tE, tH, sampleWeight, part, parts);
  }

  /** Per monitor, per stream, the raw sums (live arrays, not copies). */
  sums(): Float64Array[][] {
    return this.recorders.map((r) => r.sums);
  }
}

/**
 * A monitor's wavelengths in metres: the list as given, a range's `points` wavelengths
 * equally spaced from `start` to `stop` (both included), or the source's when absent.
 */
export function wavelengthList(
  wavelengths: number[] | WavelengthRange | undefined,
  sourceWavelengthM: number,
): number[] {
  if (wavelengths === undefined) return [sourceWavelengthM];
  return listOf(wavelengths);
}

/** The values of a list, or of a range {start, stop, points} (equally spaced, both ends). */
export function listOf(values: number[] | WavelengthRange): number[] {
  if (Array.isArray(values)) return [...values];
  const { start, stop, points } = values;
  if (points <= 1) return [start];
  // Interpolated from both ends, so the ends and the points between are as exact as can be.
  return Array.from(
    { length: points },
    (_, i) => (start * (points - 1 - i) + stop * i) / (points - 1),
  );
}

/**
 * `monitors` with their streams' point indices in shared memory (an array used by several
 * streams copied once), for recorders in several threads: passed to a worker, a shared array is
 * not copied (a field monitor over a large box has millions of points).
 */
export function sharedSamplings(monitors: readonly MonitorSampling[]): MonitorSampling[] {
  const copies = new Map<Int32Array, Int32Array>();
  const shared = (a: Int32Array): Int32Array => {
    let c = copies.get(a);
    if (!c) {
      c = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, a.length)), 0, a.length);
      c.set(a);
      copies.set(a, c);
    }
    return c;
  };
  return monitors.map((m) => ({
    omegas: m.omegas,
    streams: m.streams.map((st) => ({ comp: st.comp, base: shared(st.base), offsets: st.offsets })),
  }));
}

/**
 * Zeroed running sums for `monitors`, per monitor and stream, in one SharedArrayBuffer: for
 * recorders in several threads that each add part of the points (wasm/engine.ts).
 */
export function sharedMonitorSums(monitors: readonly MonitorSampling[]): Float64Array[][] {
  const lengths = monitors.map((m) => m.streams.map((st) => 2 * m.omegas.length * st.base.length));
  const total = lengths.flat().reduce((a, b) => a + b, 0);
  const buffer = new SharedArrayBuffer(8 * Math.max(1, total));
  let at = 0;
  return lengths.map((perStream) =>
    perStream.map((n) => {
      const sums = new Float64Array(buffer, 8 * at, n);
      at += n;
      return sums;
    }),
  );
}
