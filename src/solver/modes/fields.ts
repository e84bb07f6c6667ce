/**
 * A mode's six field components from its transverse E (the eigenvector of operator.ts), its
 * power normalisation, TE fraction and group index.
 *
 * With h = Z0·H and β = k0·n_eff (Zhu & Brown 2002, the curl equations of operator.ts):
 *   h_w = −i/(k0 μ_w)·(D_u^f E_v − D_v^f E_u)            at (i+½, j+½)
 *   h_u = (−k0 ε_v E_v − i D_u^b h_w)/β                   at (i, j+½)
 *   h_v = ( k0 ε_u E_u − i D_v^b h_w)/β                   at (i+½, j)
 *   E_w = i/(k0 ε_w)·(D_u^b h_v − D_v^b h_u)              at (i, j)
 * E_u and H_v share a position, as do E_v and H_u, so the power through the plane,
 * P = ½ Re ∫(E_u H_v* − E_v H_u*) dA, needs no interpolation; each sample weighs the area of
 * its dual cell (cell steps along axes where it sits at a centre, dual steps where on a node,
 * half a dual step on a mirror plane, whose other half the mirror image carries: P is the
 * whole mode's power).
 *
 * Group index from the energy velocity, n_g = c·W/P with W = ¼∫(ε0 ε_g |E|² + μ0 |H|²) dA and
 * ε_g = ∂(ωε)/∂ω (Snyder & Love §11-9, §31-5; for lossless media). For the discrete
 * eigenproblem this is the Hellmann–Feynman derivative dβ/dω of the discrete operator, so it
 * agrees with a finite difference of n_eff in frequency (tested).
 */
