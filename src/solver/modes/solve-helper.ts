/**
 * A helper thread for mode solves: while the calling thread solves some of a plane's
 * wavelengths, the helper solves the others (solve.ts solvedPlanes), so that a port job's
 * mode solves, most of a small device's set-up, take about half the time on two cores.
 *
 * The call stays synchronous (a mode source solves inside its constructor): the caller posts
 * the task with a MessagePort and a shared flag, does its own part, then blocks on the flag
 * (Atomics.wait, which Node allows on any thread) and takes the reply off its port with
 * receiveMessageOnPort. The helper starts on first use (or from warmModeHelper) and stays, unref'd,
 * for the thread's later solves. A helper that fails or does not answer within
 * HELPER_LIMIT_MS is given up and the caller solves those wavelengths itself, so a helper can
 * cost time but never an answer.
 */
import { MessageChannel, receiveMessageOnPort, type Worker } from "node:worker_threads";
import { siblingModule, startModuleThread } from "../module-thread.js";
import type { SolvedPlane } from "./mode-cache.js";
import type { PlanePermittivity } from "./operator.js";
import type { SolveModesInput } from "./solve-input.js";

/** How long a caller waits for its helper's part (a cold start included) before doing it. */
export const HELPER_LIMIT_MS = 120_000;

/** A chain of wavelengths to solve, as plain data (structured-clonable). */
export interface ChainTask {
  input: Omit<SolveModesInput, "planeEps" | "wavelengths_m">;
  wavelengths: number[];
  /** The permittivity at each wavelength the solves look up (group index: either side too). */
  eps: [number, PlanePermittivity][];
}

export type ChainReply = { planes: SolvedPlane[] } | { error: string };

/** The task for `wavelengths`, with every permittivity their solves read (`groupDl`: solve.ts). */
export function chainTask(
  input: SolveModesInput,
  wavelengths: number[],
  epsAt: (wl: number) => PlanePermittivity,
  groupDl: number,
): ChainTask {
  const { planeEps: _eps, wavelengths_m: _wls, ...rest } = input;
  const eps = new Map<number, PlanePermittivity>();
  for (const wl of wavelengths) {
    const around = input.groupIndex ? [wl, wl - wl * groupDl, wl + wl * groupDl] : [wl];
    for (const at of around) if (!eps.has(at)) eps.set(at, epsAt(at));
  }
  return { input: rest, wavelengths, eps: [...eps] };
}

/** The task's permittivity as a lookup (the helper thread's side). */
export function taskEps(task: ChainTask): (wl: number) => PlanePermittivity {
  const table = new Map(task.eps);
  return (wl) => {
    const eps = table.get(wl);
    if (!eps) throw new RangeError(`mode helper: no permittivity at ${wl} m`);
    return eps;
  };
}

const THREAD_URL = siblingModule("solve-helper-thread", import.meta.url);
let helper: Worker | null = null;

function theHelper(): Worker {
  if (!helper) {
    const started = startModuleThread(THREAD_URL);
    started.unref();
    started.on("error", () => {
      if (helper === started) helper = null;
    });
    helper = started;
  }
  return helper;
}

/** Starts the helper thread ahead of a first solve (a server's warm-up). */
export function warmModeHelper(): void {
  theHelper();
}

/** A posted task: `wait()` blocks for its planes, or null when the helper gave none. */
export interface PendingChain {
  wait(): SolvedPlane[] | null;
}

/** Posts `task` to the helper thread. */
export function solveOnHelper(task: ChainTask, limitMs = HELPER_LIMIT_MS): PendingChain {
  const worker = theHelper();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ task, flag, port: port2 }, [port2]);
  return {
    wait() {
      const deadline = Date.now() + limitMs;
      while (Atomics.load(flag, 0) === 0) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        Atomics.wait(flag, 0, 0, Math.min(left, 1000));
      }
      const reply = receiveMessageOnPort(port1)?.message as ChainReply | undefined;
      port1.close();
      if (!reply) {
        // No answer in time: this helper is stuck or gone; the next solve starts another.
        if (helper === worker) helper = null;
        void worker.terminate();
        return null;
      }
      return "planes" in reply ? reply.planes : null;
    },
  };
}
