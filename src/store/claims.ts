/**
 * The claim's rule for a batch's jobs, the same SQL for both databases: a queued job `j` may
 * start when it is no batch's, or when its batch runs fewer of its jobs than the batch's
 * parallelism (DESIGN §11: one after another by default, EMSIM_BATCH_PARALLELISM at most).
 */
export const WITHIN_PARALLELISM = `(j.batch_id IS NULL OR
    (SELECT count(*) FROM jobs r WHERE r.batch_id = j.batch_id AND r.status = 'RUNNING') <
    (SELECT b.parallelism FROM batches b WHERE b.batch_id = j.batch_id))`;

/**
 * The queued job a worker takes next, the same SQL for both databases (`tie`: the insertion
 * order's column; `lock`: PostgreSQL's row lock). Accounts take turns: the account whose last
 * job started longest ago (or never) goes first, so that one account's batch of thousands does
 * not hold another's job back until it ends; within an account, the oldest job first (a batch
 * in variant order). One account alone is served oldest first, as before turns.
 */
export function nextJobQuery(tie: string, lock = ""): string {
  return `WITH turns AS (
      SELECT a.account_id,
             (SELECT max(r.started_at) FROM jobs r WHERE r.account_id = a.account_id) AS served
        FROM (SELECT DISTINCT q.account_id FROM jobs q WHERE q.status = 'QUEUED') a)
    SELECT j.job_id FROM jobs j JOIN turns t ON t.account_id = j.account_id
     WHERE j.status = 'QUEUED' AND ${WITHIN_PARALLELISM}
     ORDER BY t.served NULLS FIRST, j.created_at, j.${tie}
     LIMIT 1 ${lock}`;
}
