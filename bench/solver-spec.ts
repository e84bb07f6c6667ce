/** The benchmark problem of `npm run bench:solver` (bench/solver.ts). */
import type { SimulationSpec } from "../src/solver/types.js";

export const PML_LAYERS = 12;
const STEP_M = 40e-9;

export interface SolverCase {
  kind: "wasm" | "webgpu" | "reference";
  /** Cells per axis of the whole grid, absorber included. */
  cells: number;
  threads: number;
  steps: number;
}

/**
 * A cube of `cells`³ cells with 12 CPML layers on every face, a plane wave along +z at 20
 * cells per wavelength through a Si3N4 box a third of the region of interest wide, and a
 * transmission-plane monitor (Ex, Ey) across the whole cross-section.
 */
export function benchSpec(cells: number, steps: number): SimulationSpec {
  const interior = (cells - 2 * PML_LAYERS) * STEP_M;
  const box = interior / 3;
  return {
    solver: "fdtd",
    domain: {
      size: [interior, interior, interior],
      resolution: STEP_M,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: PML_LAYERS,
    },
    source: {
      source_type: "plane_wave",
      wavelength: 20 * STEP_M,
      polarization: "te",
      direction: [0, 0, 1],
      amplitude: 1,
    },
    structures: [{ type: "box", center: [0, 0, 0], size: [box, box, box], material: "Si3N4" }],
    monitors: [
      {
        name: "transmitted",
        monitor_type: "field",
        center: [0, 0, interior / 3],
        size: [interior, interior, 0],
        components: ["Ex", "Ey"],
      },
    ],
    fdtd_settings: {
      time_steps: steps,
      courant_factor: 0.99,
      convergence_threshold: 0,
      check_every_n: 100,
    },
  };
}
