/**
 * Batches (DESIGN §11, issue #30): a base simulation swept over parameters, admitted as one
 * unit whose variants are ordinary jobs. Every variant is validated at submission exactly as
 * a single job is (its gds structures resolved, the schema, physics and limits), so a batch
 * that is admitted has no variant the service would refuse; a problem is a 422 naming the
 * variant and the field. Admission is the store's one transaction (BatchStore.admitBatch):
 * while the batch has active jobs, the account's submissions get the 409.
 */
import { randomUUID } from "node:crypto";
import type { Config } from "../config.js";
import { ApiError, errors, type FieldError } from "../errors.js";
import type { FabricationService } from "../fabrication/service.js";
import { fieldErrorsAsSent } from "../fabrication/gds-resolve.js";
import type { JobService } from "../jobs/service.js";
import { requestHash } from "../jobs/request-hash.js";
import { formatAjvErrors } from "../schema/ajv-errors.js";
import { validateRequestSchema, validateSimulationRequest } from "../schema/validate.js";
import type { SimulationRequest } from "../schema/simulation.js";
import type { BatchEstimate, BatchRequestBody } from "../schema/batch.js";
import type { RunEstimate } from "../solver/index.js";
import type { BatchJobSummary, BatchRow, NewBatchJob, Stores } from "../store/types.js";
import { batchStatus, toBatchRecord, type BatchRecord } from "./records.js";
import { BatchResults } from "./results.js";
import type { StorageBackend } from "../storage/types.js";
import {
  checkParameters,
  sweepDimensions,
  variantCount,
  variants,
  type BatchParameter,
  type Combine,
} from "./variants.js";
import { validateBaseSimulation, variantError } from "./request.js";

/** The request as the route's schema passed it (src/schema/batch.ts). */
export type BatchRequest = BatchRequestBody;

/**
 * The longest run of variant checks between two turns of the event loop. A variant of a small
 * request takes a fraction of a millisecond, one with a 10 000-vertex polyslab 30–50 ms: a
 * fixed count of variants (16) held every other request back for up to 3.6 s (an outside
 * probe's batch estimate), a time does not.
 */
const YIELD_AFTER_MS = 20;

/** Words a cancelled batch's queued jobs fail with. */
export const BATCH_CANCELLED = "Cancelled with its batch before it started.";

export class BatchService {
  private readonly results: BatchResults;

  constructor(
    private readonly stores: Stores,
    private readonly jobs: JobService,
    private readonly fabrication: FabricationService,
    private readonly config: Config,
    storage: StorageBackend,
  ) {
    this.results = new BatchResults(stores.batches, storage, config);
  }

  /**
   * Validates every variant and admits the batch, or throws (422, 409). A `signal` that aborts
   * (the caller hung up) stops the checks, a layout's read among them, and admits nothing.
   */
  async submit(accountId: string, body: BatchRequest, signal?: AbortSignal): Promise<BatchRow> {
    const combine = body.combine ?? "product";
    const createdAt = new Date().toISOString();
    const { jobs } = await this.checked(accountId, body, { combine, at: createdAt, signal });
    const batchId = randomUUID();
    const admission = await this.stores.batches.admitBatch(
      {
        batchId,
        accountId,
        requestJson: JSON.stringify({ ...body, combine }),
        dimensions: sweepDimensions(body.parameters, combine),
        combine,
        jobCount: jobs.length,
        parallelism: this.config.batches.parallelism,
        metadata: body.metadata ?? {},
        createdAt,
      },
      jobs,
      { limit: this.config.maxActiveJobs, scope: this.config.concurrencyScope },
    );
    if (!admission.admitted) throw await this.jobs.conflictWith(accountId, admission.active);
    return admission.batch;
  }

  /**
   * What the batch would cost, checked as a submission is (422 where it would be refused),
   * never queued: its jobs' count, their expected run times summed, the largest job. A
   * `signal` stops the checks as in submit.
   */
  async estimate(
    accountId: string,
    body: BatchRequest,
    signal?: AbortSignal,
  ): Promise<BatchEstimate> {
    const combine = body.combine ?? "product";
    const at = new Date().toISOString();
    const { jobs, totals } = await this.checked(accountId, body, { combine, at, signal });
    return {
      job_count: jobs.length,
      // Tenths, as a single job's estimate gives them.
      expected_seconds: Math.ceil(10 * totals.seconds) / 10,
      max_batch_seconds: this.config.batches.maxTotalSeconds,
      parallelism: this.config.batches.parallelism,
      time_steps: totals.timeSteps,
      result_bytes: totals.resultBytes,
      largest_job: { cells: totals.largestCells, memory_bytes: totals.largestMemoryBytes },
    };
  }

