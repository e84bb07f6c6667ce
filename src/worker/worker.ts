/**
 * A job worker: claims the oldest QUEUED job, runs it in a solver thread (solver-threads.ts,
 * solver-session.ts), reads what the run came to (run-outcome.ts), then stores the result file
 * with its SHA-256 and completes the job, retries it, or fails it in the lifecycle's words. It
 * also takes back jobs whose worker died: at start, those of dead processes on this host at
 * once; always, those whose heartbeat went stale.
 */
import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Config } from "../config.js";
import type { SolverReport } from "../schema/responses.js";
import { estimateRun, resolvedChoice, StopFlag, type SimulationSpec } from "../solver/index.js";
import { storageOutage } from "../storage/errors.js";
import type { StorageBackend, StoredObject } from "../storage/types.js";
import { storeUnavailability } from "../store/errors.js";
import type { JobCompletion, JobQueue, JobRow, RecoveryRule } from "../store/types.js";
import type { WorkerLogger } from "./logger.js";
import { OutageLog } from "./outage-log.js";
import { classifyRun, type RunFailureWords, type RunOutcome } from "./run-outcome.js";
import { SilentWorkerSweep } from "./silent-workers.js";
import { SolverSession } from "./solver-session.js";
import { keepsThread, SolverThreads } from "./solver-threads.js";
import { endThread } from "./thread-ending.js";

export type { WorkerLogger } from "./logger.js";

/** A completed run's size and times, for whoever estimates run times (jobs/timing.ts). */
export interface RunObserver {
  noteRun(run: {
    cells: number;
    /** Cells the structures' surfaces cross (solver/surface.ts). */
    surfaceCells: number;
    /** Cells of the absorber, and the set-up's mode solves (solver/estimate.ts). */
    absorberCells: number;
    modeSolves: { cells: number; count: number }[];
    steps: number;
    steppingSeconds: number;
    setupSeconds: number;
  }): void;
}

/**
 * What the run-time estimates learn a completed job's cost from besides its cells (its
 * surface and absorber cells, its mode solves), or null where its spec cannot be sized: the
 * estimates then miss one run, and the job is not touched.
 */
function runSize(job: JobRow) {
  try {
    const e = estimateRun(JSON.parse(job.specJson) as SimulationSpec);
    return {
      surfaceCells: e.surfaceCells,
      absorberCells: e.absorberCells,
      modeSolves: e.modeSolves,
    };
  } catch {
    return null;
  }
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
  /** A job this worker hands back as it stops: requeued, the attempt not counted. */
  handBack(): RecoveryRule;
}

export interface WorkerMetrics {
  jobFinished(
    status: "COMPLETED" | "FAILED",
    seconds: number,
    mcellsPerSecond: number | null,
  ): void;
}

/** The result file could not be stored intact; the run deserves another attempt. */
class StoringFailed extends Error {}

const HOST = hostname();
/**
 * The first pause before a completion the database could not take, or a result the storage
 * could not take, is tried again.
 */
const FIRST_COMPLETION_RETRY_MS = 250;

/**
 * The storage key of a job's result from its attempt `attempt`. One key per attempt: a worker
 * that lost its job (and may finish late) never overwrites or deletes the file of the attempt
 * that completed it. (A job is lost only to a take-back that counts its attempt; a graceful
 * hand-back, whose number the next claim reuses, comes once its worker's run is settled.)
 */
function resultKey(jobId: string, attempt: number): string {
  return `${jobId}-${attempt}.h5`;
}

