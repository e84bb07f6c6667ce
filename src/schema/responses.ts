/**
 * The API's response bodies as JSON schemas: the one source of their shape. The server
 * serialises and documents responses with them (src/http/, /openapi.json, where a schema's
 * `title` is its component name), and the SDK's types are derived from them
 * (src/client/types.ts), as the job record the service builds is (src/jobs/records.ts).
 */
import Type, { type Static } from "typebox";
import { JOB_STATUSES, type JobStatus } from "./job-status.js";

/*
 * Nullable fields are written as `type: [T, "null"]` rather than `anyOf`: the serialiser
 * (fast-json-stringify) handles a type list directly but tries each anyOf branch with a
 * validator on every response, which cost about half the status endpoint's throughput.
 */
const nullableNumber = (description?: string) =>
  Type.Unsafe<number | null>({ type: ["number", "null"], ...(description ? { description } : {}) });
const nullableInteger = (description?: string) =>
  Type.Unsafe<number | null>({
    type: ["integer", "null"],
    ...(description ? { description } : {}),
  });
const nullableString = (description: string) =>
  Type.Unsafe<string | null>({ type: ["string", "null"], description });

export const ErrorBody = Type.Object(
  {
    detail: Type.String({ description: "What went wrong, in words." }),
    error_code: Type.String({ description: "Stable machine-readable code." }),
  },
  {
    additionalProperties: true,
    title: "Error",
    description: "Error body (extra fields per error).",
  },
);

export const ValidationErrorBody = Type.Object(
  {
    detail: Type.String({ description: "The first problem, naming the field and the bound." }),
    error_code: Type.Literal("validation_error"),
    errors: Type.Array(
      Type.Object(
        {
          path: Type.String({ description: "The field, e.g. `domain.size[0]` or `query.limit`." }),
          message: Type.String({ description: "What is wrong with it." }),
        },
        { title: "FieldError", description: "One problem: the field and what is wrong with it." },
      ),
      { maxItems: 50, description: "The first 50 problems, each naming the field and the bound." },
    ),
    error_count: Type.Integer({ description: "How many problems were found in all." }),
  },
  { title: "ValidationError", description: "The request is not valid: every problem found." },
);

export const ConflictBody = Type.Object(
  {
    detail: Type.String(),
    error_code: Type.String(),
    active_job_id: Type.String({
      description:
        "The active job (the caller's own by default). Under EMSIM_CONCURRENCY_SCOPE=global, when the active job is another account's, \"(another account's job)\": its id is not disclosed.",
    }),
    active_batch_id: Type.Optional(
      Type.String({ description: "The caller's batch the active job belongs to, if it does." }),
    ),
    retry_after: Type.Integer({ description: "Seconds until a submission is likely to succeed." }),
  },
  { title: "SimulationConflict", description: "A submission refused while a job is active." },
);

export const NotReadyBody = Type.Object(
  {
    detail: Type.String(),
    error_code: Type.String(),
    status: Type.String({ description: "The job's status (QUEUED, RUNNING or FAILED)." }),
    retry_after: Type.Optional(
      Type.Integer({
        description:
          "Seconds until the results are likely ready; absent once the job has ended FAILED (it never will have any).",
      }),
    ),
  },
  { title: "ResultsNotReady", description: "Results asked for before the job COMPLETED." },
);

export const SubmissionAck = Type.Object(
  {
    job_id: Type.String({ format: "uuid" }),
    status: Type.Literal("QUEUED"),
    created_at: Type.String({ description: "ISO 8601 UTC" }),
    message: Type.String(),
  },
  { title: "SubmissionAck", description: "The job is stored and QUEUED." },
);

