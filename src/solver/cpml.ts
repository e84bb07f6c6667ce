/**
 * Convolutional PML (Roden & Gedney 2000; Taflove & Hagness 3rd ed., §7.9–7.11).
 *
 * The stretched coordinate s = κ + σ/(α + iωε0) is graded from the inner face of the absorber
 * (depth 0) to its outer PEC wall (depth d): σ = σmax·(ρ/d)^m, κ = 1 + (κmax−1)·(ρ/d)^m,
 * α = αmax·(1 − ρ/d). The 1/κ factor is folded into the per-axis inverse step arrays the bulk
 * kernel already uses; the recursive-convolution term ψ lives only in the absorber slabs and is
 * added by a separate pass after the bulk update:
 *   ψ ← b·ψ + c·∂F,  b = exp(−(σ/κ + α)·dt/ε0),  c = σ/(σκ + κ²α)·(b − 1),
 * with ∂F the difference of F divided by the step it spans.
 */
import { EPS0, ETA0 } from "./constants.js";
import type { FieldSet } from "./fields.js";
import { cellStepM, dualStepM, type AxisPlan } from "./grid.js";
import type { KernelGrid } from "./kernel.js";

export interface CpmlParameters {
  /** Polynomial grading order m. */
  order: number;
  /** σmax as a multiple of the optimum 0.8(m+1)/(η0·step) (Taflove & Hagness eq. 7.67). */
  sigmaFactor: number;
  kappaMax: number;
  /** αmax in units of ε0·ω0 (ω0 the source's angular frequency). */
  alphaOverEps0Omega: number;
}

/**
 * Chosen by the PML tests (src/solver/pml.test.ts): m = 3 with the optimum σmax gives
 * below −80 dB at normal incidence with 12 layers; κmax = 2 helps the oblique case, and a
 * small α keeps the absorber from storing the pulse's low-frequency tail.
 */
export const DEFAULT_CPML: CpmlParameters = {
  order: 3,
  sigmaFactor: 1,
  kappaMax: 2,
  alphaOverEps0Omega: 0.05,
};

/**
 * Per-axis coefficients at nodes (index 0…n) and half positions (index i for i+½). The c of
 * the recursion comes divided by the step its difference spans (the dual step at a node, the
 * cell at a half position), as ψ ← b·ψ + (c/Δ)·(F − F′) uses it.
 */
export interface CpmlProfile {
  kappaNode: Float64Array;
  bNode: Float64Array;
  cOverStepNode: Float64Array;
  kappaHalf: Float64Array;
  bHalf: Float64Array;
  cOverStepHalf: Float64Array;
}

/** Depth into the absorber (in cells, 0 in the interior) of position `pos` (in cells). */
function depthCells(axis: AxisPlan, pos: number): number {
  if (pos < axis.pmlLo) return axis.pmlLo - pos;
  const hiFace = axis.cells - axis.pmlHi;
  if (axis.pmlHi > 0 && pos > hiFace) return pos - hiFace;
  return 0;
}

/**
 * The profile of one axis. The absorber's cells all have the step of the interior cell next
 * to them (grid.ts), so each face's σmax is the optimum for its own step.
 */
export function cpmlProfile(
  axis: AxisPlan,
  dtSeconds: number,
  omega0: number,
  params: CpmlParameters = DEFAULT_CPML,
): CpmlProfile {
  const n = axis.cells;
  const m = params.order;
  const sigmaMaxFor = (stepM: number) => (params.sigmaFactor * 0.8 * (m + 1)) / (ETA0 * stepM);
  const sigmaMax = [sigmaMaxFor(cellStepM(axis, 0)), sigmaMaxFor(cellStepM(axis, n - 1))];
  const alphaMax = params.alphaOverEps0Omega * EPS0 * omega0;
  const layers = Math.max(axis.pmlLo, axis.pmlHi, 1);
  const fill = (count: number, offset: number, stepAt: (i: number) => number) => {
    const kappa = new Float64Array(count).fill(1);
    const b = new Float64Array(count);
    const c = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const depth = depthCells(axis, i + offset);
      if (depth <= 0) continue;
      const x = Math.min(depth / layers, 1);
      const sigma = sigmaMax[i + offset < n / 2 ? 0 : 1] * x ** m;
      const k = 1 + (params.kappaMax - 1) * x ** m;
      const alpha = alphaMax * (1 - x);
      kappa[i] = k;
      b[i] = Math.exp(-(sigma / k + alpha) * (dtSeconds / EPS0));
      c[i] = sigma > 0 ? ((sigma / (sigma * k + k * k * alpha)) * (b[i] - 1)) / stepAt(i) : 0;
    }
    return { kappa, b, c };
  };
  const node = fill(n + 1, 0, (i) => dualStepM(axis, i));
  const half = fill(n, 0.5, (i) => cellStepM(axis, i));
  return {
    kappaNode: node.kappa,
    bNode: node.b,
    cOverStepNode: node.c,
    kappaHalf: half.kappa,
    bHalf: half.b,
    cOverStepHalf: half.c,
  };
}

