/**
 * Warms a fresh thread up for the jobs it will run: steps two tiny problems, a cross-section
 * one cell thick (the 2-D path) and a small periodic 3-D cell with a sphere, so that the
 * solver's modules, the WebAssembly text-to-binary compiler and the hot JavaScript around the
 * kernels are loaded and compiled before a user's job arrives. A cold thread spends several
 * tenths of a second on that, which is most of a small job's run time (docs/benchmarks.md,
 * "Jobs a user can submit"). The problems' kernels themselves are not reused: each grid
 * generates its own.
 */
import { runSimulation } from "./entry-points.js";
import type { BackendChoice, SolverResult, SimulationSpec } from "./types.js";

const NM = 1e-9;

function problem(size: [number, number, number], thin: boolean): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size,
      resolution: 50 * NM,
      boundary_conditions: thin ? ["pml", "periodic", "pml"] : ["periodic", "periodic", "pml"],
      pml_layers: 4,
    },
    source: {
      source_type: "plane_wave",
      wavelength: 1550 * NM,
      polarization: "te",
      direction: [0, 0, -1],
      amplitude: 1,
    },
    structures: thin
      ? [{ type: "box", center: [0, 0, 0], size: [200 * NM, 1, 200 * NM], material: "Si" }]
      : [{ type: "sphere", center: [0, 0, 0], radius: 150 * NM, material: "SiO2" }],
    monitors: [
      {
        name: "m",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [size[0], 0, size[2]],
        components: ["Ex", "Ey", "Ez"],
      },
    ],
    fdtd_settings: {
      time_steps: 40,
      courant_factor: 0.99,
      convergence_threshold: 0,
      check_every_n: 20,
    },
  };
}

const WARM_UP_PROBLEMS: readonly SimulationSpec[] = [
  problem([600 * NM, 50 * NM, 600 * NM], true),
  problem([500 * NM, 500 * NM, 500 * NM], false),
];

/**
 * Steps the warm-up problems on `backend` (one thread: the kernel threads of a large job are
 * started per run) and returns the last one's spec and result (the caller writes a result
 * file of it too), with the seconds it all took.
 */
export async function warmUp(
  backend: BackendChoice,
): Promise<{ seconds: number; result: SolverResult; spec: SimulationSpec }> {
  const start = performance.now();
  let last: { result: SolverResult; spec: SimulationSpec } | null = null;
  for (const spec of WARM_UP_PROBLEMS) {
    last = { spec, result: await runSimulation(spec, { backend, threads: 1 }) };
  }
  return { seconds: (performance.now() - start) / 1000, ...last! };
}