  /** The request's shape, parameters and count checked, then every variant (variantJobs). */
  private async checked(
    accountId: string,
    body: BatchRequest,
    { combine, at, signal }: { combine: Combine; at: string; signal?: AbortSignal | undefined },
  ) {
    const base = validateBaseSimulation(body.simulation, body.parameters);
    if (base.length > 0) throw errors.validation(base);
    const problems = [
      ...rangeErrors(body.parameters),
      ...checkParameters(body.simulation, body.parameters, combine),
    ];
    if (problems.length > 0) throw errors.validation(problems);
    const counted = variantCount(body.parameters, combine, this.config.batches.maxJobs);
    if ("errors" in counted) throw errors.validation(counted.errors);
    return this.variantJobs(accountId, body, { combine, count: counted.count, signal }, at);
  }

  /**
   * Each variant as a job ready to store, with the batch's totals, or a 422 listing the first
   * problems, each path prefixed by `variants[i].`; and the total estimate against the
   * deployment's bound.
   */
  private async variantJobs(
    accountId: string,
    body: BatchRequest,
    {
      combine,
      count,
      signal,
    }: { combine: Combine; count: number; signal?: AbortSignal | undefined },
    createdAt: string,
  ): Promise<{ jobs: NewBatchJob[]; totals: BatchTotals }> {
    const out: NewBatchJob[] = [];
    const problems: FieldError[] = [];
    const totals = emptyTotals();
    let turn = performance.now();
    for (const v of variants(body.simulation, body.parameters, combine)) {
      // Thousands of variants take seconds to check: let other requests in between.
      if (performance.now() - turn > YIELD_AFTER_MS) {
        await new Promise((r) => setImmediate(r));
        turn = performance.now();
      }
      signal?.throwIfAborted();
      const outcome = await this.checkVariant(accountId, v.request as SimulationRequest, signal);
      if (!outcome.ok) {
        // Every variant is checked, so that error_count counts them all (the body lists 50):
        // no slower than the same batch without its mistakes.
        problems.push(
          ...outcome.errors.map((e) => variantError(v.index, e, body.parameters, v.parameters)),
        );
        continue;
      }
      addToTotals(totals, outcome.estimate, this.jobs.expectedSeconds(outcome.estimate));
      out.push({
        jobId: randomUUID(),
        accountId,
        solver: outcome.request.solver,
        requestJson: JSON.stringify(outcome.request),
        specJson: JSON.stringify(outcome.spec),
        requestHash: requestHash(outcome.spec, outcome.request.metadata),
        metadata: (outcome.request.metadata ?? {}) as Record<string, unknown>,
        createdAt,
        batchIndex: v.index,
        parameters: v.parameters,
      });
      if (out.length === 1) requireStorable(out[0]!, count);
    }
    if (problems.length > 0) throw errors.validation(problems);
    const bound = this.config.batches.maxTotalSeconds;
    if (totals.seconds > bound) {
      throw errors.validation([
        {
          path: "parameters",
          message: `the batch's ${out.length} jobs are estimated at ${Math.ceil(totals.seconds)} s in all; this deployment takes batches of at most ${bound} s (EMSIM_MAX_BATCH_SECONDS)`,
        },
      ]);
    }
    return { jobs: out, totals };
  }

  /** A variant as a single submission is checked: gds resolved, then everything. */
  private async checkVariant(accountId: string, request: SimulationRequest, signal?: AbortSignal) {
    // The schema first: a swept value may have made the variant no request at all (a whole
    // array replaced by a number), which the gds resolution below takes for one.
    if (!validateRequestSchema(request)) {
      return { ok: false as const, errors: formatAjvErrors(validateRequestSchema.errors) };
    }
    try {
      const resolved = await this.fabrication.resolveGdsStructures(accountId, request, signal);
      const checked = validateSimulationRequest(resolved, this.jobs.limits());
      if (checked.ok) return checked;
      return { ...checked, errors: fieldErrorsAsSent(checked.errors, resolved) };
    } catch (err) {
      // A gds structure refused (422) is this variant's problem; anything else is the batch's.
      if (err instanceof ApiError && err.code === "validation_error") {
        return { ok: false as const, errors: err.extra.errors as FieldError[] };
      }
      throw err;
    }
  }

  /** The caller's batch, or 404 — also for another account's. */
  async getOwn(accountId: string, batchId: string): Promise<BatchRow> {
    const batch = await this.stores.batches.getBatch(batchId);
    if (!batch || batch.accountId !== accountId) throw errors.batchNotFound(batchId);
    return batch;
  }

  /** The caller's batch as the API shows it, with its jobs. */
  async record(accountId: string, batchId: string): Promise<BatchRecord> {
    const batch = await this.getOwn(accountId, batchId);
    const jobs = await this.stores.batches.batchJobs(batchId);
    return toBatchRecord(batch, jobs, this.config.baseUrl);
  }

  /** One page of the caller's batches as the API lists them (without their jobs). */
  async page(
    accountId: string,
    options: { limit: number; cursor?: string },
  ): Promise<{ batches: Omit<BatchRecord, "jobs">[]; next_cursor: string | null }> {
    const { batches, nextCursor } = await this.list(accountId, options);
    const records = [];
    for (const b of batches) {
      const { jobs: _jobs, ...rest } = toBatchRecord(
        b,
        await this.stores.batches.batchJobs(b.batchId),
        this.config.baseUrl,
      );
      records.push(rest);
    }
    return { batches: records, next_cursor: nextCursor };
  }

