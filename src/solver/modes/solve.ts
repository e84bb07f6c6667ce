/**
 * Waveguide modes of a cross-section plane at a list of wavelengths. Each wavelength's solve
 * (wavelength-solve.ts) is looked up in the mode cache first (mode-cache.ts); the first
 * wavelength is solved alone, the others in two chains out from it (chains.ts), on two threads
 * where the caller allows (chain-helper.ts). Then the modes are tracked across wavelengths by
 * their overlap, along the chains, so that `mode_index` names the same mode at every
 * wavelength as at the first.
 */
import { chainStart, wavelengthChains, type ChainStep } from "./chains.js";
import { walkChains } from "./chain-helper.js";
import { planeWeights, type ModeFields, type PlaneWeights } from "./fields.js";
import type { ModeCache } from "./mode-cache.js";
import { edgeIndexOf } from "./mode-notes.js";
import { sharedModeCache, type ModeKey, type SolvedPlane } from "./mode-cache.js";
import type { OperatorOptions, PlanePermittivity } from "./operator.js";
import { complexOverlap } from "./overlap.js";
import type { SolvedMode } from "./solved-mode.js";
import { NEVER_STOPPED, type StopCheck } from "../stop-flag.js";
import {
  GROUP_DL,
  solveWavelength,
  type PlaneInput,
  type Shared,
  type WavelengthInput,
} from "./wavelength-solve.js";

export type { ModeSpec } from "./wavelength-solve.js";
export type { SolvedMode } from "./solved-mode.js";

export interface SolveModesInput extends PlaneInput {
  /** Permittivity per wavelength (a function lets the group index see material dispersion). */
  planeEps: PlanePermittivity | ((wavelengthM: number) => PlanePermittivity);
  wavelengths_m: readonly number[];
  /**
   * Report the group index (energy velocity; lossless guides) at every wavelength, or at the
   * first only (`first`: all a mode source's delay needs).
   */
  groupIndex?: boolean | "first";
  /** Threads the solve may use (default 1): from two on, its two chains run at once. */
  threads?: number;
  /** Throws when the run is cancelled; read at every Arnoldi step (stop-flag.ts). */
  checkStop?: StopCheck;
  /**
   * Called after each wavelength solved here (not served by the mode cache), with how many of
   * those are done; the helper thread's as the caller takes them.
   */
  onSolved?: (done: number, total: number) => void;
}

/** modes[w][m]: mode m at wavelength w. */
export interface SolveModesResult {
  modes: SolvedMode[][];
  /** Unknowns of the eigenproblem and entries of its LU factors (for reports and limits). */
  unknowns: number;
  factorEntries: number;
  /** The index a guided mode exceeds at each wavelength (mode-notes.ts edgeIndexOf). */
  edgeIndex: number[];
}

/**
 * Solves the plane's modes at every wavelength.
 * @throws RangeError for inconsistent arrays; Error when the eigen-solver does not converge
 */
export function solveModes(
  input: SolveModesInput,
  cache: ModeCache | null = sharedModeCache,
): SolveModesResult {
  const wavelengths = input.wavelengths_m;
  if (wavelengths.length === 0) return { modes: [], unknowns: 0, factorEntries: 0, edgeIndex: [] };
  const plane = planeInput(input);
  const weights = planeWeights(input.axes);
  const steps = wavelengths.map((_, index) => chainStep(input, index));
  const keys = cache ? steps.map((s) => modeKey(plane, s)) : [];
  if (cache) steps.forEach((s, i) => (s.known = cache.get(keys[i]!)));
  const solved = steps.map((s) => s.known);
  const shared: Shared = {};
  const stop = input.checkStop ?? NEVER_STOPPED;
  const solving = solved.every((p) => p) ? plane : withBendTarget(plane, steps[0]!, weights, stop);
  const toSolve = solved.filter((p) => !p).length;
  let done = 0;
  const solvedOne = (i: number, p: SolvedPlane) => {
    solved[i] = p;
    input.onSolved?.(++done, toSolve);
  };
  if (!solved[0]) solvedOne(0, solveWavelength(solving, steps[0]!, weights, shared, stop));
  const first = solved[0]!;
  shared.spent?.release();
  const chains = wavelengthChains(wavelengths).map((c) => c.map((i) => steps[i]!));
  const start = chainStart(solving, first, shared.symbolic);
  walkChains(solving, chains, start, weights, input.threads ?? 1, solvedOne, stop);
  if (cache) steps.forEach((s, i) => s.known ?? store(cache, plane, s, keys[i]!, solved[i]!));
  return {
    modes: tracked(solved as SolvedPlane[], wavelengths, weights),
    unknowns: first.unknowns,
    factorEntries: first.factorEntries,
    edgeIndex: steps.map((s) => edgeIndexOf(s.eps, input.axes)),
  };
}