/** The ψ arrays of one absorber slab (one axis, one face) for one real field set. */
export interface CpmlSlab {
  axis: number;
  /** Node index range [a0, a1] along `axis` the slab covers. */
  a0: number;
  a1: number;
  /** Local strides: the padded layout with the slab axis shortened to a1 − a0 + 1. */
  strides: [number, number, number];
  /** ψ for the E component (axis+2)%3, E (axis+1)%3, H (axis+2)%3, H (axis+1)%3. */
  psi: [Float32Array, Float32Array, Float32Array, Float32Array];
}

/** Creates the slabs of every absorbing face of a grid, for one field set. */
export function createCpmlSlabs(
  grid: KernelGrid,
  axes: readonly [AxisPlan, AxisPlan, AxisPlan],
): CpmlSlab[] {
  const slabs: CpmlSlab[] = [];
  const { padded } = grid.layout;
  for (let a = 0; a < 3; a++) {
    const axis = axes[a];
    const faces: [number, number][] = [];
    if (axis.pmlLo > 0) faces.push([0, axis.pmlLo]);
    if (axis.pmlHi > 0) faces.push([axis.cells - axis.pmlHi, axis.cells]);
    for (const [a0, a1] of faces) {
      const dims = [padded[0], padded[1], padded[2]];
      dims[a] = a1 - a0 + 1;
      const size = dims[0] * dims[1] * dims[2];
      slabs.push({
        axis: a,
        a0,
        a1,
        strides: [dims[1] * dims[2], dims[2], 1],
        psi: [
          new Float32Array(size),
          new Float32Array(size),
          new Float32Array(size),
          new Float32Array(size),
        ],
      });
    }
  }
  return slabs;
}

/** Bytes the ψ arrays of a grid need per field set (for estimates). */
export function cpmlBytes(padded: readonly number[], axes: readonly AxisPlan[]): number {
  let bytes = 0;
  for (let a = 0; a < 3; a++) {
    const cross = (padded[0] * padded[1] * padded[2]) / padded[a];
    for (const layers of [axes[a].pmlLo, axes[a].pmlHi]) {
      if (layers > 0) bytes += 4 * 4 * cross * (layers + 1);
    }
  }
  return bytes;
}

/**
 * Adds the ψ terms of one slab to E (`kind` "E", after the bulk E update) or to H (after the
 * bulk H update), restricted to x-planes [planeLo, planeHi). For the slab's axis a, with
 * f = a+2 and s = a+1 (mod 3):
 *   E_f += cb·ψ0 (ψ0 from ∂a H_s),   E_s −= cb·ψ1 (ψ1 from ∂a H_f),
 *   H_f −= ch·ψ2 (ψ2 from ∂a E_s),   H_s += ch·ψ3 (ψ3 from ∂a E_f).
 */
export function applyCpml(
  kind: "E" | "H",
  grid: KernelGrid,
  profile: CpmlProfile,
  slab: CpmlSlab,
  fields: FieldSet,
  planeLo: number,
  planeHi: number,
): void {
  const a = slab.axis;
  const isE = kind === "E";
  // E uses backward differences of H at nodes, H forward differences of E at half steps.
  const target = (c: number) => (isE ? c : 3 + c);
  const source = (c: number) => (isE ? 3 + c : c);
  const coefficients = (c: number): CorrectionCoefficients =>
    isE
      ? { b: profile.bNode, c: profile.cOverStepNode, cb: grid.cb, index: grid.materialIndex[c] }
      : { b: profile.bHalf, c: profile.cOverStepHalf };
  const dir = isE ? -1 : 1;
  const scale = isE ? 1 : grid.hCoefficient;
  const f = (a + 2) % 3;
  const s = (a + 1) % 3;
  const [psiF, psiS] = isE ? [slab.psi[0], slab.psi[1]] : [slab.psi[2], slab.psi[3]];
  const [scaleF, scaleS] = isE ? [scale, -scale] : [-scale, scale];
  const pairs = [
    [f, s, psiF, scaleF],
    [s, f, psiS, scaleS],
  ] as const;
  for (const [comp, other, psi, k] of pairs) {
    const t = target(comp);
    const from = fields.c[source(other)];
    correct(grid, slab, planeLo, planeHi, t, fields.c[t], from, psi, dir, k, coefficients(comp));
  }
}

