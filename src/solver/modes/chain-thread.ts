/**
 * The helper thread of chain-helper.ts: walks the wavelength chains it is handed, when it
 * claims them before the caller takes them back, and answers each step's modes as it has them.
 */
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import {
  CLAIMED,
  FAILED,
  FINISHED,
  POSTED,
  PROGRESS,
  STATE,
  type ChainReply,
  type ChainTask,
  type MemoryReservation,
} from "./chain-helper.js";
import { walkChain } from "./chains.js";
import { planeWeights } from "./fields.js";
import { reserveKernelMemory } from "./kernel-memory.js";

const replies = (workerData as { replies: MessagePort }).replies;

/** Thrown to stop a chain the caller has taken back. */
class TakenBack extends Error {}

parentPort!.on("message", (message: ChainTask | MemoryReservation) => {
  if ("reserveBytes" in message) {
    reserveKernelMemory(message.reserveBytes);
    return;
  }
  walkTask(message);
});

/** Walks a posted chain, when this thread claims it first. */
function walkTask(task: ChainTask): void {
  const control = new Int32Array(task.control);
  if (Atomics.compareExchange(control, STATE, POSTED, CLAIMED) !== POSTED) return;
  const signal = () => {
    Atomics.add(control, PROGRESS, 1);
    Atomics.notify(control, PROGRESS);
  };
  // Read at every Arnoldi step: a chain taken back (its run cancelled) stops within one.
  const checkTaken = () => {
    if (Atomics.load(control, STATE) !== CLAIMED) throw new TakenBack();
  };
  const answer = (at: number, plane: ChainReply["plane"]) => {
    checkTaken();
    const reply: ChainReply = { id: task.id, position: at, plane };
    replies.postMessage(reply);
    signal();
  };
  try {
    const weights = planeWeights(task.input.axes);
    walkChain(task.input, task.steps, task.start, weights, answer, checkTaken);
    Atomics.compareExchange(control, STATE, CLAIMED, FINISHED);
  } catch {
    // The caller walks what is left, and meets any error of the solve itself.
    Atomics.compareExchange(control, STATE, CLAIMED, FAILED);
  }
  signal();
}

parentPort!.postMessage("ready");
