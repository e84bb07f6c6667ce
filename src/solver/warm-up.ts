/**
 * Warms a fresh thread up for the jobs it will run: steps three tiny problems, a
 * cross-section one cell thick (the 2-D path), a short waveguide between two ports (the mode
 * solver, the mode source and the mode monitors) and a small periodic 3-D cell with a sphere,
 * so that the solver's modules, the WebAssembly text-to-binary compiler and the hot
 * JavaScript around the kernels are loaded and compiled before a user's job arrives. A cold
 * thread spends several tenths of a second on that, which is most of a small job's run time
 * (docs/benchmarks.md, "Jobs a user can submit"); the mode solver alone takes about 0.4 s
 * more on its first plane than warm ("S-parameters against Meep"). The problems' kernels and
 * modes themselves are not reused: each grid generates its own. Last, it reserves the mode
 * solver's memories at a port plane's size (RESERVED_MODE_MEMORY).
 */
import { chainHelperReady, reserveModeMemory } from "./modes/chain-helper.js";
import { runSimulation } from "./entry-points.js";
import type { BackendChoice, SolverResult, SimulationSpec } from "./types.js";

const NM = 1e-9;
const MIB = 2 ** 20;

/**
 * The mode solver's kernel memories a job's port planes find touched (kernel-memory.ts): an
 * LU's store and a Krylov basis of twice the S-parameter benchmark's plane (6 000 unknowns:
 * 11 MB and 3 MB), on the solver thread and the helper. Touching them costs the warm-up about
 * 0.1 s on each where a fresh page costs 10–12 µs; that benchmark's first job then faults
 * about a quarter less (docs/benchmarks.md, "Fresh pages").
 */
const RESERVED_MODE_MEMORY = [24 * MIB, 6 * MIB];

function problem(size: [number, number, number], thin: boolean): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size,
      resolution: 40 * NM,
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

/**
 * A 400 × 200 nm Si guide along x in SiO2 between two ports, five wavelengths: every piece of
 * a ports job (mode solves chained over wavelengths, injection, mode monitors, S-matrix).
 */
function ports(): SimulationSpec {
  const port = (name: string, x: number, direction: "+x" | "-x") => ({
    name,
    center: [x, 0, 0] as [number, number, number],
    size: [0, 2, 2] as [number, number, number],
    direction,
    mode_spec: { num_modes: 1, target_neff: null, filter_pol: null },
  });
  return {
    solver: "fdtd",
    domain: {
      size: [600 * NM, 800 * NM, 800 * NM],
      resolution: 40 * NM,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 4,
    },
    source: {
      source_type: "ports",
      wavelength: 1550 * NM,
      wavelengths: { start: 1500 * NM, stop: 1600 * NM, points: 5 },
      run_ports: ["o1"],
    },
    ports: [port("o1", -200 * NM, "+x"), port("o2", 200 * NM, "-x")],
    structures: [
      { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "SiO2" },
      { type: "box", center: [0, 0, 0], size: [10, 400 * NM, 200 * NM], material: "Si" },
    ],
    monitors: [],
    fdtd_settings: {
      time_steps: 40,
      courant_factor: 0.99,
      convergence_threshold: 0,
      check_every_n: 20,
    },
  };
}

export const WARM_UP_PROBLEMS: readonly SimulationSpec[] = [
  problem([600 * NM, 40 * NM, 600 * NM], true),
  ports(),
  problem([500 * NM, 500 * NM, 500 * NM], false),
];

/**
 * Steps the warm-up problems on `backend` and returns the last one's spec and result (the
 * caller writes a result file of it too), with the seconds it all took. The last runs on the
 * `threads` a job gets (the others on one), so that the kernel threads a job uses are started
 * and warm before it (wasm/pool.ts keeps them).
 */
export async function warmUp(
  backend: BackendChoice,
  threads = 1,
): Promise<{ seconds: number; result: SolverResult; spec: SimulationSpec }> {
  const start = performance.now();
  // The mode solves' second thread (modes/chain-helper.ts) started first, to share the ports
  // problem's wavelengths as a job's and have its code compiled before one.
  if (threads > 1) await chainHelperReady();
  let last: { result: SolverResult; spec: SimulationSpec } | null = null;
  for (const spec of WARM_UP_PROBLEMS) {
    const options =
      spec === WARM_UP_PROBLEMS[WARM_UP_PROBLEMS.length - 1]
        ? { backend, threads, minCellsPerThread: 0 }
        : { backend, threads: spec.source.source_type === "ports" ? threads : 1 };
    last = { spec, result: await runSimulation(spec, options) };
  }
  reserveModeMemory(RESERVED_MODE_MEMORY, threads > 1);
  return { seconds: (performance.now() - start) / 1000, ...last! };
}
