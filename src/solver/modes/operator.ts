/**
 * The full-vector finite-difference mode operator on a 2-D Yee cross-section.
 *
 * Frame and staggering. The plane's axes are u and v, the propagation axis w = u × v (a
 * right-handed frame), fields ∝ exp(i(βw − ωt)) (the FDTD's e^{−iωt} convention: a lossy ε
 * has Im ε > 0 and a lossy mode Im β > 0). The components sit where the FDTD's 3-D Yee grid
 * puts them in a plane of constant w (grid.ts): E_u (i+½, j), E_v (i, j+½), E_w (i, j),
 * H_u (i, j+½), H_v (i+½, j), H_w (i+½, j+½), stored at index i·nv + j (v fastest, as in the
 * FDTD's arrays). Node nu (nv) of an axis is not stored: it is the PEC wall, or node 0 again
 * on a periodic axis.
 *
 * Equations (Zhu & Brown, Opt. Express 10, 853 (2002), with μ kept for the bend's
 * transformation). With h = Z0·H, k0 = ω/c and the forward (node → centre) and backward
 * (centre → node) differences D^f, D^b, eliminating E_w and h_w from Maxwell's curl equations
 * gives β²·[E_u; E_v] = k0²·M·[E_u; E_v], with
 *   k0² M_uu = k0² μ_v ε_u + μ_v D_v^b μ_w⁻¹ D_v^f + D_u^f ε_w⁻¹ D_u^b ε_u
 *   k0² M_uv = −μ_v D_v^b μ_w⁻¹ D_u^f + D_u^f ε_w⁻¹ D_v^b ε_v
 *   k0² M_vu = −μ_u D_u^b μ_w⁻¹ D_v^f + D_v^f ε_w⁻¹ D_u^b ε_u
 *   k0² M_vv = k0² μ_u ε_v + μ_u D_u^b μ_w⁻¹ D_u^f + D_v^f ε_w⁻¹ D_v^b ε_v
 * so M's eigenvalues are n_eff². (The fourth-order terms cancel because D_u and D_v commute on
 * a tensor grid: the discrete div curl = 0.) Each row has at most 9 entries. The differences
 * are second-order accurate on smoothly graded steps (steps as in grid.ts: a forward
 * difference divides by the cell, a backward one by the dual step).
 *
 * Walls. A PEC wall (also behind a PML) holds tangential E and normal H at zero on its nodes:
 * E_v on a u-wall and E_u on a v-wall are dropped from the unknowns, and the backward
 * difference onto the wall's node is zero. A periodic axis wraps. A mirror at node 0 (the
 * FDTD's `symmetry`): `pec` as a PEC wall; `pmc` keeps the node unknowns and images the
 * centred quantities with odd parity (g₋₁ = −g₀), as tangential H and normal E are odd there.
 *
 * PML: stretched coordinates ∂_ξ → s(ξ)⁻¹∂_ξ, s = 1 + iσ·d³ over the absorber cells (d the
 * depth into it, 0 … 1), applied to every difference at the position of its result (Chew &
 * Weedon 1994; for mode solvers, e.g. Lumerical's and Tidy3D's FDE).
 *
 * Bends: the guide bent with radius R about an axis along v (radial axis u, or the other way
 * round) is the straight guide of the transformation-optics media ε' = ε·diag(h, h, 1/h),
 * μ' = diag(h, h, 1/h) in (radial, axial, w), with h = 1 + x/R and x the radial coordinate
 * from the plane's centre (Ward & Pendry, J. Mod. Opt. 43, 773 (1996)): exact for the bend,
 * where the scalar conformal map n·(1 + x/R) (Heiblum & Harris 1975), which gives the same
 * n·√(εμ) scaling, is its scalar approximation. β is then the propagation constant along the
 * arc at radius R (angular order m = βR).
 */
import { csrBlockSum, csrProduct, csrRestrict, csrScale, TripletBuilder } from "./sparse.js";
import type { ComplexCsr, ComplexVector } from "./sparse.js";

/** One axis of the plane: its nodes, walls, mirror and absorber. */
export interface ModeAxis {
  /** Node coordinates in metres, increasing: nodesM[0] … nodesM[cells]. */
  nodesM: Float64Array;
  /** `pml`: absorber cells at the ends (pmlLo, pmlHi) backed by PEC walls. */
  boundary: "pec" | "pml" | "periodic";
  /** A mirror plane at node 0 (`none` by default); its side takes no absorber. */
  mirror?: "none" | "pec" | "pmc";
  /** Absorber cells at the low and high ends (boundary `pml` only). */
  pmlLo?: number;
  pmlHi?: number;
}

/**
 * Relative permittivity of the plane per component, at that component's Yee position (see
 * the frame above), index i·nv + j; imaginary parts optional (lossless when absent).
 */
