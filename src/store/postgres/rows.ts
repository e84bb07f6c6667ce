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
