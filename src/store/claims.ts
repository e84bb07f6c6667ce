/**
 * The claim's rule for a batch's jobs, the same SQL for both databases: a queued job `j` may
 * start when it is no batch's, or when its batch runs fewer of its jobs than the batch's
 * parallelism (DESIGN §11: one after another by default, EMSIM_BATCH_PARALLELISM at most).
 */
export const WITHIN_PARALLELISM = `(j.batch_id IS NULL OR
    (SELECT count(*) FROM jobs r WHERE r.batch_id = j.batch_id AND r.status = 'RUNNING') <
    (SELECT b.parallelism FROM batches b WHERE b.batch_id = j.batch_id))`;
