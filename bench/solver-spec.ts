/** The benchmark problem of `npm run bench:solver` (bench/solver.ts). */
import type { MonitorSpec, SimulationSpec, SourceSpec, Vec3 } from "../src/solver/types.js";

export const PML_LAYERS = 12;
const STEP_M = 40e-9;

/** What drives the grid: the plane wave of the throughput rows, or a point dipole. */
export type BenchSource = "plane_wave" | "point_dipole";
/**
 * What records: the transmission plane of the throughput rows, or a closed box around the
 * centre recorded as a flux monitor or as a far-field monitor (the same six faces' tangential
 * fields, so the same DFT; the far field adds a projection after the run).
 */
export type BenchMonitor = "plane" | "flux_box" | "far_field_box";

export interface SolverCase {
  kind: "wasm" | "webgpu" | "reference";
  /** Cells per axis of the whole grid, absorber included. */
  cells: number;
  threads: number;
  steps: number;
  /** Default: the plane wave. */
  source?: BenchSource;
  /** Default: the plane. */
  monitor?: BenchMonitor;
}

/**
 * A cube of `cells`³ cells with 12 CPML layers on every face, a Si3N4 box a third of the region
 * of interest wide and, by default, a plane wave along +z at 20 cells per wavelength through it
 * and a transmission-plane monitor (Ex, Ey) across the whole cross-section. The variants keep
 * the grid and the box: an Ey point dipole at the centre (inside the box) instead of the plane
 * wave, and a box half the region wide (around the Si3N4 box, so a far-field surface crosses
 * no structure) at the source wavelength instead of the plane.
 */
export function benchSpec(
  cells: number,
  steps: number,
  source: BenchSource = "plane_wave",
  monitor: BenchMonitor = "plane",
): SimulationSpec {
  const interior = (cells - 2 * PML_LAYERS) * STEP_M;
  const box = interior / 3;
  const wavelength = 20 * STEP_M;
  const drive: SourceSpec =
    source === "plane_wave"
      ? {
          source_type: "plane_wave",
          wavelength,
          polarization: "te",
          direction: [0, 0, 1],
          amplitude: 1,
        }
      : {
          source_type: "point_dipole",
          wavelength,
          center: [0, 0, 0],
          polarization: "Ey",
          amplitude: 1,
        };
  return {
    solver: "fdtd",
    domain: {
      size: [interior, interior, interior],
      resolution: STEP_M,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: PML_LAYERS,
    },
    source: drive,
    structures: [{ type: "box", center: [0, 0, 0], size: [box, box, box], material: "Si3N4" }],
    monitors: [benchMonitor(monitor, interior, wavelength)],
    fdtd_settings: {
      time_steps: steps,
      courant_factor: 0.99,
      convergence_threshold: 0,
      check_every_n: 100,
    },
  };
}

function benchMonitor(monitor: BenchMonitor, interior: number, wavelength: number): MonitorSpec {
  if (monitor === "plane") {
    return {
      name: "transmitted",
      monitor_type: "field",
      center: [0, 0, interior / 3],
      size: [interior, interior, 0],
      components: ["Ex", "Ey"],
    };
  }
  const half = interior / 2;
  const surface = { center: [0, 0, 0] as Vec3, size: [half, half, half] as Vec3 };
  return monitor === "flux_box"
    ? { name: "box", monitor_type: "flux", ...surface, wavelengths: [wavelength] }
    : {
        name: "box",
        monitor_type: "far_field",
        ...surface,
        wavelengths: [wavelength],
        // The API's default directions: 0–180° in 37 and 0–355° in 72.
        theta_deg: { start: 0, stop: 180, points: 37 },
        phi_deg: { start: 0, stop: 355, points: 72 },
      };
}
