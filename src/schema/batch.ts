/**
 * Batches (POST /v1/batches, DESIGN §11): the request (a base simulation, its parameters and
 * how they combine) and the records the API shows. The simulation is checked by the
 * simulation's own schema in the batch service, variant by variant, so that an error names
 * the variant and the field (`variants[3].domain.size[0]`); here it is only an object.
 */
import Type, { type Static } from "typebox";
import { JOB_STATUSES, type JobStatus } from "./job-status.js";
import { metadataSchema } from "./metadata.js";

/** Parameters one batch may sweep. */
export const MAX_BATCH_PARAMETERS = 8;

const ParameterValue = Type.Union([Type.Number(), Type.String({ maxLength: 200 }), Type.Boolean()]);

export const BatchParameterSchema = Type.Object(
  {
    name: Type.String({
      pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$",
      description:
        "The sweep dimension's name in the results (an identifier: letters, digits, _; not `__proto__`, nor a name the result file uses), unique in the batch.",
    }),
    path: Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        'A JSON Pointer (RFC 6901) to a value the simulation holds, e.g. "/structures/1/size/0" or "/source/wavelength".',
    }),
    values: Type.Optional(
      Type.Array(ParameterValue, {
        minItems: 1,
        maxItems: 10_000,
        description: "The values, in order (give values or range).",
      }),
    ),
    range: Type.Optional(
      Type.Object(
        {
          start: Type.Number(),
          stop: Type.Number(),
          points: Type.Integer({ minimum: 1, maximum: 10_000 }),
        },
        {
          additionalProperties: false,
          description:
            "`points` distinct values from start to stop, equally spaced, both ends included.",
        },
      ),
    ),
  },
  { additionalProperties: false, title: "BatchParameter" },
);

export const BatchRequestSchema = Type.Object(
  {
    simulation: Type.Unsafe<Record<string, unknown>>({
      type: "object",
      // Any object here (generators: a record, not an empty one); each variant is checked whole.
      additionalProperties: true,
      description:
        "The base simulation: a SimulationRequest, into which each variant writes its parameters' values.",
    }),
    parameters: Type.Array(BatchParameterSchema, { minItems: 1, maxItems: MAX_BATCH_PARAMETERS }),
    combine: Type.Optional(
      Type.Union([Type.Literal("product"), Type.Literal("zip")], {
        description:
          "product (default): every combination, the first parameter outermost; zip: the i-th value of each.",
      }),
    ),
    metadata: Type.Optional(metadataSchema("Free-form; echoed back.")),
  },
  {
    additionalProperties: false,
    $id: "BatchRequest",
    title: "BatchRequest",
    description: "A sweep: one simulation, parameters, one job per variant.",
  },
);

export type BatchRequestBody = Static<typeof BatchRequestSchema>;

export const BATCH_STATUSES = ["QUEUED", "RUNNING", "COMPLETED", "FAILED"] as const;

export const BatchAckSchema = Type.Object(
  {
    batch_id: Type.String({ format: "uuid" }),
    status: Type.Literal("QUEUED"),
    job_count: Type.Integer(),
    created_at: Type.String({ description: "ISO 8601 UTC" }),
    message: Type.String(),
  },
  { title: "BatchAck", description: "The batch and all its jobs are stored and QUEUED." },
);

export const BatchEstimateSchema = Type.Object(
  {
    job_count: Type.Integer({ description: "Jobs the batch would make, one per variant." }),
    expected_seconds: Type.Number({
      description:
        "Run time of every job summed (each job's expected_seconds, as POST /v1/simulations/estimate gives it); with several workers the batch runs up to `parallelism` jobs at once.",
    }),
    max_batch_seconds: Type.Number({
      description: "The deployment's bound on expected_seconds (EMSIM_MAX_BATCH_SECONDS).",
    }),
    parallelism: Type.Integer({
      description: "Jobs of one batch run at once where there are workers for them.",
    }),
    time_steps: Type.Integer({ description: "Every job's time-step limit, summed." }),
    result_bytes: Type.Integer({ description: "The jobs' result files, summed (about)." }),
    largest_job: Type.Object(
      {
        cells: Type.Integer(),
        memory_bytes: Type.Integer(),
      },
      { description: "The largest variant's grid cells and memory." },
    ),
  },
  {
    title: "BatchEstimate",
    description: "What a batch would cost, checked as a submission is; nothing is queued.",
  },
);
export type BatchEstimate = Static<typeof BatchEstimateSchema>;

const counts = Type.Object(
  Object.fromEntries(JOB_STATUSES.map((s) => [s, Type.Integer()])) as Record<
    JobStatus,
    ReturnType<typeof Type.Integer>
  >,
  { description: "Jobs in each state." },
);

export const BatchRecordSchema = Type.Object(
  {
    batch_id: Type.String({ format: "uuid" }),
    status: Type.Unsafe<(typeof BATCH_STATUSES)[number]>({
      type: "string",
      enum: [...BATCH_STATUSES],
      description:
        "QUEUED until a job starts; RUNNING while any is QUEUED or RUNNING; then COMPLETED if at least one job COMPLETED, else FAILED.",
    }),
    job_count: Type.Integer(),
    combine: Type.String(),
    parameters: Type.Array(
      Type.Object({
        name: Type.String(),
        path: Type.Optional(Type.String({ description: "The JSON Pointer it sets." })),
        values: Type.Array(ParameterValue),
        along: Type.Optional(
          Type.Array(
            Type.Object({
              name: Type.String(),
              path: Type.String(),
              values: Type.Array(ParameterValue),
            }),
            { description: "A zip's other parameters, each as long as the dimension." },
          ),
        ),
      }),
      {
        description:
          "The sweep's dimensions, in order (zip: one, named after the first parameter, the others `along` it).",
      },
    ),
    counts,
    progress: Type.Object(
      {
        fraction: Type.Number({
          description: "0…1 over all jobs (a running job by its own progress).",
        }),
      },
      { additionalProperties: false },
    ),
    cancel_requested: Type.Boolean(),
    jobs: Type.Array(
      Type.Object({
        job_id: Type.String({ format: "uuid" }),
        index: Type.Integer({ description: "The variant's place, row-major over the dimensions." }),
        status: Type.Unsafe<JobStatus>({ type: "string", enum: [...JOB_STATUSES] }),
        parameters: Type.Record(Type.String(), ParameterValue),
        error_detail: Type.Unsafe<string | null>({ type: ["string", "null"] }),
      }),
    ),
    result_url: Type.Unsafe<string | null>({
      type: ["string", "null"],
      description: "API address of the batch's one result file; set when COMPLETED.",
    }),
    checksum: Type.Unsafe<string | null>({
      type: ["string", "null"],
      description:
        "SHA-256 hex of the batch's result file, once it has been built (first download).",
    }),
    created_at: Type.String(),
    updated_at: Type.String(),
    metadata: Type.Unsafe<Record<string, unknown>>({ type: "object", additionalProperties: true }),
  },
  { title: "BatchRecord", description: "A batch, its jobs and their states." },
);

export type BatchRecord = Static<typeof BatchRecordSchema>;

export const BatchListSchema = Type.Object(
  {
    batches: Type.Array(Type.Omit(BatchRecordSchema, ["jobs"])),
    next_cursor: Type.Unsafe<string | null>({
      type: ["string", "null"],
      description: "Pass as `cursor` for the next (older) page; null at the end.",
    }),
  },
  { title: "BatchList", description: "One page of batches, newest first (without their jobs)." },
);
