/**
 * Taking back the jobs of workers that went silent: a RUNNING job whose heartbeat is older than
 * EMSIM_HEARTBEAT_STALE_MS goes back to QUEUED, or FAILED after its last attempt (the job
 * lifecycle's rule). Every worker sweeps so, every heartbeat interval; so does an API server
 * without an embedded worker (service.ts), so that a job whose separate worker died does not
 * show RUNNING for as long as no worker runs.
 *
 * While the database takes no writes (its server down, its disk full), no worker can beat:
 * every running job's heartbeat ages alike, and the first sweep after the outage would take
 * back every job still running, each to be run again from the start. So a sweeper that saw
 * the outage (a sweep of its own failed for it) counts a heartbeat as stale only where it was
 * stale before the outage began, until live workers have had the stale time to beat again. A
 * sweeper that has just started cannot tell when an outage it did not see began (a server
 * restarted as the database came back sweeps before it listens): for its first stale time it
 * takes back no job for its heartbeat (a dead worker of this host is told by its process,
 * worker.ts), and a remote dead worker's job waits that much longer.
 */
import type { Config } from "../config.js";
import { storeUnavailability } from "../store/errors.js";
import type { JobQueue, RecoveryRule, StaleJobsOutcome } from "../store/types.js";
import type { WorkerLogger } from "./logger.js";
import { OutageLog } from "./outage-log.js";

type SweepConfig = Pick<Config, "heartbeatStaleMs" | "heartbeatIntervalMs">;

/** One sweeper: its sweeps, and what it saw of the database's outages. */
export class SilentWorkerSweep {
  /**
   * While an outage or its aftermath lasts, the heartbeat time before which a job may still be
   * taken back: the stale time before the first sweep that failed for it (a live worker beat
   * at most an interval before the outage began, and so less than two before that sweep; the
   * stale time is several intervals), 0 for an outage of unknown start (the one this sweeper
   * may have started after: no heartbeat is older). Null otherwise.
   */
  private staleCap: number | null = 0;
  /** When a sweep first succeeded after that outage (or this sweeper started); null in it. */
  private backAt: number | null;

  constructor(
    private readonly store: JobQueue,
    private readonly config: SweepConfig,
    private readonly rule: RecoveryRule,
    private readonly log: WorkerLogger,
    private readonly clock: () => number = Date.now,
  ) {
    this.backAt = clock();
  }

  /** One sweep; logs what it took back. Throws what the store threw. */
  async sweep(): Promise<StaleJobsOutcome> {
    const now = this.clock();
    const staleBefore = this.staleBefore(now);
    let out: StaleJobsOutcome;
    try {
      out = await this.store.recoverStaleJobs(
        new Date(now).toISOString(),
        new Date(staleBefore).toISOString(),
        this.rule,
      );
    } catch (err) {
      if (storeUnavailability(err)) {
        this.staleCap ??= now - this.config.heartbeatStaleMs;
        this.backAt = null;
      }
      throw err;
    }
    if (this.staleCap !== null) this.backAt ??= now;
    if (out.requeued.length + out.failed.length > 0) {
      this.log.warn(out, "took back jobs whose worker stopped heartbeating");
    }
    return out;
  }

  /** The heartbeat time before which a job counts as its worker's left. */
  private staleBefore(now: number): number {
    const usual = now - this.config.heartbeatStaleMs;
    if (this.staleCap === null) return usual;
    if (this.backAt !== null && now >= this.backAt + this.config.heartbeatStaleMs) {
      this.staleCap = this.backAt = null;
      return usual;
    }
    return Math.min(usual, this.staleCap);
  }
}

/** Sweeps every heartbeat interval until the returned function is called. */
export function sweepSilentWorkers(
  store: JobQueue,
  config: SweepConfig,
  rule: RecoveryRule,
  log: WorkerLogger,
): () => void {
  const sweeper = new SilentWorkerSweep(store, config, rule, log);
  const failures = new OutageLog(log);
  const timer = setInterval(() => {
    sweeper.sweep().catch((err: unknown) => failures.error(err, "stale-job sweep failed"));
  }, config.heartbeatIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
