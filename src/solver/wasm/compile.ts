/**
 * Compiles generated WAT with npm `wabt` (at run time, once per distinct text) to a
 * WebAssembly.Module that every kernel thread instantiates against the shared memory.
 * A WebAssembly.Module can be posted to worker threads, so only this thread compiles.
 */
import wabtInit from "wabt";
import { wasm, type WasmModule } from "./wasm-api.js";

type Wabt = Awaited<ReturnType<typeof wabtInit>>;

let wabt: Promise<Wabt> | null = null;
const cache = new Map<string, Promise<WasmModule>>();
/** Distinct kernels kept: one per recent grid shape. */
const CACHE_ENTRIES = 8;

/** WAT text → compiled module (SIMD and threads enabled), memoised on the text. */
export function compileWat(name: string, wat: string): Promise<WasmModule> {
  const hit = cache.get(wat);
  if (hit) return hit;
  const compiled = (async () => {
    wabt ??= wabtInit();
    const w = await wabt;
    const features = { simd: true, threads: true };
    const parsed = w.parseWat(name, wat, features);
    try {
      // No parsed.validate(): WebAssembly.compile validates the binary anyway, and wabt's
      // validator costs 15–30 ms per kernel (it would also need the feature set passed again,
      // which its typings omit, or it refuses shared memories).
      // The WAT names kept (a few KiB): profilers then name the kernel's functions.
      const { buffer } = parsed.toBinary({ write_debug_names: true });
      return await wasm.compile(buffer);
    } finally {
      parsed.destroy();
    }
  })();
  cache.set(wat, compiled);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  compiled.catch(() => cache.delete(wat));
  return compiled;
}
