/**
 * The kernel's worker threads (module-thread.ts: under tsx too; kernel threads nest inside the
 * solver thread, which Node allows). A thread serves one run at a time (thread.ts: a `job`
 * message starts it, `done` ends it) and is kept afterwards for the next run: starting one
 * costs 25–50 ms, and a kept one has its code compiled and warm, where a fresh one starts
 * every run interpreting its first sweeps while the calling thread waits for it at the
 * barrier. Threads of a run that failed are terminated, not kept. Kept threads are unref'd:
 * they never hold the process open.
 */
import type { Worker } from "node:worker_threads";
import { siblingModule, startModuleThread } from "../module-thread.js";
import { MAX_THREADS } from "./barrier.js";
import type { KernelThreadData, ThreadReply } from "./thread.js";

const THREAD_URL = siblingModule("thread", import.meta.url);

/** How long a thread may take to answer the end of its run before it is terminated. */
const DONE_TIMEOUT_MS = 2000;

/** Threads between runs, for the next run's. */
const idle: Worker[] = [];
/** Releases under way (their threads' `done` is on its way): a start waits for them. */
const releasing = new Set<Promise<void>>();

/** The ids of the threads kept for the next run, once the releases under way are over (tests). */
export async function keptThreads(): Promise<number[]> {
  await Promise.all(releasing);
  return idle.map((w) => w.threadId);
}

function startThread(): Worker {
  const w = startModuleThread(THREAD_URL);
  w.unref();
  // Between runs nobody else listens: a kept thread that fails or ends leaves the pool.
  w.on("error", () => undefined);
  w.on("exit", () => {
    const at = idle.indexOf(w);
    if (at >= 0) idle.splice(at, 1);
  });
  return w;
}

/** One thread's run: its end (`done`) and the listeners to take off when it is kept. */
interface Run {
  worker: Worker;
  done: Promise<boolean>;
  detach: () => void;
}

export class KernelThreads {
  private readonly runs: Run[] = [];
  private errors: string[] = [];

  /** Hands each entry to a thread (a kept one, or a new one) and resolves once each is ready. */
  async start(data: KernelThreadData[]): Promise<void> {
    if (data.length > idle.length) await Promise.all(releasing);
    await Promise.all(data.map((d) => this.begin(idle.pop() ?? startThread(), d)));
  }

  private begin(worker: Worker, data: KernelThreadData): Promise<void> {
    let ended: (clean: boolean) => void = () => {};
    const done = new Promise<boolean>((resolve) => (ended = resolve));
    return new Promise<void>((resolve, reject) => {
      const onMessage = (m: ThreadReply) => {
        if (m.type === "ready") resolve();
        else if (m.type === "done") ended(true);
        else {
          // Empty: the thread stopped because another one failed (KernelFailure).
          if (m.message) this.errors.push(m.message);
          ended(false);
        }
      };
      const onError = (err: Error) => {
        this.errors.push(err.stack ?? String(err));
        ended(false);
        reject(err);
      };
      const onExit = (code: number) => {
        ended(false);
        reject(new Error(`kernel thread exited with code ${code}`));
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      const detach = () => {
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      };
      this.runs.push({ worker, done, detach });
      worker.postMessage({ type: "job", data });
    });
  }

  /** Messages of threads that failed, for the error the caller throws. */
  failures(): string[] {
    return this.errors;
  }

  /**
   * After the threads were told to exit their run (Command.Exit): keeps those that answer
   * `done` in time for the next run, and terminates the others.
   */
  release(): Promise<void> {
    const runs = this.runs.splice(0);
    const released = Promise.all(
      runs.map(async (run) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), DONE_TIMEOUT_MS);
          timer.unref();
        });
        const clean = await Promise.race([run.done, late]);
        clearTimeout(timer);
        run.detach();
        if (clean && this.errors.length === 0 && idle.length < MAX_THREADS) idle.push(run.worker);
        else await run.worker.terminate();
      }),
    ).then(() => {
      releasing.delete(released);
    });
    releasing.add(released);
    return released;
  }

  /** Ends every thread of this run (a failed run, or one whose threads never started). */
  async terminate(): Promise<void> {
    const runs = this.runs.splice(0);
    await Promise.all(
      runs.map((run) => {
        run.detach();
        return run.worker.terminate();
      }),
    );
  }
}
