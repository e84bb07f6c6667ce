/**
 * Failures of the database itself (as opposed to a row that is missing), told apart so that
 * the API can answer 503 "nothing was stored, try again" instead of 500, and /health can say
 * why. The HTTP layer asks `storeUnavailability`; only this module knows the drivers' codes.
 */

export type StoreUnavailability = "full" | "unavailable";

/** Thrown by a store when its database cannot be used now (the cause is kept for the log). */
export class StoreUnavailableError extends Error {
  constructor(
    readonly reason: StoreUnavailability,
    cause: unknown,
  ) {
    super(
      reason === "full"
        ? "the database's disk is full"
        : `the database cannot be used now: ${(cause as Error)?.message ?? String(cause)}`,
      { cause },
    );
    this.name = "StoreUnavailableError";
  }
}

/** SQLite result codes (better-sqlite3 puts the extended code in `err.code`). */
const SQLITE_FULL = /^SQLITE_FULL/;
const SQLITE_UNAVAILABLE = /^SQLITE_(IOERR|READONLY|CANTOPEN|BUSY|LOCKED|PROTOCOL|CORRUPT|NOTADB)/;

/**
 * PostgreSQL SQLSTATEs: 53100 disk_full; class 08 (connection), 53 (insufficient resources),
 * 57P (operator intervention: shutdown, cannot connect now), 58 (system error).
 */
const PG_FULL = /^53100$/;
const PG_UNAVAILABLE = /^(08...|53...|57P0[1-4]|58...)$/;
/**
 * 55000 (object_not_in_prerequisite_state) is the refusal of a database closed to connections
 * for maintenance (ALLOW_CONNECTIONS false); elsewhere it is a statement's own fault.
 */
const PG_CLOSED = { code: "55000", message: /is not currently accepting connections/ };
/** The `pg` driver's socket errors and messages when the server is gone or does not answer. */
const PG_SOCKET = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EHOSTUNREACH|EAI_AGAIN)$/;
const PG_GONE =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|connection timeout/i;

function codeOf(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : null;
}

/**
 * "full" when the database's disk is full, "unavailable" when it cannot be used now: a
 * StoreUnavailableError, or a database's own result code. A socket error's code says nothing
 * of the database by itself (a client that hangs up mid-body is an ECONNRESET too): the
 * PostgreSQL store turns its driver's into StoreUnavailableError (pgDriverUnavailability).
 */
export function storeUnavailability(err: unknown): StoreUnavailability | null {
  if (err instanceof StoreUnavailableError) return err.reason;
  const code = codeOf(err);
  if (code === null) return null;
  if (SQLITE_FULL.test(code) || PG_FULL.test(code)) return "full";
  if (SQLITE_UNAVAILABLE.test(code) || PG_UNAVAILABLE.test(code)) return "unavailable";
  const message = (err as { message?: unknown }).message;
  if (code === PG_CLOSED.code && typeof message === "string" && PG_CLOSED.message.test(message)) {
    return "unavailable";
  }
  return null;
}

/** storeUnavailability of an error the `pg` driver threw, its socket errors included. */
export function pgDriverUnavailability(err: unknown): StoreUnavailability | null {
  const reason = storeUnavailability(err);
  if (reason) return reason;
  if (PG_SOCKET.test(codeOf(err) ?? "")) return "unavailable";
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === "string" && PG_GONE.test(message) ? "unavailable" : null;
}
