/**
 * startModuleThread from TypeScript sources: the thread registers a loader for its .ts module
 * itself, the one EMSIM_TS_LOADER names (the test suite's) or else tsx's, and both run it.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { startModuleThread } from "./module-thread.js";

const ECHO = new URL("./testing/echo-thread.ts", import.meta.url);
const SUITE_LOADER = pathToFileURL("scripts/ts-loader/register.mjs").href;

async function echoes(loader: string | undefined): Promise<unknown> {
  const saved = process.env.EMSIM_TS_LOADER;
  if (loader === undefined) delete process.env.EMSIM_TS_LOADER;
  else process.env.EMSIM_TS_LOADER = loader;
  try {
    const thread = startModuleThread(ECHO);
    try {
      thread.postMessage({ ping: 1 });
      const [answer] = (await Promise.race([
        once(thread, "message"),
        once(thread, "error").then(([err]) => Promise.reject(err as Error)),
      ])) as unknown[];
      return answer;
    } finally {
      await thread.terminate();
    }
  } finally {
    if (saved === undefined) delete process.env.EMSIM_TS_LOADER;
    else process.env.EMSIM_TS_LOADER = saved;
  }
}

test("a .ts thread module runs under the suite's loader", async () => {
  assert.deepEqual(await echoes(SUITE_LOADER), { ping: 1 });
});

test("a .ts thread module runs under tsx's when no loader is named", async () => {
  assert.deepEqual(await echoes(undefined), { ping: 1 });
});
