/**
 * A child process for thread-ending.test.ts: starts a solver thread that warms up on the
 * `webgpu` backend (so that it loads Dawn and looks for an adapter), and ends it with
 * `endThread` OFFSET_MS milliseconds after the thread raised its finding-backend flag. It
 * exits 0 once the thread is gone; a thread ended inside Dawn's adapter search aborts the
 * whole process instead ("FATAL ERROR … napi_throw").
 *
 *   node --import <loader> end-while-finding.ts OFFSET_MS SCRATCH_FILE
 */
import { siblingModule } from "../../solver/index.js";
import { backendSearch, endThread, startSolverThreadAt } from "../thread-ending.js";

const offsetMs = Number(process.argv[2] ?? 0);
const scratchPath = process.argv[3] ?? "/dev/null";
const thread = startSolverThreadAt(siblingModule("../solver-thread", import.meta.url));
thread.postMessage({ type: "warm", warm: { backend: "webgpu", threads: 1, scratchPath } });

// A thread that fails before it looks for its backend is said at once, not waited for.
let ended: string | null = null;
thread.on("error", (err) => (ended ??= `error: ${err.message}`));
thread.on("exit", (code) => (ended ??= `exit code ${code}`));
const deadline = Date.now() + 60_000;
while (backendSearch(thread) === "not begun") {
  if (ended) throw new Error(`the thread ended before it looked for its backend (${ended})`);
  if (Date.now() > deadline) throw new Error("the thread never started finding its backend");
  await new Promise((resolve) => setImmediate(resolve));
}
// A search shorter than this loop's turn (a host without a GPU driver at all) may be over
// already; the thread is then ended after it, which must not fail either.
const seen = backendSearch(thread);
const raisedAt = performance.now();
while (performance.now() - raisedAt < offsetMs) await new Promise((r) => setImmediate(r));
await endThread(thread);
console.log(`ended ${offsetMs} ms after the flag rose (${seen} when seen)`);