/** What the solve of every wavelength shares (plain data: it may go to another thread). */
function planeInput(input: SolveModesInput): PlaneInput {
  const { axes, mode_spec, bend, leftHanded } = input;
  return { axes, mode_spec, bend, leftHanded };
}

/**
 * A bend's default shift: just above the highest mode of the same plane unbent, at the first
 * wavelength. The plane's largest index, the default of a straight guide, lies among the modes
 * of the outer cladding and its absorber, which the bend's conformal factor raises above the
 * guide's: around a tight bend the shift-invert found only those.
 */
function withBendTarget(
  plane: PlaneInput,
  first: WavelengthInput,
  weights: PlaneWeights,
  checkStop: StopCheck,
) {
  if (!plane.bend || plane.mode_spec?.target_neff != null) return plane;
  const unbent = { ...plane, bend: undefined, mode_spec: { num_modes: 1 } };
  const { wavelengthM, eps } = first;
  const shared: Shared = {};
  const straight = solveWavelength(unbent, { wavelengthM, eps }, weights, shared, checkStop);
  shared.spent?.release();
  const target = straight.modes[0]!.n_eff + 0.02;
  return { ...plane, mode_spec: { ...plane.mode_spec, target_neff: target } };
}

/** Wavelength `index`'s permittivity, and either side of it when its group index is wanted. */
function chainStep(input: SolveModesInput, index: number): ChainStep {
  const epsAt = (wl: number) =>
    typeof input.planeEps === "function" ? input.planeEps(wl) : input.planeEps;
  const wl = input.wavelengths_m[index]!;
  const step: ChainStep = { index, wavelengthM: wl, eps: epsAt(wl) };
  if (input.groupIndex === true || (input.groupIndex === "first" && index === 0)) {
    const dl = wl * GROUP_DL;
    step.group = { lo: epsAt(wl - dl), hi: epsAt(wl + dl) };
  }
  return step;
}

/** The modes at every wavelength, tracked along the chains from the first wavelength's. */
function tracked(
  solved: readonly SolvedPlane[],
  wavelengths: readonly number[],
  weights: PlaneWeights,
): SolvedMode[][] {
  const modes: SolvedMode[][] = [solved[0]!.modes];
  for (const chain of wavelengthChains(wavelengths)) {
    let previous = modes[0]!;
    for (const i of chain) {
      modes[i] = trackByOverlap(previous, solved[i]!.modes, weights);
      previous = modes[i]!;
    }
  }
  for (const atWavelength of modes) atWavelength.forEach((m, k) => (m.mode_index = k));
  return modes;
}

/**
 * Stores a fresh solve in the cache; one with the group index also without it, under the key
 * of a solve that does not ask for it (a mode monitor's of a mode source's plane), unless that
 * key holds a solve already: the first stays the one served, so that what a plane's modes are
 * does not depend on which solve came later (a mode source's solves its wavelength afresh, a
 * monitor's in a chain: the same modes to 1e-15, not to the bit).
 */
function store(
  cache: ModeCache,
  plane: PlaneInput,
  step: ChainStep,
  key: ModeKey,
  solved: SolvedPlane,
): void {
  cache.set(key, solved);
  if (!step.group) return;
  const plain = modeKey(plane, { wavelengthM: step.wavelengthM, eps: step.eps });
  if (cache.has(plain)) return;
  const modes = solved.modes.map(({ group_index: _, ...m }) => m);
  cache.set(plain, { ...solved, modes });
}

/**
 * Everything one wavelength's solve depends on, as numbers (mode-cache.ts): the mode_spec,
 * bend and handedness, each axis's nodes, boundary, mirror and absorber, and the permittivity
 * at the wavelength, with the permittivity either side of it when the group index (which sees
 * the material dispersion) is asked for.
 */
function modeKey(input: PlaneInput, step: WavelengthInput): ModeKey {
  const { wavelengthM: wl, eps, group } = step;
  const withGroupIndex = group !== undefined;
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
  for (const e of group ? [eps, group.lo, group.hi] : [eps]) {
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
