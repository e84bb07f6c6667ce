/**
 * A job worker: claims the oldest QUEUED job, runs it in a solver thread, heartbeats while it
 * runs (carrying progress and picking up cancellations), stores the result file with its
 * SHA-256 and completes the job. It also takes back jobs whose worker died: at start, those
 * of dead processes on this host at once; always, those whose heartbeat went stale.
 */
import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { Config } from "../config.js";
import type { SolverReport } from "../schema/responses.js";
import { surfaceCells } from "../solver/surface.js";
import type { SimulationSpec } from "../solver/types.js";
import type { StorageBackend, StoredObject } from "../storage/types.js";
import type { JobProgress, JobQueue, JobRow, RecoveryRule } from "../store/types.js";
import type { ThreadInput, ThreadMessage } from "./thread-protocol.js";

export interface WorkerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A completed run's size and times, for whoever estimates run times (jobs/timing.ts). */
export interface RunObserver {
  noteRun(run: {
    cells: number;
    /** Cells the structures' surfaces cross (solver/surface.ts). */
    surfaceCells: number;
    steps: number;
    steppingSeconds: number;
    setupSeconds: number;
  }): void;
}

/** Why a running job is taken back from its worker. */
export type TakeBackCause = "workerExited" | "workerSilent" | "resultNotStored";

/**
 * What a job taken back from its worker becomes (QUEUED again, or FAILED with the words users
 * read). That is the job lifecycle's decision (src/jobs/lifecycle.ts), handed in by the
 * composition root: the worker sits below src/jobs and does not import it.
 */
export interface TakeBackRules {
  rule(cause: TakeBackCause, maxAttempts: number): RecoveryRule;
}

export interface WorkerMetrics {
  jobFinished(
    status: "COMPLETED" | "FAILED",
    seconds: number,
    mcellsPerSecond: number | null,
  ): void;
}

/** Grids up to this many cells leave their solver thread running for the next job. */
const REUSE_THREAD_MAX_CELLS = 4_000_000;

/** The result file could not be stored intact; the run deserves another attempt. */
class StoringFailed extends Error {}

const HOST = hostname();
/**
 * How long a solver thread has to stop after a cancellation before it is terminated. The
 * solver checks for cancellation between slices of about 50 ms, painting included; what
 * runs without a break (kernel compile, a large grid's allocation) is shorter than this.
 */
const CANCEL_GRACE_MS = 5_000;

/**
 * How long a fresh solver thread's warm-up may take (it takes about half a second) before it
 * is given up, and the next job starts a thread of its own.
 */
const WARM_UP_LIMIT_MS = 60_000;

/** `host:pid:random` as a file-name part: `host_pid_random`, host reduced to [A-Za-z0-9-]. */
function scratchTag(workerId: string): string {
  const [host, pid, random] = workerId.split(":");
  return `${host!.replace(/[^A-Za-z0-9-]/g, "-")}_${pid}_${random}`;
}
/** Solver threads load TypeScript sources under tsx in development and tests. */
const THREAD_URL = new URL(
  `./solver-thread${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`,
  import.meta.url,
);

/**
 * Starts the solver thread. Compiled (dist/) it is a plain module; from TypeScript sources
 * (development, tests under tsx) the thread registers tsx's loader itself first, because Node 20
 * does not carry `--import` loaders into worker threads.
 */
