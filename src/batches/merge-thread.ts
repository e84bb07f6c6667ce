/**
 * The thread a batch's result file is written in (results.ts): h5wasm is synchronous and a
 * batch of thousands of variants takes seconds to stack, which must not hold up the server's
 * event loop.
 */
import {
  writeBatchResultFile,
  type BatchResultInput,
  type BatchResultSummary,
} from "../results/batch-merge.js";
import { serveTasks } from "../threads/task-threads.js";

export interface MergeTask {
  outPath: string;
  input: BatchResultInput;
}

serveTasks<MergeTask, BatchResultSummary>((task) => writeBatchResultFile(task.outPath, task.input));
