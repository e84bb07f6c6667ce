/**
 * What a mode solve's answer cannot say by itself.
 * - Every material emsim accepts is passive (a gain pole is refused), so no mode of a plane
 *   can grow as it propagates: a k_eff below zero is the plane's absorber acting on a field
 *   that is still evanescent there (the absorber is reflectionless for travelling waves, not
 *   for decaying ones), and it moves k_eff either way. A bend makes this common: its modes
 *   reach far to the outer side, and only past the caustic, R·(n_eff/n_cladding − 1) from the
 *   guide, do they radiate. Such a mode's loss is not to be trusted (gainNotes).
 * - A bend radiates only into absorber on its outer side: a plane that stops at walls there
 *   gives its modes k_eff = 0 by construction, "lossless bends" (bendNotes).
 */
import type { ModeAxis, PlanePermittivity } from "./operator.js";
import { isEvanescent, type SolvedMode } from "./solved-mode.js";
import { isAbsorberMode } from "./wavelength-solve.js";

/** Below this, a negative k_eff is the eigen-solve's rounding, not the absorber. */
const ROUNDING_K_EFF = 1e-9;
/**
 * A straight guide's gain below this changes its power by under 0.13 % over a hundred
 * wavelengths (4π·100·k), far below what a run resolves, so it is not worth a note (the Si wire
 * of the examples reads −2.7e-8 at one wavelength). A bend's loss can be that small and is the
 * answer sought, so a bend's gain is noted from the rounding up.
 */
const STRAIGHT_GAIN_K_EFF = 1e-6;

/**
 * One note per mode index whose k_eff is negative at some wavelength. `absorbing`: the plane
 * has absorber cells (without, a negative k_eff of a lossless plane is the eigen-solve's).
 */
export function gainNotes(
  modes: readonly (readonly SolvedMode[])[],
  bent: boolean,
  absorbing = true,
): string[] {
  const worst = new Map<number, { k: number; at: number; count: number }>();
  const below = bent ? ROUNDING_K_EFF : STRAIGHT_GAIN_K_EFF;
  for (const mode of modes.flat()) {
    // A mode past cut-off (β mostly imaginary: n_eff below |k_eff|) is evanescent, its sign of
    // k_eff a choice between growing and decaying the other way, not the absorber's gain.
    if (mode.k_eff >= -below || isEvanescent(mode)) continue;
    const seen = worst.get(mode.mode_index);
    if (!seen) worst.set(mode.mode_index, { k: mode.k_eff, at: mode.wavelength_m, count: 1 });
    else {
      seen.count++;
      if (mode.k_eff < seen.k) Object.assign(seen, { k: mode.k_eff, at: mode.wavelength_m });
    }
  }
  const wavelengths = modes.length;
  const where = (k: number, at: number, count: number) =>
    `k_eff < 0 at ${count} of ${wavelengths} wavelength(s) (${k.toExponential(2)} at ` +
    `${Number((at * 1e6).toPrecision(6))} µm), a gain no passive guide has`;
  if (!absorbing) {
    return [...worst].map(
      ([index, { k, at, count }]) =>
        `mode ${index}: ${where(k, at, count)}; the plane has no absorber, so it is the ` +
        `eigen-solve's rounding, large when the wavelength is far from the plane's size ` +
        `(lengths are in metres)`,
    );
  }
  return [...worst].map(
    ([index, { k, at, count }]) =>
      `mode ${index}: ${where(k, at, count)}: the mode still ` +
      `decays where the plane's absorber begins, and the absorber moves k_eff either way` +
      (bent
        ? ` (a bend's absorber inside its caustic, R·(n_eff/n_cladding − 1) out from the guide)`
        : "") +
      `; widen the plane or the domain${bent ? " on the bend's outer side" : ""} until k_eff ` +
      `stops changing`,
  );
}

/**
 * A note when a bend's outer side (+radial for a positive radius) has no absorber cells on the
 * plane: its k_eff then says nothing about radiation.
 */
export function bendNotes(
  axes: readonly [ModeAxis, ModeAxis],
  axisNames: readonly [string, string],
  bend: { radiusM: number; radialAxis: 0 | 1 } | undefined,
): string[] {
  if (!bend) return [];
  const radial = axes[bend.radialAxis];
  const outer = bend.radiusM > 0 ? radial.pmlHi : radial.pmlLo;
  if (radial.boundary === "pml" && (outer ?? 0) > 0) return [];
  const name = axisNames[bend.radialAxis];
  const side = bend.radiusM > 0 ? "+" : "−";
  return [
    `the plane has no absorber on the bend's outer side (${side}${name}): the bend cannot ` +
      `radiate there and its k_eff is 0 by construction, not its loss; let the plane reach ` +
      `into the domain's PML along ${name}, past the caustic`,
  ];
}

