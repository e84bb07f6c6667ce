/** PostgreSQL columns: timestamps arrive as Date, booleans as booleans, bigints as strings. */
import { rowMappers } from "../rows.js";

export type { Row } from "../rows.js";

export const { toAccount, toKey, toJob, toBatch, toBatchJob, toSession, toToken } = rowMappers({
  time: (v) =>
    v === null || v === undefined
      ? null
      : v instanceof Date
        ? v.toISOString()
        : new Date(String(v)).toISOString(),
  bool: (v) => v === true,
  bigint: (v) => (v === null || v === undefined ? null : Number(v)),
});

/**
 * PostgreSQL's text holds no NUL character, so no row is keyed by a string with one; asked
 * for such a key (an id or email from a request), a lookup finds nothing, as SQLite's does,
 * instead of failing on the database's encoding error.
 */
export const heldByNoRow = (key: string): boolean => key.includes("\u0000");
