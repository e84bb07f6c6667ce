/**
 * A plane's two wavelength chains (chains.ts) on two threads: the calling thread walks one
 * while a kept helper thread (chain-thread.ts) walks the other, and the caller then waits for
 * the helper's modes synchronously (Atomics.wait, receiveMessageOnPort), so that solveModes
 * stays a plain call for the mode source and monitors that use it.
 *
 * The helper must claim its chain before the caller has finished its own; when it has not
 * (a helper still starting), the caller walks that chain itself. When the helper fails, or
 * makes no progress for a while (STALL_MS), the caller walks what it left. Both walk the same
 * steps from the same start, so the modes are the same whichever thread solves them. The
 * helper is kept between solves (unref'd: it never holds the process open), since a fresh
 * one has its code to compile.
 */
import {
  MessageChannel,
  receiveMessageOnPort,
  type MessagePort,
  type Worker,
} from "node:worker_threads";
import { siblingModule, startModuleThread } from "../module-thread.js";
import { walkChain, type ChainStart, type ChainStep } from "./chains.js";
import type { PlaneWeights } from "./fields.js";
import { reserveKernelMemory } from "./kernel-memory.js";
import type { SolvedPlane } from "./mode-cache.js";
import type { PlaneInput } from "./wavelength-solve.js";
import { NEVER_STOPPED, type StopCheck } from "../stop-flag.js";

/** Slots of a task's control words (an Int32Array on a SharedArrayBuffer). */
export const STATE = 0;
export const PROGRESS = 1;

/** A task's states: posted, claimed by the helper, taken back by the caller, over. */
export const POSTED = 0;
export const CLAIMED = 1;
export const TAKEN_BACK = 2;
export const FINISHED = 3;
export const FAILED = 4;

/** How long the caller waits for a helper that has claimed a chain and shows no progress. */
const STALL_MS = 5000;

/** What the caller posts to the helper. */
export interface ChainTask {
  id: number;
  input: PlaneInput;
  steps: ChainStep[];
  start: ChainStart;
  control: SharedArrayBuffer;
}

/** Kernel memories the helper is to keep touched for its solves (kernel-memory.ts). */
export interface MemoryReservation {
  reserveBytes: number[];
}

/** What the helper answers, a message a step solved. */
export interface ChainReply {
  id: number;
  position: number;
  plane: SolvedPlane;
}

interface Helper {
  worker: Worker;
  replies: MessagePort;
  /** Resolves once the thread has loaded its code and listens. */
  ready: Promise<void>;
}

let helper: Helper | null = null;
let lastTask = 0;
/** Steps the helper solved, over this thread's life (tests, reports). */
let helperSteps = 0;

/** Starts the helper thread when none is running; resolves once it listens (warm-ups, tests). */
export function chainHelperReady(): Promise<void> {
  return helperThread().ready;
}

/**
 * Kernel memories of these sizes kept, their pages touched, on this thread and, with
 * `helper`, on the helper thread (a server's warm-up: kernel-memory.ts says why).
 */
export function reserveModeMemory(bytes: readonly number[], helper: boolean): void {
  reserveKernelMemory(bytes);
  if (!helper) return;
  const reservation: MemoryReservation = { reserveBytes: [...bytes] };
  helperThread().worker.postMessage(reservation);
}

/** Steps the helper thread has solved for this thread so far. */
export function stepsSolvedByHelper(): number {
  return helperSteps;
}

function helperThread(): Helper {
  if (helper) return helper;
  const { port1, port2 } = new MessageChannel();
  const worker = startModuleThread(siblingModule("chain-thread", import.meta.url), {
    workerData: { replies: port2 },
    transferList: [port2],
  });
  worker.unref();
  const ready = new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve());
    worker.once("error", reject);
  });
  ready.catch(() => undefined);
  const started: Helper = { worker, replies: port1, ready };
  const forget = () => {
    if (helper === started) helper = null;
  };
  worker.on("error", forget);
  worker.on("exit", forget);
  helper = started;
  return started;
}

