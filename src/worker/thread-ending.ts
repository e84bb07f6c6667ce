/**
 * Starting and ending solver threads without taking the process down with them.
 *
 * A thread ended (`Worker.terminate`) in the few milliseconds in which Dawn is looking for a
 * GPU adapter aborts the whole process: Dawn's native code then throws into a thread that is
 * being torn down, which Node treats as fatal ("napi_throw"). The worker ends threads at any
 * moment (a cancel past its grace, a stall, a lost job, a warm-up given up, its own stop), so a
 * solver thread marks the time it spends finding its backend in a flag it shares with the
 * worker (`findingBackend`), and `endThread` waits for the flag to clear, for PROBE_WAIT_MS at
 * most, before it terminates the thread. A probe takes well under a second; one that hangs (a
 * GPU driver) is ended at the bound all the same.
 */
import { workerData, type Worker } from "node:worker_threads";
import { startModuleThread } from "../solver/index.js";

/** How long `endThread` waits for a thread to finish finding its backend. */
export const PROBE_WAIT_MS = 5_000;

/** How often `endThread` looks at the flag while it waits. */
const POLL_MS = 2;

/**
 * Each started thread's flag: [0] is 1 while it is finding its backend, else 0; [1] counts
 * the times it began to, so that a search too short to be seen still shows (for tests).
 */
const flags = new WeakMap<Worker, Int32Array>();

/** Starts a solver thread on the module at `url`, with the flag it shares with the worker. */
export function startSolverThreadAt(url: URL): Worker {
  const flag = new Int32Array(new SharedArrayBuffer(8));
  const thread = startModuleThread(url, { workerData: { findingBackend: flag } });
  flags.set(thread, flag);
  return thread;
}

/** Where `thread` stands with finding its backend (for tests). */
export function backendSearch(thread: Worker): "not begun" | "finding" | "done" {
  const flag = flags.get(thread);
  if (flag === undefined || Atomics.load(flag, 1) === 0) return "not begun";
  return Atomics.load(flag, 0) === 1 ? "finding" : "done";
}

/**
 * Terminates `thread` once it is not finding its backend (waiting PROBE_WAIT_MS at most).
 * Every solver thread is ended this way.
 */
export async function endThread(thread: Worker): Promise<void> {
  const flag = flags.get(thread);
  const until = Date.now() + PROBE_WAIT_MS;
  while (flag && Atomics.load(flag, 0) === 1 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  await thread.terminate();
}

/**
 * In a solver thread: runs `find` (initSolverBackend) with the shared flag raised, so that the
 * worker does not end the thread meanwhile. Outside a thread started by `startSolverThreadAt`
 * it just runs `find`.
 */
export async function findingBackend<T>(find: () => Promise<T>): Promise<T> {
  const flag = (workerData as { findingBackend?: Int32Array } | null)?.findingBackend;
  if (flag) {
    Atomics.store(flag, 0, 1);
    Atomics.add(flag, 1, 1);
  }
  try {
    return await find();
  } finally {
    if (flag) Atomics.store(flag, 0, 0);
  }
}
