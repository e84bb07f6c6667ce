/**
 * Rows of the hot read paths, kept while the database has not changed.
 *
 * Every authenticated request looks up its API key, and a polling client reads its job over
 * and over; served from SQLite that is two statements per request (≈4 and ≈7 µs here, each
 * with two fcntl locks and a stat), and with the socket write they dominated a status GET
 * (bench/api.ts: 0.26 × the bare route).
 *
 * The cache is exact, not timed. It is dropped whenever either counter differs from when it
 * was filled:
 *   - `PRAGMA data_version` changes when any *other* connection commits: another server
 *     process, the CLI revoking a key, a worker process (≈2–4 µs: it takes a read lock);
 *   - `total_changes()` counts the rows this connection itself has written (≈0.05 µs).
 * So a revocation or a job update made anywhere is seen by the next request, as without the
 * cache. A commit between the counters' read and a row's read only makes the row newer than
 * the counters, and the next check drops it.
 *
 * A request's reads share one `data_version` check through a ReadScope: once a read made
 * for the request has checked it (after the request arrived), every cached row is at least
 * as new as that moment, so later reads of the same request need only `total_changes()`
 * (which still catches the request's own writes, e.g. a cancel followed by a read).
 *
 * Cached values are shared between callers: treat them as read-only.
 */
import type Database from "better-sqlite3";
import type { ReadScope } from "../types.js";

export interface ReadCacheLimits {
  /** Entries at most. */
  maxEntries: number;
  /** Approximate bytes at most (a job row holds its request and spec, up to the body limit each). */
  maxBytes: number;
}

/** The cache starts over when either limit would be passed: a burst, not a leak. */
const DEFAULT_LIMITS: ReadCacheLimits = { maxEntries: 10_000, maxBytes: 64 * 1024 * 1024 };

export class SqliteReadCache {
  private readonly dataVersion: Database.Statement;
  private readonly totalChanges: Database.Statement;
  private version = -1;
  private changes = -1;
  private readonly entries = new Map<string, unknown>();
  private bytes = 0;

  constructor(
    db: Database.Database,
    private readonly limits: ReadCacheLimits = DEFAULT_LIMITS,
  ) {
    this.dataVersion = db.prepare("PRAGMA data_version").pluck();
    this.totalChanges = db.prepare("SELECT total_changes()").pluck();
  }

  /**
   * The value read for `key` since the database last changed, else `read()`'s, kept unless
   * it is null (misses are not kept: they are rare for real clients and cheap to spray) or
   * larger than the whole budget. `scope`: the request this read is for (see above); without
   * one the read checks both counters. `bytesOf`: the value's approximate size.
   */
  get<T>(
    key: string,
    read: () => T | null,
    scope: ReadScope | undefined,
    bytesOf: (value: T) => number,
  ): T | null {
    const changes = this.totalChanges.get() as number;
    const version = scope?.confirmed ? this.version : (this.dataVersion.get() as number);
    if (scope) scope.confirmed = true;
    if (version !== this.version || changes !== this.changes) {
      this.clear();
      this.version = version;
      this.changes = changes;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit as T;
    const value = read();
    if (value === null) return null;
    const size = bytesOf(value);
    if (size > this.limits.maxBytes) return value;
    if (this.entries.size >= this.limits.maxEntries || this.bytes + size > this.limits.maxBytes) {
      this.clear();
    }
    this.entries.set(key, value);
    this.bytes += size;
    return value;
  }

  private clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
