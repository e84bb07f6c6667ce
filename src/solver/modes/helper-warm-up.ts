/**
 * The chain helper's own warm-up (chain-helper.ts `warmUpChainHelper`): a port plane of a
 * typical size solved on the helper thread at five wavelengths once the solver thread's
 * warm-up problems are done (warm-up.ts), so that the helper meets a job's first plane with
 * its mode-solver code compiled for planes of that size.
 *
 * Why. A ports job's first plane after the warm-up had the helper walk its chain 2–3 times
 * slower at its first two steps than a later plane (150 ms a wavelength against 55–60 ms on
 * the S-parameter benchmark's plane): the helper had solved only the warm-up's small plane,
 * whose type feedback V8 drops on the first full-size one. With this warm-up, in one process,
 * that plane's chains took 0.38–0.40 s against 0.50–0.52 s; on a fresh server the gain is
 * within what else a first job does (V8 recompiling in the background: docs/benchmarks.md,
 * "The helper's own warm-up"). It runs after the solver thread's warm-up problems, not beside
 * them, where it lengthened the warm-up by 0.3 s.
 *
 * The plane is that benchmark's: a 500 × 220 nm Si wire (ε 12.1) in SiO2 (ε 2.1), 60 × 50
 * cells of 40 nm with a 10-cell absorber on every side (slab-case.ts's strip: the permittivity
 * sampled at each component's Yee position; what is solved matters less than that the code
 * runs at size).
 */
import { stripCase } from "./slab-case.js";
import { solveModes } from "./solve.js";

const ABSORBER_CELLS = 10;
const WAVELENGTHS_M = [1.55e-6, 1.525e-6, 1.5e-6, 1.575e-6, 1.6e-6];

/**
 * Solves the warm-up plane on this thread, one thread, without the mode cache; returns the
 * n_eff found at each wavelength (tests).
 */
export function warmUpModeSolves(): number[] {
  const wire = stripCase({
    core: 12.1,
    clad: 2.1,
    widthM: 500e-9,
    heightM: 220e-9,
    nu: 60,
    nv: 50,
    stepM: 40e-9,
  });
  const absorber = { boundary: "pml", pmlLo: ABSORBER_CELLS, pmlHi: ABSORBER_CELLS } as const;
  const { modes } = solveModes(
    {
      axes: [
        { ...wire.axes[0], ...absorber },
        { ...wire.axes[1], ...absorber },
      ],
      planeEps: wire.eps,
      wavelengths_m: WAVELENGTHS_M,
      mode_spec: { num_modes: 1 },
      groupIndex: "first",
    },
    null,
  );
  return modes.map((atWavelength) => atWavelength[0]!.n_eff);
}