/**
 * Walks both chains, handing each step solved to `onStep` with its wavelength's index: the
 * second chain on the helper thread when `threads` ≥ 2 and both chains have steps to solve.
 * When `checkStop` throws (the run was cancelled), the helper drops its chain too.
 */
export function walkChains(
  input: PlaneInput,
  chains: readonly ChainStep[][],
  start: ChainStart,
  weights: PlaneWeights,
  threads: number,
  onStep: (index: number, plane: SolvedPlane) => void,
  checkStop: StopCheck = NEVER_STOPPED,
): void {
  const walk = (steps: readonly ChainStep[]) =>
    walkChain(
      input,
      steps,
      start,
      weights,
      (at, plane) => onStep(steps[at]!.index, plane),
      checkStop,
    );
  const [own, other] = chains as [ChainStep[], ChainStep[]];
  const toSolve = (steps: ChainStep[]) => steps.some((s) => !s.known);
  if (threads < 2 || !toSolve(own) || !toSolve(other)) {
    chains.forEach(walk);
    return;
  }
  const h = helperThread();
  const task: ChainTask = {
    id: ++lastTask,
    input,
    steps: other,
    start,
    control: new SharedArrayBuffer(8),
  };
  h.worker.postMessage(task);
  try {
    walk(own);
    collect(h, task, weights, onStep, checkStop);
  } catch (e) {
    // The helper stops at its next Arnoldi step, and is free for the next solve.
    takeBack(new Int32Array(task.control));
    throw e;
  }
}

/** The helper's steps as they arrive; what it did not do, walked here. */
function collect(
  h: Helper,
  task: ChainTask,
  weights: PlaneWeights,
  onStep: (index: number, plane: SolvedPlane) => void,
  checkStop: StopCheck,
): void {
  const control = new Int32Array(task.control);
  const steps = task.steps.map((s) => ({ ...s }));
  const take = () => {
    for (let m = receiveMessageOnPort(h.replies); m; m = receiveMessageOnPort(h.replies)) {
      const reply = m.message as ChainReply;
      if (reply.id !== task.id) continue;
      steps[reply.position]!.known = reply.plane;
      helperSteps += 1;
      onStep(steps[reply.position]!.index, reply.plane);
    }
  };
  if (Atomics.compareExchange(control, STATE, POSTED, TAKEN_BACK) !== POSTED) {
    waitFor(h, control, take, checkStop);
  }
  take();
  if (steps.some((s) => !s.known)) {
    walkChain(
      task.input,
      steps,
      task.start,
      weights,
      (at, plane) => onStep(steps[at]!.index, plane),
      checkStop,
    );
  }
}

/**
 * Takes the helper's steps while it works on them, until it ends or stalls (STALL_MS), or
 * the run is cancelled (checkStop, read every 100 ms at most).
 */
function waitFor(h: Helper, control: Int32Array, take: () => void, checkStop: StopCheck): void {
  let progress = Atomics.load(control, PROGRESS);
  let since = performance.now();
  while (Atomics.load(control, STATE) === CLAIMED) {
    checkStop();
    take();
    if (Atomics.wait(control, PROGRESS, progress, 100) !== "timed-out") {
      progress = Atomics.load(control, PROGRESS);
      since = performance.now();
    } else if (performance.now() - since > STALL_MS) {
      abandon(h, control);
    }
  }
}

/** A helper that stopped answering: told to stop, and replaced by a fresh one next time. */
function abandon(h: Helper, control: Int32Array): void {
  takeBack(control);
  if (helper === h) helper = null;
  void h.worker.terminate();
}

/**
 * Takes a task back from the helper, whatever its state: one not claimed yet is never
 * started, one under way stops at its next Arnoldi step (chain-thread.ts).
 */
function takeBack(control: Int32Array): void {
  Atomics.store(control, STATE, TAKEN_BACK);
}
