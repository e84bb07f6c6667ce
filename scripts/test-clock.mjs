// `node --import ./scripts/test-clock.mjs`, in each test file's process (scripts/run-tests.mjs):
// on exit, the file's wall time from its process's start (imports, hooks and tests together)
// is added as a line to $EMSIM_TEST_CLOCK_DIR/times.jsonl. The runner's own reporter cannot
// tell it: Node reports a file's events only once the files before it have finished.
import { appendFileSync } from "node:fs";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

const dir = process.env.EMSIM_TEST_CLOCK_DIR;
const file = process.argv[1] ?? "";
if (dir && isMainThread && file.endsWith(".test.ts")) {
  process.on("exit", () => {
    const seconds = (Date.now() - performance.timeOrigin) / 1000;
    const line = JSON.stringify({ file: relative(process.cwd(), file), seconds });
    appendFileSync(join(dir, "times.jsonl"), `${line}\n`);
  });
}
