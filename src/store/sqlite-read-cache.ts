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
import type { ReadScope } from "./types.js";

/** Entries at most; the cache starts over when full (a burst of distinct ids, not a leak). */
const MAX_ENTRIES = 10_000;

export class SqliteReadCache {
  private readonly dataVersion: Database.Statement;
  private readonly totalChanges: Database.Statement;
  private version = -1;
  private changes = -1;
  private readonly entries = new Map<string, unknown>();

  constructor(db: Database.Database) {
    this.dataVersion = db.prepare("PRAGMA data_version").pluck();
    this.totalChanges = db.prepare("SELECT total_changes()").pluck();
  }

  /**
   * The value read for `key` since the database last changed, else `read()`'s, kept unless
   * it is null (misses are not kept: they are rare for real clients and cheap to spray).
   * `scope`: the request this read is for (see above); without one the read checks both
   * counters.
   */
  get<T>(key: string, read: () => T | null, scope?: ReadScope): T | null {
    const changes = this.totalChanges.get() as number;
    const version = scope?.confirmed ? this.version : (this.dataVersion.get() as number);
    if (scope) scope.confirmed = true;
    if (version !== this.version || changes !== this.changes) {
      this.entries.clear();
      this.version = version;
      this.changes = changes;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit as T;
    const value = read();
    if (value !== null) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }
}