interface CorrectionCoefficients {
  b: Float64Array;
  /** c over the step of the difference (CpmlProfile). */
  c: Float64Array;
  /** E only: per-material cb and the component's material index; H uses a constant. */
  cb?: Float64Array;
  index?: Uint16Array;
}

/**
 * One ψ recursion and field correction over a slab:
 *   ψ ← b·ψ + (c/step)·(F[p + dir·s_a] − F[p])·dir   (dir −1: backward difference for E,
 *   +1: forward difference for H);  target += scale·(cb)·ψ.
 */
function correct(
  grid: KernelGrid,
  slab: CpmlSlab,
  planeLo: number,
  planeHi: number,
  comp: number,
  target: Float32Array,
  source: Float32Array,
  psi: Float32Array,
  dir: number,
  scale: number,
  k: CorrectionCoefficients,
): void {
  const { layout } = grid;
  const a = slab.axis;
  // Backward difference F[p] − F[p − s] for E, forward F[p + s] − F[p] for H.
  const fwd = dir > 0 ? layout.strides[a] : 0;
  const bwd = dir > 0 ? 0 : layout.strides[a];
  const lo = [layout.lo[comp * 3], layout.lo[comp * 3 + 1], layout.lo[comp * 3 + 2]];
  const hi = [layout.hi[comp * 3], layout.hi[comp * 3 + 1], layout.hi[comp * 3 + 2]];
  lo[a] = Math.max(lo[a], slab.a0);
  hi[a] = Math.min(hi[a], slab.a1);
  lo[0] = Math.max(lo[0], planeLo);
  hi[0] = Math.min(hi[0], planeHi - 1);
  const [sx, sy] = layout.strides;
  const [lx, ly] = slab.strides;
  // Local coordinate along the slab axis is (index − a0); elsewhere it is the padded index.
  const off = [1, 1, 1];
  off[a] = -slab.a0;
  const { b, c } = k;
  const cb = k.cb ?? null;
  const index = k.index ?? null;
  const k0 = lo[2];
  const k1 = hi[2];
  for (let i = lo[0]; i <= hi[0]; i++) {
    for (let j = lo[1]; j <= hi[1]; j++) {
      const rowP = (i + 1) * sx + (j + 1) * sy + 1;
      const rowQ = (i + off[0]) * lx + (j + off[1]) * ly + off[2];
      if (a === 2) {
        // Absorbing along z: the profile varies along the (short) row.
        for (let kk = k0; kk <= k1; kk++) {
          const ct = c[kk];
          if (ct === 0) continue;
          const p = rowP + kk;
          const q = rowQ + kk;
          const v = b[kk] * psi[q] + ct * (source[p + fwd] - source[p - bwd]);
          psi[q] = v;
          target[p] += cb !== null && index !== null ? scale * cb[index[p]] * v : scale * v;
        }
        continue;
      }
      // Absorbing along x or y: one profile value for the whole row.
      const t = a === 0 ? i : j;
      const ct = c[t];
      if (ct === 0) continue;
      const bt = b[t];
      if (cb !== null && index !== null) {
        for (let kk = k0; kk <= k1; kk++) {
          const p = rowP + kk;
          const q = rowQ + kk;
          const v = bt * psi[q] + ct * (source[p + fwd] - source[p - bwd]);
          psi[q] = v;
          target[p] += scale * cb[index[p]] * v;
        }
      } else {
        for (let kk = k0; kk <= k1; kk++) {
          const p = rowP + kk;
          const q = rowQ + kk;
          const v = bt * psi[q] + ct * (source[p + fwd] - source[p - bwd]);
          psi[q] = v;
          target[p] += scale * v;
        }
      }
    }
  }
}