export interface PlanePermittivity {
  uu: { re: Float64Array; im?: Float64Array };
  vv: { re: Float64Array; im?: Float64Array };
  ww: { re: Float64Array; im?: Float64Array };
}

export interface OperatorOptions {
  wavelengthM: number;
  /** A bend of radius R (m; negative: curving the other way) about the axis other than radialAxis. */
  bend?: { radiusM: number; radialAxis: 0 | 1 };
  /** Peak Im s of the PML's stretch (default: 2·ln(10⁸)/(k0·L), L the absorber's length). */
  pmlSigma?: number;
}

/** Per axis: the 1-D difference coefficients and the wall rules. */
interface AxisDiff {
  n: number;
  periodic: boolean;
  /** The low face's node quantities are zero (a PEC wall or PEC mirror). */
  lowPec: boolean;
  lowPmc: boolean;
  /** 1/(Δ_i·s(centre i)): forward difference into centre i. */
  fwd: ComplexVector;
  /** 1/(dual_i·s(node i)): backward difference onto node i. */
  bwd: ComplexVector;
}

/** The assembled operator and what the field reconstruction needs. */
export interface ModeOperator {
  nu: number;
  nv: number;
  k0: number;
  /** M on the free unknowns (eigenvalues n_eff²). */
  matrix: ComplexCsr;
  /** free[k]: the full index (component·N + i·nv + j, u then v) of unknown k. */
  free: Int32Array;
  /** Unknown coordinates in cells (for the ordering). */
  x: Float64Array;
  y: Float64Array;
  /** Transformed (bend) material at each component's position, full N arrays. */
  eps: { u: ComplexVector; v: ComplexVector; w: ComplexVector };
  mu: { u: ComplexVector; v: ComplexVector; w: ComplexVector };
  /** Full-space differences: D_u^f, D_u^b, D_v^f, D_v^b (N × N). */
  duF: ComplexCsr;
  duB: ComplexCsr;
  dvF: ComplexCsr;
  dvB: ComplexCsr;
}

const PML_REFLECTION_LN = Math.log(1e8);

function axisDiff(axis: ModeAxis, k0: number, sigmaOverride?: number): AxisDiff {
  const nodes = axis.nodesM;
  const n = nodes.length - 1;
  const mirror = axis.mirror ?? "none";
  const pml = axis.boundary === "pml";
  const lo = pml && mirror === "none" ? (axis.pmlLo ?? 0) : 0;
  const hi = pml ? (axis.pmlHi ?? 0) : 0;
  const step = (i: number) => nodes[(((i % n) + n) % n) + 1] - nodes[((i % n) + n) % n];
  const sigmaFor = (cells: number, from: number) => {
    if (sigmaOverride !== undefined) return sigmaOverride;
    const length = Math.abs(nodes[from + cells] - nodes[from]);
    return (2 * PML_REFLECTION_LN) / (k0 * length);
  };
  const sLo = lo > 0 ? sigmaFor(lo, 0) : 0;
  const sHi = hi > 0 ? sigmaFor(hi, n - hi) : 0;
  // Stretch at position ξ (in cells): 1 + iσ·d³.
  const stretchIm = (xi: number) => {
    if (xi < lo) return sLo * ((lo - xi) / lo) ** 3;
    if (xi > n - hi) return sHi * ((xi - (n - hi)) / hi) ** 3;
    return 0;
  };
  const fwd = { re: new Float64Array(n), im: new Float64Array(n) };
  const bwd = { re: new Float64Array(n), im: new Float64Array(n) };
  const periodic = axis.boundary === "periodic";
  for (let i = 0; i < n; i++) {
    setInverse(fwd, i, step(i), stretchIm(i + 0.5));
    const dual = i > 0 || periodic ? (step(i - 1) + step(i)) / 2 : step(0);
    setInverse(bwd, i, dual, stretchIm(i));
  }
  return {
    n,
    periodic,
    lowPec: !periodic && mirror !== "pmc",
    lowPmc: mirror === "pmc",
    fwd,
    bwd,
  };
}

/** out[i] = 1/(len·(1 + i·sIm)). */
function setInverse(out: ComplexVector, i: number, len: number, sIm: number): void {
  const d = len * (1 + sIm * sIm);
  out.re[i] = 1 / d;
  out.im[i] = -sIm / d;
}

/**
 * The difference along one plane axis on the full nu × nv index space: forward (node →
 * centre) or backward (centre → node). `along` 0 is u (stride nv), 1 is v (stride 1).
 */
