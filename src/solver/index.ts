/**
 * The FDTD solver as the rest of emsim sees it (docs/solver.md has the physics and the
 * conventions): everything outside src/solver imports the solver from here, never a file
 * inside it (test/architecture/layers.test.ts). Everything here is pure computation; the
 * service runs `runSimulation` in a worker thread.
 *
 * Inside, the core (this folder) builds the grid, the medium, the sources' injection terms and
 * the monitors, and hands them to a backend through the stepper interface (backend.ts); the
 * backends live in folders of their own (reference/, wasm/, webgpu/), and only the registry
 * (backends.ts) imports them.
 */
export * from "./types.js";
export {
  SOLVER_VERSION,
  libraryMaterials,
  runSimulation,
  setupNotes,
  checkAndPlan,
  checkSimulation,
  solveModesOf,
  checkModesOf,
  previewSetupOf,
} from "./entry-points.js";
export {
  MAX_PREVIEW_SAMPLES,
  MAX_PREVIEW_TOTAL_SAMPLES,
  previewPlaneProblems,
  type InjectionPlane,
  type PreviewAxis,
  type PreviewMaterial,
  type PreviewPlane,
  type PreviewPlaneRequest,
  type SetupPreview,
} from "./preview.js";
export type { SetupWarning } from "./preview-warnings.js";
export {
  MAX_MODE_PLANE_CELLS,
  MAX_MODE_WAVELENGTHS,
  MAX_MODES_PER_WAVELENGTH,
  type PlaneModes,
  type PlaneModesRequest,
} from "./modes/plane-modes.js";
export type { ModeSpec, SolvedMode } from "./modes/solve.js";
export { MAX_MODE_FIELD_CELLS } from "./checks/mode-plane.js";
export { estimateRun } from "./estimate.js";
export { domainPeriodicThinAxes, type GridPlan } from "./grid.js";
export type { CheckedSimulation } from "./check.js";
export { surfaceCells } from "./surface.js";
export { BACKEND_CHOICES, BACKEND_NAMES } from "./backend-names.js";
export { fieldStorageFromEnv, type FieldStorage } from "./field-storage-setting.js";
export {
  describeAdapter,
  initSolverBackend,
  resolvedChoice,
  solverBackend,
  wasmBackendSupported,
} from "./backends.js";
export type { GpuAdapterReport } from "./adapter-report.js";
export { warmUp } from "./warm-up.js";
export { StopFlag } from "./stop-flag.js";
export { siblingModule, startModuleThread } from "./module-thread.js";
export * from "./bounds.js";
export { MAX_FLUX_WAVELENGTHS, MAX_MONITOR_WAVELENGTHS } from "./checks/monitors.js";
export { MAX_FAR_FIELD_WAVELENGTHS } from "./checks/far-field.js";
export { MAX_MODE_MONITOR_WAVELENGTHS } from "./checks/mode-monitor.js";
export {
  MAX_POLYSLAB_HOLES,
  MAX_POLYSLAB_VERTICES,
  MAX_SIDEWALL_ANGLE_DEG,
  boundsOf,
  polySlabContains,
  polySlabEnds,
  polySlabOutlineAt,
  polySlabProblems,
} from "./polyslab.js";
export { MATERIALS, findMaterial, materialKind } from "./materials.js";
