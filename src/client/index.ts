/**
 * emsim SDK (`import { EmsimClient } from "emsim/client"`): a typed client for the emsim API
 * with retries, progress polling and verified, resumable result downloads. See docs/sdk.md.
 */
export {
  EmsimClient,
  type DownloadOptions,
  type DownloadResult,
  type GdsDownloadResult,
  type EmsimClientOptions,
  type ListOptions,
  type ModesOptions,
  type QueueWaitInfo,
  type RequestOptions,
  type RetryInfo,
  type RunOptions,
  type RunResult,
  type SParametersOptions,
  type SubmitOptions,
  type WaitOptions,
} from "./client.js";
export type { DownloadProgress } from "./download.js";
export {
  EmsimApiError,
  EmsimChecksumError,
  EmsimError,
  EmsimJobFailedError,
  EmsimNetworkError,
  isAbortError,
} from "./errors.js";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry.js";
export {
  JOB_STATUSES,
  isActive,
  type DrcRequest,
  type DrcResult,
  type DrcRules,
  type DrcViolation,
  type ErrorBody,
  type Estimate,
  type ExportGdsRequest,
  type GdsExport,
  type GdsUpload,
  type LayerMapping,
  type Pdk,
  type Recipe,
  type RecipeRequest,
  type RecipeStep,
  type FieldError,
  type JobList,
  type JobProgress,
  type JobRecord,
  type JobStatus,
  type MaterialInfo,
  type ModeResult,
  type ModesRequest,
  type ModesResponse,
  type SimulationRequest,
  type SMatrix,
  type SubmissionAck,
} from "./types.js";
