/**
 * One wavelength's modes of a cross-section plane (solve.ts walks a plane's wavelengths): the
 * operator (operator.ts), a nested-dissection LU of M − σI (lu.ts, ordering.ts; the analysis
 * handed from one wavelength to the next, since only values change), shift-invert Arnoldi
 * (arnoldi.ts) around σ = target_neff², the fields (fields.ts), and the choice DESIGN §10's
 * `mode_spec` asks for: modes sorted by n_eff (descending), `filter_pol` putting the modes of
 * that polarisation first, the absorber's own modes after the guide's.
 *
 * Everything here is plain data in and out, so that a second thread can solve some of a
 * plane's wavelengths (chain-helper.ts).
 */
import { shiftInvertArnoldi } from "./arnoldi.js";
import { complexSqrt } from "./dense.js";
import {
  energyGroupIndex,
  normaliseToOneWatt,
  reconstructFields,
  teFraction,
  type ModeFields,
  type PlaneWeights,
} from "./fields.js";
import { separateDegenerate } from "./degenerate.js";
import { SparseLu } from "./lu.js";
import type { SolvedPlane } from "./mode-cache.js";
import {
  buildModeOperator,
  type ModeAxis,
  type OperatorOptions,
  type PlanePermittivity,
} from "./operator.js";
import { nestedDissection } from "./ordering.js";
import { isEvanescent, type SolvedMode } from "./solved-mode.js";
import { csrShift, symmetricPattern, type ComplexVector } from "./sparse.js";
import type { Symbolic } from "./symbolic.js";
import { NEVER_STOPPED, type StopCheck } from "../stop-flag.js";

/** DESIGN §10's mode_spec (the bend goes to solveModes as `bend`: bendOf). */
export interface ModeSpec {
  num_modes?: number;
  /** Default: the largest refractive index on the plane. */
  target_neff?: number | null;
  /** `te`: E mostly along the plane's first axis u (te_fraction ≥ ½); `tm`: along v. */
  filter_pol?: "te" | "tm" | null;
}

/** What a plane's solve is, whatever the wavelength. */
export interface PlaneInput {
  /** The plane's axes u and v (w = u × v is the propagation direction). */
  axes: [ModeAxis, ModeAxis];
  mode_spec?: ModeSpec;
  bend?: OperatorOptions["bend"];
  /**
   * Set when (u, v, normal) is left-handed (e.g. a y-normal plane with u = x, v = z): H is
   * then negated so that the fields are those of the mode travelling along +normal.
   */
  leftHanded?: boolean;
}

/** One wavelength of a plane: its permittivity, and either side of it for a group index. */
export interface WavelengthInput {
  wavelengthM: number;
  eps: PlanePermittivity;
  /**
   * The permittivity at wavelengthM·(1 ∓ GROUP_DL), present when the group index (which sees
   * the material dispersion) is to be reported.
   */
  group?: { lo: PlanePermittivity; hi: PlanePermittivity };
}

/** The relative wavelength step of the group index's central difference. */
export const GROUP_DL = 1e-4;

/**
 * What one wavelength's solve hands the next: the LU's analysis, its spent factorisation
 * (whose memory the next one reuses) and a closer shift.
 */
export interface Shared {
  symbolic?: Symbolic;
  spent?: SparseLu;
  /** The default target for the next wavelength (nextTarget), when there is one. */
  target?: number;
}

/**
 * The next wavelength's default target: just above this wavelength's highest mode, so that
 * shift-invert converges in a few steps (the guided mode nearest σ = n_max² is far from it: on
 * a Si wire's port plane 33 solves a wavelength, against 7 from just above the mode) and still
 * finds the same modes, the highest ones. The margin covers the change of n_eff between
 * wavelengths. Only without an explicit target, without a bend, and when every mode found lives
 * off the absorber (bends and absorber modes keep the plane's largest index as the shift).
 */
export function nextTarget(
  input: PlaneInput,
  modes: readonly SolvedMode[],
  before: readonly SolvedMode[] | undefined,
): number | undefined {
  if (input.mode_spec?.target_neff != null || input.bend !== undefined) return undefined;
  if (modes.some((m) => isAbsorberMode(m, input.axes))) return undefined;
  const top = Math.max(...modes.map((m) => m.n_eff));
  const moved = before ? Math.abs(top - Math.max(...before.map((m) => m.n_eff))) : 0;
  return top + 0.02 + 2 * moved;
}

/**
 * The modes chosen at one wavelength, before they are tracked across wavelengths. `shared`
 * carries the LU's analysis from one wavelength to the next (only the values change) and the
 * default target the last wavelength suggests.
 */