export const JobProgressSchema = Type.Unsafe<{
  phase?: "setup" | "stepping";
  setup_fraction?: number;
  step: number;
  total_steps: number;
  fraction: number;
  last_relative_change: number | null;
  mcells_per_second: number | null;
} | null>({
  type: ["object", "null"],
  title: "JobProgress",
  description: "Solver progress, or null before the first report.",
  required: ["step", "total_steps", "fraction", "last_relative_change", "mcells_per_second"],
  properties: {
    phase: Type.Union([Type.Literal("setup"), Type.Literal("stepping")], {
      description:
        "setup while the run is set up (painting structures, solving a mode source's plane), then stepping.",
    }),
    setup_fraction: Type.Number({
      description:
        "Fraction of the set-up done; 1 once stepping. Where a mode source or a ports run solves its plane's modes after the painting, the painting fills the first half and the plane's wavelengths solved the second.",
    }),
    step: Type.Integer(),
    total_steps: Type.Integer(),
    fraction: Type.Number(),
    last_relative_change: nullableNumber(),
    mcells_per_second: nullableNumber(),
  },
});

/** The GPU adapter a `webgpu` run used (absent from reports of the CPU backends). */
export const SolverAdapterSchema = Type.Object(
  {
    vendor: Type.String(),
    architecture: Type.String(),
    device: Type.String(),
    description: Type.String(),
    software: Type.Boolean({
      description:
        "A CPU implementation of WebGPU (e.g. Mesa llvmpipe): correct results, no GPU speed.",
    }),
  },
  {
    title: "SolverAdapter",
    description: "The GPU adapter the webgpu backend ran on, as WebGPU names it.",
  },
);
export type SolverAdapterReport = Static<typeof SolverAdapterSchema>;

/** The solver's run report, as the job record shows it once the job is COMPLETED. */
export const SolverReportSchema = Type.Object(
  {
    steps_run: Type.Integer(),
    time_steps_limit: Type.Integer({ description: "fdtd_settings.time_steps" }),
    converged: Type.Boolean(),
    converged_at_step: nullableInteger("The step at which the monitors converged, if they did."),
    last_relative_change: nullableNumber("Relative L2 change at the last convergence check."),
    cells: Type.Integer({ description: "Cells of the whole grid, PML included." }),
    grid: Type.Array(Type.Integer(), { description: "Cells per axis, PML included." }),
    grid_step_m: Type.Number({
      description:
        "Cell edge in metres (domain.resolution); with mesh overrides the longest cell's.",
    }),
    min_grid_step_m: Type.Optional(
      Type.Number({
        description:
          "The shortest cell's edge in metres: grid_step_m on a uniform grid, the mesh overrides' finest step on a graded one. The time step follows it.",
      }),
    ),
    dt_seconds: Type.Number(),
    wall_seconds: Type.Number(),
    mcells_per_second: Type.Number({ description: "Million cell-updates per second." }),
    kernel: Type.String({
      description: "The solver backend that ran the job: wasm, webgpu or reference.",
    }),
    adapter: Type.Optional(SolverAdapterSchema),
    threads: Type.Integer(),
    steps_per_sweep: Type.Integer({ description: "Time steps per sweep (temporal blocking)." }),
    setup_seconds: Type.Optional(
      Type.Number({
        description: "Seconds before the first time step: grid, painting, kernels, threads.",
      }),
    ),
    stepping_seconds: Type.Optional(
      Type.Number({ description: "Seconds of time stepping (what mcells_per_second divides by)." }),
    ),
    setup: Type.Optional(
      Type.Object(
        {
          grid_seconds: Type.Number({
            description: "Grid plan, materials, grid model, source line and monitors.",
          }),
          painting_seconds: Type.Number({ description: "Painting the structures." }),
          fields_seconds: Type.Number({ description: "The backend's fields and tables." }),
          compile_seconds: Type.Number({ description: "Generating and compiling the kernel." }),
          thread_start_seconds: Type.Number({ description: "Starting the kernel threads." }),
        },
        { description: "setup_seconds by part." },
      ),
    ),
    stepping: Type.Optional(
      Type.Object(
        {
          kernel_seconds: Type.Number({ description: "The kernel's sweeps, on every thread." }),
          source_seconds: Type.Number({ description: "The plane wave's auxiliary line." }),
          monitor_seconds: Type.Number({ description: "The monitors' running DFT." }),
          checks_seconds: Type.Number({ description: "Energy, divergence and convergence." }),
          yield_seconds: Type.Number({ description: "Yields to the event loop, progress." }),
          other_seconds: Type.Number({ description: "The rest of the loop." }),
        },
        {
          description: "stepping_seconds by part: the kernel, and the per-step work outside it.",
        },
      ),
    ),
    result_writing_seconds: Type.Optional(
      Type.Number({
        description: "Writing and verifying the result file (the job record only).",
      }),
    ),
    machine: Type.Optional(
      Type.Object(
        {
          cores: Type.Integer({
            description: "Logical cores available to the process that ran the job.",
          }),
          cpu: Type.String(),
          memory_bytes: Type.Number(),
        },
        { description: "Where the speed depends on the machine: what ran the job." },
      ),
    ),
    notes: Type.Array(Type.String(), { description: "Approximations that apply to this run." }),
    flux: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          "Per flux monitor: quantity, wavelengths_m, flux (normalised: to the incident plane wave, or for a point dipole to the power it radiates in vacuum), a box's cross-sections in m² (plane wave), and power_w, the power in watts (point dipole).",
      }),
    ),
    far_field: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          "Per far-field monitor: wavelengths_m, theta_deg, phi_deg, radiant_intensity as [wavelength][theta][phi] and radiant_intensity_unit: W/sr, or in a 2-D cross-section (cross_section_axis, the thin axis) W/rad over one period, the line's pattern in the cross-section's plane (the result file also holds the complex E_theta and E_phi).",
      }),
    ),
    s_matrix: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          "A ports job's scattering matrix: ports (port@mode), inputs (those run), wavelengths_m, s as [out][in][wavelength] of [re, im] (out first: s[1][0] is S21; null for inputs not run), n_eff of each port mode [port][wavelength]. Also GET /v1/simulations/{job_id}/sparameters (JSON or Touchstone).",
      }),
    ),
    modes: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Per mode monitor: wavelengths_m, normal, n_eff and k_eff as [wavelength][mode], amps {"+", "-"} as [wavelength][mode] of [re, im] (along +normal and −normal), and power {"+", "-"} = |amp|²: with a mode source, the power in that mode over the 1 W the source injects. An evanescent mode (n_eff below |k_eff|) has null amps and power.',
      }),
    ),
  },
  { title: "SolverReport", description: "How the solver ran the job." },
);

