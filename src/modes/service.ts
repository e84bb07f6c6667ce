/**
 * The mode solver's service layer (no HTTP): validates a request (schema/modes.ts, with its
 * gds structures resolved by the fabrication service first, as a simulation's are), solves it
 * in a worker thread under the configured time, heap and concurrency limits
 * (threads/task-threads.ts), and returns the endpoint's JSON (response.ts).
 */
import type { Config } from "../config.js";
import { errors } from "../errors.js";
import type { FabricationService } from "../fabrication/service.js";
import { errorAsSent } from "../fabrication/gds-resolve.js";
import type { SimulationRequest } from "../schema/simulation.js";
import { validateModesRequest, type ModesRequest } from "../schema/modes.js";
import { TaskThreads, type TaskThreadErrors, type ThreadFailure } from "../threads/task-threads.js";
import type { ModesResponse } from "./response.js";
import type { ModeTask } from "./thread.js";

const THREAD_URL = new URL(
  `./thread${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`,
  import.meta.url,
);

/** Seconds a caller told the solver is busy waits before trying again. */
const BUSY_RETRY_SECONDS = 5;

/** How a solve's thread failures reach callers (and the OpenAPI document's examples). */
export const MODE_THREAD_ERRORS = {
  busy: () => errors.modesBusy(BUSY_RETRY_SECONDS),
  timedOut: (l) =>
    errors.modesTooLarge(
      `The solve did not finish within ${l.timeoutSeconds} s; make the plane smaller or the grid coarser.`,
    ),
  outOfMemory: (l) =>
    errors.modesTooLarge(
      `The solve needed more than ${l.maxMemoryMb} MiB; make the plane smaller or the grid coarser.`,
    ),
  failed: (f: ThreadFailure) =>
    f.name === "RangeError"
      ? errors.validation([{ path: "plane", message: f.message }])
      : new Error(`mode solver thread failed: ${f.name}: ${f.message}`),
} satisfies TaskThreadErrors;

export class ModeService {
  private readonly threads: TaskThreads<ModeTask, ModesResponse>;

  constructor(
    config: Config,
    private readonly fabrication: Pick<FabricationService, "resolveGdsStructures">,
  ) {
    const limits = () => config.modes;
    this.threads = new TaskThreads<ModeTask, ModesResponse>(THREAD_URL, limits, MODE_THREAD_ERRORS);
  }

  /**
   * The modes of a request's plane; throws the API's coded errors for bad input. A solve whose
   * `signal` aborts (the caller hung up) stops at once, its thread terminated, and rejects
   * with the signal's reason: the next caller need not wait for an answer no one will read.
   */
  async solve(accountId: string, body: ModesRequest, signal?: AbortSignal): Promise<ModesResponse> {
    const resolved = (await this.fabrication.resolveGdsStructures(
      accountId,
      body as unknown as SimulationRequest,
      signal,
    )) as unknown as ModesRequest;
    const checked = validateModesRequest(resolved);
    if (!checked.ok) {
      throw errorAsSent(
        errors.validation(checked.errors),
        resolved as unknown as SimulationRequest,
      );
    }
    const task = { request: checked.request, includeFields: checked.includeFields };
    return this.threads.run(task, { signal });
  }

  /** Stops the idle threads (server shutdown). */
  close(): Promise<void> {
    return this.threads.close();
  }
}
