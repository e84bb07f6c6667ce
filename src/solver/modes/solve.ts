/**
 * Waveguide modes of a cross-section plane at a list of wavelengths: the operator
 * (operator.ts), a nested-dissection LU of M − σI (lu.ts, ordering.ts, analysed once for all
 * wavelengths since only values change), shift-invert Arnoldi (arnoldi.ts) around
 * σ = target_neff², the fields (fields.ts), and the bookkeeping of DESIGN §10's `mode_spec`:
 * modes sorted by n_eff (descending), `filter_pol` putting the modes of that polarisation
 * first, and modes tracked across wavelengths by their overlap so that `mode_index` names the
 * same mode at every wavelength.
 */
import { shiftInvertArnoldi } from "./arnoldi.js";
import { complexSqrt } from "./dense.js";
import {
  energyGroupIndex,
  normaliseToOneWatt,
  planeWeights,
  reconstructFields,
  teFraction,
  type ModeFields,
  type PlaneWeights,
} from "./fields.js";
import { SparseLu } from "./lu.js";
import { complexOverlap } from "./overlap.js";
import {
  buildModeOperator,
  type ModeAxis,
  type OperatorOptions,
  type PlanePermittivity,
} from "./operator.js";
import type { SolvedMode } from "./solved-mode.js";
import type { ModeCache } from "./mode-cache.js";
import { sharedModeCache, type ModeKey, type SolvedPlane } from "./mode-cache.js";
import { nestedDissection } from "./ordering.js";
import { csrShift, symmetricPattern, type ComplexVector } from "./sparse.js";
import type { Symbolic } from "./symbolic.js";

/** DESIGN §10's mode_spec (the bend goes to solveModes as `bend`: bendOf). */
export interface ModeSpec {
  num_modes?: number;
  /** Default: the largest refractive index on the plane. */
  target_neff?: number | null;
  /** `te`: E mostly along the plane's first axis u (te_fraction ≥ ½); `tm`: along v. */
  filter_pol?: "te" | "tm" | null;
}

export interface SolveModesInput {
  /** The plane's axes u and v (w = u × v is the propagation direction). */
  axes: [ModeAxis, ModeAxis];
  /** Permittivity per wavelength (a function lets the group index see material dispersion). */
  planeEps: PlanePermittivity | ((wavelengthM: number) => PlanePermittivity);
  wavelengths_m: readonly number[];
  mode_spec?: ModeSpec;
  bend?: OperatorOptions["bend"];
  /** Report the group index (energy velocity; lossless guides). */
  groupIndex?: boolean;
  /**
   * Set when (u, v, normal) is left-handed (e.g. a y-normal plane with u = x, v = z): H is
   * then negated so that the fields are those of the mode travelling along +normal.
   */
  leftHanded?: boolean;
}

export type { SolvedMode } from "./solved-mode.js";

/** modes[w][m]: mode m at wavelength w. */
export interface SolveModesResult {
  modes: SolvedMode[][];
  /** Unknowns of the eigenproblem and entries of its LU factors (for reports and limits). */
  unknowns: number;
  factorEntries: number;
}

/**
 * Solves the plane's modes at every wavelength.
 * @throws RangeError for inconsistent arrays; Error when the eigen-solver does not converge
 */
export function solveModes(
  input: SolveModesInput,
  cache: ModeCache | null = sharedModeCache,
): SolveModesResult {
  const epsAt = (wl: number) =>
    typeof input.planeEps === "function" ? input.planeEps(wl) : input.planeEps;
  const weights = planeWeights(input.axes);
  const shared: Shared = {};
  const modes: SolvedMode[][] = [];
  let solved: SolvedPlane | undefined;
  for (const wl of input.wavelengths_m) {
    const eps = epsAt(wl);
    const key = cache && modeKey(input, wl, eps, epsAt, !!input.groupIndex);
    solved = cache && key ? lookUp(cache, key, input, wl, eps, epsAt) : undefined;
    if (!solved) {
      solved = solveAt(input, wl, eps, epsAt, weights, shared);
      if (cache && key) cache.set(key, solved);
    }
    const previous = modes[modes.length - 1];
    const ordered = previous ? trackByOverlap(previous, solved.modes, weights) : solved.modes;
    ordered.forEach((m, i) => (m.mode_index = i));
    shared.target = nextTarget(input, ordered, modes[modes.length - 1]);
    modes.push(ordered);
  }
  return { modes, unknowns: solved?.unknowns ?? 0, factorEntries: solved?.factorEntries ?? 0 };
}