export const EstimateSchema = Type.Object(
  {
    grid: Type.Array(Type.Integer(), { description: "Cells per axis, PML included." }),
    interior_grid: Type.Array(Type.Integer(), {
      description: "Cells per axis inside domain.size.",
    }),
    cells: Type.Integer(),
    time_steps: Type.Integer(),
    dt_seconds: Type.Number(),
    monitor_samples: Type.Integer(),
    memory_bytes: Type.Integer(),
    result_bytes: Type.Integer(),
    estimated_seconds: Type.Integer({ description: "If the run uses all its time steps." }),
    expected_steps: Type.Integer({
      description:
        "Time steps the run is expected to take: when it is expected to converge (a rule " +
        "of thumb), else all of them.",
    }),
    expected_seconds: Type.Number({
      description:
        "Seconds from the start of the run to its end if it takes expected_steps (tenths).",
    }),
    mcells_per_second_assumed: Type.Number(),
    notes: Type.Array(Type.String(), {
      description:
        "What the run report will note about the request before it runs: a graded grid's " +
        "range of steps and how much shorter its time step is (mesh_overrides), a " +
        "max_step_ratio given without mesh_overrides (it has no effect), the part of the " +
        "domain a mirror symmetry steps (domain.symmetry), and a metal sphere " +
        "or cylinder with fewer than 20 cells across its radius (its staircase surface moves " +
        "plasmon resonances).",
    }),
  },
  {
    title: "Estimate",
    description: "What a run would take, from the same validation as submission.",
  },
);

