/**
 * A Yee grid's model (what any backend steps) and YeeGrid, a model with its fields in JS
 * memory (one real set, or two for Bloch-periodic runs), CPML slabs and boundary ghosts: the
 * reference backend's main grid and the plane-wave source's auxiliary line, which is the same
 * object with a 1×1 cross-section, so it has exactly the main grid's dispersion.
 *
 * A half step is `updateH(kernel)` (bulk, then CPML ψ terms), then the caller's source
 * corrections, then `fillGhostsH()`; likewise for E, with `updatePolarization()` (the
 * dispersive cells, dispersion/ade.ts) between the source corrections and the ghosts.
 */
import { ghostCopies, GhostPlanes, type GhostCopies } from "./boundaries.js";
import {
  applyCpml,
  cpmlProfile,
  createCpmlSlabs,
  type CpmlParameters,
  type CpmlProfile,
  type CpmlSlab,
} from "./cpml.js";
import { ETA0, MU0 } from "./constants.js";
import { AdeState, buildAdeTerms, type AdeTerms } from "./dispersion/ade.js";
import { allocateFieldSet, type FieldSet } from "./fields.js";
import { cellStepM, dualStepM, type AxisPlan, type GridPlan, type YeeLayout } from "./grid.js";
import type { FieldKernel, KernelGrid } from "./kernel.js";
import type { Medium } from "./medium-types.js";

/**
 * Everything about a grid that a stepper needs besides field storage: the plan, the Yee
 * layout, the medium, the kernel's coefficient view of them (inverse steps with the CPML κ
 * folded in, dt/μ0, material index, ca/cb) and the CPML profiles. Backends allocate the
 * fields themselves, wherever they keep them (a JS array, a WebAssembly memory, GPU buffers).
 */
export interface GridModel {
  plan: GridPlan;
  layout: YeeLayout;
  medium: Medium;
  kernelGrid: KernelGrid;
  profiles: CpmlProfile[];
  /** Two field sets (real and imaginary) for Bloch-periodic runs. */
  complex: boolean;
  /** Bloch phases k·L per axis in radians (periodic axes only; 0 for real runs). */
  blochPhase: [number, number, number];
  /** The dispersive cells' polarisation terms (dispersion/ade.ts), or null for none. */
  ade: AdeTerms | null;
}

export interface GridModelOptions {
  /** Complex fields with these Bloch phases k·L per axis (periodic axes only). */
  blochPhase?: [number, number, number];
  complex?: boolean;
  /** Angular frequency of the source in rad/s, for the CPML α scale. */
  omega0: number;
  cpml?: CpmlParameters;
}

/** The grid model of a plan, layout and medium (no field storage). */
export function buildGridModel(
  plan: GridPlan,
  layout: YeeLayout,
  medium: Medium,
  options: GridModelOptions,
): GridModel {
  const profiles = plan.axes.map((ax) =>
    cpmlProfile(ax, plan.dtSeconds, options.omega0, options.cpml),
  );
  return {
    plan,
    layout,
    medium,
    kernelGrid: kernelGridFor(plan, layout, medium, profiles),
    profiles,
    complex: options.complex ?? false,
    blochPhase: options.blochPhase ?? [0, 0, 0],
    ade: buildAdeTerms(layout, medium, plan.dtSeconds),
  };
}

/** The reference kernel's view of a grid: κ folded into per-axis inverse steps. */
function kernelGridFor(
  plan: GridPlan,
  layout: YeeLayout,
  medium: Medium,
  profiles: readonly CpmlProfile[],
): KernelGrid {
  // Padded index p is position p − 1; the ghosts beyond the ends take the steps there.
  const invStep = (
    kappa: (a: number) => Float64Array,
    count: (a: number) => number,
    step: (ax: AxisPlan, i: number) => number,
  ) =>
    [0, 1, 2].map((a) => {
      const ax = plan.axes[a];
      const arr = new Float64Array(layout.padded[a] + 1);
      for (let p = 0; p < arr.length; p++) arr[p] = 1 / step(ax, p - 1);
      const k = kappa(a);
      for (let i = 0; i < count(a); i++) arr[i + 1] = 1 / (k[i] * step(ax, i));
      return arr;
    }) as [Float64Array, Float64Array, Float64Array];
  return {
    layout,
    uniformStepM: plan.uniform ? plan.baseStepM : null,
    invStepNode: invStep(
      (a) => profiles[a].kappaNode,
      (a) => layout.n[a] + 1,
      dualStepM,
    ),
    invStepHalf: invStep(
      (a) => profiles[a].kappaHalf,
      (a) => layout.n[a],
      cellStepM,
    ),
    hCoefficient: plan.dtSeconds / MU0,
    materialIndex: medium.index,
    ca: medium.ca,
    cb: medium.cb,
  };
}