function differenceMatrix(ax: AxisDiff, other: number, along: 0 | 1, forward: boolean): ComplexCsr {
  const n = ax.n;
  const b = new TripletBuilder(n * other, n * other);
  const at = (i: number, j: number) => (along === 0 ? i * other + j : j * n + i);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < other; j++) {
      const row = at(i, j);
      if (forward) {
        const c = ax.fwd;
        b.push(row, row, -c.re[i], -c.im[i]);
        if (i + 1 < n) b.push(row, at(i + 1, j), c.re[i], c.im[i]);
        else if (ax.periodic) b.push(row, at(0, j), c.re[i], c.im[i]);
        continue;
      }
      const c = ax.bwd;
      if (i === 0 && ax.lowPec) continue;
      const self = i === 0 && ax.lowPmc ? 2 : 1;
      b.push(row, row, self * c.re[i], self * c.im[i]);
      if (i > 0) b.push(row, at(i - 1, j), -c.re[i], -c.im[i]);
      else if (ax.periodic) b.push(row, at(n - 1, j), -c.re[i], -c.im[i]);
    }
  }
  return b.toCsr();
}

/** Stagger (u, v) in cells of each component's position. */
const STAGGER = {
  eu: [0.5, 0],
  ev: [0, 0.5],
  ew: [0, 0],
  hu: [0, 0.5],
  hv: [0.5, 0],
  hw: [0.5, 0.5],
} as const;

/** The bend's metric factor h = 1 + x/R at a staggered position, per full index. */
function metricFactor(
  axes: readonly [ModeAxis, ModeAxis],
  bend: OperatorOptions["bend"],
  stagger: readonly [number, number],
): Float64Array {
  const nu = axes[0].nodesM.length - 1;
  const nv = axes[1].nodesM.length - 1;
  const h = new Float64Array(nu * nv).fill(1);
  if (!bend) return h;
  const r = bend.radialAxis;
  const nodes = axes[r].nodesM;
  const n = nodes.length - 1;
  const centre = (nodes[0] + nodes[n]) / 2;
  const coord = (i: number) =>
    stagger[r] === 0 ? nodes[i] : (nodes[i] + nodes[Math.min(i + 1, n)]) / 2;
  for (let i = 0; i < nu; i++) {
    for (let j = 0; j < nv; j++) {
      h[i * nv + j] = 1 + (coord(r === 0 ? i : j) - centre) / bend.radiusM;
    }
  }
  return h;
}

/** ε·f (or ε/f) as a complex vector. */
function scaled(
  eps: { re: Float64Array; im?: Float64Array },
  f: Float64Array,
  divide: boolean,
): ComplexVector {
  const n = f.length;
  const out = { re: new Float64Array(n), im: new Float64Array(n) };
  for (let k = 0; k < n; k++) {
    const g = divide ? 1 / f[k] : f[k];
    out.re[k] = eps.re[k] * g;
    out.im[k] = (eps.im ? eps.im[k] : 0) * g;
  }
  return out;
}

export function reciprocal(v: ComplexVector): ComplexVector {
  const out = { re: new Float64Array(v.re.length), im: new Float64Array(v.re.length) };
  for (let k = 0; k < v.re.length; k++) {
    const d = v.re[k] * v.re[k] + v.im[k] * v.im[k];
    out.re[k] = v.re[k] / d;
    out.im[k] = -v.im[k] / d;
  }
  return out;
}

function realVector(f: Float64Array, invert: boolean): ComplexVector {
  return { re: f.map((x) => (invert ? 1 / x : x)), im: new Float64Array(f.length) };
}

/** The transformed media of the plane at every component's position. */
function transformedMedia(
  axes: readonly [ModeAxis, ModeAxis],
  eps: PlanePermittivity,
  bend: OperatorOptions["bend"],
): Pick<ModeOperator, "eps" | "mu"> {
  if (bend && (axes[bend.radialAxis].mirror ?? "none") !== "none") {
    throw new RangeError("a bend's radial axis cannot have a mirror plane");
  }
  const h = (s: readonly [number, number]) => metricFactor(axes, bend, s);
  return {
    eps: {
      u: scaled(eps.uu, h(STAGGER.eu), false),
      v: scaled(eps.vv, h(STAGGER.ev), false),
      w: scaled(eps.ww, h(STAGGER.ew), true),
    },
    mu: {
      u: realVector(h(STAGGER.hu), false),
      v: realVector(h(STAGGER.hv), false),
      w: realVector(h(STAGGER.hw), true),
    },
  };
}

/**
 * Builds M (eigenvalues n_eff²) for a plane of nu × nv cells at one wavelength.
 * @throws RangeError for arrays of the wrong length or a bend along a mirrored axis
 */
