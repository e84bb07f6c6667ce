/** Messages between a job worker and its solver thread. */
import type { SolverReport } from "../schema/responses.js";

import type { BackendChoice, SolverProgress } from "../solver/index.js";

export interface ThreadInput {
  jobId: string;
  specJson: string;
  outPath: string;
  threads: number;
  /** The solver backend configured for this worker (EMSIM_SOLVER_BACKEND). */
  backend: BackendChoice;
  /**
   * The run's StopFlag (solver/stop-flag.ts), which the session sets when it posts `cancel`:
   * the solver sees it inside work that does not yield to the thread's event loop.
   */
  stop: SharedArrayBuffer;
}

/** A fresh thread's warm-up (solver/warm-up.ts), answered by `warm` or `failed`. */
export interface WarmInput {
  backend: BackendChoice;
  /** The threads a job's solver gets (EMSIM_SOLVER_THREADS): the warm-up starts its kernel's. */
  threads: number;
  /** Where the warm-up's result file is written, checked and deleted. */
  scratchPath: string;
}

export type ThreadMessage =
  | { type: "warm"; seconds: number }
  | ({ type: "progress" } & Omit<SolverProgress, "mcellsPerSecond"> & {
        /** Null until the solver has measured a rate (before the first report). */
        mcellsPerSecond: number | null;
      })
  | { type: "done"; report: SolverReport }
  | {
      type: "failed";
      /** storage: the result file did not reach the disk intact (full disk, I/O error). */
      kind: "cancelled" | "diverged" | "request" | "error" | "storage";
      message: string;
      step: number;
    };
