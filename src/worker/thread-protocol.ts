/** Messages between a job worker and its solver thread. */
import type { SolverReport } from "../schema/responses.js";

import type { BackendChoice } from "../solver/types.js";

export interface ThreadInput {
  jobId: string;
  specJson: string;
  outPath: string;
  threads: number;
  /** The solver backend configured for this worker (EMSIM_SOLVER_BACKEND). */
  backend: BackendChoice;
}

export type ThreadMessage =
  | {
      type: "progress";
      phase: "setup" | "stepping";
      setupFraction: number;
      step: number;
      totalSteps: number;
      fraction: number;
      lastRelativeChange: number | null;
      mcellsPerSecond: number | null;
    }
  | { type: "done"; report: SolverReport }
  | {
      type: "failed";
      /** storage: the result file did not reach the disk intact (full disk, I/O error). */
      kind: "cancelled" | "diverged" | "error" | "storage";
      message: string;
      step: number;
    };
