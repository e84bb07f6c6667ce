/**
 * Job lifecycle and admission: what the API does with a submission, a status request, a
 * cancellation or a download, independent of HTTP. Validation runs here (schema-checked input
 * from the route, then defaults, physics and limits), admission is the store's transaction.
 */
import type { SMatrixJson } from "../results/touchstone.js";
import { randomUUID } from "node:crypto";
import type { Config } from "../config.js";
import { errors, type ApiError } from "../errors.js";
import { checkRequest, type RequestLimits } from "../schema/validate.js";
import type { SimulationRequest } from "../schema/simulation.js";
import { estimateRun, setupNotes, type RunEstimate, type SimulationSpec } from "../solver/index.js";
import type { StorageBackend } from "../storage/types.js";
import { storeUnavailability, type StoreUnavailability } from "../store/errors.js";
import type { BatchStore, JobQueue, JobRow, JobStatus, ReadScope } from "../store/types.js";
import { CANCELLED_BEFORE_START } from "./lifecycle.js";
import { retryAfterSeconds, toJobRecord, type JobRecord } from "./records.js";
import { requestHash } from "./request-hash.js";
import { RunTimeModel, type RunObservation } from "./timing.js";

export interface Estimate {
  grid: number[];
  interior_grid: number[];
  cells: number;
  time_steps: number;
  dt_seconds: number;
  monitor_samples: number;
  memory_bytes: number;
  result_bytes: number;
  estimated_seconds: number;
  expected_steps: number;
  expected_seconds: number;
  mcells_per_second_assumed: number;
  notes: string[];
}

export class JobService {
  private refusedWrite: { atMs: number; reason: StoreUnavailability } | null = null;
  /** Run times learned from completed jobs, for estimates (timing.ts). */
  private readonly runTimes = new RunTimeModel();

  constructor(
    private readonly store: JobQueue,
    private readonly storage: StorageBackend,
    private readonly config: Config,
    /** A batch's jobs, for the time a running batch has left (409's retry_after). */
    private readonly batches?: BatchStore,
  ) {}

  record(job: JobRow): JobRecord {
    return toJobRecord(job, this.config.baseUrl);
  }

  /** Learns run times from a completed job's report (worker). */
  noteRun(run: RunObservation): void {
    this.runTimes.observe(run);
  }

  /**
   * The deployment's limits, the configured solver backend (whose bound applies too) and the
   * size of the results disk.
   */
  limits(): RequestLimits {
    return {
      ...this.config.limits,
      solverBackend: this.config.solverBackend,
      maxResultBytes: this.storage.capacityBytes(),
    };
  }

  private toEstimate(e: RunEstimate, notes: string[]): Estimate {
    const rate = this.runTimes.mcellsPerSecond(e.totalCells, e.surfaceCells, e);
    return {
      grid: e.grid,
      interior_grid: e.interiorGrid,
      cells: e.totalCells,
      time_steps: e.timeSteps,
      dt_seconds: e.dtSeconds,
      monitor_samples: e.monitorSamples,
      memory_bytes: e.memoryBytes,
      result_bytes: e.resultBytes,
      estimated_seconds: Math.ceil(
        this.runTimes.seconds(e.totalCells, e.timeSteps, e.surfaceCells, e),
      ),
      expected_steps: e.expectedSteps,
      // Tenths: a small job's second or two would lose half its accuracy to whole seconds.
      expected_seconds:
        Math.ceil(10 * this.runTimes.seconds(e.totalCells, e.expectedSteps, e.surfaceCells, e)) /
        10,
      mcells_per_second_assumed: Math.round(rate * 10) / 10,
      notes,
    };
  }

  /** The run-time model behind estimates (metrics show its figures). */
  get runTimeModel(): RunTimeModel {
    return this.runTimes;
  }