/** `host:pid:random` as a file-name part: `host_pid_random`, host reduced to [A-Za-z0-9-]. */
function scratchTag(workerId: string): string {
  const [host, pid, random] = workerId.split(":");
  return `${host!.replace(/[^A-Za-z0-9-]/g, "-")}_${pid}_${random}`;
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Removes a run's scratch file. A failed or retried job's partial file goes before the store
 * hears of it, so nobody who sees the job FAILED (or QUEUED again) finds the file still there;
 * whatever else a run leaves goes once it is settled.
 */
function discardScratch(outPath: string): Promise<void> {
  return rm(outPath, { force: true });
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
  /** What users read when a run fails (src/jobs/lifecycle.ts). */
  failureWords: RunFailureWords;
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
  private current: { jobId: string; session: SolverSession } | null = null;
  /** The job whose run has ended while its result is stored and recorded, and its last beat. */
  private settling: { jobId: string; beatenAt: number } | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void)[] = [];
  private readonly threads: SolverThreads;
  private recovered: Promise<void> | null = null;
  /** Dead workers' jobs still to take back: the database took no writes when it was tried. */
  private deadWorkersPending = false;

  private readonly store: JobQueue;
  private readonly storage: StorageBackend;
  private readonly scratchDir: string;
  private readonly takeBack: TakeBackRules;
  private readonly failureWords: RunFailureWords;
  private readonly runs: RunObserver | null;
  private readonly config: Config;
  private readonly log: WorkerLogger;
  /** Failures of the claim and the sweep, quieter while the database takes no writes. */
  private readonly outages: OutageLog;
  private readonly silentWorkers: SilentWorkerSweep;
  private readonly metrics: WorkerMetrics | null;

  constructor(parts: JobWorkerParts) {
    this.store = parts.store;
    this.storage = parts.storage;
    this.scratchDir = parts.scratchDir;
    this.takeBack = parts.takeBack;
    this.failureWords = parts.failureWords;
    this.runs = parts.runs ?? null;
    this.config = parts.config;
    this.log = parts.log;
    this.outages = new OutageLog(parts.log);
    this.silentWorkers = new SilentWorkerSweep(
      this.store,
      this.config,
      this.takeBack.rule("workerSilent", this.config.maxAttempts),
      this.log,
    );
    this.metrics = parts.metrics ?? null;
    const warmUpPath = join(this.scratchDir, `warm-up.${scratchTag(this.id)}.h5`);
    // `auto` as this process resolved it at start-up, so that no thread looks for a GPU
    // adapter it will not use (solver/backends.ts resolvedChoice).
    this.threads = new SolverThreads(
      resolvedChoice(this.config.solverBackend),
      this.config.solverThreads,
      this.config.solverWarmUp ? warmUpPath : null,
      this.log,
    );
  }

  /**
   * Takes back what dead workers left: their scratch files, the jobs of dead processes on this
   * host, jobs whose heartbeat went stale (none in this process's first stale time:
   * silent-workers.ts). A server calls this before it listens, so no request sees a job still
   * RUNNING for a process of this host that is gone; `start` calls it if nobody has. A
   * database that takes no writes now (its disk full) does not keep the server from starting:
   * the jobs are taken back by the sweep of a later heartbeat.
   */
  async recover(): Promise<void> {
    this.recovered ??= (async () => {
      await mkdir(this.scratchDir, { recursive: true, mode: 0o700 });
      await this.removeDeadScratchFiles();
      await this.takeBackDeadWorkersJobs();
    })();
    await this.recovered;
  }

  /** The jobs of dead local workers and stale ones; left pending while the database is full. */
  private async takeBackDeadWorkersJobs(): Promise<void> {
    try {
      await this.recoverDeadLocalWorkers();
      await this.sweepStale();
      this.deadWorkersPending = false;
    } catch (err) {
      if (!storeUnavailability(err)) throw err;
      if (!this.deadWorkersPending) {
        this.log.warn(
          { err },
          "dead workers' jobs could not be taken back (the database takes no writes); trying again every heartbeat",
        );
      }
      this.deadWorkersPending = true;
    }
  }

  async start(): Promise<void> {
    await this.recover();
    this.threads.prepare();
    this.sweepTimer = setInterval(() => {
      (this.deadWorkersPending ? this.takeBackDeadWorkersJobs() : this.sweepStale()).catch((err) =>
        this.outages.error(err, "stale-job sweep failed"),
      );
      // Not only at start: a worker of this host killed while writing leaves a partial file
      // (as big as a result) that would otherwise stay until a worker starts here again.
      this.removeDeadScratchFiles().catch((err) =>
        this.log.error({ err }, "removing dead workers' scratch files failed"),
      );
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
    this.threads.close();
    for (const stop of this.unsubscribe.splice(0)) stop();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.wake?.();
    if (this.current) await endThread(this.current.session.thread);
    this.threads.abandonWarmUp();
    await this.loopDone;
    await this.threads.terminateIdle();
    // Handed back without using up an attempt: the job was not at fault, and nothing crashed.
    // Only now, with this worker's run settled: the next claim may reuse the attempt's number
    // (and so its result key, resultKey), and nothing of this run may write to it.
    const out = await this.store.recoverJobsOfWorkers(
      [this.id],
      new Date().toISOString(),
      this.takeBack.handBack(),
      { waitForRows: true },
    );
    if (out.requeued.length > 0) {
      this.log.info(out, "stopping: handed the running job back to the queue");
    }
  }

  /** Whether a solver thread is ready for the next job, once any warm-up under way is over. */
  threadReady(): Promise<boolean> {
    return this.threads.ready();
  }

  private readonly onSubmitted = (): void => this.wake?.();

  private readonly onCancel = (jobId: string): void => {
    if (this.current?.jobId === jobId) this.current.session.cancel();
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
    // Our own job's heartbeat first where its last one is older than an interval: after a
    // spell in which the database took no writes (a full disk) it is as old as a dead
    // worker's, and the sweep must not take the job from us.
    const own = this.current
      ? { jobId: this.current.jobId, beatenAt: this.current.session.beatenAt }
      : this.settling;
    if (own && Date.now() - own.beatenAt > this.config.heartbeatIntervalMs) {
      await this.store.heartbeat(own.jobId, this.id, new Date().toISOString(), null);
    }
    const out = await this.silentWorkers.sweep();
    if (out.requeued.length > 0) this.wake?.();
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      // Claim only with a solver thread ready: a claimed job kept waiting for the warm-up would
      // have no heartbeat, and could be taken for a dead worker's.
      const warmingUp = this.threads.warmingUp;
      if (warmingUp) {
        await warmingUp;
        continue;
      }
      let job: JobRow | null = null;
      try {
        job = await this.store.claimNextJob(this.id, new Date().toISOString());
      } catch (err) {
        this.outages.error(err, "claiming a job failed");
      }
      if (job) {
        const answered = await this.answerFromTwin(job);
        if (!answered) {
          await this.runJob(job).catch((err) =>
            this.log.error({ err, jobId: job.jobId }, "job run failed unexpectedly"),
          );
        }
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
   * was refused is removed again, so nothing is left that no job points to (one whose
   * completion the database never answered stays: recordCompletion).
   */
  private async finishCompleted(
    job: JobRow,
    outPath: string,
    seconds: number,
    report: SolverReport,
  ): Promise<void> {
    const checksum = await sha256File(outPath);
    const stored = await this.putResultFile(job, outPath);
    // Before the completion, so that no reader of a COMPLETED job finds another attempt's file.
    await this.removeEarlierResults(job);
    const ok = await this.recordCompletion(job, stored, checksum, seconds, report);
    if (ok) {
      this.noteCompleted(job, seconds, report);
    } else {
      await this.storage.delete(stored.key);
      this.log.warn({ jobId: job.jobId }, "job was taken back before it completed");
    }
  }

  /**
   * Puts the result file into storage, whole; throws StoringFailed where it could not. While
   * the storage service does not answer, it is tried again (250 ms apart at first, doubling
   * up to the heartbeat interval, the job's heartbeats going on) for up to
   * EMSIM_STORAGE_OUTAGE_WAIT_MS, or until this worker stops: an outage of seconds no longer
   * costs the run, and one that lasts (a wrong endpoint) still ends in the job's attempts.
   */
  private async putResultFile(job: JobRow, outPath: string): Promise<StoredObject> {
    const giveUpAt = Date.now() + this.config.storageOutageWaitMs;
    for (let wait = FIRST_COMPLETION_RETRY_MS; ;) {
      try {
        return await this.putResultOnce(job, outPath);
      } catch (err) {
        const cause = err instanceof StoringFailed ? err.cause : null;
        if (!storageOutage(cause) || this.stopping || Date.now() + wait > giveUpAt) throw err;
        this.outages.error(cause, "storing a result failed; trying again", { jobId: job.jobId });
        await sleep(wait);
        wait = Math.min(2 * wait, this.config.heartbeatIntervalMs);
      }
    }
  }

  /** One try of putResultFile. */
  private async putResultOnce(job: JobRow, outPath: string): Promise<StoredObject> {
    const localBytes = (await stat(outPath)).size;
    const key = resultKey(job.jobId, job.attempts);
    let stored: StoredObject;
    try {
      stored = await this.storage.putFile(key, outPath);
    } catch (err) {
      await this.storage.delete(key).catch(() => undefined);
      throw new StoringFailed(`putting the result into storage failed: ${(err as Error).message}`, {
        cause: err,
      });
    }
    if (stored.bytes !== localBytes) {
      await this.storage.delete(key).catch(() => undefined);
      throw new StoringFailed(`storage holds ${stored.bytes} bytes of a ${localBytes}-byte file`);
    }
    return stored;
  }

  /**
   * Marks the job COMPLETED with its stored result; false where the job is no longer this
   * worker's. While the database takes no writes (its server down, its disk full), the
   * completion is tried again until it does, the job's heartbeats going on: the result is
   * stored, and a run of minutes is not made again for an outage of seconds. Where the
   * completion fails otherwise, or this worker stops first, the stored file is removed again
   * before the error goes on (no job points to it).
   */
  private async recordCompletion(
    job: JobRow,
    stored: StoredObject,
    checksum: string,
    seconds: number,
    report: SolverReport,
  ): Promise<boolean> {
    const completion: JobCompletion = {
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
        mcellsPerSecond: report.mcells_per_second,
      },
    };
    try {
      return await this.completeRetrying(job.jobId, stored.key, completion);
    } catch (err) {
      // Stopped while the database was unavailable, a try may have committed with its answer
      // lost: the file stays, for the job's record may point to it. If it does not, the job's
      // next attempt removes it when it completes (removeEarlierResults).
      if (!storeUnavailability(err)) await this.storage.delete(stored.key).catch(() => undefined);
      throw err;
    }
  }

  /**
   * `completeJob`, tried again while the database is unavailable or full and this worker
   * runs. A try whose connection was cut after its commit did complete the job: a retry that
   * finds it no longer RUNNING reads it back.
   */
  private async completeRetrying(
    jobId: string,
    key: string,
    completion: JobCompletion,
  ): Promise<boolean> {
    for (let wait = FIRST_COMPLETION_RETRY_MS, retried = false; ; retried = true) {
      try {
        const done = await this.store.completeJob(
          jobId,
          this.id,
          new Date().toISOString(),
          completion,
        );
        return done || (retried && (await this.completedWith(jobId, key)));
      } catch (err) {
        if (!storeUnavailability(err) || this.stopping) throw err;
        this.outages.error(err, "recording a completed job failed; trying again", { jobId });
        await sleep(wait);
        wait = Math.min(2 * wait, this.config.heartbeatIntervalMs);
      }
    }
  }

  /** Whether the job is COMPLETED with the result stored under `key`. */
  private async completedWith(jobId: string, key: string): Promise<boolean> {
    const row = await this.store.getJob(jobId);
    return row?.status === "COMPLETED" && row.resultKey === key;
  }

  /**
   * Removes what earlier attempts of a job about to complete may have stored: a worker that died
   * between storing its result and recording the completion left `<job>-<k>.h5`, which no job
   * points to (only a completion records a key, and this attempt's is `<job>-<attempts>.h5`).
   * A worker that lost the job and stores its file after this removes it itself, when its
   * completion is refused (finishCompleted). Failing to remove one leaves a file, nothing worse.
   */
  private async removeEarlierResults(job: JobRow): Promise<void> {
    for (let attempt = 1; attempt < job.attempts; attempt++) {
      await this.storage.delete(resultKey(job.jobId, attempt)).catch((err: unknown) => {
        this.log.warn(
          { err, jobId: job.jobId, attempt },
          "removing an earlier attempt's result failed",
        );
      });
    }
  }

  /** Tells the run-time estimates, the metrics and the log of a completed job. */
  private noteCompleted(job: JobRow, seconds: number, report: SolverReport): void {
    const rate = report.mcells_per_second;
    const sized = this.runs ? runSize(job) : null;
    if (sized) {
      this.runs?.noteRun({
        cells: report.cells,
        ...sized,
        steps: report.steps_run,
        steppingSeconds: report.stepping_seconds ?? 0,
        setupSeconds: report.setup_seconds ?? 0,
      });
    }
    this.metrics?.jobFinished("COMPLETED", seconds, rate);
    this.log.info({ jobId: job.jobId, seconds, mcellsPerSecond: rate }, "job completed");
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

  /**
   * Scratch files of processes on this host that no longer run (they died mid-write). A file
   * is told by its name's host and pid (scratchTag): workers sharing a scratch folder must
   * share the host's process ids too, or a live one's file could be taken for a dead one's.
   */
  private async removeDeadScratchFiles(): Promise<void> {
    for (const name of await readdir(this.scratchDir)) {
      const m = /\.([^.]+)_(\d+)_[0-9a-f]+\.h5$/.exec(name);
      if (m && m[1] === HOST.replace(/[^A-Za-z0-9-]/g, "-") && !processAlive(Number(m[2]))) {
        await rm(join(this.scratchDir, name), { force: true });
      }
    }
  }

  /**
   * Identical work runs once (DESIGN §11): a job whose canonical request equals one of the
   * account's COMPLETED jobs is completed with that job's stored result, no solver run, if that
   * result is still in storage as it was stored (a file deleted, or written where this
   * storage does not reach, would be handed on as lost). The lookup failing is no reason to
   * fail the job: it then runs.
   */
  private async answerFromTwin(job: JobRow): Promise<boolean> {
    try {
      const twin = await this.store.findCompletedTwin(job);
      if (!twin) return false;
      const stored = twin.resultKey ? await this.storage.stat(twin.resultKey) : null;
      if (!stored || stored.bytes !== twin.resultBytes) {
        this.log.warn(
          { jobId: job.jobId, twin: twin.jobId, key: twin.resultKey },
          "an identical job's result is not in storage as it was stored: the job runs",
        );
        return false;
      }
      const done = await this.store.completeFromTwin(
        job.jobId,
        this.id,
        new Date().toISOString(),
        twin,
      );
      if (done)
        this.log.info(
          { jobId: job.jobId, reused: twin.jobId },
          "job answered from an identical job's result",
        );
      return true;
    } catch (err) {
      this.log.warn({ err, jobId: job.jobId }, "looking for an identical completed job failed");
      return false;
    }
  }

  /**
   * One job: its run in a solver thread, the thread kept or replaced, then the job settled as
   * the run came to. The scratch file never outlives the run.
   */
  private async runJob(job: JobRow): Promise<void> {
    const started = Date.now();
    const outPath = join(this.scratchDir, `${job.jobId}.${scratchTag(this.id)}.h5`);
    this.log.info({ jobId: job.jobId, attempt: job.attempts }, "job started");
    const session = this.startSession(job, outPath);
    const end = await session.ended;
    this.current = null;
    await this.threads.release(session.thread, keepsThread(end));
    const seconds = (Date.now() - started) / 1000;
    const stopBeating = this.beatWhileSettling(job.jobId);
    try {
      const outcome = classifyRun(end, this.config.solverStallMs, this.stopping);
      await this.settleRun(job, outPath, seconds, outcome);
    } finally {
      stopBeating();
      await discardScratch(outPath);
    }
  }

  /**
   * Heartbeats for a job whose run has ended while it is settled: its result checksummed,
   * stored (slow storage or a large file takes a while) and recorded. Without them the job
   * looked like a dead worker's, and the stale-job sweep ran it again; after a spell in which
   * they failed (a full disk), sweepStale beats for it before it sweeps, as for a running job.
   */
  private beatWhileSettling(jobId: string): () => void {
    const settling = { jobId, beatenAt: Date.now() };
    this.settling = settling;
    const beat = () =>
      this.store
        .heartbeat(jobId, this.id, new Date().toISOString(), null)
        .then(() => (settling.beatenAt = Date.now()))
        .catch((err) =>
          this.outages.error(err, "a heartbeat while storing the result failed", { jobId }),
        );
    void beat();
    const timer = setInterval(beat, this.config.heartbeatIntervalMs);
    return () => {
      clearInterval(timer);
      if (this.settling === settling) this.settling = null;
    };
  }

  /** Hands the job to a solver thread, heartbeating for it while it runs. */
  private startSession(job: JobRow, outPath: string): SolverSession {
    const input = {
      jobId: job.jobId,
      specJson: job.specJson,
      outPath,
      threads: this.config.solverThreads,
      backend: this.threads.backend,
      stop: new StopFlag().buffer,
    };
    const session = new SolverSession(this.threads.take(), input, {
      heartbeatIntervalMs: this.config.heartbeatIntervalMs,
      solverStallMs: this.config.solverStallMs,
      heartbeat: (progress) =>
        this.store.heartbeat(job.jobId, this.id, new Date().toISOString(), progress),
      log: this.log,
    });
    this.current = { jobId: job.jobId, session };
    return session;
  }

  /** Completes, retries, hands back or fails the job, as its run came to. */
  private async settleRun(
    job: JobRow,
    outPath: string,
    seconds: number,
    outcome: RunOutcome,
  ): Promise<void> {
    switch (outcome.kind) {
      case "completed":
        return this.completeOrRetry(job, outPath, seconds, outcome.report);
      case "resultNotWritten":
        this.log.error({ jobId: job.jobId, cause: outcome.cause }, "writing a result failed");
        await discardScratch(outPath);
        return this.retryAfterStorageFailure(job, seconds);
      case "handedBack":
        return; // stop() hands the job back to the queue
      case "failed":
        return this.failRun(job, outPath, seconds, outcome);
    }
  }

  /** Completes the job with its result, or retries it when the result could not be stored. */
  private async completeOrRetry(
    job: JobRow,
    outPath: string,
    seconds: number,
    report: SolverReport,
  ): Promise<void> {
    try {
      await this.finishCompleted(job, outPath, seconds, report);
    } catch (err) {
      // The cause (with the server's paths) goes to the log only.
      this.log.error({ err, jobId: job.jobId }, "storing a result failed");
      if (err instanceof StoringFailed) {
        await discardScratch(outPath);
        // A worker stopping meanwhile hands the job back (stop), using up no attempt.
        if (!this.stopping) await this.retryAfterStorageFailure(job, seconds);
      }
      // Otherwise the database refused the completion for good, or stayed unusable until
      // this worker stopped: the job stays RUNNING without heartbeats, and the stale-job sweep
      // takes it back once the database accepts writes again.
    }
  }

  /** Marks the job FAILED, saying why in the lifecycle's words. */
  private async failRun(
    job: JobRow,
    outPath: string,
    seconds: number,
    outcome: RunOutcome & { kind: "failed" },
  ): Promise<void> {
    if (outcome.fault) {
      this.log.error({ jobId: job.jobId, ...outcome.fault.fields }, outcome.fault.msg);
    }
    const detail = this.failureWords.detail(outcome.failure, job.jobId);
    await discardScratch(outPath);
    const now = new Date().toISOString();
    const failed = await this.store.failJob(
      job.jobId,
      this.id,
      now,
      detail,
      seconds,
      outcome.reached,
    );
    if (failed) this.metrics?.jobFinished("FAILED", seconds, null);
    this.log.info({ jobId: job.jobId, detail }, "job failed");
  }
}
