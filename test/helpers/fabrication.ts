/**
 * A job whose layout is known in closed form, for the fabrication tests of the CLI, the SDK
 * and the dashboard: two 500 × 400 nm silicon blocks 50 nm apart (one spacing violation of
 * SiEPIC's 70 nm Si rule, nothing narrower than its 60 nm width rule) and a silica block that
 * no SiEPIC layer patterns. The run is small (a few seconds on one thread).
 */

const UM = 1e-6;

/** The silicon blocks' extents in the export's frame (domain centred on the origin), nm. */
export const SILICON_BLOCKS_NM = [
  [-525, -200, -25, 200],
  [25, -200, 525, 200],
] as const;

/** The gap between the silicon blocks, nm. */
export const GAP_NM = 50;

export function twoBlockSimulation(): Record<string, unknown> {
  return {
    solver: "fdtd",
    domain: {
      size: [1.2 * UM, 1.6 * UM, 1.2 * UM],
      resolution: 0.04 * UM,
      boundary_conditions: ["periodic", "periodic", "pml"],
      pml_layers: 8,
    },
    source: { source_type: "plane_wave", wavelength: 1.55 * UM, direction: [0, 0, 1] },
    structures: [
      {
        type: "box",
        center: [-0.275 * UM, 0, 0],
        size: [0.5 * UM, 0.4 * UM, 0.22 * UM],
        material: "Si",
      },
      {
        type: "box",
        center: [0.275 * UM, 0, 0],
        size: [0.5 * UM, 0.4 * UM, 0.22 * UM],
        material: "Si",
      },
      {
        type: "box",
        center: [0, 0.6 * UM, 0],
        size: [0.3 * UM, 0.2 * UM, 0.22 * UM],
        material: "SiO2",
      },
    ],
    monitors: [
      {
        name: "probe",
        monitor_type: "field",
        center: [0, 0, 0.4 * UM],
        size: [0, 0, 0],
        components: ["Ex"],
      },
    ],
    fdtd_settings: { time_steps: 400, check_every_n: 100, convergence_threshold: 0 },
    metadata: { project: "fabrication-test" },
  };
}
