/**
 * Logging the failures of a database that takes no writes (its disk full, its server gone):
 * such a failure repeats on every claim, heartbeat and sweep while it lasts, every second or
 * two, and a stack trace each time buried the log (and filled the disk faster where the log
 * shared it). Each message is logged as a warning, without the stack, once a minute while the
 * outage lasts; any other failure is logged as an error every time, as before.
 */
import { storeUnavailability } from "../store/errors.js";
import type { WorkerLogger } from "./logger.js";

const EVERY_MS = 60_000;

export class OutageLog {
  private readonly last = new Map<string, number>();

  constructor(
    private readonly log: WorkerLogger,
    private readonly everyMs = EVERY_MS,
  ) {}

  error(err: unknown, msg: string, fields: object = {}): void {
    const reason = storeUnavailability(err);
    if (!reason) {
      this.log.error({ err, ...fields }, msg);
      return;
    }
    const now = Date.now();
    if (now - (this.last.get(msg) ?? -Infinity) < this.everyMs) return;
    this.last.set(msg, now);
    this.log.warn(
      { ...fields, database: reason, detail: (err as Error).message },
      `${msg}: the database takes no writes now (said once a minute while it lasts)`,
    );
  }
}
