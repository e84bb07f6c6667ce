/**
 * Degenerate pairs of modes (a square guide's, a round fibre's fundamental pair): any
 * combination of the two is a mode, and on the Yee grid, whose staggering splits them by a few
 * parts in a million, the eigen-solver returns the pair as the combinations the grid's
 * diagonal symmetry picks, E at 45° (TE fraction ½ each). Neither `filter_pol` nor the tracking
 * across wavelengths can tell those apart. Each pair whose complex n_eff agree within
 * DEGENERATE is turned into the combinations with the most and the least E along the first axis
 * (a 2 × 2 generalised eigenproblem of ∫|E_u|² against ∫|E_t|²), each at 1 W: the TE-like and
 * TM-like modes an engineer expects. The grid's split of the pair's n_eff is kept.
 */
import { rescaleToOneWatt, teFraction, type ModeFields, type PlaneWeights } from "./fields.js";
import type { SolvedMode } from "./solved-mode.js";
import type { ComplexVector } from "./sparse.js";

/** Relative difference of n_eff below which two modes count as one degenerate pair. */
export const DEGENERATE = 1e-5;

/** Σ w·conj(a)·b over one component. */
function inner(a: ComplexVector, b: ComplexVector, w: Float64Array): [number, number] {
  let re = 0;
  let im = 0;
  for (let k = 0; k < w.length; k++) {
    re += (a.re[k]! * b.re[k]! + a.im[k]! * b.im[k]!) * w[k]!;
    im += (a.re[k]! * b.im[k]! - a.im[k]! * b.re[k]!) * w[k]!;
  }
  return [re, im];
}

/** x1·a + x2·b, component by component. */
function combine(a: ModeFields, b: ModeFields, x: [number, number, number, number]): ModeFields {
  const [x1r, x1i, x2r, x2i] = x;
  const mix = (p: ComplexVector, q: ComplexVector): ComplexVector => {
    const re = new Float64Array(p.re.length);
    const im = new Float64Array(p.re.length);
    for (let k = 0; k < re.length; k++) {
      re[k] = x1r * p.re[k]! - x1i * p.im[k]! + x2r * q.re[k]! - x2i * q.im[k]!;
      im[k] = x1r * p.im[k]! + x1i * p.re[k]! + x2r * q.im[k]! + x2i * q.re[k]!;
    }
    return { re, im };
  };
  return {
    Eu: mix(a.Eu, b.Eu),
    Ev: mix(a.Ev, b.Ev),
    Ew: mix(a.Ew, b.Ew),
    Hu: mix(a.Hu, b.Hu),
    Hv: mix(a.Hv, b.Hv),
    Hw: mix(a.Hw, b.Hw),
  };
}

/**
 * The combinations (x1, x2) of a pair with the largest and the smallest ∫|E_u|² for a given
 * ∫|E_t|²: the eigenvectors of A·x = λ·B·x with A, B the pair's Gram matrices.
 */
function polarisedCombinations(
  a: ModeFields,
  b: ModeFields,
  w: PlaneWeights,
): [number, number, number, number][] {
  const [auu] = inner(a.Eu, a.Eu, w.eu);
  const [buu] = inner(b.Eu, b.Eu, w.eu);
  const [abr, abi] = inner(a.Eu, b.Eu, w.eu);
  const [avv] = inner(a.Ev, a.Ev, w.ev);
  const [bvv] = inner(b.Ev, b.Ev, w.ev);
  const [cr, ci] = inner(a.Ev, b.Ev, w.ev);
  const A = { a11: auu, a22: buu, r: abr, i: abi };
  const B = { a11: auu + avv, a22: buu + bvv, r: abr + cr, i: abi + ci };
  // det(A − λB) = 0: (A11 − λB11)(A22 − λB22) − |A12 − λB12|² = 0, real in λ.
  const qa = B.a11 * B.a22 - (B.r * B.r + B.i * B.i);
  const qb = -(A.a11 * B.a22 + A.a22 * B.a11) + 2 * (A.r * B.r + A.i * B.i);
  const qc = A.a11 * A.a22 - (A.r * A.r + A.i * A.i);
  const disc = Math.sqrt(Math.max(0, qb * qb - 4 * qa * qc));
  return [(-qb + disc) / (2 * qa), (-qb - disc) / (2 * qa)].map((lambda) => {
    // A null vector of A − λB from its larger row: (−A12 + λB12, A11 − λB11) or
    // (A22 − λB22, −conj(A12 − λB12)).
    const r = A.r - lambda * B.r;
    const i = A.i - lambda * B.i;
    const d1 = A.a11 - lambda * B.a11;
    const d2 = A.a22 - lambda * B.a22;
    return Math.abs(d1) >= Math.abs(d2) ? [-r, -i, d1, 0] : [d2, 0, -r, i];
  }) as [number, number, number, number][];
}

/** Replaces each degenerate pair among `modes` (in place) by its TE-like and TM-like modes. */
export function separateDegenerate(modes: SolvedMode[], w: PlaneWeights): void {
  const order = modes.map((_, i) => i).sort((p, q) => modes[q]!.n_eff - modes[p]!.n_eff);
  for (let k = 0; k + 1 < order.length; k++) {
    const a = modes[order[k]!]!;
    const b = modes[order[k + 1]!]!;
    const apart = Math.hypot(a.n_eff - b.n_eff, a.k_eff - b.k_eff);
    if (apart > DEGENERATE * Math.abs(a.n_eff)) continue;
    const [fa, fb] = [a.fields, b.fields];
    const [most, least] = polarisedCombinations(fa, fb, w);
    const none = (x: number[]) => x.every((v) => v === 0 || !Number.isFinite(v));
    if (none(most!) || none(least!)) continue;
    a.fields = combine(fa, fb, most!);
    b.fields = combine(fa, fb, least!);
    for (const m of [a, b]) {
      rescaleToOneWatt(m.fields, w);
      m.te_fraction = teFraction(m.fields, w);
    }
    k++;
  }
}