import { EPS0, ETA0, MU0, SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import { csrMultiply, type ComplexVector } from "./sparse.js";
import { reciprocal, type ModeAxis, type ModeOperator } from "./operator.js";

/** The six components on the plane (index i·nv + j, at their Yee positions), V/m and A/m. */
export interface ModeFields {
  Eu: ComplexVector;
  Ev: ComplexVector;
  Ew: ComplexVector;
  Hu: ComplexVector;
  Hv: ComplexVector;
  Hw: ComplexVector;
}

/** Dual-cell weights (m) along one axis at nodes and at centres. */
interface AxisWeights {
  node: Float64Array;
  centre: Float64Array;
  /** 2 on an axis with a mirror plane (the image carries as much again), else 1. */
  image: number;
}

export function axisWeights(axis: ModeAxis): AxisWeights {
  const nodes = axis.nodesM;
  const n = nodes.length - 1;
  const step = (i: number) => nodes[i + 1] - nodes[i];
  const centre = new Float64Array(n);
  const node = new Float64Array(n);
  const mirror = (axis.mirror ?? "none") !== "none";
  for (let i = 0; i < n; i++) {
    centre[i] = step(i);
    if (i > 0) node[i] = (step(i - 1) + step(i)) / 2;
    else if (axis.boundary === "periodic") node[i] = (step(n - 1) + step(0)) / 2;
    else node[i] = step(0) / 2;
  }
  return { node, centre, image: mirror ? 2 : 1 };
}

/** Area weight per full index of a component at stagger (su, sv) (0 node, ½ centre). */
export function areaWeights(
  wu: AxisWeights,
  wv: AxisWeights,
  su: number,
  sv: number,
): Float64Array {
  const nu = wu.node.length;
  const nv = wv.node.length;
  const a = su === 0 ? wu.node : wu.centre;
  const b = sv === 0 ? wv.node : wv.centre;
  const out = new Float64Array(nu * nv);
  const image = wu.image * wv.image;
  for (let i = 0; i < nu; i++) for (let j = 0; j < nv; j++) out[i * nv + j] = a[i] * b[j] * image;
  return out;
}

function zeros(n: number): ComplexVector {
  return { re: new Float64Array(n), im: new Float64Array(n) };
}

/** out = α·x·y elementwise (complex α, x, y; y may be null for 1). */
function times(x: ComplexVector, y: ComplexVector | null, ar: number, ai: number): ComplexVector {
  const n = x.re.length;
  const out = zeros(n);
  for (let k = 0; k < n; k++) {
    let r = x.re[k];
    let m = x.im[k];
    if (y) [r, m] = [r * y.re[k] - m * y.im[k], r * y.im[k] + m * y.re[k]];
    out.re[k] = ar * r - ai * m;
    out.im[k] = ar * m + ai * r;
  }
  return out;
}

function apply(op: ModeOperator["duF"], x: ComplexVector): ComplexVector {
  const y = zeros(x.re.length);
  csrMultiply(op, x, y);
  return y;
}

function axpy(a: ComplexVector, b: ComplexVector, sb: number): ComplexVector {
  const out = zeros(a.re.length);
  for (let k = 0; k < a.re.length; k++) {
    out.re[k] = a.re[k] + sb * b.re[k];
    out.im[k] = a.im[k] + sb * b.im[k];
  }
  return out;
}

/** The six components (unnormalised, h = Z0·H still) from the free-unknown eigenvector. */
export function reconstructFields(
  op: ModeOperator,
  vector: ComplexVector,
  nEff: { re: number; im: number },
): ModeFields {
  const N = op.nu * op.nv;
  const Eu = zeros(N);
  const Ev = zeros(N);
  for (let k = 0; k < op.free.length; k++) {
    const f = op.free[k];
    const target = f < N ? Eu : Ev;
    target.re[f % N] = vector.re[k];
    target.im[f % N] = vector.im[k];
  }
  const k0 = op.k0;
  // h_w = −i/(k0 μ_w)·(D_u^f E_v − D_v^f E_u)
  const curl = axpy(apply(op.duF, Ev), apply(op.dvF, Eu), -1);
  const hw = times(curl, reciprocal(op.mu.w), 0, -1 / k0);
  // 1/β
  const d = k0 * k0 * (nEff.re * nEff.re + nEff.im * nEff.im);
  const ibr = (k0 * nEff.re) / d;
  const ibi = (-k0 * nEff.im) / d;
  // h_u = (−k0 ε_v E_v − i D_u^b h_w)/β, h_v = (k0 ε_u E_u − i D_v^b h_w)/β
  const hu0 = axpy(times(Ev, op.eps.v, -k0, 0), times(apply(op.duB, hw), null, 0, -1), 1);
  const hv0 = axpy(times(Eu, op.eps.u, k0, 0), times(apply(op.dvB, hw), null, 0, -1), 1);
  const Hu = times(hu0, null, ibr, ibi);
  const Hv = times(hv0, null, ibr, ibi);
  // E_w = i/(k0 ε_w)·(D_u^b h_v − D_v^b h_u)
  const div = axpy(apply(op.duB, Hv), apply(op.dvB, Hu), -1);
  const Ew = times(div, reciprocal(op.eps.w), 0, 1 / k0);
  return { Eu, Ev, Ew, Hu, Hv, Hw: hw };
}

/** The weights of every component on the plane. */
export interface PlaneWeights {
  eu: Float64Array;
  ev: Float64Array;
  ew: Float64Array;
  hu: Float64Array;
  hv: Float64Array;
  hw: Float64Array;
}

export function planeWeights(axes: readonly [ModeAxis, ModeAxis]): PlaneWeights {
  const wu = axisWeights(axes[0]);
  const wv = axisWeights(axes[1]);
  return {
    eu: areaWeights(wu, wv, 0.5, 0),
    ev: areaWeights(wu, wv, 0, 0.5),
    ew: areaWeights(wu, wv, 0, 0),
    hu: areaWeights(wu, wv, 0, 0.5),
    hv: areaWeights(wu, wv, 0.5, 0),
    hw: areaWeights(wu, wv, 0.5, 0.5),
  };
}

/** ½ Re ∫(E_u H_v* − E_v H_u*) dA in W (fields in V/m and A/m). */
export function modePower(f: ModeFields, w: PlaneWeights): number {
  let p = 0;
  for (let k = 0; k < w.eu.length; k++) {
    p += (f.Eu.re[k] * f.Hv.re[k] + f.Eu.im[k] * f.Hv.im[k]) * w.eu[k];
    p -= (f.Ev.re[k] * f.Hu.re[k] + f.Ev.im[k] * f.Hu.im[k]) * w.ev[k];
  }
  return p / 2;
}

/**
 * Converts h = Z0·H to H (A/m), scales the fields to 1 W through the plane and fixes the
 * phase: the largest transverse E sample is real and positive. Returns the power before.
 */
export function normaliseToOneWatt(f: ModeFields, w: PlaneWeights): number {
  for (const c of [f.Hu, f.Hv, f.Hw]) {
    for (let k = 0; k < c.re.length; k++) {
      c.re[k] /= ETA0;
      c.im[k] /= ETA0;
    }
  }
  return rescaleToOneWatt(f, w);
}

/**
 * Scales fields in V/m and A/m to 1 W through the plane and fixes the phase as
 * normaliseToOneWatt does. Returns the power before.
 */
export function rescaleToOneWatt(f: ModeFields, w: PlaneWeights): number {
  const p = modePower(f, w);
  let best = 0;
  let ref = { re: 1, im: 0 };
  for (const c of [f.Eu, f.Ev]) {
    for (let k = 0; k < c.re.length; k++) {
      const a = Math.hypot(c.re[k], c.im[k]);
      if (a > best) {
        best = a;
        ref = { re: c.re[k] / a, im: c.im[k] / a };
      }
    }
  }
  // Multiply by conj(phase)/√|P|.
  const s = 1 / Math.sqrt(Math.abs(p));
  for (const c of Object.values(f) as ComplexVector[]) {
    for (let k = 0; k < c.re.length; k++) {
      const r = c.re[k];
      const m = c.im[k];
      c.re[k] = s * (r * ref.re + m * ref.im);
      c.im[k] = s * (m * ref.re - r * ref.im);
    }
  }
  return p;
}

/** ∫|E_u|² / ∫(|E_u|² + |E_v|²) over the plane. */
export function teFraction(f: ModeFields, w: PlaneWeights): number {
  let a = 0;
  let b = 0;
  for (let k = 0; k < w.eu.length; k++) {
    a += (f.Eu.re[k] ** 2 + f.Eu.im[k] ** 2) * w.eu[k];
    b += (f.Ev.re[k] ** 2 + f.Ev.im[k] ** 2) * w.ev[k];
  }
  return a + b > 0 ? a / (a + b) : 0;
}

/**
 * n_g = c·W/P (header) for fields normalised to P; `epsGroup` is ∂(ωε)/∂ω per component
 * (the operator's ε when the materials do not disperse), `mu` the operator's μ.
 */
export function energyGroupIndex(
  f: ModeFields,
  w: PlaneWeights,
  epsGroup: { u: Float64Array; v: Float64Array; w: Float64Array },
  mu: ModeOperator["mu"],
): number {
  const sum = (c: ComplexVector, weight: Float64Array, m: Float64Array) => {
    let s = 0;
    for (let k = 0; k < weight.length; k++) s += (c.re[k] ** 2 + c.im[k] ** 2) * weight[k] * m[k];
    return s;
  };
  const electric =
    sum(f.Eu, w.eu, epsGroup.u) + sum(f.Ev, w.ev, epsGroup.v) + sum(f.Ew, w.ew, epsGroup.w);
  const magnetic = sum(f.Hu, w.hu, mu.u.re) + sum(f.Hv, w.hv, mu.v.re) + sum(f.Hw, w.hw, mu.w.re);
  const energy = (EPS0 * electric + MU0 * magnetic) / 4;
  return (SPEED_OF_LIGHT_M_PER_S * energy) / modePower(f, w);
}
