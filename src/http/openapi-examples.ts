/**
 * Example bodies that several operations show in the OpenAPI document (src/http/openapi.ts):
 * the example request, the example job and the error a malformed request gets. An example
 * that only one operation shows lives in that route's file.
 */
import { errors, type ApiError } from "../errors.js";
import type { Config } from "../config.js";
import { validateSimulationRequest } from "../schema/validate.js";

export const EXAMPLE_JOB_ID = "5b0e6f7c-2d1a-4c8e-9f3b-7a6d5c4b3a21";
/** The job of another request, which a conflict names. */
export const OTHER_JOB_ID = "0c3d9a8e-61f4-4b7a-8e2d-94c1b0a7f563";

/** A small valid request: a plane wave along z through an empty periodic column. */
export const EXAMPLE_REQUEST = {
  solver: "fdtd",
  domain: {
    size: [0.05e-6, 0.05e-6, 3e-6],
    resolution: 25e-9,
    boundary_conditions: ["periodic", "periodic", "pml"],
    pml_layers: 12,
  },
  source: {
    source_type: "plane_wave",
    wavelength: 1.55e-6,
    polarization: "te",
    direction: [0, 0, 1],
    amplitude: 1,
  },
  structures: [
    { type: "box", center: [0, 0, 0.5e-6], size: [0.05e-6, 0.05e-6, 0.5e-6], material: "SiO2" },
  ],
  monitors: [
    {
      name: "axis",
      monitor_type: "field",
      center: [0, 0, 0],
      size: [0, 0, 2.5e-6],
      components: ["Ex", "Ey"],
    },
  ],
  fdtd_settings: { time_steps: 6000, check_every_n: 500, convergence_threshold: 1e-6 },
  metadata: { project: "demo" },
};

/** The example job's record, COMPLETED (the JobRecord of the document). */
export const EXAMPLE_JOB = {
  job_id: EXAMPLE_JOB_ID,
  status: "COMPLETED",
  created_at: "2026-11-23T10:15:02.113Z",
  updated_at: "2026-11-23T10:15:09.871Z",
  result_url: `https://emsim.example/v1/simulations/${EXAMPLE_JOB_ID}/results`,
  checksum: "9f2c4e1d7b8a6f5e3c2d1b0a9e8f7d6c5b4a3e2d1c0b9a8f7e6d5c4b3a2e1f0d",
  checksum_algorithm: "sha256",
  error_detail: null,
  solver: "fdtd",
  duration_seconds: 6.9,
  metadata: { project: "demo" },
  progress: {
    step: 3500,
    total_steps: 6000,
    fraction: 0.583,
    last_relative_change: 8.1e-7,
    mcells_per_second: 152.4,
  },
  started_at: "2026-11-23T10:15:02.950Z",
  finished_at: "2026-11-23T10:15:09.871Z",
  cancel_requested: false,
  attempts: 1,
  result_bytes: 58_112,
  solver_report: {
    steps_run: 3500,
    time_steps_limit: 6000,
    converged: true,
    converged_at_step: 3500,
    last_relative_change: 8.1e-7,
    cells: 576,
    grid: [4, 1, 144],
    grid_step_m: 2.5e-8,
    min_grid_step_m: 2.5e-8,
    dt_seconds: 4.77e-17,
    wall_seconds: 0.41,
    mcells_per_second: 152.4,
    kernel: "wasm",
    threads: 2,
    steps_per_sweep: 2,
    notes: [],
  },
  reused_result_of: null,
  batch_id: null,
  parameters: null,
  estimate: null,
};

/**
 * The 422 that the example request gets with a negative resolution and a wavelength written
 * as text, from the server's own validator, so that the example is the body really sent.
 */
export function invalidRequestExample(config: Config): ApiError {
  const request = {
    ...EXAMPLE_REQUEST,
    domain: { ...EXAMPLE_REQUEST.domain, resolution: -20e-9 },
    source: { ...EXAMPLE_REQUEST.source, wavelength: "1.55um" },
  };
  const outcome = validateSimulationRequest(request, config.limits);
  if (outcome.ok) throw new Error("the invalid example request passed validation");
  return errors.validation(outcome.errors);
}

