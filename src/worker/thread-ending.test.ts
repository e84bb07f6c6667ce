/**
 * Ending a solver thread while Dawn looks for a GPU adapter (thread-ending.ts). Ended with a
 * plain `terminate` 3–10 ms after it began, about every other such thread took its whole
 * process down ("FATAL ERROR: Error::ThrowAsJavaScriptException napi_throw"; CI saw it as a
 * client test file that failed after all its tests had passed, when the worker's stop ended a
 * warming thread). Each case runs in a child process of its own (testing/end-while-finding.ts),
 * so that such an abort fails one case instead of this file.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";

const CHILD = fileURLToPath(new URL("./testing/end-while-finding.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "emsim-thread-ending-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The child's exit code and what it printed, for one offset. */
function endAfter(offsetMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const scratch = join(dir, `warm-${offsetMs}.h5`);
    // The same loader as this process (the suite's, or tsx's).
    const child = spawn(process.execPath, [...process.execArgv, CHILD, String(offsetMs), scratch], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

test("a solver thread ended while it finds its GPU adapter does not take the process down", async () => {
  // The offsets where a plain terminate aborted the process, one child at a time: children
  // run side by side shift each other's timing, and caught the abort less often.
  for (const offset of [2, 3, 4, 5, 6, 7, 8, 9, 10]) {
    const { code, output } = await endAfter(offset);
    assert.doesNotMatch(output, /FATAL ERROR/, `ended ${offset} ms in:\n${output}`);
    assert.equal(code, 0, `ended ${offset} ms in:\n${output}`);
    assert.match(output, new RegExp(`ended ${offset} ms after the flag rose`));
  }
});