/**
 * A grid model with its fields in JS memory and whole-grid stepping: the reference backend's
 * main grid and the plane-wave source's auxiliary line.
 */
export class YeeGrid {
  readonly plan: GridPlan;
  readonly layout: YeeLayout;
  readonly kernelGrid: KernelGrid;
  readonly medium: Medium;
  readonly re: FieldSet;
  readonly im: FieldSet | null;
  private readonly ghosts: GhostPlanes;
  private readonly ghostCopies: GhostCopies;
  private readonly profiles: CpmlProfile[];
  private readonly slabsRe: CpmlSlab[];
  private readonly slabsIm: CpmlSlab[];
  private readonly ade: AdeState | null;

  constructor(model: GridModel) {
    const { plan, layout, kernelGrid } = model;
    this.plan = plan;
    this.layout = layout;
    this.medium = model.medium;
    this.profiles = model.profiles;
    this.kernelGrid = kernelGrid;
    this.re = allocateFieldSet(layout);
    this.im = model.complex ? allocateFieldSet(layout) : null;
    this.slabsRe = createCpmlSlabs(kernelGrid, plan.axes);
    this.slabsIm = model.complex ? createCpmlSlabs(kernelGrid, plan.axes) : [];
    this.ghostCopies = ghostCopies(layout, model.blochPhase);
    const sets = this.im ? [this.re.c, this.im.c] : [this.re.c];
    this.ghosts = new GhostPlanes(sets, layout.n, layout.strides);
    this.ade = model.ade ? new AdeState(model.ade, 0, layout.n[0] + 1, sets.length) : null;
  }

  /** Whether the grid has dispersive cells (an ADE pass). */
  get dispersive(): boolean {
    return this.ade !== null;
  }

  /** The dispersive cells' pass of the E half step, after its source corrections. */
  updatePolarization(): void {
    if (!this.ade) return;
    this.ade.updateAll(0, this.re.c);
    if (this.im) this.ade.updateAll(1, this.im.c);
  }

  /** Bulk H update over all planes, then the CPML ψ terms. */
  updateH(kernel: FieldKernel): void {
    this.halfStep("H", kernel);
  }

  /** Bulk E update over all planes, then the CPML ψ terms. */
  updateE(kernel: FieldKernel): void {
    this.halfStep("E", kernel);
  }

  private halfStep(kind: "E" | "H", kernel: FieldKernel): void {
    const planes = this.layout.n[0] + 1;
    const sets: [FieldSet, CpmlSlab[]][] = [[this.re, this.slabsRe]];
    if (this.im) sets.push([this.im, this.slabsIm]);
    for (const [fields, slabs] of sets) {
      if (kind === "H") kernel.updateH(this.kernelGrid, fields, 0, planes);
      else kernel.updateE(this.kernelGrid, fields, 0, planes);
      for (const slab of slabs) {
        applyCpml(kind, this.kernelGrid, this.profiles[slab.axis], slab, fields, 0, planes);
      }
    }
  }

  /**
   * A half step of a real line along `axis` (the other two axes one periodic cell without a
   * Bloch phase: the plane-wave source's auxiliary line at normal incidence): the bulk update
   * of the two components across the axis, then the CPML ψ terms of the slabs along it, and
   * no ghosts. Every difference across the line is exactly zero there ((F − F)·inv = +0 with
   * the ghosts filled), so each curl keeps its one term along the axis, written as the
   * reference kernel evaluates it (t − 0 or 0 − t), and the ψ pass is cpml.ts's `correct`
   * restricted to the line: the same values (yee-line.test.ts checks them bit for bit) at a
   * fraction of the cost of the 3-D loops, the generic ψ pass and the ghost copies. The
   * components along the axis stay zero and are not touched; the ghosts are left as they
   * are: the caller reads real cells only (invariant.ts remapStreams). A dispersive line's
   * polarisation pass (updatePolarization, after the E half step's source) is the general
   * one: it is local to each cell and reads no ghost.
   */
  updateLine(kind: "E" | "H", axis: number): void {
    if (this.im) throw new Error("updateLine is for real lines");
    const { layout, kernelGrid: grid } = this;
    const s = layout.strides[axis];
    const f = this.re.c;
    const origin = layout.index(0, 0, 0);
    const isH = kind === "H";
    for (let n = 1; n <= 2; n++) {
      const c = (axis + n) % 3;
      // d1 = c+1, d2 = c+2: when d1 is the axis (c = axis + 2) the curl is (Δ G_{d2})·inv − 0,
      // else (c = axis + 1) the axis is d2 and it is 0 − (Δ G_{d1})·inv.
      const alongFirst = n === 2;
      const other = alongFirst ? (c + 2) % 3 : (c + 1) % 3;
      const comp = isH ? 3 + c : c;
      const lo = layout.lo[comp * 3 + axis];
      const hi = layout.hi[comp * 3 + axis];
      const p0 = origin + lo * s;
      if (isH) {
        const ch = grid.hCoefficient;
        const inv = grid.invStepHalf[axis];
        const h = f[comp];
        const e = f[other];
        if (alongFirst) {
          for (let t = lo, p = p0; t <= hi; t++, p += s) {
            h[p] -= ch * ((e[p + s] - e[p]) * inv[t + 1] - 0);
          }
        } else {
          for (let t = lo, p = p0; t <= hi; t++, p += s) {
            h[p] -= ch * (0 - (e[p + s] - e[p]) * inv[t + 1]);
          }
        }
      } else {
        const { ca, cb } = grid;
        const inv = grid.invStepNode[axis];
        const m = grid.materialIndex[c];
        const e = f[c];
        const h = f[3 + other];
        if (alongFirst) {
          for (let t = lo, p = p0; t <= hi; t++, p += s) {
            const k = m[p];
            e[p] = ca[k] * e[p] + cb[k] * ((h[p] - h[p - s]) * inv[t + 1] - 0);
          }
        } else {
          for (let t = lo, p = p0; t <= hi; t++, p += s) {
            const k = m[p];
            e[p] = ca[k] * e[p] + cb[k] * (0 - (h[p] - h[p - s]) * inv[t + 1]);
          }
        }
      }
    }
    for (const slab of this.slabsRe) this.lineCpml(isH, axis, slab);
  }