/** A set-up preview of the example request: the x = 0 plane, at most 6 samples per axis. */
export const EXAMPLE_PREVIEW_REQUEST = {
  simulation: EXAMPLE_REQUEST,
  planes: [{ normal: "x" as const, position: 0 }],
  max_samples: 6,
};

/** A mode request: the 500 × 220 nm silicon strip in silica, its cross-section at 20 nm. */
export const EXAMPLE_MODES_REQUEST = {
  domain: {
    size: [2e-6, 1e-6, 2e-6],
    resolution: 20e-9,
    boundary_conditions: ["pml", "pml", "pml"],
    pml_layers: 10,
  },
  structures: [
    { type: "box", center: [0, 0, 0], size: [10, 10, 10], material: "SiO2" },
    { type: "box", center: [0, 0, 0.11e-6], size: [0.5e-6, 10, 0.22e-6], material: "Si" },
  ],
  plane: { center: [0, 0, 0.11e-6], size: [1.6e-6, 0, 1.6e-6] },
  wavelengths: [1.55e-6],
  mode_spec: { num_modes: 2 },
};

/** What the server answers to EXAMPLE_MODES_REQUEST (measured; the time on two cores). */
export const EXAMPLE_MODES_RESPONSE = {
  plane: { normal: "y", axes: ["x", "z"], position_m: 0, cells: [80, 79] },
  wavelengths_m: [1.55e-6],
  modes: [
    { wavelength_m: 1.55e-6, mode_index: 0, n_eff: 2.44279, k_eff: 0, te_fraction: 0.98388 },
    { wavelength_m: 1.55e-6, mode_index: 1, n_eff: 1.77654, k_eff: 0, te_fraction: 0.04373 },
  ],
  unknowns: 12481,
  solve_seconds: 0.91,
  notes: [],
};

/** The S-matrix of a straight waveguide between two ports (src/solver/ports.test.ts). */
export const EXAMPLE_S_MATRIX = {
  ports: ["o1@0", "o2@0"],
  inputs: ["o1@0", "o2@0"],
  wavelengths_m: [1.55e-6],
  s: [
    [[[1.2e-5, -5.7e-5]], [[-0.9612, 0.2758]]],
    [[[-0.9612, 0.2758]], [[1.1e-5, -5.6e-5]]],
  ],
  n_eff: [[1.8475], [1.8475]],
};

export const EXAMPLE_BATCH_ID = "7e1b2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e";

/** A sweep of the example's slab thickness over three values (POST /v1/batches). */
export const EXAMPLE_BATCH_REQUEST = {
  simulation: EXAMPLE_REQUEST,
  parameters: [
    { name: "thickness", path: "/structures/0/size/2", values: [0.4e-6, 0.5e-6, 0.6e-6] },
  ],
  metadata: { project: "demo" },
};

/** The example batch's record, RUNNING: one job done, one running, one queued. */
export const EXAMPLE_BATCH = {
  batch_id: EXAMPLE_BATCH_ID,
  status: "RUNNING",
  job_count: 3,
  combine: "product",
  parameters: [{ name: "thickness", values: [0.4e-6, 0.5e-6, 0.6e-6] }],
  counts: { QUEUED: 1, RUNNING: 1, COMPLETED: 1, FAILED: 0 },
  progress: { fraction: 0.5 },
  cancel_requested: false,
  jobs: [
    {
      job_id: EXAMPLE_JOB_ID,
      index: 0,
      status: "COMPLETED",
      parameters: { thickness: 0.4e-6 },
      error_detail: null,
    },
    {
      job_id: OTHER_JOB_ID,
      index: 1,
      status: "RUNNING",
      parameters: { thickness: 0.5e-6 },
      error_detail: null,
    },
    {
      job_id: "3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d",
      index: 2,
      status: "QUEUED",
      parameters: { thickness: 0.6e-6 },
      error_detail: null,
    },
  ],
  result_url: null,
  checksum: null,
  created_at: "2026-11-28T10:15:02.113Z",
  updated_at: "2026-11-28T10:15:09.871Z",
  metadata: { project: "demo" },
};
