/** Sign-in failure bookkeeping shared by the SQLite and PostgreSQL session stores. */

/**
 * Keys with at least `limit` failures, from rows ordered by key, newest failure first: the
 * wait is until the limit-th newest leaves the window.
 */
export function lockedKeys(
  rows: { key: string; at_ms: number | string }[],
  input: { limit: number; nowMs: number; windowMs: number },
): { key: string; retryAfterMs: number }[] {
  const out: { key: string; retryAfterMs: number }[] = [];
  for (let i = 0; i < rows.length;) {
    let j = i;
    while (j < rows.length && rows[j]!.key === rows[i]!.key) j++;
    if (j - i >= input.limit) {
      out.push({
        key: rows[i]!.key,
        retryAfterMs: Number(rows[i + input.limit - 1]!.at_ms) + input.windowMs - input.nowMs,
      });
    }
    i = j;
  }
  return out;
}
