/**
 * Starts a worker thread on one of emsim's modules. Compiled (dist/) the module is a plain
 * one; from TypeScript sources (development, tests) the thread registers a TypeScript loader
 * itself first, because Node 20 does not carry `--import` loaders into worker threads: the
 * one EMSIM_TS_LOADER names (a module that registers on import: the test suite's,
 * scripts/ts-loader/register.mjs), tsx's otherwise. The solver's kernel and mode-solve
 * threads, the solver thread and the task threads all start this way.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * The URL of module `name` (without extension) beside `base` (the caller's import.meta.url),
 * as .ts under tsx and .js compiled.
 */
export function siblingModule(name: string, base: string): URL {
  return new URL(`./${name}${base.endsWith(".ts") ? ".ts" : ".js"}`, base);
}

/** A worker running the module at `url`, with `options` (workerData, resourceLimits …). */
export function startModuleThread(url: URL, options: WorkerOptions = {}): Worker {
  if (!url.pathname.endsWith(".ts")) return new Worker(url, options);
  const loader = process.env.EMSIM_TS_LOADER;
  const bootstrap = loader
    ? `import(${JSON.stringify(loader)}).then(() => import(${JSON.stringify(url.href)}))`
    : `import("tsx/esm/api").then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
