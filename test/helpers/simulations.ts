/** Simulations the tests run through the service (beside smallSimulation in service.ts). */
import { smallSimulation } from "./service.js";

/**
 * A small 2-D job (periodic in x and y, one cell thick in y) with a silicon block: a plane
 * monitor (x–z) for heat maps, a line monitor along z for line plots and a point monitor, so
 * that plots have structure. Runs in about a second. Used by the dashboard, CLI and SDK tests.
 */
export function crossSectionSimulation(): Record<string, unknown> {
  return {
    solver: "fdtd",
    domain: {
      size: [0.64e-6, 0.04e-6, 2e-6],
      resolution: 0.04e-6,
      boundary_conditions: ["periodic", "periodic", "pml"],
      pml_layers: 10,
    },
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
    structures: [
      { type: "box", center: [0, 0, 0.3e-6], size: [0.32e-6, 0.04e-6, 0.4e-6], material: "Si" },
    ],
    monitors: [
      {
        name: "xz",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [0.64e-6, 0, 2e-6],
        components: ["Ex", "Ey", "Ez"],
      },
      {
        name: "zline",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [0, 0, 2e-6],
        components: ["Ey"],
      },
      {
        name: "probe",
        monitor_type: "field",
        center: [0, 0, 0.6e-6],
        size: [0, 0, 0],
        components: ["Ey"],
      },
    ],
    fdtd_settings: { time_steps: 3000, check_every_n: 200, convergence_threshold: 1e-3 },
    metadata: { project: "dashboard-test", sample: "Si block" },
  };
}

/**
 * A two-port job (issue #29): a straight slab waveguide (ε 4 in ε 2.1025, 0.6 µm wide) in a
 * 2-D cross-section between ports o1 (into +z) and o2 (into −z), three wavelengths from 1.5 to
 * 1.6 µm. A straight guide transmits: |S21|² = |S12|² ≈ 1, |S11|² = |S22|² ≲ 1e-5
 * (test/api/sparameters.test.ts). Two runs of about two seconds each; `runPorts` runs fewer.
 */
export function twoPortWaveguide(runPorts?: string[]): Record<string, unknown> {
  const port = (name: string, z: number, direction: string) => ({
    name,
    center: [0, 0, z],
    size: [3e-6, 0.025e-6, 0],
    direction,
  });
  return {
    solver: "fdtd",
    domain: {
      size: [3.6e-6, 0.025e-6, 4e-6],
      resolution: 0.025e-6,
      boundary_conditions: ["pml", "periodic", "pml"],
    },
    materials: { core: { permittivity: 4 }, clad: { permittivity: 2.1025 } },
    source: {
      source_type: "ports",
      wavelength: 1.55e-6,
      wavelengths: { start: 1.5e-6, stop: 1.6e-6, points: 3 },
      ...(runPorts ? { run_ports: runPorts } : {}),
    },
    ports: [port("o1", -1.4e-6, "+z"), port("o2", 1.4e-6, "-z")],
    structures: [
      { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "clad" },
      { type: "box", center: [0, 0, 0], size: [0.6e-6, 10, 10], material: "core" },
    ],
    fdtd_settings: { convergence_threshold: 1e-6, check_every_n: 500 },
  };
}

/**
 * A 3-D set-up at 40 nm for the preview's tests: a 500 × 220 nm silicon strip along y on silica,
 * lit from above, in a 2 × 1.6 × 1.6 µm domain with 8 absorber cells (66 × 56 × 56 cells).
 */
export function stripOnSilica(): {
  solver: "fdtd";
  domain: Record<string, unknown>;
  source: Record<string, unknown>;
  structures: Record<string, unknown>[];
  fdtd_settings: Record<string, unknown>;
} {
  const UM = 1e-6;
  return {
    solver: "fdtd",
    domain: {
      size: [2 * UM, 1.6 * UM, 1.6 * UM],
      resolution: 40e-9,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 8,
    },
    source: { source_type: "plane_wave", wavelength: 1.55 * UM, direction: [0, 0, -1] },
    structures: [
      {
        type: "box",
        center: [0, 0, -0.5 * UM],
        size: [10 * UM, 10 * UM, 1 * UM],
        material: "SiO2",
      },
      {
        type: "box",
        center: [0, 0, 0.11 * UM],
        size: [0.5 * UM, 10 * UM, 0.22 * UM],
        material: "Si",
      },
    ],
    fdtd_settings: { time_steps: 2000 },
  };
}

/** A job of about a second whose result file is ~5 MB: 6 components × 64 wavelengths. */
export function bigResultJob(): Record<string, unknown> {
  return smallSimulation({
    domain: {
      size: [1e-6, 1e-6, 1e-6],
      resolution: 0.025e-6,
      boundary_conditions: ["periodic", "periodic", "pml"],
    },
    monitors: [
      {
        name: "plane",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [1e-6, 1e-6, 0],
        components: ["Ex", "Ey", "Ez", "Hx", "Hy", "Hz"],
        wavelengths: Array.from({ length: 64 }, (_, i) => 1.4e-6 + i * 4e-9),
      },
    ],
    fdtd_settings: { time_steps: 200, convergence_threshold: 0 },
  });
}