export function buildModeOperator(
  axes: readonly [ModeAxis, ModeAxis],
  eps: PlanePermittivity,
  options: OperatorOptions,
): ModeOperator {
  const k0 = (2 * Math.PI) / options.wavelengthM;
  const au = axisDiff(axes[0], k0, options.pmlSigma);
  const av = axisDiff(axes[1], k0, options.pmlSigma);
  const nu = au.n;
  const nv = av.n;
  const N = nu * nv;
  for (const c of [eps.uu, eps.vv, eps.ww]) {
    if (c.re.length !== N || (c.im && c.im.length !== N)) {
      throw new RangeError(`permittivity arrays must hold nu·nv = ${N} values`);
    }
  }
  const media = transformedMedia(axes, eps, options.bend);
  const duF = differenceMatrix(au, nv, 0, true);
  const duB = differenceMatrix(au, nv, 0, false);
  const dvF = differenceMatrix(av, nu, 1, true);
  const dvB = differenceMatrix(av, nu, 1, false);
  const full = assemble(media, { duF, duB, dvF, dvB }, N, k0);
  const free = freeUnknowns(nu, nv, au.lowPec, av.lowPec);
  const x = new Float64Array(free.length);
  const y = new Float64Array(free.length);
  for (let k = 0; k < free.length; k++) {
    const f = free[k];
    const c = f >= N ? 1 : 0;
    const r = f - c * N;
    x[k] = Math.floor(r / nv) + (c === 0 ? 0.5 : 0);
    y[k] = (r % nv) + (c === 1 ? 0.5 : 0);
  }
  const matrix = csrRestrict(full, free);
  return { nu, nv, k0, matrix, free, x, y, ...media, duF, duB, dvF, dvB };
}

/** The 2N × 2N operator on (E_u, E_v) from the four blocks of the header. */
function assemble(
  media: Pick<ModeOperator, "eps" | "mu">,
  d: { duF: ComplexCsr; duB: ComplexCsr; dvF: ComplexCsr; dvB: ComplexCsr },
  N: number,
  k0: number,
): ComplexCsr {
  const { eps, mu } = media;
  const epsWInv = reciprocal(eps.w);
  const muWInv = reciprocal(mu.w);
  const inv = 1 / (k0 * k0);
  const diag = (x: ComplexVector, y: ComplexVector): ComplexCsr => {
    const re = new Float64Array(N);
    const im = new Float64Array(N);
    for (let k = 0; k < N; k++) {
      re[k] = x.re[k] * y.re[k] - x.im[k] * y.im[k];
      im[k] = x.re[k] * y.im[k] + x.im[k] * y.re[k];
    }
    const rowPtr = Int32Array.from({ length: N + 1 }, (_, k) => k);
    return { rows: N, cols: N, rowPtr, colIdx: rowPtr.slice(0, N), re, im };
  };
  // μ D^b μ_w⁻¹ D^f terms (curl curl through h_w) and D^f ε_w⁻¹ D^b ε terms (grad div).
  const curl = (rowMu: ComplexVector, back: ComplexCsr, fwdOp: ComplexCsr) =>
    csrProduct(csrScale(back, rowMu, muWInv), fwdOp);
  const grad = (fwdOp: ComplexCsr, back: ComplexCsr, colEps: ComplexVector) =>
    csrProduct(csrScale(fwdOp, null, epsWInv), csrScale(back, null, colEps));
  const at = (block: ComplexCsr, rowOffset: number, colOffset: number, factor: number) => ({
    block,
    rowOffset,
    colOffset,
    factor,
  });
  return csrBlockSum(2 * N, 2 * N, [
    at(diag(mu.v, eps.u), 0, 0, 1),
    at(diag(mu.u, eps.v), N, N, 1),
    at(curl(mu.v, d.dvB, d.dvF), 0, 0, inv),
    at(grad(d.duF, d.duB, eps.u), 0, 0, inv),
    at(curl(mu.v, d.dvB, d.duF), 0, N, -inv),
    at(grad(d.duF, d.dvB, eps.v), 0, N, inv),
    at(curl(mu.u, d.duB, d.dvF), N, 0, -inv),
    at(grad(d.dvF, d.duB, eps.u), N, 0, inv),
    at(curl(mu.u, d.duB, d.duF), N, N, inv),
    at(grad(d.dvF, d.dvB, eps.v), N, N, inv),
  ]);
}

/** Full indices of the unknowns not held at zero by a PEC wall at node 0. */
function freeUnknowns(nu: number, nv: number, uLowPec: boolean, vLowPec: boolean): Int32Array {
  const N = nu * nv;
  const out: number[] = [];
  for (let r = 0; r < N; r++) if (!(vLowPec && r % nv === 0)) out.push(r);
  for (let r = 0; r < N; r++) if (!(uLowPec && Math.floor(r / nv) === 0)) out.push(N + r);
  return Int32Array.from(out);
}