export const JobRecordSchema = Type.Object(
  {
    job_id: Type.String({ format: "uuid" }),
    status: Type.Unsafe<JobStatus>({ type: "string", enum: [...JOB_STATUSES] }),
    created_at: Type.String(),
    updated_at: Type.String(),
    result_url: nullableString("API address of the results; set when COMPLETED."),
    checksum: nullableString("SHA-256 hex of the result file; set when COMPLETED."),
    checksum_algorithm: Type.Literal("sha256"),
    error_detail: nullableString("Why the job FAILED; null otherwise."),
    solver: Type.String(),
    duration_seconds: Type.Number({
      description: "Execution time: final once finished, so far while RUNNING, 0 while QUEUED.",
    }),
    metadata: Type.Unsafe<Record<string, unknown>>({
      type: "object",
      additionalProperties: true,
      description: "The submitted metadata, echoed.",
    }),
    progress: JobProgressSchema,
    started_at: nullableString("When the current or last attempt started."),
    finished_at: nullableString("When the job reached COMPLETED or FAILED."),
    cancel_requested: Type.Boolean(),
    attempts: Type.Integer(),
    result_bytes: nullableInteger("Size of the result file; set when COMPLETED."),
    solver_report: Type.Unsafe<SolverReport | null>({
      ...SolverReportSchema,
      type: ["object", "null"],
      description: "The solver's run report; set when COMPLETED.",
    }),
    reused_result_of: nullableString(
      "The earlier job of this account whose stored result answered this one (the same request, defaults applied): no solver ran. Null otherwise.",
    ),
    batch_id: nullableString(
      "The batch this job is a variant of (POST /v1/batches); null otherwise.",
    ),
    parameters: Type.Unsafe<Record<string, number | string | boolean> | null>({
      type: ["object", "null"],
      additionalProperties: { type: ["number", "string", "boolean"] },
      description: "A batch job's parameter values, by the parameters' names; null otherwise.",
    }),
    estimate: Type.Unsafe<Static<typeof EstimateSchema> | null>({
      ...EstimateSchema,
      // Inline: the component "Estimate" is the estimate route's non-null answer.
      title: undefined,
      type: ["object", "null"],
      description:
        "The estimate the job got when it was submitted, as POST /v1/simulations/estimate gave it then (the dashboard's builder shows the same); null for jobs submitted before it was kept and for a batch's jobs.",
    }),
  },
  { title: "JobRecord", description: "A simulation job and its state." },
);

export const JobListSchema = Type.Object(
  {
    jobs: Type.Array(JobRecordSchema),
    next_cursor: nullableString("Pass as `cursor` for the next (older) page; null at the end."),
  },
  { title: "JobList", description: "One page of jobs, newest first." },
);

export const MaterialSchema = Type.Object(
  {
    name: Type.String(),
    aliases: Type.Array(Type.String()),
    kind: Type.Union(
      [Type.Literal("dielectric"), Type.Literal("metal"), Type.Literal("perfect_conductor")],
      {
        description:
          "dielectric: a real refractive index inside the valid range (vacuum and air too); " +
          "metal: a Drude pole, always stepped with its pole model; perfect_conductor: PEC, " +
          "with no refractive index: E is zero inside it and tangential E on its surface, at " +
          "every wavelength.",
      },
    ),
    model: Type.String(),
    reference: Type.String(),
    valid_range_m: Type.Array(Type.Number(), {
      description: "Shortest and longest valid vacuum wavelength in metres.",
    }),
  },
  { title: "Material", description: "One entry of the material library." },
);

export const MaterialListSchema = Type.Object(
  { materials: Type.Array(MaterialSchema) },
  { title: "MaterialList", description: "The material library." },
);

export type JobProgress = NonNullable<Static<typeof JobProgressSchema>>;
export type JobRecord = Static<typeof JobRecordSchema>;
export type SolverReport = Static<typeof SolverReportSchema>;
export type SubmissionAckBody = Static<typeof SubmissionAck>;
export type JobList = Static<typeof JobListSchema>;
export type Estimate = Static<typeof EstimateSchema>;
export type MaterialInfo = Static<typeof MaterialSchema>;
