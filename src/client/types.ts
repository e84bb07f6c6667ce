/**
 * The API's request and response shapes as the SDK sees them: the server's own, derived from
 * the JSON schemas that validate requests (src/schema/simulation.ts) and serialise responses
 * (src/schema/responses.ts, where each field's description is), so they cannot drift apart.
 */
import type { DrcSummary } from "../fabrication/drc/run.js";
import type { Pdk } from "../fabrication/pdks.js";
import type { RecipeStep } from "../fabrication/recipe.js";
import type { Static } from "typebox";
import type { DrcResponse, RecipeResponse } from "../schema/fabrication.js";
import type { ModeResultSchema, ModesRequest, ModesResponseSchema } from "../schema/modes.js";
import type { PreviewRequest, PreviewResponse } from "../schema/preview.js";
import type { SimulationRequest } from "../schema/simulation.js";
import type {
  BatchAckSchema,
  BatchEstimate,
  BatchListSchema,
  BatchParameterSchema,
  BatchRecord,
  BatchRequestBody,
} from "../schema/batch.js";
import type { SMatrixJson } from "../results/touchstone.js";

export type { SimulationRequest };

export { JOB_STATUSES, isActive, type JobStatus } from "../schema/job-status.js";
export type {
  Estimate,
  JobList,
  JobProgress,
  JobRecord,
  MaterialInfo,
  SubmissionAckBody as SubmissionAck,
} from "../schema/responses.js";

/** One problem of a 422 answer: the field (dotted path) and what is wrong with it. */
export interface FieldError {
  path: string;
  message: string;
}

/** Every error body: `detail` in words, `error_code` stable, plus per-error fields. */
export interface ErrorBody {
  detail: string;
  error_code: string;
  [extra: string]: unknown;
}

export type {
  DrcRequest,
  DrcRules,
  ExportGdsRequest,
  ExportGdsResponse as GdsExport,
  LayerMapping,
  RecipeRequest,
  UploadGdsResponse as GdsUpload,
} from "../schema/fabrication.js";

/**
 * A design-rule check's answer (`POST /v1/fabrication/drc`); `summary_details` is loose in the
 * response schema and typed here from the library's summary.
 */
export type DrcResult = Omit<DrcResponse, "summary_details"> & {
  summary_details: DrcSummary & { pdk: string; file_warnings: string[] };
};
export type DrcViolation = DrcResult["violations"][number];

/** A process recipe (`POST /v1/fabrication/recipe`), its steps typed from the library's. */
export type Recipe = Omit<RecipeResponse, "steps"> & { steps: RecipeStep[] };
export type { RecipeStep };

/** A process design kit as `GET /v1/fabrication/pdks` lists it (src/fabrication/pdks.ts). */
export type { Pdk };

/** A plane to solve for its waveguide modes (`POST /v1/modes`, docs/api.md "Modes"). */
export type { ModesRequest };

/**
 * The modes of a plane: the plane as the grid placed it, `wavelengths_m`, and `modes` by
 * wavelength then `mode_index`; with `include_fields`, each mode's `fields` (V/m, A/m for 1 W)
 * on the cell centres `grid` (`<u>_m`, `<v>_m`), index i·n_v + j with i along `plane.axes[0]`.
 */
export type ModesResponse = Static<typeof ModesResponseSchema>;
/** One mode at one wavelength: n_eff, k_eff (> 0 decaying), te_fraction, group_index, fields. */
export type ModeResult = Static<typeof ModeResultSchema>;

/** A plane of a set-up preview to show: its normal axis and where it crosses it (metres). */
export type PreviewPlane = NonNullable<PreviewRequest["planes"]>[number];

/**
 * The set-up as the solver sees it (`POST /v1/simulations/preview`, docs/api.md "Preview"):
 * `planes` (each with its `axes`, `coords` in metres, `eps_real` and `eps_imag` indexed
 * `[i][j]` along `axes[0]` then `axes[1]`, `material` into `materials`, `pec`, and `objects`
 * with their outlines), the `materials`, the set-up's `warnings` and the run's `estimate`.
 */
export type { PreviewResponse };
export type { PreviewObject, PreviewPlaneResult } from "../schema/preview.js";
/** What a set-up probably does not mean: `{code, path, message}`. */
export type PreviewWarning = PreviewResponse["warnings"][number];

/**
 * A ports job's scattering matrix (`GET /v1/simulations/{id}/sparameters`, docs/api.md "Ports
 * and S-parameters"): `ports` names the rows and columns (`"o1@0"`: port o1, mode 0), `inputs`
 * those that were run, `s[out][in][λ]` is `[re, im]` (`s[1][0]` is S21) or null where the input
 * was not run, `wavelengths_m` in metres, `n_eff[port][λ]` each port mode's effective index.
 */
export type SMatrix = SMatrixJson;

/**
 * One parameter of a sweep (docs/api.md "Batches"): `name` (an identifier, the sweep
 * dimension's name in the results), `path` (a JSON Pointer into the simulation, e.g.
 * `/structures/1/size/0`), and either `values` or `range` `{start, stop, points}` (both ends
 * included). Lengths and wavelengths in metres, as in the simulation.
 */
export type BatchParameter = Static<typeof BatchParameterSchema>;

/** A value a parameter takes: one type per parameter. */
export type ParameterValue = NonNullable<BatchParameter["values"]>[number];

/**
 * A sweep (`POST /v1/batches`): the base `simulation`, its `parameters`, and `combine`:
 * `"product"` (default; every combination, the first parameter outermost) or `"zip"`.
 */
export type BatchRequest = Omit<BatchRequestBody, "simulation"> & {
  simulation: SimulationRequest;
};

/** The answer to a batch submission: `{batch_id, status: "QUEUED", job_count, …}`. */
export type BatchAck = Static<typeof BatchAckSchema>;

/**
 * What a sweep would cost (`POST /v1/batches/estimate`): `job_count`, `expected_seconds` (the
 * jobs' summed), `max_batch_seconds`, `parallelism`, `time_steps`, `result_bytes`, `largest_job`.
 */
export type { BatchEstimate };

/**
 * A batch's record (`GET /v1/batches/{id}`): `status`, `counts` by job state,
 * `progress.fraction` over all jobs, `parameters` (the sweep's dimensions and their values),
 * `jobs` (each with its `index`, `status`, `parameters` and `error_detail`), and `result_url`
 * and `checksum` (SHA-256) of its one result file once it is COMPLETED (the checksum once the
 * file has been built, by the first download).
 */
export type { BatchRecord };

/** QUEUED, RUNNING, COMPLETED (at least one job completed) or FAILED (none did). */
export type BatchStatus = BatchRecord["status"];

/** One job of a batch as its record lists it. */
export type BatchJob = BatchRecord["jobs"][number];

/** One page of batches, newest first, without their jobs (`GET /v1/batches`). */
export type BatchList = Static<typeof BatchListSchema>;
