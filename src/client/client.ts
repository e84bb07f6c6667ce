/**
 * `EmsimClient`: the typed SDK for the emsim API (docs/sdk.md). Every method maps to one
 * endpoint, except `waitFor` (polling), `download` (302 → storage, resume, checksum) and `run`
 * (all of it). Errors are `EmsimApiError`, `EmsimNetworkError`, `EmsimChecksumError` and
 * `EmsimJobFailedError`; retries follow src/client/retry.ts.
 */
import { rename, rm, writeFile } from "node:fs/promises";
import { attemptRequest, type AttemptRequest } from "./attempt.js";
import { downloadPart, type DownloadProgress } from "./download.js";
import { EmsimApiError, EmsimChecksumError, EmsimError, EmsimJobFailedError } from "./errors.js";
import {
  isRetryable,
  retryDelayMs,
  retryPolicy,
  sleep as realSleep,
  type RequestKind,
  type RetryPolicy,
} from "./retry.js";
import {
  isActive,
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

export interface WaitOptions extends RequestOptions {
  /** Called with the job record after every poll (status and `progress`). */
  onProgress?: (job: JobRecord) => void;
  /** Longest interval between polls in ms (polling starts faster). Default 1000. */
  pollIntervalMs?: number;
  /** Give up after this many ms (an Error named "TimeoutError"). Default: wait forever. */
  timeoutMs?: number;
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

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
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
    this.baseUrl = trimSlash(new URL(options.baseUrl).href);
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
    for (;;) {
      try {
        return await this.json<SubmissionAck>("POST", "/v1/simulations", {
          body: request,
          kind: "submit",
          signal: options.signal,
        });
      } catch (err) {
        if (!options.queue || !(err instanceof EmsimApiError)) throw err;
        if (err.status !== 409 || err.code !== "simulation_already_running") throw err;
        const info: QueueWaitInfo = {
          activeJobId: err.activeJobId,
          retryAfterSeconds: err.retryAfterSeconds ?? 30,
          detail: err.detail,
        };
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
    const maxInterval = options.pollIntervalMs ?? 1000;
    let interval = Math.min(250, maxInterval);
    const deadline = options.timeoutMs !== undefined ? Date.now() + options.timeoutMs : Infinity;
    for (;;) {
      const job = await this.get(jobId, options);
      options.onProgress?.(job);
      if (!isActive(job.status)) return job;
      if (Date.now() + interval > deadline) {
        const err = new Error(`job ${jobId} is still ${job.status} after ${options.timeoutMs} ms`);
        err.name = "TimeoutError";
        throw err;
      }
      await this.sleep(interval, options.signal);
      interval = Math.min(maxInterval, Math.ceil(interval * 1.5));
    }
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
    const expected = job.checksum.toLowerCase();
    const part = `${path}.part`;
    for (let pass = 0; ; pass++) {
      const got = await downloadPart(part, {
        fetch: this.fetchImpl,
        signedUrl: () => this.resultUrl(jobId, options),
        policy: this.policy,
        sleep: this.sleep,
        random: this.random,
        expectedBytes: job.result_bytes,
        onProgress: options.onProgress,
        onRetry: (reason, delayMs, retry) =>
          this.onRetry?.({ method: "GET", url: "(storage address)", retry, delayMs, reason }),
        signal: options.signal,
      });
      if (got.sha256 === expected) {
        await rename(part, path);
        return {
          jobId,
          path,
          bytes: got.bytes,
          sha256: got.sha256,
          resumedFromBytes: got.resumedFromBytes,
        };
      }
      if (pass === 0 && got.resumedFromBytes > 0) {
        await rm(part, { force: true });
        continue;
      }
      const corrupt = `${path}.corrupt`;
      await rename(part, corrupt);
      throw new EmsimChecksumError(jobId, expected, got.sha256, corrupt);
    }
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

  // ---------------------------------------------------------------- plumbing

  /**
   * While a submission is refused: wait until the active job has ended (when it is ours to
   * poll) or its `retry_after` has passed.
   */
  private async waitForSlot(info: QueueWaitInfo, options: SubmitOptions): Promise<void> {
    const waitMs = Math.min(300, Math.max(1, info.retryAfterSeconds)) * 1000;
    const deadline = Date.now() + waitMs;
    const poll = options.pollIntervalMs ?? 1000;
    const ownJob = info.activeJobId !== null && /^[0-9a-f-]{36}$/i.test(info.activeJobId);
    while (Date.now() < deadline) {
      await this.sleep(Math.min(poll, Math.max(0, deadline - Date.now())), options.signal);
      if (!ownJob) continue;
      try {
        if (!isActive((await this.get(info.activeJobId!, options)).status)) return;
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
