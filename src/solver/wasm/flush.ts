/**
 * The flush of tiny values to zero in the fast kernel: which magnitude counts as tiny, and on
 * which time steps the kernel flushes.
 *
 * Ahead of a wavefront the fields fall through the float32 denormal range (below 1.2e-38),
 * and so does ψ as it decays in the absorber; measured here, 2 % denormal cells cut
 * throughput by 3× while the front crossed a 128³ grid (x86 handles denormals in microcode,
 * and WebAssembly cannot set flush-to-zero). So the kernel stores values at or below
 * `flushBelow` as zero.
 *
 * It does so on every FLUSH_EVERY-th step only: the compare and mask on every stored field and
 * ψ were 15 % of the stepping of a 3-D port run with its absorber on every face (2026-11-29,
 * docs/benchmarks.md). Between two flushes the cells the front newly reaches take values far
 * below their neighbours' (a plane wave's front lost 4–8 orders a step on a 64³ grid), so the
 * threshold must leave room for those steps: with a threshold of 1e-28 of the incident H,
 * flushing every 4th step stored up to 9 800 denormals a step there, every 2nd step 630;
 * with 1e-20, every 3rd step 8; with 1e-16 (below), every 3rd step none, on 64³ and 96³
 * plane waves and on dipoles of any amplitude. 1e-16 of the incident field is still nine
 * orders below float32's round-off of it (~1e-7), so no result a float32 solver resolves
 * depends on what is flushed, or when.
 */
import { ETA0 } from "../constants.js";

/** Time steps from one flush to the next. */
export const FLUSH_EVERY = 3;

/** Whether the step that brings the fields to `level` steps done flushes (the kernel's 0/1). */
export function flushesAt(level: number): 0 | 1 {
  return level % FLUSH_EVERY === 0 ? 1 : 0;
}

/**
 * Values at or below this magnitude are stored as zero by a flushing step: 1e-16 of the
 * incident H (of E's amplitude, 1e-16/η0), and never below 100× the smallest normal float so
 * that products with the update coefficients stay normal.
 */
export function flushBelow(amplitudeVPerM: number): number {
  return Math.max(1.2e-36, (1e-16 * Math.abs(amplitudeVPerM)) / ETA0);
}