/**
 * What one wavelength's solve hands the next: the LU's analysis, its spent factorisation
 * (whose memory the next one reuses) and a closer shift.
 */
interface Shared {
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
function nextTarget(
  input: SolveModesInput,
  modes: readonly SolvedMode[],
  before: readonly SolvedMode[] | undefined,
): number | undefined {
  if (input.mode_spec?.target_neff != null || input.bend !== undefined) return undefined;
  if (modes.some((m) => absorberFraction(m.fields, input.axes) > 0.5)) return undefined;
  const top = Math.max(...modes.map((m) => m.n_eff));
  const moved = before ? Math.abs(top - Math.max(...before.map((m) => m.n_eff))) : 0;
  return top + 0.02 + 2 * moved;
}

/**
 * The modes chosen at one wavelength, before they are tracked across wavelengths. `shared`
 * carries the LU's analysis from one wavelength to the next (only the values change) and the
 * default target the last wavelength suggests.
 */
function solveAt(
  input: SolveModesInput,
  wl: number,
  eps: PlanePermittivity,
  epsAt: (wl: number) => PlanePermittivity,
  weights: PlaneWeights,
  shared: Shared,
): SolvedPlane {
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
  const solve = (k: number) =>
    modesOf(
      eigenpairs(op.matrix.rows, sigma, (x) => lu.solve(x), k, wanted),
      input,
      wl,
      op,
      {
        weights,
        epsAt,
      },
    );
  let found = solve(count);
  // A mode of the absorber among those found (a wide absorber has modes of its own near σ):
  // look a little further, so that the guide's can be chosen before it (choose).
  const more = Math.min(count + 4, op.matrix.rows);
  if (more > count && found.some((m) => absorberFraction(m.fields, input.axes) > 0.5)) {
    found = solve(more);
  }
  shared.spent = lu;
  return {
    modes: choose(found, numModes, spec.filter_pol ?? null, input.axes),
    unknowns: op.matrix.rows,
    factorEntries: symbolic.factorEntries,
  };
}

/** The modes of the eigenpairs found: n_eff, fields at 1 W, TE fraction, group index. */
function modesOf(
  pairs: ReturnType<typeof shiftInvertArnoldi>,
  input: SolveModesInput,
  wl: number,
  op: ReturnType<typeof buildModeOperator>,
  { weights, epsAt }: { weights: PlaneWeights; epsAt: (wl: number) => PlanePermittivity },
): SolvedMode[] {
  return pairs.values.map((lambda, k) => {
    const [nr, ni] = complexSqrt(lambda.re, lambda.im);
    const n = nr >= 0 ? { re: nr, im: ni } : { re: -nr, im: -ni };
    const fields = reconstructFields(op, pairs.vectors[k], n);
    normaliseToOneWatt(fields, weights);
    const mode: SolvedMode = {
      wavelength_m: wl,
      mode_index: 0,
      n_eff: n.re,
      k_eff: n.im,
      te_fraction: teFraction(fields, weights),
      fields,
    };
    // In the (u, v, u × v) frame, before a left-handed plane's H turns round.
    if (input.groupIndex) {
      mode.group_index = energyGroupIndex(fields, weights, groupEps(epsAt, wl, op), op.mu);
    }
    if (input.leftHanded) negateH(fields);
    return mode;
  });
}

/**
 * A cached solve of this wavelength; one that found the group index serves one that did not,
 * without it (the cache hands out copies).
 */
function lookUp(
  cache: ModeCache,
  key: ModeKey,
  input: SolveModesInput,
  wl: number,
  eps: PlanePermittivity,
  epsAt: (wl: number) => PlanePermittivity,
): SolvedPlane | undefined {
  const hit = cache.get(key);
  if (hit || input.groupIndex) return hit;
  const withGroupIndex = cache.get(modeKey(input, wl, eps, epsAt, true));
  for (const m of withGroupIndex?.modes ?? []) delete m.group_index;
  return withGroupIndex;
}

/**
 * Everything solveAt's result depends on, as numbers (mode-cache.ts): the mode_spec, bend and
 * handedness, each axis's nodes, boundary, mirror and absorber, and the permittivity at the
 * wavelength, with the permittivity either side of it when the group index (which sees the
 * material dispersion) is asked for.
 */
function modeKey(
  input: SolveModesInput,
  wl: number,
  eps: PlanePermittivity,
  epsAt: (wl: number) => PlanePermittivity,
  withGroupIndex: boolean,
): ModeKey {
  const spec = input.mode_spec ?? {};
  const code = <T>(v: T, options: readonly T[]) => options.indexOf(v);
  const parts: ArrayLike<number>[] = [
    [
      wl,
      Math.max(1, spec.num_modes ?? 1),
      spec.target_neff ?? Number.NaN,
      code(spec.filter_pol ?? null, ["te", "tm", null]),
      input.bend?.radiusM ?? Number.NaN,
      input.bend?.radialAxis ?? -1,
      withGroupIndex ? 1 : 0,
      input.leftHanded ? 1 : 0,
    ],
  ];
  for (const a of input.axes) {
    parts.push(
      [
        a.nodesM.length,
        code(a.boundary, ["pec", "pml", "periodic"]),
        code(a.mirror ?? "none", ["none", "pec", "pmc"]),
        a.pmlLo ?? 0,
        a.pmlHi ?? 0,
      ],
      a.nodesM,
    );
  }
  const dl = wl * GROUP_DL;
  for (const e of withGroupIndex ? [eps, epsAt(wl - dl), epsAt(wl + dl)] : [eps]) {
    for (const c of [e.uu, e.vv, e.ww]) parts.push(c.re, c.im ?? [Number.NaN]);
  }
  const key = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    key.set(p, at);
    at += p.length;
  }
  return key;
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
  const inAbsorber = new Map(found.map((m) => [m, absorberFraction(m.fields, axes) > 0.5]));
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

/** The fraction of Σ|E|² over the plane's samples that lies in its absorber cells. */
function absorberFraction(f: ModeFields, axes: readonly [ModeAxis, ModeAxis]): number {
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
/** The relative wavelength step of the group index's central difference. */
const GROUP_DL = 1e-4;

function groupEps(
  epsAt: (wl: number) => PlanePermittivity,
  wl: number,
  op: ReturnType<typeof buildModeOperator>,
): { u: Float64Array; v: Float64Array; w: Float64Array } {
  const dl = wl * GROUP_DL;
  const lo = epsAt(wl - dl);
  const hi = epsAt(wl + dl);
  const mid = epsAt(wl);
  const part = (opEps: Float64Array, a: Float64Array, b: Float64Array, c: Float64Array) =>
    opEps.map((e, k) => (c[k] !== 0 ? e * (1 - (wl * (b[k] - a[k])) / (2 * dl) / c[k]) : e));
  return {
    u: part(op.eps.u.re, lo.uu.re, hi.uu.re, mid.uu.re),
    v: part(op.eps.v.re, lo.vv.re, hi.vv.re, mid.vv.re),
    w: part(op.eps.w.re, lo.ww.re, hi.ww.re, mid.ww.re),
  };
}

/** |½∫(E_a × H_b* + E_b* × H_a)·w dA|: 1 for the same mode normalised to 1 W, 0 if orthogonal. */
export function modeOverlap(a: ModeFields, b: ModeFields, w: PlaneWeights): number {
  const [re, im] = complexOverlap(a, b, w);
  return Math.hypot(re, im);
}

/** Reorders `next` so that next[i] is the mode most like previous[i] (greedy by overlap). */
function trackByOverlap(previous: SolvedMode[], next: SolvedMode[], w: PlaneWeights): SolvedMode[] {
  const pairs: { i: number; j: number; o: number }[] = [];
  for (let i = 0; i < previous.length; i++) {
    for (let j = 0; j < next.length; j++) {
      pairs.push({ i, j, o: modeOverlap(previous[i].fields, next[j].fields, w) });
    }
  }
  pairs.sort((p, q) => q.o - p.o);
  const out: (SolvedMode | null)[] = next.map(() => null);
  const used = new Set<number>();
  for (const { i, j } of pairs) {
    if (out[i] !== null || used.has(j) || i >= out.length) continue;
    out[i] = next[j];
    used.add(j);
  }
  const rest = next.filter((_, j) => !used.has(j));
  return out.map((m) => m ?? rest.shift()!);
}

/** A mode_spec's bend as solveModes takes it: the radial axis is the one not bent about. */
export function bendOf(spec: {
  bend_radius?: number | null;
  bend_axis?: 0 | 1;
}): OperatorOptions["bend"] {
  if (typeof spec.bend_radius !== "number") return undefined;
  return { radiusM: spec.bend_radius, radialAxis: (spec.bend_axis ?? 1) === 0 ? 1 : 0 };
}
