/**
 * Starts the kernel's worker threads (module-thread.ts: under tsx too; kernel threads nest
 * inside the solver thread, which Node allows).
 */
import type { Worker } from "node:worker_threads";
import { siblingModule, startModuleThread } from "../module-thread.js";
import type { KernelThreadData } from "./thread.js";

const THREAD_URL = siblingModule("thread", import.meta.url);

function startThread(data: KernelThreadData): Worker {
  return startModuleThread(THREAD_URL, { workerData: data });
}

export class KernelThreads {
  private readonly workers: Worker[] = [];
  private errors: string[] = [];

  /** Starts one worker per entry and resolves once each has instantiated the kernel. */
  async start(data: KernelThreadData[]): Promise<void> {
    const ready = data.map((d) => {
      const w = startThread(d);
      w.unref();
      this.workers.push(w);
      return new Promise<void>((resolve, reject) => {
        w.on("message", (m: { type: string; message?: string }) => {
          if (m.type === "ready") resolve();
          else if (m.type === "error") this.errors.push(m.message ?? "unknown error");
        });
        w.once("error", (err) => {
          this.errors.push(err.stack ?? String(err));
          reject(err);
        });
        w.once("exit", (code) => reject(new Error(`kernel thread exited with code ${code}`)));
      });
    });
    await Promise.all(ready);
  }

  /** Messages of threads that failed, for the error the caller throws. */
  failures(): string[] {
    return this.errors;
  }

  async terminate(): Promise<void> {
    const ws = this.workers.splice(0);
    await Promise.all(ws.map((w) => w.terminate()));
  }
}
