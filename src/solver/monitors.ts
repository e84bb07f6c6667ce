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
import type { GridPlan, YeeLayout } from "./grid.js";

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
    const h = ax.stepM;
    const first = ax.pmlLo;
    const last = ax.cells - ax.pmlHi - 1;
    const clamp = (i: number) => Math.min(last, Math.max(first, i));
    const pos = (x: number) => (x - ax.originM) / h - 0.5;
    const eps = 1e-9;
    let i0 = Math.ceil(pos(center[a] - size[a] / 2) - eps);
    let i1 = Math.floor(pos(center[a] + size[a] / 2) + eps);
    if (size[a] <= 0 || i1 < i0) {
      i0 = i1 = Math.round(pos(center[a]));
    }
    lo[a] = clamp(i0);
    hi[a] = clamp(i1);
  }
  return { lo, hi };
}

/** Cell-centre coordinates (metres) of a sample box along one axis. */
export function sampleCoordinates(plan: GridPlan, box: SampleBox, axis: number): Float64Array {
  const ax = plan.axes[axis];
  const out = new Float64Array(box.hi[axis] - box.lo[axis] + 1);
  for (let i = 0; i < out.length; i++) out[i] = ax.originM + (box.lo[axis] + i + 0.5) * ax.stepM;
  return out;
}

export class DftRecorder {
  readonly points: number;
  readonly components: readonly number[];
  readonly omegas: Float64Array;
  /** Per recorded component: [wavelength][point] interleaved (re, im), float64. */
  readonly sums: Float64Array[];
  private readonly base: Int32Array;
  private readonly offsets: Int32Array[];
  private readonly gatherRe: Float64Array;
  private readonly gatherIm: Float64Array;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;

  constructor(
    layout: YeeLayout,
    box: SampleBox,
    components: readonly number[],
    omegas: Float64Array,
  ) {
    this.components = components;
    this.omegas = omegas;
    const n = [0, 1, 2].map((a) => box.hi[a] - box.lo[a] + 1);
    this.points = n[0] * n[1] * n[2];
    this.base = new Int32Array(this.points);
    let q = 0;
    for (let i = box.lo[0]; i <= box.hi[0]; i++) {
      for (let j = box.lo[1]; j <= box.hi[1]; j++) {
        for (let k = box.lo[2]; k <= box.hi[2]; k++) this.base[q++] = layout.index(i, j, k);
      }
    }
    const s = layout.strides;
    this.offsets = components.map((comp) => {
      if (comp >= 3) return new Int32Array([0, s[comp - 3]]);
      const [b, c] = [(comp + 1) % 3, (comp + 2) % 3];
      return new Int32Array([0, s[b], s[c], s[b] + s[c]]);
    });
    this.sums = components.map(() => new Float64Array(2 * omegas.length * this.points));
    this.gatherRe = new Float64Array(this.points);
    this.gatherIm = new Float64Array(this.points);
    this.cos = new Float64Array(omegas.length);
    this.sin = new Float64Array(omegas.length);
  }

  /**
   * Adds the current fields: E stamped at `tE`, H at `tH` seconds, weighted by `sampleWeight`
   * (k when only every k-th step is recorded, see fast/dft-cadence.ts).
   */
  record(re: FieldSet, im: FieldSet | null, tE: number, tH: number, sampleWeight = 1): void {
    const P = this.points;
    const W = this.omegas.length;
    for (let ci = 0; ci < this.components.length; ci++) {
      const comp = this.components[ci];
      const t = comp < 3 ? tE : tH;
      for (let w = 0; w < W; w++) {
        this.cos[w] = sampleWeight * Math.cos(this.omegas[w] * t);
        this.sin[w] = sampleWeight * Math.sin(this.omegas[w] * t);
      }
      const off = this.offsets[ci];
      const weight = 1 / off.length;
      gather(re.c[comp], this.base, off, weight, this.gatherRe);
      if (im) gather(im.c[comp], this.base, off, weight, this.gatherIm);
      const sums = this.sums[ci];
      const fr = this.gatherRe;
      const fi = this.gatherIm;
      for (let w = 0; w < W; w++) {
        const cw = this.cos[w];
        const sw = this.sin[w];
        let o = 2 * w * P;
        if (im) {
          for (let q = 0; q < P; q++, o += 2) {
            sums[o] += fr[q] * cw - fi[q] * sw;
            sums[o + 1] += fr[q] * sw + fi[q] * cw;
          }
        } else {
          for (let q = 0; q < P; q++, o += 2) {
            sums[o] += fr[q] * cw;
            sums[o + 1] += fr[q] * sw;
          }
        }
      }
    }
  }
}

function gather(
  field: Float32Array,
  base: Int32Array,
  off: Int32Array,
  weight: number,
  out: Float64Array,
): void {
  const P = base.length;
  if (off.length === 2) {
    const o1 = off[1];
    for (let q = 0; q < P; q++) {
      const p = base[q];
      out[q] = (field[p] + field[p + o1]) * weight;
    }
  } else {
    const o1 = off[1];
    const o2 = off[2];
    const o3 = off[3];
    for (let q = 0; q < P; q++) {
      const p = base[q];
      out[q] = (field[p] + field[p + o1] + field[p + o2] + field[p + o3]) * weight;
    }
  }
}

/** What a backend records for one monitor: its cells, components and angular frequencies. */
export interface MonitorSampling {
  box: SampleBox;
  /** Component numbers 0–5 (Ex … Hz). */
  components: readonly number[];
  /** Angular frequencies in rad/s. */
  omegas: Float64Array;
}

/**
 * The running DFTs of a run's monitors over fields a CPU backend keeps in JS-visible memory
 * (its own arrays or views of a WebAssembly memory).
 */
export class MonitorRecorders {
  readonly recorders: DftRecorder[];

  constructor(layout: YeeLayout, monitors: readonly MonitorSampling[]) {
    this.recorders = monitors.map((m) => new DftRecorder(layout, m.box, m.components, m.omegas));
  }

  /** Adds one sample of every monitor (see DftRecorder.record). */
  record(re: FieldSet, im: FieldSet | null, tE: number, tH: number, sampleWeight: number): void {
    for (const r of this.recorders) r.record(re, im, tE, tH, sampleWeight);
  }

  /** Per monitor, per recorded component, the raw sums (live arrays, not copies). */
  sums(): Float64Array[][] {
    return this.recorders.map((r) => r.sums);
  }
}