  /**
   * Seconds until an active job is likely to finish: from its progress once it has some,
   * before that from the expected run time of its spec (less the time it has run), else 30.
   */
  private retryAfter(job: JobRow, nowMs = Date.now()): number {
    const fromProgress = retryAfterSeconds(job, nowMs);
    if ((job.progress?.fraction ?? 0) > 0.01 && job.status === "RUNNING") return fromProgress;
    if (job.status !== "QUEUED" && job.status !== "RUNNING") return fromProgress;
    try {
      const e = estimateRun(JSON.parse(job.specJson) as SimulationSpec, this.config.solverBackend);
      const expected = this.runTimes.seconds(e.totalCells, e.expectedSteps, e.surfaceCells, e);
      const ran = job.startedAt ? (nowMs - Date.parse(job.startedAt)) / 1000 : 0;
      return Math.max(1, Math.ceil(expected - Math.max(0, ran)));
    } catch {
      return fromProgress;
    }
  }

  /** Seconds a run of this estimate is expected to take (its expected steps; timing.ts). */
  expectedSeconds(e: RunEstimate): number {
    return this.runTimes.seconds(e.totalCells, e.expectedSteps, e.surfaceCells, e);
  }

  /**
   * The 409 for a submission refused because `active` is active. Another account's job id is
   * never disclosed: with a global scope and only others' jobs active, the caller learns that
   * the service is busy, not whose job it is. A job of the caller's own batch names the batch,
   * and retry_after is the time the batch has left.
   */
  async conflictWith(accountId: string, active: JobRow): Promise<ApiError> {
    const own = active.accountId === accountId;
    const visibleId = own ? active.jobId : null;
    const batchId = own ? active.batchId : null;
    const retry = batchId ? await this.batchTimeLeft(active, batchId) : this.retryAfter(active);
    return errors.activeJobConflict(visibleId, retry, this.config.maxActiveJobs, batchId);
  }

  /**
   * Seconds a batch has left (the retry_after of its 409s): `active`'s (a job of it running,
   * or its first queued), plus the expected time of its jobs still queued (each as long as the
   * active one), shared among the jobs it may run at once.
   */
  async batchTimeLeft(active: JobRow, batchId: string): Promise<number> {
    const first = this.retryAfter(active);
    if (!this.batches) return first;
    const jobs = await this.batches.batchJobs(batchId);
    const queued = jobs.filter((j) => j.status === "QUEUED").length;
    const batch = await this.batches.getBatch(batchId);
    let each = first;
    try {
      const e = estimateRun(
        JSON.parse(active.specJson) as SimulationSpec,
        this.config.solverBackend,
      );
      each = Math.max(1, this.expectedSeconds(e));
    } catch {
      // the active job's own figure stands in
    }
    return Math.ceil(first + (queued * each) / Math.max(1, batch?.parallelism ?? 1));
  }

  /** Same validation as submission; never queues. */
  estimate(request: SimulationRequest): Estimate {
    return this.check(request).estimate;
  }

  /**
   * Same validation as submission: the request's spec (defaults filled in) and its estimate,
   * or the 422 (the estimate and the set-up preview). Never queues.
   */
  check(request: SimulationRequest): { spec: SimulationSpec; estimate: Estimate } {
    const outcome = checkRequest(request, this.limits());
    if (!outcome.ok) throw errors.validation(outcome.errors);
    const estimate = this.toEstimate(outcome.estimate, setupNotes(outcome.spec, outcome.plan));
    return { spec: outcome.spec, estimate };
  }

  /** Validates (the body already passed the JSON schema) and admits a job, or throws. */
  async submit(accountId: string, request: SimulationRequest): Promise<JobRow> {
    const { spec, estimate } = this.check(request);
    const result = await this.admit(
      {
        jobId: randomUUID(),
        accountId,
        solver: request.solver,
        requestJson: JSON.stringify(request),
        specJson: JSON.stringify(spec),
        requestHash: requestHash(spec, request.metadata),
        estimate: { ...estimate },
        metadata: (request.metadata ?? {}) as Record<string, unknown>,
        createdAt: new Date().toISOString(),
      },
      { limit: this.config.maxActiveJobs, scope: this.config.concurrencyScope },
    );
    if (!result.admitted) throw await this.conflictWith(accountId, result.active);
    return result.job;
  }

