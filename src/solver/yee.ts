/**
 * One Yee grid at run time: layout, medium, fields (one real set, or two for Bloch-periodic
 * runs), CPML slabs and boundary ghosts. The plane-wave source's auxiliary line grid is the
 * same object with a 1×1 cross-section, so it has exactly the main grid's dispersion.
 *
 * A half step is `updateH(kernel)` (bulk, then CPML ψ terms), then the caller's source
 * corrections, then `fillGhostsH()`; likewise for E.
 */
import { fillGhostsE, fillGhostsH, type BoundaryState } from "./boundaries.js";
import {
  applyCpmlE,
  applyCpmlH,
  cpmlProfile,
  createCpmlSlabs,
  type CpmlParameters,
  type CpmlProfile,
  type CpmlSlab,
} from "./cpml.js";
import { ETA0, MU0 } from "./constants.js";
import { allocateFieldSet, fieldSetBytes, type FieldSet } from "./fields.js";
import type { GridPlan, YeeLayout } from "./grid.js";
import type { FieldKernel, KernelGrid } from "./kernel.js";
import type { Medium } from "./medium.js";

export interface YeeGridOptions {
  /** Complex fields with these Bloch phases k·L per axis (periodic axes only). */
  blochPhase?: [number, number, number];
  complex?: boolean;
  /** Angular frequency of the source, for the CPML α scale. */
  omega0: number;
  cpml?: CpmlParameters;
  /** Memory for the fields (e.g. a shared WebAssembly.Memory buffer), zeroed. */
  fieldBuffer?: ArrayBufferLike;
  fieldByteOffset?: number;
  /**
   * false: no ψ arrays for updateH/updateE's CPML pass, because another stepper (the fast
   * kernel, which keeps its own ψ) advances this grid.
   */
  cpmlSlabs?: boolean;
}

export class YeeGrid {
  readonly plan: GridPlan;
  readonly layout: YeeLayout;
  readonly kernelGrid: KernelGrid;
  readonly medium: Medium;
  readonly re: FieldSet;
  readonly im: FieldSet | null;
  readonly boundary: BoundaryState;
  private readonly profiles: CpmlProfile[];
  private readonly slabsRe: CpmlSlab[];
  private readonly slabsIm: CpmlSlab[];

  constructor(plan: GridPlan, layout: YeeLayout, medium: Medium, options: YeeGridOptions) {
    this.plan = plan;
    this.layout = layout;
    this.medium = medium;
    this.profiles = plan.axes.map((ax) =>
      cpmlProfile(ax, plan.dtSeconds, options.omega0, options.cpml),
    );
    const invStep = (kappa: (a: number) => Float64Array, count: (a: number) => number) =>
      [0, 1, 2].map((a) => {
        const arr = new Float64Array(layout.padded[a] + 1).fill(1 / plan.stepM);
        const k = kappa(a);
        for (let i = 0; i < count(a); i++) arr[i + 1] = 1 / (k[i] * plan.stepM);
        return arr;
      }) as [Float64Array, Float64Array, Float64Array];
    this.kernelGrid = {
      layout,
      stepM: plan.stepM,
      invStepNode: invStep(
        (a) => this.profiles[a].kappaNode,
        (a) => layout.n[a] + 1,
      ),
      invStepHalf: invStep(
        (a) => this.profiles[a].kappaHalf,
        (a) => layout.n[a],
      ),
      hCoefficient: plan.dtSeconds / MU0,
      materialIndex: medium.index,
      ca: medium.ca,
      cb: medium.cb,
    };
    const complex = options.complex ?? false;
    const setBytes = fieldSetBytes(layout);
    const off = options.fieldByteOffset ?? 0;
    this.re = allocateFieldSet(layout, options.fieldBuffer, off);
    this.im = complex ? allocateFieldSet(layout, options.fieldBuffer, off + setBytes) : null;
    const slabs = options.cpmlSlabs ?? true;
    this.slabsRe = slabs ? createCpmlSlabs(this.kernelGrid, plan.axes) : [];
    this.slabsIm = slabs && complex ? createCpmlSlabs(this.kernelGrid, plan.axes) : [];
    this.boundary = { layout, blochPhase: options.blochPhase ?? [0, 0, 0] };
  }

  /** Bulk H update over all planes, then the CPML ψ terms. */
  updateH(kernel: FieldKernel): void {
    const planes = this.layout.n[0] + 1;
    kernel.updateH(this.kernelGrid, this.re, 0, planes);
    for (const slab of this.slabsRe) {
      applyCpmlH(this.kernelGrid, this.profiles[slab.axis], slab, this.re, 0, planes);
    }
    if (this.im) {
      kernel.updateH(this.kernelGrid, this.im, 0, planes);
      for (const slab of this.slabsIm) {
        applyCpmlH(this.kernelGrid, this.profiles[slab.axis], slab, this.im, 0, planes);
      }
    }
  }

  updateE(kernel: FieldKernel): void {
    const planes = this.layout.n[0] + 1;
    kernel.updateE(this.kernelGrid, this.re, 0, planes);
    for (const slab of this.slabsRe) {
      applyCpmlE(this.kernelGrid, this.profiles[slab.axis], slab, this.re, 0, planes);
    }
    if (this.im) {
      kernel.updateE(this.kernelGrid, this.im, 0, planes);
      for (const slab of this.slabsIm) {
        applyCpmlE(this.kernelGrid, this.profiles[slab.axis], slab, this.im, 0, planes);
      }
    }
  }

  fillGhostsH(): void {
    fillGhostsH(this.boundary, this.re, this.im);
  }

  fillGhostsE(): void {
    fillGhostsE(this.boundary, this.re, this.im);
  }

  /**
   * Electromagnetic energy in units of ε0·(V/m)²·cell volume: Σ ε_r·|E|² + η0²·|H|², over
   * every stored value (ghost copies included, a negligible overcount).
   */
  energy(): number {
    const eta2 = ETA0 * ETA0;
    let sum = 0;
    for (const set of this.im ? [this.re, this.im] : [this.re]) {
      for (let c = 0; c < 3; c++) {
        const f = set.c[c];
        const idx = this.medium.index[c];
        const eps = this.medium.epsEff;
        for (let p = 0; p < f.length; p++) sum += eps[idx[p]] * f[p] * f[p];
      }
      let h2 = 0;
      for (let c = 3; c < 6; c++) {
        const f = set.c[c];
        for (let p = 0; p < f.length; p++) h2 += f[p] * f[p];
      }
      sum += eta2 * h2;
    }
    return sum;
  }
}
