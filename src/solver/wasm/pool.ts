/**
 * Starts the kernel's worker threads. Compiled (dist/) the thread is a plain module; from
 * TypeScript sources (development, tests under tsx) it registers tsx's loader first, because
 * Node 20 does not carry `--import` loaders into worker threads (as src/worker/solver-threads.ts does
 * for the solver thread; kernel threads nest inside it, which Node allows).
 */
import { Worker } from "node:worker_threads";
import type { KernelThreadData } from "./thread.js";

const THREAD_URL = new URL(
  `./thread${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`,
  import.meta.url,
);

function startThread(data: KernelThreadData): Worker {
  if (!THREAD_URL.pathname.endsWith(".ts")) return new Worker(THREAD_URL, { workerData: data });
  const bootstrap = `import("tsx/esm/api").then((m) => { m.register(); return import(${JSON.stringify(THREAD_URL.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: data });
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