  /**
   * The store's admission, remembering whether the database refused the write (a full disk):
   * /health reports that until a submission succeeds again, because its own one-row probe
   * can still fit where a job does not.
   */
  private async admit(...args: Parameters<JobQueue["admitJob"]>) {
    try {
      const result = await this.store.admitJob(...args);
      this.refusedWrite = null;
      return result;
    } catch (err) {
      const reason = storeUnavailability(err);
      if (reason) this.refusedWrite = { atMs: Date.now(), reason };
      throw err;
    }
  }

  /** Why the database refused the last submission, if it did within `windowMs` and none passed since. */
  recentWriteRefusal(windowMs = 30_000): StoreUnavailability | null {
    const r = this.refusedWrite;
    return r && Date.now() - r.atMs < windowMs ? r.reason : null;
  }

  /** The caller's job, or 404 — also for a job of another account. */
  async getOwnJob(accountId: string, jobId: string, reads?: ReadScope): Promise<JobRow> {
    const job = await this.store.getJob(jobId, reads);
    if (!job || job.accountId !== accountId) throw errors.jobNotFound(jobId);
    return job;
  }

  async list(
    accountId: string,
    options: { limit: number; cursor?: string; status?: JobStatus },
  ): Promise<{ jobs: JobRow[]; nextCursor: string | null }> {
    let before: { createdAt: string; jobId: string } | undefined;
    if (options.cursor) {
      const anchor = await this.store.getJob(options.cursor);
      if (!anchor || anchor.accountId !== accountId) {
        throw errors.validation([
          { path: "query.cursor", message: "is not a job of this account" },
        ]);
      }
      before = { createdAt: anchor.createdAt, jobId: anchor.jobId };
    }
    const rows = await this.store.listJobs(accountId, {
      limit: options.limit + 1,
      ...(before ? { before } : {}),
      ...(options.status ? { status: options.status } : {}),
    });
    const page = rows.slice(0, options.limit);
    return {
      jobs: page,
      nextCursor: rows.length > options.limit ? page[page.length - 1]!.jobId : null,
    };
  }

  async cancel(accountId: string, jobId: string): Promise<JobRow> {
    const job = await this.getOwnJob(accountId, jobId);
    if (job.status === "COMPLETED" || job.status === "FAILED") {
      throw errors.jobFinished(jobId, job.status);
    }
    const after = await this.store.requestCancel(
      jobId,
      new Date().toISOString(),
      CANCELLED_BEFORE_START,
    );
    if (!after) throw errors.jobNotFound(jobId);
    return after;
  }

  /** A COMPLETED ports job's S-matrix as its record holds it (solver_report.s_matrix). */
  async sParameters(accountId: string, jobId: string, reads?: ReadScope): Promise<SMatrixJson> {
    const job = await this.getOwnJob(accountId, jobId, reads);
    // Known from the request: a job that is no ports job never has S-parameters to wait for.
    if (!isPortsJob(job)) throw errors.noSParameters(jobId);
    if (job.status !== "COMPLETED") {
      throw errors.resultsNotReady(jobId, job.status, this.retryAfter(job));
    }
    const sm = (job.report as { s_matrix?: SMatrixJson } | null)?.s_matrix;
    if (!sm) throw errors.noSParameters(jobId);
    return sm;
  }

  /** The pre-signed storage address of a completed job's result file. */
  async resultDownloadUrl(accountId: string, jobId: string, reads?: ReadScope): Promise<string> {
    const job = await this.getOwnJob(accountId, jobId, reads);
    if (job.status !== "COMPLETED" || !job.resultKey) {
      throw errors.resultsNotReady(jobId, job.status, this.retryAfter(job));
    }
    return this.storage.signedDownloadUrl(
      job.resultKey,
      this.config.downloadUrlTtlSeconds,
      `emsim-${jobId}.h5`,
    );
  }
}

/** Whether a job's request is a ports job (`source_type: "ports"`), which has S-parameters. */
function isPortsJob(job: JobRow): boolean {
  try {
    const spec = JSON.parse(job.specJson) as { source?: { source_type?: string } };
    return spec.source?.source_type === "ports";
  } catch {
    return true; // an unreadable spec: let the record say what it has
  }
}
