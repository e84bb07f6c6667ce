/**
 * Memory-bandwidth probe from the solver's own runtime: STREAM-style copy (a = b) and triad
 * (a = b + s·c) over float32 arrays far larger than the caches, in WebAssembly SIMD (so it
 * measures the memory system, not V8's scalar loops), on 1 thread and on several threads that
 * share one WebAssembly.Memory and meet at the same Atomics barrier the kernel uses. Bytes are
 * counted as STREAM does: 8 per element for copy, 12 for triad (no write-allocate traffic).
 */
import { Worker } from "node:worker_threads";
import { Command, ControlBlock } from "../src/solver/wasm/barrier.js";
import { compileWat } from "../src/solver/wasm/compile.js";
import { CONTROL_BYTES } from "../src/solver/wasm/memory-plan.js";
import { wasm, type WasmMemory, type WasmModule } from "../src/solver/wasm/wasm-api.js";

export const PROBE_ELEMENTS = 64 * 1024 * 1024; // 256 MiB per array, three arrays

export interface BandwidthFigures {
  threads: number;
  copyGBps: number;
  triadGBps: number;
}

export function probeWat(pages: number): string {
  return `(module
  (import "env" "memory" (memory ${pages} ${pages} shared))
  (func (export "copy") (param $a i32) (param $b i32) (param $n i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $n) (i32.const 2))))
    (block $done (loop $l
      (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
      (v128.store offset=0 (local.get $a) (v128.load offset=0 (local.get $b)))
      (v128.store offset=16 (local.get $a) (v128.load offset=16 (local.get $b)))
      (v128.store offset=32 (local.get $a) (v128.load offset=32 (local.get $b)))
      (v128.store offset=48 (local.get $a) (v128.load offset=48 (local.get $b)))
      (local.set $a (i32.add (local.get $a) (i32.const 64)))
      (local.set $b (i32.add (local.get $b) (i32.const 64)))
      (br $l))))
  (func (export "triad") (param $a i32) (param $b i32) (param $c i32) (param $n i32) (param $s f32)
    (local $end i32) (local $sv v128)
    (local.set $sv (f32x4.splat (local.get $s)))
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $n) (i32.const 2))))
    (block $done (loop $l
      (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
      (v128.store offset=0 (local.get $a) (f32x4.add (v128.load offset=0 (local.get $b)) (f32x4.mul (local.get $sv) (v128.load offset=0 (local.get $c)))))
      (v128.store offset=16 (local.get $a) (f32x4.add (v128.load offset=16 (local.get $b)) (f32x4.mul (local.get $sv) (v128.load offset=16 (local.get $c)))))
      (v128.store offset=32 (local.get $a) (f32x4.add (v128.load offset=32 (local.get $b)) (f32x4.mul (local.get $sv) (v128.load offset=32 (local.get $c)))))
      (v128.store offset=48 (local.get $a) (f32x4.add (v128.load offset=48 (local.get $b)) (f32x4.mul (local.get $sv) (v128.load offset=48 (local.get $c)))))
      (local.set $a (i32.add (local.get $a) (i32.const 64)))
      (local.set $b (i32.add (local.get $b) (i32.const 64)))
      (local.set $c (i32.add (local.get $c) (i32.const 64)))
      (br $l)))))`;
}

export interface ProbeExports {
  copy(a: number, b: number, n: number): void;
  triad(a: number, b: number, c: number, n: number, s: number): void;
}

export interface ProbeThreadData {
  module: WasmModule;
  memory: WasmMemory;
  thread: number;
  threads: number;
}

/** Array base addresses (bytes) in the probe memory. */
export function probeArrays(): [number, number, number] {
  const bytes = PROBE_ELEMENTS * 4;
  return [CONTROL_BYTES, CONTROL_BYTES + bytes, CONTROL_BYTES + 2 * bytes];
}

/** This thread's share [offset, count) of the elements, a multiple of 16 floats. */
export function probeShare(thread: number, threads: number): [number, number] {
  const chunks = PROBE_ELEMENTS / 16;
  const lo = Math.floor((thread * chunks) / threads) * 16;
  const hi = Math.floor(((thread + 1) * chunks) / threads) * 16;
  return [lo, hi - lo];
}

/** Runs one probe operation (0 copy, 1 triad) on this thread's share. */
export function probeRun(ex: ProbeExports, op: number, thread: number, threads: number): void {
  const [a, b, c] = probeArrays();
  const [off, n] = probeShare(thread, threads);
  if (op === 0) ex.copy(a + 4 * off, b + 4 * off, n);
  else ex.triad(a + 4 * off, b + 4 * off, c + 4 * off, n, 1.5);
}

function startThread(data: ProbeThreadData): Worker {
  const url = new URL(
    `./bandwidth-thread${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`,
    import.meta.url,
  );
  if (!url.pathname.endsWith(".ts")) return new Worker(url, { workerData: data });
  const bootstrap = `import("tsx/esm/api").then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: data });
}

/** Best of `repeats` copy and triad rates, in GB/s (1e9 bytes), on `threads` threads. */
export async function measureBandwidth(
  threadCounts: number[],
  repeats = 5,
): Promise<BandwidthFigures[]> {
  const totalBytes = CONTROL_BYTES + 3 * PROBE_ELEMENTS * 4;
  const pages = Math.ceil(totalBytes / 65536);
  const memory = new wasm.Memory({ initial: pages, maximum: pages, shared: true });
  // Touch every page once so the first pass does not measure page faults.
  new Float32Array(memory.buffer, CONTROL_BYTES, 3 * PROBE_ELEMENTS).fill(1);
  const module = await compileWat("bandwidth-probe", probeWat(pages));
  const instance = await wasm.instantiate(module, { env: { memory } });
  const ex = instance.exports as unknown as ProbeExports;
  const out: BandwidthFigures[] = [];
  for (const threads of threadCounts) {
    const workers: Worker[] = [];
    const control = new ControlBlock(memory.buffer, threads);
    try {
      await Promise.all(
        Array.from({ length: threads - 1 }, (_, i) => {
          const w = startThread({ module, memory, thread: i + 1, threads });
          workers.push(w);
          return new Promise<void>((resolve, reject) => {
            w.once("message", () => resolve());
            w.once("error", reject);
          });
        }),
      );
      const best = [Infinity, Infinity];
      for (let r = 0; r < repeats; r++) {
        for (const op of [0, 1]) {
          // The kernel's commands double as the probe's: Step = copy, Energy = triad.
          control.command = op === 0 ? Command.Step : Command.Energy;
          control.arrive();
          const t0 = performance.now();
          probeRun(ex, op, 0, threads);
          control.arrive();
          best[op] = Math.min(best[op], (performance.now() - t0) / 1000);
        }
      }
      control.command = Command.Exit;
      control.arrive();
      out.push({
        threads,
        copyGBps: (8 * PROBE_ELEMENTS) / best[0] / 1e9,
        triadGBps: (12 * PROBE_ELEMENTS) / best[1] / 1e9,
      });
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
  }
  return out;
}