function startSolverThread(): Worker {
  if (!THREAD_URL.pathname.endsWith(".ts")) return new Worker(THREAD_URL);
  const bootstrap = `import("tsx/esm/api").then((m) => { m.register(); return import(${JSON.stringify(THREAD_URL.href)}); })`;
  return new Worker(bootstrap, { eval: true });
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** What a worker is built from, wired by the composition root (src/service.ts). */
export interface JobWorkerParts {
  store: JobQueue;
  storage: StorageBackend;
  /** Local directory for result files being written (this worker's own disk). */
  scratchDir: string;
  /** What a job taken back from a worker becomes (src/jobs/lifecycle.ts). */
  takeBack: TakeBackRules;
  /** Told of every completed run (the API's estimates learn from it); absent in a lone worker. */
  runs?: RunObserver | null;
  config: Config;
  log: WorkerLogger;
  metrics?: WorkerMetrics | null;
}

export class JobWorker {
  /** `host:pid:random`, so a restarted process can tell its predecessors' jobs. */
  readonly id = `${HOST}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private stopping = false;
  private wake: (() => void) | null = null;
  private loopDone: Promise<void> | null = null;
  private current: { jobId: string; thread: Worker; cancel: () => void } | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void)[] = [];
  /** The solver thread of the last job that ended cleanly, kept for the next one. */
  private idleThread: Worker | null = null;
  /** A fresh solver thread being warmed up for the next job (prepareThread). */
  private warming: Promise<void> | null = null;
  /** Ends the warm-up under way as failed (its thread is then terminated). */
  private stopWarming: (() => void) | null = null;
  private recovered: Promise<void> | null = null;

  private readonly store: JobQueue;
  private readonly storage: StorageBackend;
  private readonly scratchDir: string;
  private readonly takeBack: TakeBackRules;
  private readonly runs: RunObserver | null;
  private readonly config: Config;
  private readonly log: WorkerLogger;
  private readonly metrics: WorkerMetrics | null;

  constructor(parts: JobWorkerParts) {
    this.store = parts.store;
    this.storage = parts.storage;
    this.scratchDir = parts.scratchDir;
    this.takeBack = parts.takeBack;
    this.runs = parts.runs ?? null;
    this.config = parts.config;
    this.log = parts.log;
    this.metrics = parts.metrics ?? null;
  }

  /**
   * Takes back what dead workers left: their scratch files, the jobs of dead processes on this
   * host, jobs whose heartbeat went stale. A server calls this before it listens, so no request
   * sees a job still RUNNING for a process that is gone; `start` calls it if nobody has.
   */
  async recover(): Promise<void> {
    this.recovered ??= (async () => {
      await mkdir(this.scratchDir, { recursive: true });
      await this.removeDeadScratchFiles();
      await this.recoverDeadLocalWorkers();
      await this.sweepStale();
    })();
    await this.recovered;
  }

  async start(): Promise<void> {
    await this.recover();
    this.prepareThread();
    this.sweepTimer = setInterval(() => {
      this.sweepStale().catch((err) => this.log.error({ err }, "stale-job sweep failed"));
    }, this.config.heartbeatIntervalMs);
    this.sweepTimer.unref();
    this.unsubscribe = [
      this.store.onJobQueued(this.onSubmitted),
      this.store.onCancelRequested(this.onCancel),
    ];
    this.loopDone = this.loop();
  }

  /** Stops taking jobs; a job still running is handed back to the queue. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const stop of this.unsubscribe.splice(0)) stop();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.wake?.();
    if (this.current) await this.current.thread.terminate();
    this.stopWarming?.();
    await this.loopDone;
    await this.warming;
    await this.idleThread?.terminate();
    this.idleThread = null;
    // Handed back without using up an attempt's worth of patience: the job was not at fault.
    await this.store.recoverJobsOfWorkers(
      [this.id],
      new Date().toISOString(),
      this.takeBack.rule("workerExited", Infinity),
    );
  }

  /**
   * Starts a solver thread and warms it up (solver/warm-up.ts) to be the next job's, unless
   * one is kept or warming already: at start and after a job whose thread was let go. A cold
   * thread costs a job about half a second (loading and compiling the solver, the result
   * file's library, the kernel compiler): most of a small job's time. A thread that fails its
   * warm-up is dropped, and the next job starts its own (and meets the failure as a job error).
   */
  private prepareThread(): void {
    if (this.idleThread || this.warming || this.stopping) return;
    const thread = startSolverThread();
    thread.unref();
    const scratchPath = join(this.scratchDir, `warm-up.${scratchTag(this.id)}.h5`);
    const warmed = new Promise<boolean>((resolve) => {
      thread.on("message", (msg: ThreadMessage) => {
        if (msg.type === "warm") {
          this.log.info({ seconds: msg.seconds }, "solver thread warmed up");
          resolve(true);
        } else if (msg.type === "failed") {
          this.log.warn({ detail: msg.message }, "solver thread warm-up failed");
          resolve(false);
        }
      });
      thread.once("error", (err) => {
        this.log.warn({ err }, "solver thread warm-up failed");
        resolve(false);
      });
      thread.once("exit", () => resolve(false));
      // A warm-up that hangs (a GPU driver, say) must not keep the worker from its jobs.
      this.stopWarming = () => resolve(false);
    });
    const limit = setTimeout(() => {
      this.log.warn({ ms: WARM_UP_LIMIT_MS }, "solver thread warm-up took too long");
      this.stopWarming?.();
    }, WARM_UP_LIMIT_MS);
    thread.postMessage({ type: "warm", warm: { backend: this.config.solverBackend, scratchPath } });
    this.warming = warmed.then(async (ok) => {
      clearTimeout(limit);
      this.stopWarming = null;
      thread.removeAllListeners("message");
      thread.removeAllListeners("error");
      thread.removeAllListeners("exit");
      if (ok && !this.stopping && !this.idleThread) this.idleThread = thread;
      else await thread.terminate();
      this.warming = null;
    });
  }

  /** Whether a solver thread is ready for the next job, once any warm-up under way is over. */
  async threadReady(): Promise<boolean> {
    await this.warming;
    return this.idleThread !== null;
  }

  private readonly onSubmitted = (): void => this.wake?.();

  private readonly onCancel = (jobId: string): void => {
    if (this.current?.jobId === jobId) this.current.cancel();
  };

  private async recoverDeadLocalWorkers(): Promise<void> {
    const dead = (await this.store.runningWorkerIds()).filter((id) => {
      const [host, pid] = id.split(":");
      return host === HOST && Number(pid) !== process.pid && !processAlive(Number(pid));
    });
    const out = await this.store.recoverJobsOfWorkers(
      dead,
      new Date().toISOString(),
      this.takeBack.rule("workerExited", this.config.maxAttempts),
    );
    if (out.requeued.length + out.failed.length > 0) {
      this.log.warn(out, "took back jobs of workers that exited");
    }
  }

  private async sweepStale(): Promise<void> {
    const now = Date.now();
    const out = await this.store.recoverStaleJobs(
      new Date(now).toISOString(),
      new Date(now - this.config.heartbeatStaleMs).toISOString(),
      this.takeBack.rule("workerSilent", this.config.maxAttempts),
    );
    if (out.requeued.length + out.failed.length > 0) {
      this.log.warn(out, "took back jobs whose worker stopped heartbeating");
      if (out.requeued.length > 0) this.wake?.();
    }
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      // Claim only with a solver thread ready: a claimed job kept waiting for the warm-up would
      // have no heartbeat, and could be taken for a dead worker's.
      if (this.warming) {
        await this.warming;
        continue;
      }
      let job: JobRow | null = null;
      try {
        job = await this.store.claimNextJob(this.id, new Date().toISOString());
      } catch (err) {
        this.log.error({ err }, "claiming a job failed");
      }
      if (job) {
        await this.runJob(job).catch((err) =>
          this.log.error({ err, jobId: job.jobId }, "job run failed unexpectedly"),
        );
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.config.pollIntervalMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /**
   * Stores a verified result file and marks the job COMPLETED. Throws StoringFailed when the
   * file could not be stored intact (worth another attempt); a stored file whose completion
   * could not be recorded is removed again, so nothing is left that no job points to.
   */
  private async finishCompleted(
    job: JobRow,
    outPath: string,
    seconds: number,
    report: SolverReport,
  ): Promise<void> {
    const checksum = await sha256File(outPath);
    const localBytes = (await stat(outPath)).size;
    // One key per attempt: a worker that lost its job (and may finish late) never overwrites
    // or deletes the file of the attempt that completed it.
    const key = `${job.jobId}-${job.attempts}.h5`;
    let stored: StoredObject;
    try {
      stored = await this.storage.putFile(key, outPath);
    } catch (err) {
      await this.storage.delete(key).catch(() => undefined);
      throw new StoringFailed(`putting the result into storage failed: ${(err as Error).message}`);
    }
    if (stored.bytes !== localBytes) {
      await this.storage.delete(key).catch(() => undefined);
      throw new StoringFailed(`storage holds ${stored.bytes} bytes of a ${localBytes}-byte file`);
    }
    const rate = report.mcells_per_second;
    let ok: boolean;
    try {
      ok = await this.store.completeJob(job.jobId, this.id, new Date().toISOString(), {
        resultKey: stored.key,
        resultBytes: stored.bytes,
        checksum,
        durationSeconds: seconds,
        report,
        progress: {
          phase: "stepping",
          setupFraction: 1,
          step: report.steps_run,
          totalSteps: report.time_steps_limit,
          fraction: 1,
          lastRelativeChange: report.last_relative_change,
          mcellsPerSecond: rate,
        },
      });
    } catch (err) {
      // E.g. the database's disk is full: no job points to the file, so it must not stay.
      await this.storage.delete(stored.key).catch(() => undefined);
      throw err;
    }
    if (ok) {
      this.runs?.noteRun({
        cells: report.cells,
        surfaceCells: surfaceCells(JSON.parse(job.specJson) as SimulationSpec),
        steps: report.steps_run,
        steppingSeconds: report.stepping_seconds ?? 0,
        setupSeconds: report.setup_seconds ?? 0,
      });
      this.metrics?.jobFinished("COMPLETED", seconds, rate);
      this.log.info({ jobId: job.jobId, seconds, mcellsPerSecond: rate }, "job completed");
    } else {
      await this.storage.delete(stored.key);
      this.log.warn({ jobId: job.jobId }, "job was taken back before it completed");
    }
  }

  /** Another attempt for a run whose result could not be stored, or FAILED after the last. */
  private async retryAfterStorageFailure(job: JobRow, seconds: number): Promise<void> {
    const out = await this.store.retryJob(
      job.jobId,
      this.id,
      new Date().toISOString(),
      this.takeBack.rule("resultNotStored", this.config.maxAttempts),
    );
    if (out.failed.length > 0) this.metrics?.jobFinished("FAILED", seconds, null);
    this.log.warn({ jobId: job.jobId, ...out }, "result not stored; job retried or failed");
  }

  /** Scratch files of processes on this host that no longer run (they died mid-write). */
  private async removeDeadScratchFiles(): Promise<void> {
    for (const name of await readdir(this.scratchDir)) {
      const m = /\.([^.]+)_(\d+)_[0-9a-f]+\.h5$/.exec(name);
      if (m && m[1] === HOST.replace(/[^A-Za-z0-9-]/g, "-") && !processAlive(Number(m[2]))) {
        await rm(join(this.scratchDir, name), { force: true });
      }
    }
  }

  private async runJob(job: JobRow): Promise<void> {
    const started = Date.now();
    const outPath = join(this.scratchDir, `${job.jobId}.${scratchTag(this.id)}.h5`);
    this.log.info({ jobId: job.jobId, attempt: job.attempts }, "job started");
    let progress: JobProgress | null = null;
    let progressDirty = false;

    const input: ThreadInput = {
      jobId: job.jobId,
      specJson: job.specJson,
      outPath,
      threads: this.config.solverThreads,
      backend: this.config.solverBackend,
    };
    // The thread of the previous job, if it ended cleanly: a small job then skips the ≈ 0.4 s
    // of loading the solver and compiling kernels that a fresh thread costs.
    // Else the one warmed up since (the loop waits for it), or, where that failed, a new one.
    const thread = this.idleThread ?? startSolverThread();
    thread.ref();
    this.idleThread = null;
    thread.postMessage({ type: "run", input });
    let cancelTimer: NodeJS.Timeout | null = null;
    let cancelForced = false;
    const cancel = (): void => {
      thread.postMessage({ type: "cancel" });
      cancelTimer ??= setTimeout(() => {
        cancelForced = true;
        void thread.terminate();
      }, CANCEL_GRACE_MS);
    };
    this.current = { jobId: job.jobId, thread, cancel };

    // Watchdog: the solver reports progress at least every half second while it steps; a
    // thread silent for solverStallMs is stuck (a deadlock would otherwise hold the job
    // RUNNING forever while this process keeps heartbeating for it).
    let lastProgressAt = Date.now();
    let stalled = false;
    let lost = false;
    const beat = async (): Promise<void> => {
      if (Date.now() - lastProgressAt > this.config.solverStallMs) {
        stalled = true;
        await thread.terminate();
        return;
      }
      const answer = await this.store.heartbeat(
        job.jobId,
        this.id,
        new Date().toISOString(),
        progressDirty ? progress : null,
      );
      progressDirty = false;
      if (answer === null) {
        // The job is no longer ours (taken back as stale); stop computing it.
        this.log.warn({ jobId: job.jobId }, "lost the job; stopping its run");
        lost = true;
        await thread.terminate();
      } else if (answer.cancelRequested) {
        cancel();
      }
    };
    const heartbeat = setInterval(() => {
      beat().catch((err) => this.log.error({ err }, "heartbeat failed"));
    }, this.config.heartbeatIntervalMs);

    type Outcome =
      | Exclude<ThreadMessage, { type: "progress" } | { type: "warm" }>
      | { type: "exited"; code: number; error?: Error };
    let onMessage: (msg: ThreadMessage) => void = () => undefined;
    let onError: (error: Error) => void = () => undefined;
    let onExit: (code: number) => void = () => undefined;
    const outcome = await new Promise<Outcome>((resolve) => {
      let settled = false;
      const settle = (v: Outcome) => {
        if (!settled) {
          settled = true;
          resolve(v);
        }
      };
      onMessage = (msg: ThreadMessage) => {
        if (msg.type === "progress") {
          progress = {
            phase: msg.phase,
            setupFraction: msg.setupFraction,
            step: msg.step,
            totalSteps: msg.totalSteps,
            fraction: msg.fraction,
            lastRelativeChange: msg.lastRelativeChange,
            mcellsPerSecond: msg.mcellsPerSecond,
          };
          progressDirty = true;
          lastProgressAt = Date.now();
        } else if (msg.type !== "warm") settle(msg);
      };
      onError = (error: Error) => settle({ type: "exited", code: -1, error });
      onExit = (code: number) => settle({ type: "exited", code });
      thread.on("message", onMessage);
      thread.on("error", onError);
      thread.on("exit", onExit);
    });
    thread.off("message", onMessage);
    thread.off("error", onError);
    thread.off("exit", onExit);
    clearInterval(heartbeat);
    if (cancelTimer) clearTimeout(cancelTimer);
    this.current = null;
    // The thread of a small job that completed is kept for the next job: for such jobs the
    // thread's start is most of the cost. One that was stopped (a forced cancel, a stall, a
    // lost job, a crash), that failed, or that held a large grid (whose memory it should give
    // back) is not, nor is any thread of a stopping worker.
    const clean =
      outcome.type === "done" &&
      outcome.report.cells <= REUSE_THREAD_MAX_CELLS &&
      !cancelForced &&
      !stalled &&
      !lost &&
      !this.stopping;
    if (clean) {
      // An idle thread must not keep the process alive on its own.
      thread.unref();
      this.idleThread = thread;
    } else {
      await thread.terminate();
      this.prepareThread();
    }
    const seconds = (Date.now() - started) / 1000;
    const now = () => new Date().toISOString();
    // A failed or retried job's partial file goes before the store hears of it, so nobody who
    // sees the job FAILED (or QUEUED again) finds the file still there; `finally` covers the rest.
    const discardScratch = () => rm(outPath, { force: true });

    try {
      if (outcome.type === "done") {
        try {
          await this.finishCompleted(job, outPath, seconds, outcome.report);
        } catch (err) {
          // The cause (with the server's paths) goes to the log only.
          this.log.error({ err, jobId: job.jobId }, "storing a result failed");
          if (err instanceof StoringFailed) {
            await discardScratch();
            await this.retryAfterStorageFailure(job, seconds);
          }
          // Otherwise the database refused the completion (e.g. its disk is full): the job
          // stays RUNNING without heartbeats, and the stale-job sweep takes it back once the
          // database accepts writes again.
        }
        return;
      }
      if (outcome.type === "failed" && outcome.kind === "storage") {
        this.log.error({ jobId: job.jobId, cause: outcome.message }, "writing a result failed");
        await discardScratch();
        await this.retryAfterStorageFailure(job, seconds);
        return;
      }
      let detail: string;
      const reached = progress as JobProgress | null;
      if (outcome.type === "failed" && outcome.kind === "cancelled") {
        const total = reached?.totalSteps ?? 0;
        detail =
          reached?.phase === "setup"
            ? "Cancelled by the user while the run was being set up."
            : `Cancelled by the user at time step ${outcome.step}${total ? ` of ${total}` : ""}.`;
      } else if (outcome.type === "exited" && cancelForced) {
        detail = reached
          ? `Cancelled by the user at time step ${reached.step} of ${reached.totalSteps}.`
          : "Cancelled by the user while the run was being set up.";
      } else if (outcome.type === "failed" && outcome.kind === "diverged") {
        detail = outcome.message;
      } else if (outcome.type === "failed") {
        // An unexpected solver exception is a bug of ours: its message may name server paths,
        // so the user gets the job id to report and the log gets the cause.
        this.log.error({ jobId: job.jobId, cause: outcome.message }, "solver failed");
        detail = `The solver failed with an internal error; report job ${job.jobId} to the operators.`;
      } else if (stalled) {
        detail = `The solver made no progress for ${Math.round(this.config.solverStallMs / 1000)} s and was stopped; report job ${job.jobId} to the operators.`;
      } else if (this.stopping) {
        return; // stop() hands the job back to the queue
      } else {
        if (outcome.error) {
          this.log.error({ jobId: job.jobId, err: outcome.error }, "solver thread crashed");
        }
        detail = outcome.error
          ? `The solver thread crashed; report job ${job.jobId} to the operators.`
          : `The solver thread exited unexpectedly (exit code ${outcome.code}); the run may have needed more memory than the worker has.`;
      }
      await discardScratch();
      const failed = await this.store.failJob(job.jobId, this.id, now(), detail, seconds);
      if (failed) this.metrics?.jobFinished("FAILED", seconds, null);
      this.log.info({ jobId: job.jobId, detail }, "job failed");
    } finally {
      await discardScratch();
    }
  }
}