export function solveWavelength(
  input: PlaneInput,
  at: WavelengthInput,
  weights: PlaneWeights,
  shared: Shared,
  checkStop: StopCheck = NEVER_STOPPED,
): SolvedPlane {
  checkStop();
  const { wavelengthM: wl, eps } = at;
  const spec = input.mode_spec ?? {};
  const numModes = Math.max(1, spec.num_modes ?? 1);
  const op = buildModeOperator(input.axes, eps, { wavelengthM: wl, bend: input.bend });
  const target = spec.target_neff ?? shared.target ?? Math.sqrt(maxIndexSquared(eps));
  const sigma = target * target;
  const shifted = csrShift(op.matrix, sigma, 0);
  if (!shared.symbolic) {
    // A − σI has A's pattern off the diagonal: one pattern for the ordering and the analysis.
    const pattern = symmetricPattern(op.matrix);
    shared.symbolic = SparseLu.analyse(shifted, nestedDissection(pattern, op.x, op.y), pattern);
  }
  const symbolic = shared.symbolic;
  const lu = SparseLu.factor(shifted, { symbolic, recycle: shared.spent });
  // Extra modes when filtering, so that enough of the wanted polarisation are found, and
  // around a bend with absorber, where the outer cladding's modes crowd the guide's, so that
  // those living in the absorber can be passed over.
  const crowded = input.bend !== undefined && input.axes.some((a) => a.boundary === "pml");
  const wanted = spec.filter_pol ? 2 * numModes + 2 : numModes;
  const count = Math.min(wanted + (crowded ? 4 : 0), op.matrix.rows);
  const applyInverse = (x: ComplexVector) => {
    checkStop();
    return lu.solve(x);
  };
  const modes = (pairs: ReturnType<typeof shiftInvertArnoldi>) =>
    modesOf(pairs, input, at, op, weights);
  let found: SolvedMode[];
  try {
    found = modes(eigenpairs(op.matrix.rows, sigma, applyInverse, count, wanted));
    // Modes of the absorber among those found (a wide absorber has modes of its own near σ):
    // look further, four at a time, until as many of the guide's as asked for are found, so
    // that they are chosen before the absorber's (choose) and a mode's index does not depend
    // on how many were asked for. A look that does not converge ends the search with what
    // was found: a wider one would not either (the absorber's modes cluster), and each took
    // as long as the first solve (a 124 × 99 plane: 4 × 3-5 s before this stopped it).
    for (let extra = 4; extra <= 12; extra += 4) {
      const absorbed = found.filter((m) => isAbsorberMode(m, input.axes)).length;
      const more = Math.min(count + extra, op.matrix.rows);
      if (absorbed === 0 || found.length - absorbed >= wanted || more <= found.length) break;
      const further = extraPairs(op.matrix.rows, sigma, applyInverse, more);
      if (!further) break;
      found = modes(further);
    }
  } catch (e) {
    // Cancelled (or not converged): the factorisation's memory goes back for the next solve.
    lu.release();
    throw e;
  }
  shared.spent = lu;
  separateDegenerate(found, weights);
  return {
    modes: choose(found, numModes, spec.filter_pol ?? null, input.axes),
    unknowns: op.matrix.rows,
    factorEntries: symbolic.factorEntries,
  };
}

/** The modes of the eigenpairs found: n_eff, fields at 1 W, TE fraction, group index. */
function modesOf(
  pairs: ReturnType<typeof shiftInvertArnoldi>,
  input: PlaneInput,
  at: WavelengthInput,
  op: ReturnType<typeof buildModeOperator>,
  weights: PlaneWeights,
): SolvedMode[] {
  return pairs.values.map((lambda, k) => {
    const [nr, ni] = complexSqrt(lambda.re, lambda.im);
    const n = nr >= 0 ? { re: nr, im: ni } : { re: -nr, im: -ni };
    const fields = reconstructFields(op, pairs.vectors[k], n);
    normaliseToOneWatt(fields, weights);
    const mode: SolvedMode = {
      wavelength_m: at.wavelengthM,
      mode_index: 0,
      n_eff: n.re,
      k_eff: n.im,
      te_fraction: teFraction(fields, weights),
      fields,
    };
    // In the (u, v, u × v) frame, before a left-handed plane's H turns round. A mode past
    // cut-off (n_eff below |k_eff|) carries no power to weigh its energy by: none (±1e17).
    if (at.group && !isEvanescent(mode)) {
      mode.group_index = energyGroupIndex(fields, weights, groupEps(at, op), op.mu);
    }
    if (input.leftHanded) negateH(fields);
    return mode;
  });
}

function maxIndexSquared(eps: PlanePermittivity): number {
  let m = 1;
  for (const c of [eps.uu, eps.vv, eps.ww]) for (const v of c.re) m = Math.max(m, v);
  return m;
}

function negateH(f: ModeFields): void {
  for (const c of [f.Hu, f.Hv, f.Hw]) {
    for (let k = 0; k < c.re.length; k++) {
      c.re[k] = -c.re[k];
      c.im[k] = -c.im[k];
    }
  }
}

