/**
 * Taking back the jobs of workers that went silent: a RUNNING job whose heartbeat is older than
 * EMSIM_HEARTBEAT_STALE_MS goes back to QUEUED, or FAILED after its last attempt (the job
 * lifecycle's rule). Every worker sweeps so, every heartbeat interval; so does an API server
 * without an embedded worker (service.ts), so that a job whose separate worker died does not
 * show RUNNING for as long as no worker runs.
 */
import type { Config } from "../config.js";
import type { JobQueue, RecoveryRule, StaleJobsOutcome } from "../store/types.js";
import type { WorkerLogger } from "./logger.js";
import { OutageLog } from "./outage-log.js";

/** One sweep; logs what it took back. */
export async function takeBackSilentWorkersJobs(
  store: JobQueue,
  config: Pick<Config, "heartbeatStaleMs">,
  rule: RecoveryRule,
  log: WorkerLogger,
): Promise<StaleJobsOutcome> {
  const now = Date.now();
  const out = await store.recoverStaleJobs(
    new Date(now).toISOString(),
    new Date(now - config.heartbeatStaleMs).toISOString(),
    rule,
  );
  if (out.requeued.length + out.failed.length > 0) {
    log.warn(out, "took back jobs whose worker stopped heartbeating");
  }
  return out;
}

/** Sweeps every heartbeat interval until the returned function is called. */
export function sweepSilentWorkers(
  store: JobQueue,
  config: Pick<Config, "heartbeatStaleMs" | "heartbeatIntervalMs">,
  rule: RecoveryRule,
  log: WorkerLogger,
): () => void {
  const failures = new OutageLog(log);
  const timer = setInterval(() => {
    takeBackSilentWorkersJobs(store, config, rule, log).catch((err: unknown) =>
      failures.error(err, "stale-job sweep failed"),
    );
  }, config.heartbeatIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
