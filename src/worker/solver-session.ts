/**
 * One job's run in a solver thread: hands the thread the job, heartbeats for the job while it
 * runs (carrying progress and picking up cancellations), and stops the thread when it falls
 * silent (the watchdog), when the job is no longer this worker's, or when it has not stopped
 * within its grace after a cancellation. It ends with the thread's answer and how the thread
 * was stopped; what that means for the job is run-outcome.ts's to say.
 */
import type { Worker } from "node:worker_threads";
import type { JobProgress } from "../store/types.js";
import type { WorkerLogger } from "./logger.js";
import { OutageLog } from "./outage-log.js";
import { StopFlag } from "../solver/index.js";
import { endThread } from "./thread-ending.js";
import type { ThreadInput, ThreadMessage } from "./thread-protocol.js";

/**
 * How long a solver thread has to stop after a cancellation before it is terminated. The
 * solver checks for cancellation between slices of about 50 ms, painting included, and at
 * every Arnoldi step of its mode solves (the run's stop flag); what runs without a break
 * (kernel compile, a large grid's allocation, one LU factorisation) is shorter than this.
 */
const CANCEL_GRACE_MS = 5_000;

/** What the thread ended with: its answer to the run, or its exit (a crash, or terminated). */
export type ThreadEnd =
  | Exclude<ThreadMessage, { type: "progress" } | { type: "warm" }>
  | { type: "exited"; code: number; error?: Error };

/** How a session ended. */
export interface SessionEnd {
  answer: ThreadEnd;
  /** The last progress the thread reported; null when it reported none. */
  progress: JobProgress | null;
  /** The thread was terminated because it had not stopped within CANCEL_GRACE_MS of a cancel. */
  cancelForced: boolean;
  /** The watchdog terminated the thread: it reported no progress for solverStallMs. */
  stalled: boolean;
  /** The thread was terminated because the job was taken back from this worker. */
  lost: boolean;
}

export interface SessionOptions {
  heartbeatIntervalMs: number;
  solverStallMs: number;
  /**
   * Records that the job is alive, with its progress when that changed since the last beat;
   * answers null once the job is no longer this worker's.
   */
  heartbeat(progress: JobProgress | null): Promise<{ cancelRequested: boolean } | null>;
  log: WorkerLogger;
}

type ThreadListeners = {
  message: (msg: ThreadMessage) => void;
  error: (error: Error) => void;
  exit: (code: number) => void;
};

export class SolverSession {
  /** Settles once the thread has answered or exited, and the session has let go of it. */
  readonly ended: Promise<SessionEnd>;
  private progress: JobProgress | null = null;
  private progressDirty = false;
  private lastProgressAt: number;
  /** When the job's heartbeat was last recorded (the session's start before the first). */
  beatenAt = Date.now();
  private cancelTimer: NodeJS.Timeout | null = null;
  private cancelForced = false;
  private stalled = false;
  private lost = false;
  private over = false;

  constructor(
    /** The thread running the job; the worker keeps or ends it once the session is over. */
    readonly thread: Worker,
    private readonly input: ThreadInput,
    private readonly options: SessionOptions,
  ) {
    thread.postMessage({ type: "run", input });
    // Watchdog: the solver reports progress at least every half second while it steps; a
    // thread silent for solverStallMs is stuck (a deadlock would otherwise hold the job
    // RUNNING forever while this process keeps heartbeating for it).
    this.lastProgressAt = Date.now();
    const failures = new OutageLog(options.log);
    const heartbeat = setInterval(() => {
      this.beat().catch((err) => failures.error(err, "heartbeat failed", { jobId: input.jobId }));
    }, options.heartbeatIntervalMs);
    this.ended = this.awaitAnswer().then(({ answer, listeners }) => {
      this.letGo(listeners, heartbeat);
      return this.end(answer);
    });
  }

  /** The user asked to cancel the job: a no-op once the session is over. */
  cancel(): void {
    if (!this.over) this.requestCancel();
  }

  /** Asks the thread to stop, and terminates it if it has not within CANCEL_GRACE_MS. */
  private requestCancel(): void {
    // The flag reaches a solve that does not yield (mode solves); the message, the rest.
    new StopFlag(this.input.stop).request();
    this.thread.postMessage({ type: "cancel" });
    this.cancelTimer ??= setTimeout(() => {
      this.cancelForced = true;
      void endThread(this.thread);
    }, CANCEL_GRACE_MS);
  }

  /** One heartbeat: the watchdog's check, then the job's heartbeat and what it answers. */
  private async beat(): Promise<void> {
    if (Date.now() - this.lastProgressAt > this.options.solverStallMs) {
      this.stalled = true;
      await endThread(this.thread);
      return;
    }
    const answer = await this.options.heartbeat(this.progressDirty ? this.progress : null);
    this.progressDirty = false;
    if (answer !== null) this.beatenAt = Date.now();
    if (answer === null) {
      // The job is no longer ours (taken back as stale); stop computing it.
      this.options.log.warn({ jobId: this.input.jobId }, "lost the job; stopping its run");
      this.lost = true;
      await endThread(this.thread);
    } else if (answer.cancelRequested) {
      this.requestCancel();
    }
  }

  /** The thread's answer to the run (done or failed), or its exit, whichever comes first. */
  private awaitAnswer(): Promise<{ answer: ThreadEnd; listeners: ThreadListeners }> {
    return new Promise((resolve) => {
      const listeners: ThreadListeners = {
        message: (msg) => {
          if (msg.type === "progress") this.noteProgress(msg);
          else if (msg.type !== "warm") resolve({ answer: msg, listeners });
        },
        error: (error) => resolve({ answer: { type: "exited", code: -1, error }, listeners }),
        exit: (code) => resolve({ answer: { type: "exited", code }, listeners }),
      };
      this.thread.on("message", listeners.message);
      this.thread.on("error", listeners.error);
      this.thread.on("exit", listeners.exit);
    });
  }

  private noteProgress(msg: ThreadMessage & { type: "progress" }): void {
    this.progress = {
      phase: msg.phase,
      setupFraction: msg.setupFraction,
      step: msg.step,
      totalSteps: msg.totalSteps,
      fraction: msg.fraction,
      lastRelativeChange: msg.lastRelativeChange,
      mcellsPerSecond: msg.mcellsPerSecond,
    };
    this.progressDirty = true;
    this.lastProgressAt = Date.now();
  }

  /** Stops listening to the thread, heartbeating and waiting out a cancellation's grace. */
  private letGo(listeners: ThreadListeners, heartbeat: NodeJS.Timeout): void {
    this.thread.off("message", listeners.message);
    this.thread.off("error", listeners.error);
    this.thread.off("exit", listeners.exit);
    clearInterval(heartbeat);
    if (this.cancelTimer) clearTimeout(this.cancelTimer);
    this.over = true;
  }

  private end(answer: ThreadEnd): SessionEnd {
    const { progress, cancelForced, stalled, lost } = this;
    return { answer, progress, cancelForced, stalled, lost };
  }
}
