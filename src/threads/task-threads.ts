/**
 * Worker threads for a service's heavy requests: work that takes seconds on large inputs (a
 * GDS II read, a design-rule check, a mode solve) runs off the server's event loop, under a heap
 * limit, and is terminated when it passes its time limit. The owner (src/fabrication, a mode
 * solver) names the thread's module and words each failure as its own coded error; nothing
 * here knows HTTP or the errors registry.
 *
 * The threads stay up between tasks, so the compiled code is warm: a cold fabrication thread
 * spends about 0.8 s compiling before a 10⁴-shape check, a warm one 0.3 s on the whole check.
 * The owner's side is {@link TaskThreads}; the thread's module calls {@link serveTasks}.
 */

import { parentPort, Worker, type Transferable } from "node:worker_threads";

export interface TaskThreadLimits {
  /** Tasks running at once; one more is refused with errors.busy(). */
  maxConcurrent: number;
  /** A task running longer than this is stopped (its thread terminated). */
  timeoutSeconds: number;
  /** Heap limit of each thread (V8's old generation). */
  maxMemoryMb: number;
}

/** What a thread sends back for a task that threw. */
export interface ThreadFailure {
  name: string;
  reason?: string;
  message: string;
}

/** How the owner words each failure (its own coded errors). */
export interface TaskThreadErrors {
  /** maxConcurrent tasks are running already. */
  busy(): Error;
  timedOut(limits: TaskThreadLimits): Error;
  outOfMemory(limits: TaskThreadLimits): Error;
  /** The task threw in the thread. */
  failed(failure: ThreadFailure): Error;
}

/** A task as posted: what moves rather than being copied, and what may call it off. */
interface PostedTask<Task> {
  task: Task;
  transfer?: readonly Transferable[];
  signal?: AbortSignal;
}

/** A thread's answer to one task. */
type ThreadAnswer<Result> = { ok: true; result: Result } | { ok: false; error: ThreadFailure };

/** A small pool of warm threads running one module's tasks under time, heap and concurrency limits. */
export class TaskThreads<Task, Result> {
  private running = 0;
  /** Threads that finished their last task cleanly, unref'd so they do not hold the process. */
  private readonly idle: Worker[] = [];

  /**
   * @param threadUrl the thread's module (`.js` compiled, or `.ts` under tsx), which calls
   *   {@link serveTasks}
   * @param limits read at each task, so a changed configuration applies to the next one
   */
  constructor(
    private readonly threadUrl: URL,
    private readonly limits: () => TaskThreadLimits,
    private readonly errors: TaskThreadErrors,
  ) {}

  /**
   * Runs a task in an idle thread (or a new one); rejects with errors.busy() when maxConcurrent
   * are running. A thread that times out, runs out of heap or exits is terminated and not
   * reused: the next task starts a fresh one; so is one whose `signal` aborts (its caller went
   * away), and the task rejects with the signal's reason. The task is copied into the thread
   * (the caller keeps its own), except what `transfer` lists, which moves.
   */
  async run(
    task: Task,
    { transfer, signal }: { transfer?: readonly Transferable[]; signal?: AbortSignal } = {},
  ): Promise<Result> {
    const limits = this.limits();
    signal?.throwIfAborted();
    if (this.running >= limits.maxConcurrent) throw this.errors.busy();
    const worker = this.idle.pop() ?? startThread(this.threadUrl, limits.maxMemoryMb);
    this.running += 1;
    worker.ref();
    const health = { healthy: true };
    try {
      return await this.answer(worker, { task, transfer, signal }, limits, health);
    } finally {
      this.running -= 1;
      if (health.healthy) {
        worker.unref();
        this.idle.push(worker);
      } else {
        void worker.terminate();
      }
    }
  }

  /** Stops the idle threads (server shutdown). */
  async close(): Promise<void> {
    const threads = this.idle.splice(0);
    await Promise.all(threads.map((w) => w.terminate()));
  }

  /** Posts the task and waits for the thread's answer, its time limit, its end or the abort. */
  private answer(
    worker: Worker,
    { task, transfer, signal }: PostedTask<Task>,
    limits: TaskThreadLimits,
    health: { healthy: boolean },
  ): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      let settled = false;
      const finish = (f: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        signal?.removeEventListener("abort", onAbort);
        f();
      };
      const broken = (err: Error): void => {
        health.healthy = false;
        finish(() => reject(err));
      };
      const timer = setTimeout(
        () => broken(this.errors.timedOut(limits)),
        limits.timeoutSeconds * 1000,
      );
      const onMessage = (msg: ThreadAnswer<Result>): void =>
        finish(() => (msg.ok ? resolve(msg.result) : reject(this.errors.failed(msg.error))));
      const onError = (err: Error & { code?: string }): void =>
        broken(err.code === "ERR_WORKER_OUT_OF_MEMORY" ? this.errors.outOfMemory(limits) : err);
      const onExit = (code: number): void =>
        broken(new Error(`thread ${threadName(this.threadUrl)} exited with code ${code}`));
      const onAbort = (): void => broken(signal!.reason as Error);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      signal?.addEventListener("abort", onAbort);
      worker.postMessage(task, transfer);
    });
  }
}

/**
 * Starts a thread. Compiled (dist/) its module is a plain one; from TypeScript sources
 * (development, tests) the thread registers a TypeScript loader itself, as Node 20 does not
 * carry `--import` loaders into worker threads: EMSIM_TS_LOADER's, else tsx's (as the solver's
 * threads do, solver/module-thread.ts; not imported from there, so that a task thread does not
 * load the whole solver).
 */
function startThread(threadUrl: URL, maxMemoryMb: number): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb } };
  if (!threadUrl.pathname.endsWith(".ts")) return new Worker(threadUrl, options);
  const loader = process.env.EMSIM_TS_LOADER;
  const bootstrap = loader
    ? `import(${JSON.stringify(loader)}).then(() => import(${JSON.stringify(threadUrl.href)}))`
    : `import("tsx/esm/api").then((m) => { m.register(); return import(${JSON.stringify(threadUrl.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** `fabrication/thread.ts` for …/src/fabrication/thread.ts: enough to tell the pools apart. */
function threadName(threadUrl: URL): string {
  return threadUrl.pathname.split("/").slice(-2).join("/");
}

/** A thrown value's name and message (an Error's, or "Error" and the value as text). */
function describeThrown(e: unknown): ThreadFailure {
  if (e instanceof Error) return { name: e.name, message: e.message };
  return { name: "Error", message: String(e) };
}

/**
 * The thread side: answers each posted task with {ok: true, result} or {ok: false, error:
 * ThreadFailure}. `describe` turns a thrown value into a ThreadFailure (default: its name and
 * message). Outside a worker thread (the module imported on the main thread) it does nothing.
 */
export function serveTasks<Task, Result>(
  handle: (task: Task) => Result | Promise<Result>,
  describe: (e: unknown) => ThreadFailure = describeThrown,
): void {
  const port = parentPort;
  port?.on("message", async (task: Task) => {
    try {
      // Inside the try: a result that cannot be copied back is answered as a failure too.
      port.postMessage({ ok: true, result: await handle(task) } satisfies ThreadAnswer<Result>);
    } catch (err) {
      port.postMessage({ ok: false, error: describe(err) } satisfies ThreadAnswer<Result>);
    }
  });
}
