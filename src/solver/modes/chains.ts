/**
 * The order in which a plane's wavelengths are solved. The first listed (a mode source's own
 * wavelength) is solved alone; the others go in two chains out from it, one towards shorter
 * and one towards longer wavelengths, each step seeded by the step before it: its shift just
 * above the modes found there (nextTarget), its LU's analysis and memory. Neighbours in a chain
 * are the nearest wavelengths, so the shift moves little from one to the next, and the two
 * chains depend on nothing but the first wavelength's solve: they can run on two threads
 * (chain-helper.ts) and give, bit for bit, the modes one thread gives.
 */
import type { PlaneWeights } from "./fields.js";
import type { SolvedPlane } from "./mode-cache.js";
import type { SolvedMode } from "./solved-mode.js";
import type { Symbolic } from "./symbolic.js";
import { NEVER_STOPPED, type StopCheck } from "../stop-flag.js";
import {
  nextTarget,
  solveWavelength,
  type PlaneInput,
  type Shared,
  type WavelengthInput,
} from "./wavelength-solve.js";

/** One wavelength of a chain: where it sits in the plane's list, and its solve when known. */
export interface ChainStep extends WavelengthInput {
  index: number;
  /** A solve already at hand (the mode cache's, or another thread's): the chain passes it. */
  known?: SolvedPlane;
}

/** Where both chains start: the first wavelength's modes, their shift and LU analysis. */
export interface ChainStart {
  modes: SolvedMode[];
  target: number | undefined;
  symbolic: Symbolic | undefined;
}

/** The indices of the two chains out from wavelengths[0]: shorter ones, then longer ones. */
export function wavelengthChains(wavelengths: readonly number[]): [number[], number[]] {
  const first = wavelengths[0]!;
  const rest = wavelengths.map((_, i) => i).slice(1);
  const down = rest
    .filter((i) => wavelengths[i]! <= first)
    .sort((a, b) => wavelengths[b]! - wavelengths[a]! || a - b);
  const up = rest
    .filter((i) => wavelengths[i]! > first)
    .sort((a, b) => wavelengths[a]! - wavelengths[b]! || a - b);
  return [down, up];
}

/** The start both chains take from the first wavelength's solve. */
export function chainStart(
  input: PlaneInput,
  first: SolvedPlane,
  symbolic: Symbolic | undefined,
): ChainStart {
  return { modes: first.modes, target: nextTarget(input, first.modes, undefined), symbolic };
}

/**
 * Walks one chain: each step's modes solved (or taken as known) in order, handed to `onStep`
 * with the step's position in the chain as they come. `checkStop` is read at every Arnoldi
 * step of every solve; what it throws ends the walk.
 */
export function walkChain(
  input: PlaneInput,
  steps: readonly ChainStep[],
  start: ChainStart,
  weights: PlaneWeights,
  onStep: (position: number, plane: SolvedPlane) => void,
  checkStop: StopCheck = NEVER_STOPPED,
): void {
  const shared: Shared = { symbolic: start.symbolic, target: start.target };
  let before = start.modes;
  try {
    steps.forEach((step, position) => {
      const plane = step.known ?? solveWavelength(input, step, weights, shared, checkStop);
      if (!step.known) onStep(position, plane);
      shared.target = nextTarget(input, plane.modes, before);
      before = plane.modes;
    });
  } finally {
    // The last LU's memory, kept for the thread's next solve.
    shared.spent?.release();
  }
}
