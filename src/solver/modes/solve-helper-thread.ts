/**
 * The mode-solve helper thread (solve-helper.ts): solves each task's chain of wavelengths and
 * answers on the task's port, then raises its flag for the caller blocked on it.
 */
import { parentPort, type MessagePort } from "node:worker_threads";
import { taskEps, type ChainReply, type ChainTask } from "./solve-helper.js";
import { solveChain } from "./solve.js";

interface Posted {
  task: ChainTask;
  flag: Int32Array;
  port: MessagePort;
}

parentPort!.on("message", ({ task, flag, port }: Posted) => {
  let reply: ChainReply;
  try {
    const epsAt = taskEps(task);
    const input = { ...task.input, planeEps: epsAt, wavelengths_m: task.wavelengths };
    reply = { planes: solveChain(input, task.wavelengths, epsAt) };
  } catch (e) {
    reply = { error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
  port.close();
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
