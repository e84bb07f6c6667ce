/**
 * A straight slab waveguide between two ports in a cross-section one cell thick (a 2-D
 * problem): a core 0.6 µm wide (material "core") in "clad", along z, ports o1 at z = −1.5 µm
 * (+z) and o2 at +1.5 µm (−z), 25 nm cells, three wavelengths over 1.5–1.6 µm, both ports run.
 * The materials are named for the caller to give (constantMaterials, or the request's own).
 */
import type { PortSpec, SimulationSpec } from "../types.js";

export const SLAB_PORTS_BAND = { start: 1.5e-6, stop: 1.6e-6, points: 3 };

/** Port `name` across the slab at z, facing `direction`. */
export function slabPort(name: string, z: number, direction: "+z" | "-z"): PortSpec {
  return {
    name,
    center: [0, 0, z],
    size: [3e-6, 0.025e-6, 0],
    direction,
    mode_spec: { num_modes: 1, target_neff: null, filter_pol: null },
  };
}

export function slabBetweenPorts(): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size: [3.6e-6, 0.025e-6, 4.2e-6],
      resolution: 0.025e-6,
      boundary_conditions: ["pml", "periodic", "pml"],
      pml_layers: 12,
    },
    source: {
      source_type: "ports",
      wavelength: 1.55e-6,
      wavelengths: { ...SLAB_PORTS_BAND },
      run_ports: ["o1", "o2"],
    },
    ports: [slabPort("o1", -1.5e-6, "+z"), slabPort("o2", 1.5e-6, "-z")],
    structures: [
      { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "clad" },
      { type: "box", center: [0, 0, 0], size: [0.6e-6, 10, 10], material: "core" },
    ],
    monitors: [],
    fdtd_settings: {
      time_steps: 40000,
      courant_factor: 0.99,
      convergence_threshold: 1e-7,
      check_every_n: 500,
    },
  };
}
