// `node --import ./scripts/ts-loader/register.mjs`: runs .ts sources (hooks.mjs). The test
// suite's loader (scripts/run-tests.mjs); worker threads that load .ts modules register it
// too (src/solver/module-thread.ts reads EMSIM_TS_LOADER).
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);