  /**
   * cpml.ts's applyCpml + correct for one slab along a line's axis: per pair (target F,
   * source G, ψ slot, scale), ψ ← b·ψ + (c/Δ)·ΔG and F += scale·(cb)·ψ where c ≠ 0.
   */
  private lineCpml(isH: boolean, axis: number, slab: CpmlSlab): void {
    const { layout, kernelGrid: grid } = this;
    const profile = this.profiles[axis];
    const f = this.re.c;
    const s = layout.strides[axis];
    const b = isH ? profile.bHalf : profile.bNode;
    const cArr = isH ? profile.cOverStepHalf : profile.cOverStepNode;
    const first = (axis + 2) % 3;
    const second = (axis + 1) % 3;
    // ψ index of line cell t: (t − a0) along the axis, padded index 1 across it.
    const ls = slab.strides[axis];
    const q0 = slab.strides[0] + slab.strides[1] + slab.strides[2] - ls - slab.a0 * ls;
    const origin = layout.index(0, 0, 0);
    for (let pair = 0; pair < 2; pair++) {
      const comp = pair === 0 ? first : second;
      const from = pair === 0 ? second : first;
      const target = f[isH ? 3 + comp : comp];
      const source = f[isH ? from : 3 + from];
      const psi = slab.psi[(isH ? 2 : 0) + pair];
      const scale = isH
        ? pair === 0
          ? -grid.hCoefficient
          : grid.hCoefficient
        : pair === 0
          ? 1
          : -1;
      const cbIndex = isH ? null : grid.materialIndex[comp];
      const tComp = isH ? 3 + comp : comp;
      const lo = Math.max(layout.lo[tComp * 3 + axis], slab.a0);
      const hi = Math.min(layout.hi[tComp * 3 + axis], slab.a1);
      for (let t = lo; t <= hi; t++) {
        const ct = cArr[t];
        if (ct === 0) continue;
        const p = origin + t * s;
        const q = q0 + t * ls;
        const diff = isH ? source[p + s] - source[p] : source[p] - source[p - s];
        const v = b[t] * psi[q] + ct * diff;
        psi[q] = v;
        target[p] += cbIndex !== null ? scale * grid.cb[cbIndex[p]] * v : scale * v;
      }
    }
  }

  /** Boundary ghosts after the H half step (boundaries.ts). */
  fillGhostsH(): void {
    this.ghosts.fillAll(this.ghostCopies.h);
  }

  /** Boundary ghosts after the E half step. */
  fillGhostsE(): void {
    this.ghosts.fillAll(this.ghostCopies.e);
  }

  /** Electromagnetic energy of the fields (fieldEnergy). */
  energy(): number {
    return fieldEnergy(this.im ? [this.re, this.im] : [this.re], this.medium);
  }
}

/**
 * Electromagnetic energy in units of ε0·(V/m)²·cell volume: Σ ε_r·|E|² + η0²·|H|², over
 * every stored value of the field sets (ghost copies included, a negligible overcount).
 */
export function fieldEnergy(sets: readonly FieldSet[], medium: Medium): number {
  const eta2 = ETA0 * ETA0;
  let sum = 0;
  for (const set of sets) {
    for (let c = 0; c < 3; c++) {
      const f = set.c[c];
      const idx = medium.index[c];
      const eps = medium.epsEff;
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
