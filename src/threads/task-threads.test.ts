/**
 * TaskThreads against a real thread module (testing/echo-thread.ts): answers, the owner's
 * words for each failure, replacement of a broken thread, the concurrency cap and close().
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { MessageChannel } from "node:worker_threads";
import { TaskThreads, type TaskThreadErrors, type TaskThreadLimits } from "./task-threads.js";
import type { EchoResult, EchoTask } from "./testing/echo-thread.js";

const ECHO_URL = new URL(
  `./testing/echo-thread${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`,
  import.meta.url,
);

class Busy extends Error {}

/** The owner's words: each failure says which one it is, with the limit that was passed. */
const ERRORS: TaskThreadErrors = {
  busy: () => new Busy("busy"),
  timedOut: (l) => new Error(`timed out after ${l.timeoutSeconds} s`),
  outOfMemory: (l) => new Error(`out of memory above ${l.maxMemoryMb} MiB`),
  failed: (f) => new Error(`failed: ${f.name}: ${f.message}`),
};

/** A pool whose limits the test can change between tasks (they are read at each task). */
function pool(limits: Partial<TaskThreadLimits> = {}) {
  const current: TaskThreadLimits = {
    maxConcurrent: 2,
    timeoutSeconds: 20,
    maxMemoryMb: 256,
    ...limits,
  };
  return {
    current,
    threads: new TaskThreads<EchoTask, EchoResult>(ECHO_URL, () => current, ERRORS),
  };
}

test("answers come back, from the same warm thread", async () => {
  const { threads } = pool();
  try {
    const a = await threads.run({ op: "echo", value: { n: 1, s: ["x"] } });
    assert.deepEqual(a.value, { n: 1, s: ["x"] });
    const b = await threads.run({ op: "echo", value: 2 });
    assert.equal(b.value, 2);
    assert.equal(b.threadId, a.threadId, "the idle thread is reused");
  } finally {
    await threads.close();
  }
});

test("a task that throws is worded by errors.failed, and its thread is kept", async () => {
  const { threads } = pool();
  try {
    const before = await threads.run({ op: "echo", value: 0 });
    await assert.rejects(threads.run({ op: "throw", message: "no such cell" }), {
      message: "failed: RangeError: no such cell",
    });
    const after = await threads.run({ op: "echo", value: 0 });
    assert.equal(after.threadId, before.threadId);
  } finally {
    await threads.close();
  }
});

test("a task past its time is worded by errors.timedOut, and its thread is replaced", async () => {
  const { current, threads } = pool();
  try {
    // Warm first: a fresh thread's start (tsx compiling) would count against a short limit.
    const before = await threads.run({ op: "echo", value: 0 });
    current.timeoutSeconds = 0.3;
    const started = Date.now();
    await assert.rejects(threads.run({ op: "spin" }), { message: "timed out after 0.3 s" });
    assert.ok(Date.now() - started < 2000, "stopped near its limit");
    current.timeoutSeconds = 20;
    const after = await threads.run({ op: "echo", value: 0 });
    assert.notEqual(after.threadId, before.threadId, "the spinning thread is not reused");
  } finally {
    await threads.close();
  }
});

test("a task past the heap limit is worded by errors.outOfMemory", async () => {
  const { threads } = pool({ maxMemoryMb: 64 });
  try {
    await assert.rejects(threads.run({ op: "allocate" }), {
      message: "out of memory above 64 MiB",
    });
    assert.equal((await threads.run({ op: "echo", value: 1 })).value, 1);
  } finally {
    await threads.close();
  }
});

test("busy when maxConcurrent tasks are running; free again once one ends", async () => {
  const { threads } = pool({ maxConcurrent: 1 });
  try {
    const slow = threads.run({ op: "echo", value: "slow", delayMs: 300 });
    await assert.rejects(threads.run({ op: "echo", value: "more" }), Busy);
    assert.equal((await slow).value, "slow");
    assert.equal((await threads.run({ op: "echo", value: "more" })).value, "more");
  } finally {
    await threads.close();
  }
});

test("an aborted task rejects with the reason at once and frees its slot", async () => {
  const { threads } = pool({ maxConcurrent: 1 });
  try {
    const gone = new AbortController();
    const started = Date.now();
    const spinning = threads.run({ op: "spin" }, { signal: gone.signal });
    setTimeout(() => gone.abort(new Error("caller gone")), 100);
    await assert.rejects(spinning, { message: "caller gone" });
    assert.ok(Date.now() - started < 2000, "the abort waited for the task");
    // The spinning thread was terminated: a fresh one answers the next task.
    assert.equal((await threads.run({ op: "echo", value: 3 })).value, 3);
    const already = AbortSignal.abort(new Error("gone before"));
    await assert.rejects(threads.run({ op: "echo", value: 4 }, { signal: already }), {
      message: "gone before",
    });
  } finally {
    await threads.close();
  }
});

test("close() ends the idle threads", async () => {
  const { threads } = pool();
  const { port1, port2 } = new MessageChannel();
  try {
    // The thread holds one end of a channel: the other end closes when the thread ends.
    await threads.run({ op: "hold", port: port2 }, { transfer: [port2] });
    const closed = once(port1, "close");
    await threads.close();
    // The timer is what keeps the event loop alive until the close arrives (a port's close
    // listener does not): unref'd, a loaded machine's loop could run out first.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("the idle thread still runs")), 5000);
    });
    await Promise.race([closed, timeout]).finally(() => clearTimeout(timer));
  } finally {
    port1.close();
    await threads.close();
  }
});