/**
 * One note per mode index that lies much in the plane's absorber (isAbsorberMode) at some
 * wavelength: such a mode is the absorber's (or, around a bend, the outer cladding's), not a
 * mode of the guide; the solver puts them after the guide's, so they are given only when no
 * more guided ones are near the target.
 */
export function absorberNotes(
  axes: readonly [ModeAxis, ModeAxis],
  modes: readonly (readonly SolvedMode[])[],
): string[] {
  const count = new Map<number, number>();
  for (const mode of modes.flat()) {
    if (!isAbsorberMode(mode, axes)) continue;
    count.set(mode.mode_index, (count.get(mode.mode_index) ?? 0) + 1);
  }
  return [...count].map(
    ([index, n]) =>
      `mode ${index}: a fifth or more of its field lies in the plane's absorber at ${n} of ` +
      `${modes.length} wavelength(s): a mode of the absorber, not of the guide; ask for fewer ` +
      `modes, or set mode_spec.target_neff near the guided mode's n_eff`,
  );
}

/** Whether a mode's n_eff is above the index at its plane's edges (edgeIndexOf): it guides. */
export function guides(mode: SolvedMode, edgeIndex: number): boolean {
  return mode.n_eff > edgeIndex * (1 + 1e-9);
}

/**
 * One note per mode index whose n_eff is at or below the largest index on the plane's edges at
 * some wavelength: it does not guide (a mode of the plane's box: a plane with no guide, a
 * target far below the guide's, more modes asked for than the guide has). `edgeIndex` is that
 * index at each wavelength.
 */
export function unguidedNotes(
  modes: readonly (readonly SolvedMode[])[],
  edgeIndex: readonly number[],
): string[] {
  const found = new Map<number, { n: number; edge: number; at: number }>();
  modes.forEach((atWavelength, w) => {
    const edge = edgeIndex[w]!;
    for (const m of atWavelength) {
      if (guides(m, edge) || found.has(m.mode_index)) continue;
      found.set(m.mode_index, { n: m.n_eff, edge, at: m.wavelength_m });
    }
  });
  return [...found].map(
    ([index, { n, edge, at }]) =>
      `mode ${index}: n_eff ${n.toPrecision(6)} at ${Number((at * 1e6).toPrecision(6))} µm is ` +
      `not above the index at the plane's edges (${edge.toPrecision(6)}): it does not guide, ` +
      `a mode of the plane's box rather than of a guide`,
  );
}

/**
 * Every note of a plane's answer: the bend's, then the modes'.
 * @param transverse the plane's transverse axes (0 x, 1 y, 2 z), named in the notes
 * @param modes modes[w][m], as solveModes returns them
 */
export function modeNotes(
  axes: readonly [ModeAxis, ModeAxis],
  transverse: readonly [number, number],
  bend: { radiusM: number; radialAxis: 0 | 1 } | undefined,
  modes: readonly (readonly SolvedMode[])[],
): string[] {
  const names = transverse.map((t) => "xyz"[t]!) as [string, string];
  return [
    ...bendNotes(axes, names, bend),
    ...absorberNotes(axes, modes),
    ...gainNotes(
      modes,
      bend !== undefined,
      axes.some((a) => a.boundary === "pml"),
    ),
  ];
}

/**
 * The index a guided mode's n_eff must exceed: the largest on the plane's edges across the axes
 * that end there (not a periodic axis, along which a structure may run on for ever, nor a
 * mirror's side, which is the guide's middle); on a plane periodic both ways, the smallest of
 * its four edges' largest (a slab along one axis meets the other's edges only in cladding).
 */
export function edgeIndexOf(eps: PlanePermittivity, axes: readonly [ModeAxis, ModeAxis]): number {
  const [nu, nv] = axes.map((a) => a.nodesM.length - 1) as [number, number];
  const largest = (cells: [number, number][]) => {
    let most = 0;
    for (const [i, j] of cells) {
      for (const c of [eps.uu, eps.vv, eps.ww]) most = Math.max(most, c.re[i * nv + j]!);
    }
    return most;
  };
  const line = (axis: 0 | 1, at: number): [number, number][] =>
    Array.from({ length: axis === 0 ? nv : nu }, (_, k) => (axis === 0 ? [at, k] : [k, at]));
  const edges = ([0, 1] as const).flatMap((axis) => {
    const last = (axis === 0 ? nu : nv) - 1;
    const mirrored = (axes[axis].mirror ?? "none") !== "none";
    return [
      { ends: axes[axis].boundary !== "periodic" && !mirrored, max: largest(line(axis, 0)) },
      { ends: axes[axis].boundary !== "periodic", max: largest(line(axis, last)) },
    ];
  });
  const ending = edges.filter((e) => e.ends);
  const most =
    ending.length > 0
      ? Math.max(...ending.map((e) => e.max))
      : Math.min(...edges.map((e) => e.max));
  return Math.sqrt(most);
}
