/** SQLite columns: timestamps are ISO 8601 text, booleans 0/1, integers numbers. */
import { rowMappers } from "../rows.js";

export type { Row } from "../rows.js";

export const { toAccount, toKey, toJob, toBatch, toBatchJob, toSession, toToken } = rowMappers({
  time: (v) => (v as string | null) ?? null,
  bool: (v) => v === 1,
  bigint: (v) => (v as number | null) ?? null,
});
