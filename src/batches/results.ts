/**
 * A batch's one result file (GET /v1/batches/{id}/results): built the first time it is asked
 * for once the batch is COMPLETED, from its jobs' stored files (src/results/batch-merge.ts, in
 * a thread), stored and recorded with its SHA-256; later requests get the stored file.
 *
 * Two first requests at once may both build it: each stores its own object, the store keeps
 * the first recorded (setBatchResult), and the other removes its own, so the batch's record
 * and its file always agree.
 */
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { Config } from "../config.js";
import { errors } from "../errors.js";
import type { BatchResultInput, BatchVariantResult } from "../results/batch-merge.js";
import { unitAt } from "../schema/pointer-unit.js";
import { DiskWriteError } from "../storage/errors.js";
import type { StorageBackend } from "../storage/types.js";
import type { BatchJobSummary, BatchRow, BatchStore } from "../store/types.js";
import { TaskThreads, type TaskThreadErrors, type ThreadFailure } from "../threads/task-threads.js";
import type { MergeTask } from "./merge-thread.js";
import { parameterValues, type BatchParameter } from "./variants.js";

const THREAD_URL = new URL(
  `./merge-thread${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`,
  import.meta.url,
);

/** Seconds a caller told the writers are busy waits before asking again. */
const BUSY_RETRY_SECONDS = 5;

const MERGE_LIMITS = { maxConcurrent: 2, timeoutSeconds: 900, maxMemoryMb: 4096 };

const MERGE_ERRORS = {
  busy: () => errors.batchResultsBusy(BUSY_RETRY_SECONDS),
  timedOut: (l) => new Error(`writing a batch's result file took over ${l.timeoutSeconds} s`),
  outOfMemory: (l) => new Error(`writing a batch's result file needed over ${l.maxMemoryMb} MiB`),
  failed: (f: ThreadFailure) => {
    if (f.name === "BatchMergeError") return errors.batchResultsUnavailable(f.message);
    // The file did not reach the disk as written (h5wasm's quiet refusals, a full disk):
    // nothing was stored, and the same request may succeed once there is room.
    if (f.name === "ResultFileError") return new DiskWriteError(`batch file: ${f.message}`);
    return new Error(`batch result thread failed: ${f.name}: ${f.message}`);
  },
} satisfies TaskThreadErrors;

export class BatchResults {
  private readonly threads = new TaskThreads<MergeTask, unknown>(
    THREAD_URL,
    () => MERGE_LIMITS,
    MERGE_ERRORS,
  );

  /**
   * The builds under way in this process, by batch: a request for a file being built waits
   * for that build instead of starting another (ten clients' first downloads at once were
   * eight 503s "every writer is busy" while two writers built the same file).
   */
  private readonly building = new Map<string, Promise<BatchRow>>();

  constructor(
    private readonly store: BatchStore,
    private readonly storage: StorageBackend,
    private readonly config: Config,
  ) {}

  /** The download address of a COMPLETED batch's file, building it the first time. */
  async downloadUrl(batch: BatchRow, jobs: readonly BatchJobSummary[]): Promise<string> {
    const stored = batch.resultKey ? batch : await this.buildOnce(batch, jobs);
    return this.storage.signedDownloadUrl(
      stored.resultKey!,
      this.config.downloadUrlTtlSeconds,
      `emsim-batch-${batch.batchId}.h5`,
    );
  }

  private buildOnce(batch: BatchRow, jobs: readonly BatchJobSummary[]): Promise<BatchRow> {
    const under = this.building.get(batch.batchId);
    if (under) return under;
    const build = this.build(batch, jobs).finally(() => this.building.delete(batch.batchId));
    this.building.set(batch.batchId, build);
    return build;
  }

  private async build(batch: BatchRow, jobs: readonly BatchJobSummary[]): Promise<BatchRow> {
    const dir = await mkdtemp(join(tmpdir(), "emsim-batch-"));
    try {
      const input = await this.inputOf(batch, jobs, dir);
      const outPath = join(dir, "batch.h5");
      await this.threads.run({ outPath, input });
      const checksum = await sha256(outPath);
      const key = `batches/${batch.batchId}-${randomUUID().slice(0, 8)}.h5`;
      const put = await this.storage.putFile(key, outPath);
      const after = await this.record(batch, { key, bytes: put.bytes, checksum });
      if (after.resultKey !== key) await this.storage.delete(key).catch(() => undefined);
      return after;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * Records the stored file as the batch's. Where the database refuses (its disk is full), the
   * file is removed again before the error goes on: no record would ever point to it.
   */
  private async record(
    batch: BatchRow,
    stored: { key: string; bytes: number; checksum: string },
  ): Promise<BatchRow> {
    try {
      return await this.store.setBatchResult(batch.batchId, new Date().toISOString(), stored);
    } catch (err) {
      await this.storage.delete(stored.key).catch(() => undefined);
      throw err;
    }
  }

  /** The merge's input: the sweep and each variant's file, fetched into `dir`. */
  private async inputOf(
    batch: BatchRow,
    jobs: readonly BatchJobSummary[],
    dir: string,
  ): Promise<BatchResultInput> {
    const request = JSON.parse(batch.requestJson) as { parameters: BatchParameter[] };
    const variants: BatchVariantResult[] = [];
    for (const job of jobs) {
      if (job.status === "COMPLETED" && job.resultKey) {
        const path = join(dir, `${job.batchIndex}.h5`);
        await pipeline(await this.storage.read(job.resultKey), createWriteStream(path));
        variants.push({ jobId: job.jobId, status: "COMPLETED", result: path });
      } else {
        const errorDetail = job.errorDetail ?? "did not complete";
        variants.push({ jobId: job.jobId, status: "FAILED", errorDetail });
      }
    }
    return {
      batchId: batch.batchId,
      sweep: {
        combine: batch.combine,
        parameters: request.parameters.map((p) => ({
          name: p.name,
          path: p.path,
          values: parameterValues(p),
          unit: unitAt(p.path),
        })),
      },
      variants,
    };
  }
}

async function sha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(path), hash);
  return hash.digest("hex");
}
