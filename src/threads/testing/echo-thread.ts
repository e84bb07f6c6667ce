/**
 * A thread module for task-threads.test.ts: each task exercises one way a task can end, and
 * answers name the thread that ran them, so a test can tell a reused thread from a fresh one.
 */

import { threadId, type MessagePort } from "node:worker_threads";
import { serveTasks } from "../task-threads.js";

export type EchoTask =
  /** Answers with the value after `delayMs` (default at once). */
  | { op: "echo"; value: unknown; delayMs?: number }
  /** Throws a RangeError with this message. */
  | { op: "throw"; message: string }
  /** Never answers (a busy loop no timer can interrupt). */
  | { op: "spin" }
  /** Allocates until the heap limit ends the thread. */
  | { op: "allocate" }
  /** Keeps the (transferred) port open for as long as the thread lives. */
  | { op: "hold"; port: MessagePort };

export interface EchoResult {
  value: unknown;
  threadId: number;
}

/** Ports held by "hold" tasks: their other ends see "close" when this thread ends. */
const held: MessagePort[] = [];

async function handle(task: EchoTask): Promise<EchoResult> {
  switch (task.op) {
    case "echo":
      if (task.delayMs) await new Promise((r) => setTimeout(r, task.delayMs));
      return { value: task.value, threadId };
    case "throw":
      throw new RangeError(task.message);
    case "spin":
      for (;;);
    case "allocate": {
      const hoard: number[][] = [];
      for (;;) hoard.push(new Array<number>(100_000).fill(hoard.length + 0.5));
    }
    case "hold":
      task.port.on("message", () => {});
      held.push(task.port);
      return { value: held.length, threadId };
  }
}

serveTasks(handle);
