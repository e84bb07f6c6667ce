/** Simulations the tests run through the service (beside smallSimulation in service.ts). */

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
