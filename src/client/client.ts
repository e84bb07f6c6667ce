/**
 * `EmsimClient`: the typed SDK for the emsim API (docs/sdk.md). Every method maps to one
 * endpoint, except `waitFor` and `waitForBatch` (polling), `download` and `downloadBatch`
 * (302 → storage, resume, checksum), `run` and `sweep` (all of it). Errors are
 * `EmsimApiError`, `EmsimNetworkError`, `EmsimChecksumError`, `EmsimJobFailedError` and
 * `EmsimBatchFailedError`; retries follow src/client/retry.ts.
 */
import { rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { attemptRequest, type AttemptRequest } from "./attempt.js";
import { downloadPart, type DownloadProgress } from "./download.js";
import {
  EmsimApiError,
  EmsimBatchFailedError,
  EmsimChecksumError,
  EmsimError,
  EmsimJobFailedError,
  EmsimNetworkError,
  EmsimWaitTimeoutError,
} from "./errors.js";
import {
  isRetryable,
  retryDelayMs,
  retryPolicy,
  sleep as realSleep,
  type RequestKind,
  type RetryPolicy,
} from "./retry.js";
import { sweepNameFor } from "../results/sweep-names.js";
import {
  isActive,
  type BatchAck,
  type BatchEstimate,
  type BatchList,
  type BatchParameter,
  type BatchRecord,
  type BatchRequest,
  type ParameterValue,
  type DrcRequest,
  type DrcResult,
  type Estimate,
  type ExportGdsRequest,
  type GdsExport,
  type GdsUpload,
  type Pdk,
  type Recipe,
  type RecipeRequest,
  type JobList,
  type JobRecord,
  type JobStatus,
  type MaterialInfo,
  type ModesRequest,
  type ModesResponse,
  type PreviewPlane,
  type PreviewResponse,
  type SimulationRequest,
  type SMatrix,
  type SubmissionAck,
} from "./types.js";

export interface EmsimClientOptions {
  /** Address of the API, e.g. `http://127.0.0.1:8080` (without `/v1`). */
  baseUrl: string;
  /** An API key (`emsim_…`), sent as `Authorization: Bearer` to the API, never to storage. */
  apiKey: string;
  /** A fetch implementation; default the global one. */
  fetch?: typeof globalThis.fetch;
  /** Retries after the first attempt (a number), or a full policy; default 4 retries. */
  retries?: number | Partial<RetryPolicy>;
  /** Time limit of one API request, in ms (download bodies are not limited). Default 30 000. */
  timeoutMs?: number;
  /** Told about every retry before its delay (for logging). */
  onRetry?: (info: RetryInfo) => void;
  /** Replaces the timer used between retries and polls (tests). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Source of jitter in [0, 1) (tests). */
  random?: () => number;
}

export interface RetryInfo {
  method: string;
  url: string;
  /** 1 for the first retry. */
  retry: number;
  delayMs: number;
  /** The status or network failure that caused it. */
  reason: string;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface ModesOptions extends RequestOptions {
  /**
   * Time limit of the solve's request, in ms. Default the longer of the client's `timeoutMs`
   * and 120 000: the server gives a solve up to `EMSIM_MODES_TIMEOUT_SECONDS` (60 by default).
   */
  timeoutMs?: number;
}

export interface PreviewOptions extends RequestOptions {
  /**
   * The planes to show, `{normal: "x" | "y" | "z", position}` (metres; the grid's node plane
   * nearest it is shown), at most 6. Default the three planes through the origin.
   */
  planes?: PreviewPlane[];
  /**
   * The most samples along each axis of a plane (2–2000, default 400): a plane with more cells
   * shows evenly spaced cells of it (sampled, not averaged), both edges included.
   */
  maxSamples?: number;
}

export interface SParametersOptions extends RequestOptions {
  /**
   * `"json"` (default): the S-matrix as `SMatrix`; `"touchstone"`: the server's Touchstone 1.1
   * text (`# HZ S RI R 50`), to be saved as `.s<N>p` for N = `ports.length`.
   */
  format?: "json" | "touchstone";
}

export interface ListOptions extends RequestOptions {
  /** 1–100, default 20. */
  limit?: number;
  /** `next_cursor` of the previous page. */
  cursor?: string;
  status?: JobStatus;
}

/** How `waitFor` and `waitForBatch` poll. */
export interface PollOptions extends RequestOptions {
  /** Longest interval between polls in ms (polling starts faster). Default 1000. */
  pollIntervalMs?: number;
  /** Give up after this many ms (EmsimWaitTimeoutError, named "TimeoutError"). Default: never. */
  timeoutMs?: number;
  /**
   * How long polls may keep failing (the server unreachable, 5xx, 429: each poll already
   * retried) before the wait gives up with the last error, in ms. Default
   * DEFAULT_MAX_OUTAGE_MS (5 minutes), so that a server's restart or a network drop does not
   * end a long wait.
   */
  maxOutageMs?: number;
  /** Told of each failed poll while the wait goes on: the error, and ms since polls began failing. */
  onOutage?: (err: EmsimError, sinceMs: number) => void;
}

/** How long a wait's polls may keep failing before it gives up (PollOptions.maxOutageMs). */
export const DEFAULT_MAX_OUTAGE_MS = 300_000;

export interface WaitOptions extends PollOptions {
  /** Called with the job record after every poll (status and `progress`). */
  onProgress?: (job: JobRecord) => void;
}

export interface DownloadOptions extends RequestOptions {
  onProgress?: (progress: DownloadProgress) => void;
  /** The job's record if already fetched (saves one request). */
  job?: JobRecord;
}

export interface DownloadResult {
  jobId: string;
  path: string;
  bytes: number;
  /** Verified SHA-256 hex of the file. */
  sha256: string;
  /** Bytes reused from an earlier interrupted download (0 if it started fresh). */
  resumedFromBytes: number;
}

export interface GdsDownloadResult {
  path: string;
  bytes: number;
}

export interface QueueWaitInfo {
  activeJobId: string | null;
  /** The batch the active job belongs to, if any: then the batch is waited for. */
  activeBatchId: string | null;
  retryAfterSeconds: number;
  detail: string;
}

export interface SubmitOptions extends RequestOptions {
  /**
   * On 409 (a job is already active), wait and submit again instead of failing: until the
   * active job ends or its `retry_after` passes, whichever is first. Default false.
   */
  queue?: boolean;
  /** With `queue`: told each time a submission was refused and the client waits. */
  onQueued?: (info: QueueWaitInfo) => void;
  /** With `queue`: how often the active job is polled while waiting, in ms. Default 1000. */
  pollIntervalMs?: number;
}

export interface RunOptions extends RequestOptions {
  /** Where to write the result file; default `emsim-<job_id>.h5` in the working directory. */
  out?: string;
  /** Wait for a free slot on 409 (see `SubmitOptions.queue`). */
  queue?: boolean;
  onQueued?: (info: QueueWaitInfo) => void;
  onSubmitted?: (ack: SubmissionAck) => void;
  onProgress?: (job: JobRecord) => void;
  onDownloadProgress?: (progress: DownloadProgress) => void;
  pollIntervalMs?: number;
}

export interface RunResult {
  job: JobRecord;
  file: DownloadResult;
}

export interface BatchListOptions extends RequestOptions {
  /** 1–100, default 20. */
  limit?: number;
  /** `next_cursor` of the previous page. */
  cursor?: string;
}

export interface BatchResultUrlOptions extends RequestOptions {
  /**
   * Time limit of the request, in ms. The first request for a batch's file waits while the
   * server writes it (up to 900 s for a large batch), so the default is the longer of the
   * client's `timeoutMs` and 960 000.
   */
  timeoutMs?: number;
}

export interface BatchWaitOptions extends PollOptions {
  /** Called with the batch's record after every poll (`status`, `counts`, `progress`). */
  onProgress?: (batch: BatchRecord) => void;
}

export interface BatchDownloadOptions extends BatchResultUrlOptions {
  onProgress?: (progress: DownloadProgress) => void;
  /** The batch's record if already fetched (saves one request). */
  batch?: BatchRecord;
}

export interface BatchDownloadResult {
  batchId: string;
  path: string;
  bytes: number;
  /** Verified SHA-256 hex of the file. */
  sha256: string;
  /** Bytes reused from an earlier interrupted download (0 if it started fresh). */
  resumedFromBytes: number;
}

/**
 * A sweep's parameters: as the API takes them (`{name, path, values | range}`), or by JSON
 * Pointer, `{"/structures/0/size/2": [3e-7, 5e-7], "/source/wavelength": {start, stop,
 * points}}`, each named after its pointer (`structures_0_size_2`, `source_wavelength`).
 */
export type SweepParameters =
  | BatchParameter[]
  | Record<string, ParameterValue[] | { start: number; stop: number; points: number }>;

export interface SweepOptions extends RequestOptions {
  /** `"product"` (default; every combination, the first parameter outermost) or `"zip"`. */
  combine?: "product" | "zip";
  /** Free-form, echoed back in the batch's record. */
  metadata?: Record<string, unknown>;
  /** Where to write the batch's result file; default `emsim-batch-<batch_id>.h5`. */
  out?: string;
  /** Wait for a free slot on 409 (see `SubmitOptions.queue`). */
  queue?: boolean;
  onQueued?: (info: QueueWaitInfo) => void;
  onSubmitted?: (ack: BatchAck) => void;
  /** Called with the batch's record after every poll. */
  onProgress?: (batch: BatchRecord) => void;
  onDownloadProgress?: (progress: DownloadProgress) => void;
  pollIntervalMs?: number;
}

export interface SweepResult {
  /** The batch's final record (COMPLETED; some of its jobs may have FAILED). */
  batch: BatchRecord;
  file: BatchDownloadResult;
}

/** A sweep's parameters as the API takes them (pointers named by `sweepNameFor`). */
export function batchParameters(parameters: SweepParameters): BatchParameter[] {
  if (Array.isArray(parameters)) return parameters;
  const names: string[] = [];
  return Object.entries(parameters).map(([path, given]) => {
    const name = sweepNameFor(path, names);
    names.push(name);
    return Array.isArray(given) ? { name, path, values: given } : { name, path, range: given };
  });
}

/**
 * The server's address as requests are built on it: no trailing slash, and no trailing /v1
 * (the API's paths start with it; an address copied with it would double it), as the Python
 * client takes it.
 */
function serverAddress(url: string): string {
  return url.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** A 409 saying a job or batch of the account holds its active slot. */
function isSlotTaken(err: unknown): err is EmsimApiError {
  return (
    err instanceof EmsimApiError && err.status === 409 && err.code === "simulation_already_running"
  );
}

function queueWaitInfo(err: EmsimApiError): QueueWaitInfo {
  return {
    activeJobId: err.activeJobId,
    activeBatchId: err.activeBatchId,
    retryAfterSeconds: err.retryAfterSeconds ?? 30,
    detail: err.detail,
  };
}

export class EmsimClient {
  readonly baseUrl: string;
  readonly policy: RetryPolicy;
  private readonly apiKey: string;
  private readonly fetchImpl: typeof globalThis.fetch;
  private readonly timeoutMs: number;
  private readonly onRetry: ((info: RetryInfo) => void) | undefined;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;

  constructor(options: EmsimClientOptions) {
    if (!options.baseUrl) throw new TypeError("EmsimClient needs a baseUrl");
    if (!options.apiKey) throw new TypeError("EmsimClient needs an apiKey");
    this.baseUrl = serverAddress(new URL(options.baseUrl).href);
    this.apiKey = options.apiKey;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.policy = retryPolicy(options.retries);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.onRetry = options.onRetry;
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
  }

  // ---------------------------------------------------------------- endpoints

  /**
   * Submits a simulation (`POST /v1/simulations`). Retried only where the job cannot have been
   * created (see retry.ts); with `queue`, a 409 waits for the active job and tries again.
   */
  async submit(request: SimulationRequest, options: SubmitOptions = {}): Promise<SubmissionAck> {
    return this.submitTo<SubmissionAck>("/v1/simulations", request, options);
  }

  /** A submission to `path`; with `queue`, a 409 waits for the active unit and tries again. */
  private async submitTo<Ack>(
    path: string,
    request: unknown,
    options: SubmitOptions,
  ): Promise<Ack> {
    for (;;) {
      try {
        return await this.json<Ack>("POST", path, {
          body: request,
          kind: "submit",
          signal: options.signal,
        });
      } catch (err) {
        if (!options.queue || !isSlotTaken(err)) throw err;
        const info = queueWaitInfo(err);
        options.onQueued?.(info);
        await this.waitForSlot(info, options);
      }
    }
  }

  /** A job's record (`GET /v1/simulations/{id}`). */
  get(jobId: string, options: RequestOptions = {}): Promise<JobRecord> {
    return this.json("GET", `/v1/simulations/${encodeURIComponent(jobId)}`, options);
  }

  /** One page of your jobs, newest first (`GET /v1/simulations`). */
  list(options: ListOptions = {}): Promise<JobList> {
    const q = new URLSearchParams();
    if (options.limit !== undefined) q.set("limit", String(options.limit));
    if (options.cursor !== undefined) q.set("cursor", options.cursor);
    if (options.status !== undefined) q.set("status", options.status);
    const qs = q.size > 0 ? `?${q}` : "";
    return this.json("GET", `/v1/simulations${qs}`, options);
  }

  /** Every job matching the filter, newest first, following the cursors page by page. */
  async *jobs(options: Omit<ListOptions, "cursor"> = {}): AsyncGenerator<JobRecord> {
    let cursor: string | undefined;
    do {
      const page = await this.list({ ...options, ...(cursor ? { cursor } : {}) });
      yield* page.jobs;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** Cancels a QUEUED or RUNNING job (`POST /v1/simulations/{id}/cancel`). */
  cancel(jobId: string, options: RequestOptions = {}): Promise<JobRecord> {
    return this.json("POST", `/v1/simulations/${encodeURIComponent(jobId)}/cancel`, {
      ...options,
      // Cancelling twice has the same effect as once; a retry may answer 409 job_finished.
      kind: "idempotent",
    });
  }

  /** Grid, memory and time of a run, without queueing it (`POST /v1/simulations/estimate`). */
  estimate(request: SimulationRequest, options: RequestOptions = {}): Promise<Estimate> {
    return this.json("POST", "/v1/simulations/estimate", {
      ...options,
      body: request,
      kind: "idempotent",
    });
  }

  /**
   * The set-up as the solver will step it (`POST /v1/simulations/preview`, docs/api.md
   * "Preview"): on each plane, Re and Im ε at the source wavelength after the run's sub-cell
   * averaging (`eps_real[i][j]` at `coords[axes[0]][i]`, `coords[axes[1]][j]`, metres), the
   * material and perfect-conductor count at each sample, the outline of every object the plane
   * cuts; the set-up's warnings and the run's estimate. Checked as a submission is (a 422's
   * `fieldErrors` name `simulation.…`, or `planes[i].position` for a plane outside the grid);
   * nothing is queued, so it is retried like a read.
   */
  preview(simulation: SimulationRequest, options: PreviewOptions = {}): Promise<PreviewResponse> {
    return this.json("POST", "/v1/simulations/preview", {
      signal: options.signal,
      body: {
        simulation,
        ...(options.planes !== undefined ? { planes: options.planes } : {}),
        ...(options.maxSamples !== undefined ? { max_samples: options.maxSamples } : {}),
      },
      kind: "idempotent",
    });
  }

  /**
   * The waveguide modes of a plane of a simulation's domain and structures (`POST /v1/modes`,
   * docs/api.md "Modes"): n_eff, k_eff, TE fraction, and the group index and fields (V/m,
   * A/m at the plane's cell centres, 1 W) when asked. Lengths and wavelengths in metres.
   * Retried like a submission, on 429, 503 `modes_busy` and unsent requests only: a solve
   * that timed out or failed would most likely do so again, and costs the server seconds.
   */
  modes(request: ModesRequest, options: ModesOptions = {}): Promise<ModesResponse> {
    return this.json("POST", "/v1/modes", {
      signal: options.signal,
      body: request,
      kind: "submit",
      timeoutMs: options.timeoutMs ?? Math.max(this.timeoutMs, 120_000),
    });
  }

  /**
   * A COMPLETED ports job's S-matrix (`GET /v1/simulations/{id}/sparameters`, docs/api.md
   * "Ports and S-parameters"): `s[out][in][λ]` as `[re, im]`, wavelengths in metres; with
   * `format: "touchstone"` the Touchstone 1.1 file as text (frequency ascending, in Hz).
   * `EmsimApiError` 409 `results_not_ready` before the job completes, 404
   * `sparameters_not_found` for a job without ports.
   */
  sParameters(jobId: string, options?: SParametersOptions & { format?: "json" }): Promise<SMatrix>;
  sParameters(
    jobId: string,
    options: SParametersOptions & { format: "touchstone" },
  ): Promise<string>;
  sParameters(jobId: string, options?: SParametersOptions): Promise<SMatrix | string>;
  async sParameters(jobId: string, options: SParametersOptions = {}): Promise<SMatrix | string> {
    const path = `/v1/simulations/${encodeURIComponent(jobId)}/sparameters`;
    const { signal } = options;
    if (options.format !== "touchstone") return this.json<SMatrix>("GET", path, { signal });
    const res = await this.send("GET", `${path}?format=touchstone`, { signal });
    return res.text();
  }

  /** The material library (`GET /v1/materials`). */
  async materials(options: RequestOptions = {}): Promise<MaterialInfo[]> {
    return (await this.json<{ materials: MaterialInfo[] }>("GET", "/v1/materials", options))
      .materials;
  }

  /**
   * The pre-signed storage address of a completed job's result file (the `Location` of
   * `GET /v1/simulations/{id}/results`); 409 `results_not_ready` before it is COMPLETED.
   */
  async resultUrl(jobId: string, options: RequestOptions = {}): Promise<string> {
    const path = `/v1/simulations/${encodeURIComponent(jobId)}/results`;
    const res = await this.send("GET", path, { ...options, redirect: "manual" });
    await res.body?.cancel();
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location) {
      throw new EmsimError(
        `expected a redirect to the result file from ${path}, got HTTP ${res.status}`,
      );
    }
    return new URL(location, this.baseUrl + path).href;
  }

  // ---------------------------------------------------------------- batches

  /**
   * Submits a sweep (`POST /v1/batches`, docs/api.md "Batches"): one job per variant of the
   * simulation, every variant validated first (a 422 names `variants[i]`, the field, and the
   * parameter and value that caused it). A batch is one active unit: 409 while a job or batch
   * of yours is active, and meanwhile your submissions get 409 naming it (`activeBatchId`).
   * Retried and queued like `submit`.
   */
  async submitBatch(request: BatchRequest, options: SubmitOptions = {}): Promise<BatchAck> {
    return this.submitTo<BatchAck>("/v1/batches", request, options);
  }

  /**
   * What a sweep would cost, checked as a submission is (the same 422s), without queueing it
   * (`POST /v1/batches/estimate`).
   */
  estimateBatch(request: BatchRequest, options: RequestOptions = {}): Promise<BatchEstimate> {
    return this.json("POST", "/v1/batches/estimate", {
      ...options,
      body: request,
      kind: "idempotent",
    });
  }

  /** A batch's record with its jobs (`GET /v1/batches/{id}`). */
  getBatch(batchId: string, options: RequestOptions = {}): Promise<BatchRecord> {
    return this.json("GET", `/v1/batches/${encodeURIComponent(batchId)}`, options);
  }

  /** One page of your batches, newest first, without their jobs (`GET /v1/batches`). */
  listBatches(options: BatchListOptions = {}): Promise<BatchList> {
    const q = new URLSearchParams();
    if (options.limit !== undefined) q.set("limit", String(options.limit));
    if (options.cursor !== undefined) q.set("cursor", options.cursor);
    const qs = q.size > 0 ? `?${q}` : "";
    return this.json("GET", `/v1/batches${qs}`, options);
  }

  /** Every batch of yours, newest first, following the cursors page by page. */
  async *batches(
    options: Omit<BatchListOptions, "cursor"> = {},
  ): AsyncGenerator<BatchList["batches"][number]> {
    let cursor: string | undefined;
    do {
      const page = await this.listBatches({ ...options, ...(cursor ? { cursor } : {}) });
      yield* page.batches;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /**
   * Cancels a batch (`POST /v1/batches/{id}/cancel`): its QUEUED jobs become FAILED at once,
   * its RUNNING ones stop within about a second; finished jobs keep their results. A batch
   * whose every job has ended is an EmsimApiError 409 `batch_finished` (its `status` in the body).
   */
  cancelBatch(batchId: string, options: RequestOptions = {}): Promise<BatchRecord> {
    return this.json("POST", `/v1/batches/${encodeURIComponent(batchId)}/cancel`, {
      ...options,
      kind: "idempotent",
    });
  }

  /**
   * The pre-signed storage address of a COMPLETED batch's one result file (the `Location` of
   * `GET /v1/batches/{id}/results`). The first request builds the file (the batch's record has
   * its `checksum` from then on); 409 `results_not_ready` before the batch is COMPLETED, 422
   * `batch_results_unavailable` when its jobs' files cannot be stacked into one, 503
   * `batch_results_busy` (retried) while the server's writers are all busy.
   */
  async batchResultUrl(batchId: string, options: BatchResultUrlOptions = {}): Promise<string> {
    const path = `/v1/batches/${encodeURIComponent(batchId)}/results`;
    const res = await this.send("GET", path, {
      signal: options.signal,
      redirect: "manual",
      timeoutMs: options.timeoutMs ?? Math.max(this.timeoutMs, 960_000),
    });
    await res.body?.cancel();
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location) {
      throw new EmsimError(
        `expected a redirect to the result file from ${path}, got HTTP ${res.status}`,
      );
    }
    return new URL(location, this.baseUrl + path).href;
  }

  // ---------------------------------------------------------------- fabrication

  /**
   * Exports a job's structures, cut by a horizontal plane, as GDS II and stores the file
   * (`POST /v1/fabrication/export-gds`). Lengths: `grid_resolution_nm` in nm, `z_um` in µm.
   * The answer's `gds_url` is a signed address for `downloadGds`, `drc` and `recipe`.
   * Retried like a read: a repeated export only stores a second copy.
   */
  exportGds(request: ExportGdsRequest, options: RequestOptions = {}): Promise<GdsExport> {
    return this.json("POST", "/v1/fabrication/export-gds", {
      ...options,
      body: request,
      kind: "idempotent",
    });
  }

  /**
   * Uploads a GDS II file made elsewhere (KLayout, gdstk, gdsfactory) as
   * `application/octet-stream` (`POST /v1/fabrication/gds`); an unreadable file is an
   * `EmsimApiError` 422 `gds_invalid` whose `detail` says what and where.
   */
  uploadGds(bytes: Uint8Array, options: RequestOptions = {}): Promise<GdsUpload> {
    return this.json("POST", "/v1/fabrication/gds", {
      ...options,
      rawBody: bytes,
      kind: "idempotent",
    });
  }

  /**
   * A design-rule check of a stored file (`POST /v1/fabrication/drc`) against a kit's rules,
   * `rules` (nm) overriding them. `passed` is false when an error-severity rule is violated.
   */
  drc(request: DrcRequest, options: RequestOptions = {}): Promise<DrcResult> {
    return this.json("POST", "/v1/fabrication/drc", {
      ...options,
      body: request,
      kind: "idempotent",
    });
  }

  /** An ordered process flow for a stored file or a job (`POST /v1/fabrication/recipe`). */
  recipe(request: RecipeRequest, options: RequestOptions = {}): Promise<Recipe> {
    return this.json("POST", "/v1/fabrication/recipe", {
      ...options,
      body: request,
      kind: "idempotent",
    });
  }

  /** The process design kits (`GET /v1/fabrication/pdks`). */
  async listPdks(options: RequestOptions = {}): Promise<Pdk[]> {
    return (await this.json<{ pdks: Pdk[] }>("GET", "/v1/fabrication/pdks", options)).pdks;
  }

  /**
   * Saves the file behind a `gds_url` to `path` (written to `path.part`, then renamed). The
   * address is signed, so the API key is not sent; connection failures and 5xx are retried.
   */
  async downloadGds(
    gdsUrl: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<GdsDownloadResult> {
    await checkWritable(path);
    const url = new URL(gdsUrl, this.baseUrl).href;
    const res = await this.send("GET", url, { ...options, absolute: true, anonymous: true });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const part = `${path}.part`;
    await writeFile(part, bytes);
    await rename(part, path);
    return { path, bytes: bytes.length };
  }

  // ---------------------------------------------------------------- workflows

  /**
   * Polls a job until it is COMPLETED or FAILED and returns its final record (a FAILED job is
   * returned, not thrown). Polls quickly at first, then every `pollIntervalMs`.
   */
  async waitFor(jobId: string, options: WaitOptions = {}): Promise<JobRecord> {
    return this.pollUntilEnded(`job ${jobId}`, () => this.get(jobId, options), options);
  }

  /**
   * Polls a batch until it is COMPLETED or FAILED (every job has ended) and returns its final
   * record; a FAILED batch is returned, not thrown. `onProgress` gets every record:
   * `progress.fraction` is over all its jobs, a running job counted by its own progress.
   */
  async waitForBatch(batchId: string, options: BatchWaitOptions = {}): Promise<BatchRecord> {
    return this.pollUntilEnded(`batch ${batchId}`, () => this.getBatch(batchId, options), options);
  }

  /**
   * Downloads a COMPLETED job's result file to `path`: follows the 302 to storage (without the
   * API key), streams into `path.part`, resumes an interrupted download with `Range`, checks
   * the SHA-256 against the job's `checksum` and only then renames to `path`. On a mismatch
   * the file is kept as `path.corrupt` and `EmsimChecksumError` is thrown. A mismatch after
   * resuming an old `.part` (which may belong to another download) first retries from zero.
   */
  async download(
    jobId: string,
    path: string,
    options: DownloadOptions = {},
  ): Promise<DownloadResult> {
    const job = options.job ?? (await this.get(jobId, options));
    if (job.status !== "COMPLETED" || !job.checksum) {
      // The API says why (409 results_not_ready with the status) — let it.
      await this.resultUrl(jobId, options);
      throw new EmsimError(`job ${jobId} is ${job.status} and has no result file`);
    }
    const got = await this.downloadVerified(path, {
      owner: { kind: "job", id: jobId },
      expectedSha256: job.checksum,
      expectedBytes: job.result_bytes,
      signedUrl: () => this.resultUrl(jobId, options),
      onProgress: options.onProgress,
      signal: options.signal,
    });
    return { jobId, path, ...got };
  }

  /**
   * Downloads a COMPLETED batch's one result file (docs/result-format.md, "Batch result
   * file": every monitor with the sweep's dimensions first) to `path`, as `download` does a
   * job's: the 302 to storage without the API key, resumed with `Range`, verified against the
   * batch's `checksum` before `path.part` becomes `path`. The first download has the server
   * write the file (it may take a while for a large batch), after which the record carries
   * the checksum; a mismatch throws `EmsimChecksumError` (kind "batch") and keeps
   * `path.corrupt`. Before the batch is COMPLETED: `EmsimApiError` 409 `results_not_ready`.
   */
  async downloadBatch(
    batchId: string,
    path: string,
    options: BatchDownloadOptions = {},
  ): Promise<BatchDownloadResult> {
    const signal = { signal: options.signal };
    let batch = options.batch ?? (await this.getBatch(batchId, signal));
    if (batch.status !== "COMPLETED") {
      // The API says why (409 results_not_ready with the status) — let it.
      await this.batchResultUrl(batchId, options);
      throw new EmsimError(`batch ${batchId} is ${batch.status} and has no result file`);
    }
    // The first request for the file builds it; the record has its checksum from then on.
    let built: string | null = await this.batchResultUrl(batchId, options);
    if (!batch.checksum) batch = await this.getBatch(batchId, signal);
    if (!batch.checksum) {
      throw new EmsimError(`batch ${batchId}'s record has no checksum for its result file`);
    }
    const got = await this.downloadVerified(path, {
      owner: { kind: "batch", id: batchId },
      expectedSha256: batch.checksum,
      expectedBytes: null,
      signedUrl: () => {
        const url = built;
        built = null;
        return url !== null ? Promise.resolve(url) : this.batchResultUrl(batchId, options);
      },
      onProgress: options.onProgress,
      signal: options.signal,
    });
    return { batchId, path, ...got };
  }

  /**
   * Submit, wait and download: the whole round trip. Throws `EmsimJobFailedError` if the job
   * FAILED (or was cancelled).
   */
  async run(request: SimulationRequest, options: RunOptions = {}): Promise<RunResult> {
    const ack = await this.submit(request, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.queue !== undefined ? { queue: options.queue } : {}),
      ...(options.onQueued ? { onQueued: options.onQueued } : {}),
    });
    options.onSubmitted?.(ack);
    const job = await this.waitFor(ack.job_id, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    });
    if (job.status !== "COMPLETED") throw new EmsimJobFailedError(job);
    const file = await this.download(job.job_id, options.out ?? `emsim-${job.job_id}.h5`, {
      job,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onDownloadProgress ? { onProgress: options.onDownloadProgress } : {}),
    });
    return { job, file };
  }

  /**
   * A sweep's whole round trip: submit a batch of `simulation` over `parameters`, wait for
   * every job, download the batch's one verified result file. `parameters` as the API takes
   * them, or by JSON Pointer (`{"/structures/0/size/2": [3e-7, 5e-7, 7e-7]}`, each named after
   * its pointer: `structures_0_size_2`). Throws `EmsimBatchFailedError` if no job completed;
   * a COMPLETED batch whose `counts.FAILED` is not 0 has NaN in those variants' places.
   */
  async sweep(
    simulation: SimulationRequest,
    parameters: SweepParameters,
    options: SweepOptions = {},
  ): Promise<SweepResult> {
    const signal = options.signal ? { signal: options.signal } : {};
    const ack = await this.submitBatch(
      {
        simulation,
        parameters: batchParameters(parameters),
        ...(options.combine ? { combine: options.combine } : {}),
        ...(options.metadata ? { metadata: options.metadata } : {}),
      },
      {
        ...signal,
        ...(options.queue !== undefined ? { queue: options.queue } : {}),
        ...(options.onQueued ? { onQueued: options.onQueued } : {}),
      },
    );
    options.onSubmitted?.(ack);
    const batch = await this.waitForBatch(ack.batch_id, {
      ...signal,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    });
    if (batch.status !== "COMPLETED") throw new EmsimBatchFailedError(batch);
    const out = options.out ?? `emsim-batch-${batch.batch_id}.h5`;
    const file = await this.downloadBatch(batch.batch_id, out, {
      batch,
      ...signal,
      ...(options.onDownloadProgress ? { onProgress: options.onDownloadProgress } : {}),
    });
    // The record had no checksum until the download had the file built.
    return { batch: batch.checksum ? batch : await this.getBatch(batch.batch_id, signal), file };
  }

  // ---------------------------------------------------------------- plumbing

  /** Polls `get` until its record is no longer QUEUED or RUNNING: quickly at first. */
  private async pollUntilEnded<T extends { status: string }>(
    what: string,
    get: () => Promise<T>,
    options: PollOptions & { onProgress?: ((record: T) => void) | undefined },
  ): Promise<T> {
    const maxInterval = options.pollIntervalMs ?? 1000;
    let interval = Math.min(250, maxInterval);
    const deadline = options.timeoutMs !== undefined ? Date.now() + options.timeoutMs : Infinity;
    let failingSince: number | null = null;
    for (;;) {
      let record: T;
      try {
        record = await get();
        failingSince = null;
      } catch (err) {
        failingSince ??= Date.now();
        const since = Date.now() - failingSince;
        // The wait's own timeout holds through an outage too (the last error says why).
        const outageOver = since >= (options.maxOutageMs ?? DEFAULT_MAX_OUTAGE_MS);
        if (!isOutage(err) || outageOver || Date.now() >= deadline) throw err;
        options.onOutage?.(err, since);
        await this.sleep(Math.max(maxInterval, 2000), options.signal);
        continue;
      }
      options.onProgress?.(record);
      if (record.status !== "QUEUED" && record.status !== "RUNNING") return record;
      if (Date.now() + interval > deadline) {
        throw new EmsimWaitTimeoutError(
          `${what} is still ${record.status} after ${options.timeoutMs} ms`,
        );
      }
      await this.sleep(interval, options.signal);
      interval = Math.min(maxInterval, Math.ceil(interval * 1.5));
    }
  }

  /**
   * Streams a result file into `path.part` and renames it to `path` once its SHA-256 is
   * `expectedSha256`. A mismatch after resuming an old `.part` (which may belong to another
   * download) first retries from zero; otherwise the bytes are kept as `path.corrupt` and
   * `EmsimChecksumError` is thrown.
   */
  private async downloadVerified(
    path: string,
    what: {
      owner: { kind: "job" | "batch"; id: string };
      expectedSha256: string;
      expectedBytes: number | null;
      signedUrl: () => Promise<string>;
      onProgress?: ((progress: DownloadProgress) => void) | undefined;
      signal?: AbortSignal | undefined;
    },
  ): Promise<{ bytes: number; sha256: string; resumedFromBytes: number }> {
    await checkWritable(path);
    const expected = what.expectedSha256.toLowerCase();
    const part = `${path}.part`;
    for (let pass = 0; ; pass++) {
      const got = await downloadPart(part, {
        fetch: this.fetchImpl,
        signedUrl: what.signedUrl,
        policy: this.policy,
        sleep: this.sleep,
        random: this.random,
        expectedBytes: what.expectedBytes,
        onProgress: what.onProgress,
        onRetry: (reason, delayMs, retry) =>
          this.onRetry?.({ method: "GET", url: "(storage address)", retry, delayMs, reason }),
        signal: what.signal,
      });
      if (got.sha256 === expected) {
        await rename(part, path);
        return got;
      }
      if (pass === 0 && got.resumedFromBytes > 0) {
        await rm(part, { force: true });
        continue;
      }
      const corrupt = `${path}.corrupt`;
      await rename(part, corrupt);
      const { kind, id } = what.owner;
      throw new EmsimChecksumError(id, expected, got.sha256, corrupt, kind);
    }
  }

  /**
   * While a submission is refused: wait until the active job has ended (when it is ours to
   * poll) or its `retry_after` has passed.
   */
  private async waitForSlot(info: QueueWaitInfo, options: SubmitOptions): Promise<void> {
    const waitMs = Math.min(300, Math.max(1, info.retryAfterSeconds)) * 1000;
    const deadline = Date.now() + waitMs;
    const poll = options.pollIntervalMs ?? 1000;
    const isId = (id: string | null): id is string => id !== null && /^[0-9a-f-]{36}$/i.test(id);
    // A batch holds the slot until its last job ends, not only its running one.
    const status = isId(info.activeBatchId)
      ? async () => (await this.getBatch(info.activeBatchId!, options)).status
      : isId(info.activeJobId)
        ? async () => (await this.get(info.activeJobId!, options)).status
        : null;
    while (Date.now() < deadline) {
      await this.sleep(Math.min(poll, Math.max(0, deadline - Date.now())), options.signal);
      if (!status) continue;
      try {
        if (!isActive(await status())) return;
      } catch (err) {
        if (err instanceof EmsimApiError && err.status === 404) continue;
        throw err;
      }
    }
  }

  private async json<T>(
    method: string,
    path: string,
    options: {
      body?: unknown;
      rawBody?: Uint8Array;
      kind?: RequestKind;
      signal?: AbortSignal | undefined;
      timeoutMs?: number;
    },
  ): Promise<T> {
    const res = await this.send(method, path, options);
    const text = await res.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new EmsimError(
        `${method} ${path}: HTTP ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`,
      );
    }
  }

  /**
   * One API request with the retry policy applied. Resolves with any 2xx/3xx response; throws
   * `EmsimApiError` for an error status and `EmsimNetworkError` when the server is not
   * reachable, once retrying is over. `body` is sent as JSON, `rawBody` as
   * application/octet-stream. `absolute`: `path` is a whole URL; `anonymous`: without the API
   * key (a signed storage address).
   */
  private async send(
    method: string,
    path: string,
    options: {
      body?: unknown;
      rawBody?: Uint8Array;
      kind?: RequestKind;
      signal?: AbortSignal | undefined;
      redirect?: "follow" | "manual";
      absolute?: boolean;
      anonymous?: boolean;
      timeoutMs?: number;
    },
  ): Promise<Response> {
    const url = options.absolute ? path : this.baseUrl + path;
    const kind: RequestKind =
      options.kind ?? (method === "GET" || method === "HEAD" ? "idempotent" : "submit");
    const request: AttemptRequest = {
      url,
      method,
      ...this.content(options),
      redirect: options.redirect ?? "follow",
    };
    const limits = {
      baseUrl: this.baseUrl,
      timeoutMs: options.timeoutMs ?? this.timeoutMs,
      signal: options.signal,
    };
    for (let retry = 0; ; retry++) {
      const attempt = await attemptRequest(this.fetchImpl, request, limits);
      if (attempt.response) return attempt.response;
      const { failure, outcome } = attempt;
      const retryAfterMs = outcome.kind === "response" ? outcome.retryAfterMs : null;
      const retryable =
        retry < this.policy.retries &&
        isRetryable(outcome, kind) &&
        (retryAfterMs === null || retryAfterMs <= this.policy.maxRetryAfterMs);
      if (!retryable) throw failure;
      const delayMs = retryDelayMs(retry + 1, this.policy, retryAfterMs, this.random);
      this.onRetry?.({
        method,
        url,
        retry: retry + 1,
        delayMs,
        reason: outcome.kind === "response" ? `HTTP ${outcome.status}` : failure.message,
      });
      await this.sleep(delayMs, options.signal);
    }
  }

  /** A request's headers and body: the API key unless anonymous; JSON or raw bytes. */
  private content(options: { body?: unknown; rawBody?: Uint8Array; anonymous?: boolean }): {
    headers: Record<string, string>;
    body: string | Uint8Array | undefined;
  } {
    const headers: Record<string, string> = options.anonymous
      ? {}
      : { authorization: `Bearer ${this.apiKey}`, accept: "application/json" };
    if (options.rawBody !== undefined) {
      headers["content-type"] = "application/octet-stream";
      return { headers, body: options.rawBody };
    }
    if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      return { headers, body: JSON.stringify(options.body) };
    }
    return { headers, body: undefined };
  }
}

/** A failed poll that may pass: the server unreachable, or answering 5xx or 429 for now. */
export function isOutage(err: unknown): err is EmsimError {
  if (err instanceof EmsimNetworkError) return true;
  return err instanceof EmsimApiError && (err.status >= 500 || err.status === 429);
}

/**
 * Refuses a download's path before any byte is fetched where the file could not be put:
 * a folder named as the file, or a folder that does not exist (the system's EISDIR came after
 * the whole download, leaving its .part behind).
 */
async function checkWritable(path: string): Promise<void> {
  const folder = await stat(dirname(path)).catch(() => null);
  if (!folder?.isDirectory()) {
    throw new EmsimError(`cannot write ${path}: the folder ${dirname(path)} does not exist`);
  }
  if ((await stat(path).catch(() => null))?.isDirectory()) {
    throw new EmsimError(`cannot write ${path}: it is a folder; name the file to write`);
  }
}