  async list(
    accountId: string,
    options: { limit: number; cursor?: string },
  ): Promise<{ batches: BatchRow[]; nextCursor: string | null }> {
    let before: { createdAt: string; batchId: string } | undefined;
    if (options.cursor) {
      const anchor = await this.stores.batches.getBatch(options.cursor);
      if (!anchor || anchor.accountId !== accountId) {
        throw errors.validation([
          { path: "query.cursor", message: "is not a batch of this account" },
        ]);
      }
      before = { createdAt: anchor.createdAt, batchId: anchor.batchId };
    }
    const rows = await this.stores.batches.listBatches(accountId, {
      limit: options.limit + 1,
      ...(before ? { before } : {}),
    });
    const page = rows.slice(0, options.limit);
    return {
      batches: page,
      nextCursor: rows.length > options.limit ? page[page.length - 1]!.batchId : null,
    };
  }

  /**
   * The pre-signed address of a COMPLETED batch's one result file (built the first time);
   * 409 results_not_ready before every job has ended, or when none completed.
   */
  async resultDownloadUrl(accountId: string, batchId: string): Promise<string> {
    const batch = await this.getOwn(accountId, batchId);
    const jobs = await this.stores.batches.batchJobs(batchId);
    const status = batchStatus(jobs);
    if (status !== "COMPLETED") {
      throw errors.batchResultsNotReady(batchId, status, await this.timeLeft(batchId, jobs));
    }
    return this.results.downloadUrl(batch, jobs);
  }

  /**
   * Seconds until a batch's jobs have likely ended, as its submission 409 says (from the
   * running job's progress and the expected times of those queued); 1 when none is active.
   */
  private async timeLeft(batchId: string, jobs: readonly BatchJobSummary[]): Promise<number> {
    const active =
      jobs.find((j) => j.status === "RUNNING") ?? jobs.find((j) => j.status === "QUEUED");
    const row = active ? await this.stores.jobs.getJob(active.jobId) : null;
    return row ? this.jobs.batchTimeLeft(row, batchId) : 1;
  }

  /**
   * Stops the batch: queued jobs fail at once, running ones are told to stop. A batch whose
   * jobs have all ended is a 409 batch_finished (as a finished job's cancel is a 409
   * job_finished), and its record is left as it was.
   */
  async cancel(accountId: string, batchId: string): Promise<BatchRow> {
    await this.getOwn(accountId, batchId);
    const status = batchStatus(await this.stores.batches.batchJobs(batchId));
    if (status === "COMPLETED" || status === "FAILED") throw errors.batchFinished(batchId, status);
    await this.stores.batches.cancelBatch(batchId, new Date().toISOString(), BATCH_CANCELLED);
    return this.getOwn(accountId, batchId);
  }
}

/** A parameter gives its values or a range, not both, not neither. */
/** A batch's variants summed: expected seconds, time steps, result bytes; the largest job. */
interface BatchTotals {
  seconds: number;
  timeSteps: number;
  resultBytes: number;
  largestCells: number;
  largestMemoryBytes: number;
}

const emptyTotals = (): BatchTotals => ({
  seconds: 0,
  timeSteps: 0,
  resultBytes: 0,
  largestCells: 0,
  largestMemoryBytes: 0,
});

/**
 * The most request text a batch stores (each job's request and its checked form, as a single
 * job's): a few thousand variants of a request of thousands of polygon vertices would be
 * gigabytes, checked for minutes, before the store refused them.
 */
export const MAX_BATCH_REQUEST_BYTES = 128 * 1024 * 1024;

/** The batch's jobs' stored text, judged from its first job's, within MAX_BATCH_REQUEST_BYTES. */
function requireStorable(job: NewBatchJob, count: number): void {
  const each = job.requestJson.length + job.specJson.length;
  if (each * count <= MAX_BATCH_REQUEST_BYTES) return;
  const mb = (bytes: number) => `${Number((bytes / 1e6).toPrecision(3))} MB`;
  throw errors.validation([
    {
      path: "parameters",
      message:
        `the batch's ${count} jobs would store ${mb(each * count)} of requests (${mb(each)} ` +
        `each, as checked); a batch stores at most ${mb(MAX_BATCH_REQUEST_BYTES)}: sweep ` +
        "fewer values, split the batch, or make the request smaller",
    },
  ]);
}

function addToTotals(t: BatchTotals, e: RunEstimate, expectedSeconds: number): void {
  t.seconds += expectedSeconds;
  t.timeSteps += e.timeSteps;
  t.resultBytes += e.resultBytes;
  t.largestCells = Math.max(t.largestCells, e.totalCells);
  t.largestMemoryBytes = Math.max(t.largestMemoryBytes, e.memoryBytes);
}

function rangeErrors(parameters: readonly BatchParameter[]): FieldError[] {
  return parameters.flatMap((p, k) =>
    (p.values === undefined) === (p.range === undefined)
      ? [{ path: `parameters[${k}]`, message: "must have either values or range (one of them)" }]
      : [],
  );
}
