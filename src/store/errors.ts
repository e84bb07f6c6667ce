/**
 * Failures of the database itself (as opposed to a row that is missing), told apart so that
 * the API can answer 503 "nothing was stored, try again" instead of 500. The HTTP layer asks
 * `storeUnavailability`; only this module knows the drivers' error codes.
 */

export type StoreUnavailability = "full" | "unavailable";

/** SQLite result codes (better-sqlite3 puts the extended code in `err.code`). */
const SQLITE_FULL = /^SQLITE_FULL/;
const SQLITE_UNAVAILABLE = /^SQLITE_(IOERR|READONLY|CANTOPEN|BUSY|LOCKED|PROTOCOL|CORRUPT|NOTADB)/;

/** "full" when the database's disk is full, "unavailable" when it cannot be used now. */
export function storeUnavailability(err: unknown): StoreUnavailability | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return null;
  if (SQLITE_FULL.test(code)) return "full";
  if (SQLITE_UNAVAILABLE.test(code)) return "unavailable";
  return null;
}
