/**
 * A worker's solver threads: starts them, warms a fresh one up for the next job, and keeps the
 * thread of a small job that ended cleanly for the one after. A cold thread costs a job about
 * half a second (loading and compiling the solver, the result file's library, the kernel
 * compiler): most of a small job's time.
 */
import type { Worker } from "node:worker_threads";
import { siblingModule, type BackendChoice } from "../solver/index.js";
import type { WorkerLogger } from "./logger.js";
import type { SessionEnd } from "./solver-session.js";
import { endThread, startSolverThreadAt } from "./thread-ending.js";
import type { ThreadMessage } from "./thread-protocol.js";

/** Grids up to this many cells leave their solver thread running for the next job. */
const REUSE_THREAD_MAX_CELLS = 4_000_000;

/**
 * How long a fresh solver thread's warm-up may take (it takes about half a second) before it
 * is given up, and the next job starts a thread of its own.
 */
const WARM_UP_LIMIT_MS = 60_000;

/** Solver threads load TypeScript sources under tsx in development and tests. */
const THREAD_URL = siblingModule("solver-thread", import.meta.url);

/** Starts the solver thread (under tsx too: solver/module-thread.ts). */
function startSolverThread(): Worker {
  return startSolverThreadAt(THREAD_URL);
}

/**
 * Whether a session's thread may serve the next job. The thread of a small job that completed
 * is kept: for such jobs the thread's start is most of the cost. One that was stopped (a
 * forced cancel, a stall, a lost job, a crash), that failed, or that held a large grid (whose
 * memory it should give back) is not.
 */
export function keepsThread(end: SessionEnd): boolean {
  return (
    end.answer.type === "done" &&
    end.answer.report.cells <= REUSE_THREAD_MAX_CELLS &&
    !end.cancelForced &&
    !end.stalled &&
    !end.lost
  );
}

export class SolverThreads {
  /** The solver thread of the last job that ended cleanly, kept for the next one. */
  private idle: Worker | null = null;
  /** A fresh solver thread being warmed up for the next job (prepare). */
  private warming: Promise<void> | null = null;
  /** Ends the warm-up under way as failed (its thread is then terminated). */
  private stopWarming: (() => void) | null = null;
  /** The worker is stopping: no thread is started, warmed up or kept any more. */
  private closed = false;

  constructor(
    /** The backend every thread runs, warm-up and jobs alike. */
    readonly backend: BackendChoice,
    /** The threads a job's solver gets: a warm-up starts and warms its kernel threads. */
    private readonly threads: number,
    /**
     * Where a warm-up writes (and deletes) its result file, a name of this worker's own; null
     * where fresh threads are not warmed up (EMSIM_SOLVER_WARM_UP=false).
     */
    private readonly warmUpPath: string | null,
    private readonly log: WorkerLogger,
  ) {}

  /** The warm-up under way, if any: the worker claims no job before it is over. */
  get warmingUp(): Promise<void> | null {
    return this.warming;
  }

  /** Whether a solver thread is ready for the next job, once any warm-up under way is over. */
  async ready(): Promise<boolean> {
    await this.warming;
    return this.idle !== null;
  }

  /**
   * Starts a solver thread and warms it up (solver/warm-up.ts) to be the next job's, unless
   * one is kept or warming already: at start and after a job whose thread was let go. A thread
   * that fails its warm-up is dropped, and the next job starts its own (and meets the failure
   * as a job error); so does every job not on a kept thread where warm-ups are off.
   */
  prepare(): void {
    if (this.idle || this.warming || this.closed || this.warmUpPath === null) return;
    const thread = startSolverThread();
    thread.unref();
    const warmed = this.warmUp(thread);
    const limit = setTimeout(() => {
      this.log.warn({ ms: WARM_UP_LIMIT_MS }, "solver thread warm-up took too long");
      this.stopWarming?.();
    }, WARM_UP_LIMIT_MS);
    thread.postMessage({
      type: "warm",
      warm: { backend: this.backend, threads: this.threads, scratchPath: this.warmUpPath },
    });
    this.warming = warmed.then(async (ok) => {
      clearTimeout(limit);
      this.stopWarming = null;
      thread.removeAllListeners("message");
      thread.removeAllListeners("error");
      thread.removeAllListeners("exit");
      if (ok && !this.closed && !this.idle) this.idle = thread;
      else await endThread(thread);
      this.warming = null;
    });
  }

  /** Whether the thread's warm-up succeeded; false as well when it is given up. */
  private warmUp(thread: Worker): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
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
  }

  /**
   * The thread for the next job: the previous job's, if it ended cleanly (a small job then
   * skips the ≈ 0.4 s of loading the solver and compiling kernels that a fresh thread costs);
   * else the one warmed up since (the worker waits for it), or, where that failed, a new one.
   */
  take(): Worker {
    const thread = this.idle ?? startSolverThread();
    thread.ref();
    this.idle = null;
    return thread;
  }

  /** A job's thread once its session is over: kept for the next job, or ended and replaced. */
  async release(thread: Worker, keep: boolean): Promise<void> {
    if (keep && !this.closed) {
      // An idle thread must not keep the process alive on its own.
      thread.unref();
      this.idle = thread;
    } else {
      await endThread(thread);
      this.prepare();
    }
  }

  /** The worker is stopping: from now on no thread is started, warmed up or kept. */
  close(): void {
    this.closed = true;
  }

  /** Gives up the warm-up under way, if any. */
  abandonWarmUp(): void {
    this.stopWarming?.();
  }

  /** Ends the kept thread, once the warm-up under way (if any) is over. */
  async terminateIdle(): Promise<void> {
    await this.warming;
    if (this.idle) await endThread(this.idle);
    this.idle = null;
  }
}
