/** A thread module for module-thread.test.ts: answers each message with the same message. */
import { parentPort } from "node:worker_threads";

parentPort!.on("message", (message: unknown) => parentPort!.postMessage(message));