/** Sorted by n_eff descending; with a filter, the matching polarisation first. */
function choose(
  found: SolvedMode[],
  count: number,
  pol: "te" | "tm" | null,
  axes: readonly [ModeAxis, ModeAxis],
): SolvedMode[] {
  // Modes with most of their E in the plane's absorber are the absorber's, not the guide's:
  // they go after the others (a bent guide's radiating mode keeps most of its E outside it).
  const inAbsorber = new Map(found.map((m) => [m, isAbsorberMode(m, axes)]));
  const byIndex = [...found].sort(
    (a, b) => Number(inAbsorber.get(a)) - Number(inAbsorber.get(b)) || b.n_eff - a.n_eff,
  );
  if (!pol) return byIndex.slice(0, count);
  const matches = (m: SolvedMode) => (pol === "te" ? m.te_fraction >= 0.5 : m.te_fraction < 0.5);
  return [...byIndex.filter(matches), ...byIndex.filter((m) => !matches(m))].slice(0, count);
}

/**
 * The `count` eigenpairs nearest σ, or, when the extra ones asked for beyond `wanted` do not
 * converge (the absorber's modes can cluster near σ where no guided mode is), the `wanted`.
 */
function eigenpairs(
  n: number,
  sigma: number,
  applyInverse: (x: ComplexVector) => ComplexVector,
  count: number,
  wanted: number,
): ReturnType<typeof shiftInvertArnoldi> {
  if (count <= wanted) return shiftInvertArnoldi(n, { re: sigma, im: 0 }, applyInverse, { count });
  try {
    // A few restarts only: the extra pairs are a convenience, not worth a long search.
    return shiftInvertArnoldi(n, { re: sigma, im: 0 }, applyInverse, { count, maxRestarts: 3 });
  } catch (e) {
    if (count <= wanted) throw e;
    return shiftInvertArnoldi(n, { re: sigma, im: 0 }, applyInverse, { count: wanted });
  }
}

/** The `count` eigenpairs nearest σ after a few restarts, or null where they do not converge. */
function extraPairs(
  n: number,
  sigma: number,
  applyInverse: (x: ComplexVector) => ComplexVector,
  count: number,
): ReturnType<typeof shiftInvertArnoldi> | null {
  try {
    return shiftInvertArnoldi(n, { re: sigma, im: 0 }, applyInverse, { count, maxRestarts: 3 });
  } catch (e) {
    if (e instanceof Error && /did not converge/.test(e.message)) return null;
    throw e;
  }
}

/**
 * The share of a mode's |E|² in the plane's absorber from which it is taken for the
 * absorber's mode, not the guide's. A guided mode on a plane that reaches into the absorber
 * keeps a few per cent there; the absorber's own modes, which a plane sized past the domain
 * (as ports.md advises) finds above the guide's n_eff, hold a quarter to a half of theirs
 * there (at 0.5 they were taken for the guide's: a port launched one, |S21|² 0.09).
 */
export const ABSORBER_MODE_FRACTION = 0.2;

/** Whether a mode is the plane's absorber's (ABSORBER_MODE_FRACTION). */
export function isAbsorberMode(m: SolvedMode, axes: readonly [ModeAxis, ModeAxis]): boolean {
  return absorberFraction(m.fields, axes) > ABSORBER_MODE_FRACTION;
}

/** The fraction of Σ|E|² over the plane's samples that lies in its absorber cells. */
export function absorberFraction(f: ModeFields, axes: readonly [ModeAxis, ModeAxis]): number {
  const [nu, nv] = axes.map((a) => a.nodesM.length - 1) as [number, number];
  const inside = (k: number, n: number, a: ModeAxis) =>
    a.boundary !== "pml" || (k >= (a.pmlLo ?? 0) && k < n - (a.pmlHi ?? 0));
  let total = 0;
  let absorbed = 0;
  for (let i = 0; i < nu; i++) {
    for (let j = 0; j < nv; j++) {
      const k = i * nv + j;
      let e = 0;
      for (const c of [f.Eu, f.Ev, f.Ew]) e += c.re[k]! ** 2 + c.im[k]! ** 2;
      total += e;
      if (!(inside(i, nu, axes[0]) && inside(j, nv, axes[1]))) absorbed += e;
    }
  }
  return total > 0 ? absorbed / total : 0;
}

/**
 * ε_g = ∂(ωε)/∂ω = ε − λ·∂ε/∂λ per component (real parts, with the bend's factors as the
 * operator has them), by a central difference of the permittivity in wavelength.
 */
function groupEps(
  at: WavelengthInput,
  op: ReturnType<typeof buildModeOperator>,
): { u: Float64Array; v: Float64Array; w: Float64Array } {
  const { wavelengthM: wl, eps: mid } = at;
  const { lo, hi } = at.group!;
  const dl = wl * GROUP_DL;
  const part = (opEps: Float64Array, a: Float64Array, b: Float64Array, c: Float64Array) =>
    opEps.map((e, k) => (c[k] !== 0 ? e * (1 - (wl * (b[k] - a[k])) / (2 * dl) / c[k]) : e));
  return {
    u: part(op.eps.u.re, lo.uu.re, hi.uu.re, mid.uu.re),
    v: part(op.eps.v.re, lo.vv.re, hi.vv.re, mid.vv.re),
    w: part(op.eps.w.re, lo.ww.re, hi.ww.re, mid.ww.re),
  };
}
