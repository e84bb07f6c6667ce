/**
 * A completed batch's sweep for its plot (views/batch-plot.ts): every completed job's solver
 * report read from its job record, so the plot needs no result file. A completed batch's jobs
 * have all ended and never change again, so sweeps are cached, bounded by the numbers they hold
 * (a batch of 10 000 ports jobs may hold millions; one that large is read each time instead).
 */
import type { BatchRecord } from "../batches/records.js";
import type { JobService } from "../jobs/service.js";
import { DashboardError } from "./context.js";
import { sweepOfReports, type Sweep, type VariantReport } from "./views/batch-plot.js";

/** Numbers (8 bytes each) the cache holds at most, over all its batches. */
const CACHE_VALUES = 4_000_000;
/** Job records read at once: enough to hide a database's round trips, few enough to share it. */
const READS_AT_ONCE = 8;

export class BatchSweeps {
  private readonly cache = new Map<string, { sweep: Sweep; values: number }>();
  private cachedValues = 0;

  constructor(
    private readonly jobs: JobService,
    private readonly maxValues = CACHE_VALUES,
  ) {}

  /** The sweep of the caller's batch (its record, read for the caller: ownership is checked). */
  async sweepOf(accountId: string, batch: BatchRecord): Promise<Sweep> {
    if (batch.status !== "COMPLETED") {
      throw new DashboardError(
        409,
        `Batch ${batch.batch_id} is ${batch.status}; its plot needs every job to have ended.`,
      );
    }
    const hit = this.cache.get(batch.batch_id);
    if (hit) {
      // Most recently used last: eviction takes from the front.
      this.cache.delete(batch.batch_id);
      this.cache.set(batch.batch_id, hit);
      return hit.sweep;
    }
    const sweep = await this.read(accountId, batch);
    this.remember(batch.batch_id, sweep);
    return sweep;
  }

  private async read(accountId: string, batch: BatchRecord): Promise<Sweep> {
    const completed = batch.jobs.filter((j) => j.status === "COMPLETED");
    const reports: VariantReport[] = [];
    for (let k = 0; k < completed.length; k += READS_AT_ONCE) {
      const chunk = completed.slice(k, k + READS_AT_ONCE);
      const rows = await Promise.all(chunk.map((j) => this.jobs.getOwnJob(accountId, j.job_id)));
      rows.forEach((row, i) => {
        reports.push({ index: chunk[i]!.index, report: this.jobs.record(row).solver_report });
      });
    }
    const jobCount = Math.max(batch.job_count, ...batch.jobs.map((j) => j.index + 1));
    return sweepOfReports(batch.parameters, jobCount, reports);
  }

  private remember(batchId: string, sweep: Sweep): void {
    const values = sweep.quantities.reduce(
      (n, q) => n + q.byVariant.reduce((m, v) => m + (v ? v.values.length * 2 : 0), 0),
      0,
    );
    if (values > this.maxValues) return;
    // Two requests may have read the same batch at once: keep one copy.
    const earlier = this.cache.get(batchId);
    if (earlier) {
      this.cache.delete(batchId);
      this.cachedValues -= earlier.values;
    }
    this.cache.set(batchId, { sweep, values });
    this.cachedValues += values;
    for (const [id, entry] of this.cache) {
      if (this.cachedValues <= this.maxValues) break;
      this.cache.delete(id);
      this.cachedValues -= entry.values;
    }
  }
}
