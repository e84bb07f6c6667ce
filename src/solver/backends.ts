/**
 * Which backend runs. `auto` picks the WebGPU backend on a hardware GPU adapter when one was
 * found at start-up, else the WebAssembly SIMD backend where the runtime has SIMD and shared
 * memories (Node 20 on x86-64 and arm64 does), else the reference backend; it never picks a
 * software GPU adapter. Naming `webgpu` explicitly takes the best adapter there is, a
 * software one (Mesa's llvmpipe) included: that is how the tests run the GPU kernels on a
 * machine without a GPU, and a run report says which adapter ran.
 *
 * Finding an adapter is asynchronous, so a process decides once at start-up:
 * `initSolverBackend(choice)` (the server, the worker thread, the CLI, the benchmarks), after
 * which the synchronous `solverBackend(choice)` returns the same backend.
 */
import type { BackendChoice, SolverBackend } from "./backend.js";
import { wasmBackend } from "./wasm/engine.js";
import { findGpuAdapter } from "./webgpu/device.js";
export { describeAdapter } from "./webgpu/device.js";
import { webgpuBackend } from "./webgpu/engine.js";
import { referenceBackend } from "./reference/backend.js";

/** What start-up found: the GPU backend per choice, or why there is none. */
const gpuFound = new Map<"auto" | "webgpu", SolverBackend | string>();

/**
 * A module with one function returning a v128 constant: WebAssembly.validate accepts it only
 * where 128-bit SIMD is supported.
 */
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, 0x03,
  0x02, 0x01, 0x00, 0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0b,
]);

let wasmOk: boolean | null = null;

/** Whether this runtime can run the wasm backend (SIMD and a shared WebAssembly.Memory). */
export function wasmBackendSupported(): boolean {
  if (wasmOk !== null) return wasmOk;
  const api = (
    globalThis as unknown as {
      WebAssembly?: {
        validate(bytes: Uint8Array): boolean;
        Memory: new (d: { initial: number; maximum: number; shared: boolean }) => object;
      };
    }
  ).WebAssembly;
  try {
    wasmOk = !!api && api.validate(SIMD_PROBE);
    if (wasmOk) new api!.Memory({ initial: 1, maximum: 1, shared: true });
  } catch {
    wasmOk = false;
  }
  return wasmOk;
}

/**
 * Resolves a choice once per process, looking for a GPU adapter where the choice allows one
 * (`auto`: hardware only; `webgpu`: software too); throws when the named backend cannot run.
 */
export async function initSolverBackend(choice: BackendChoice = "auto"): Promise<SolverBackend> {
  if ((choice === "auto" || choice === "webgpu") && !gpuFound.has(choice)) {
    const probe = await findGpuAdapter(choice === "webgpu");
    gpuFound.set(choice, probe.adapter ? webgpuBackend(probe.adapter) : probe.reason);
  }
  return solverBackend(choice);
}

/**
 * The choice to hand another thread of this process: `auto` as the backend start-up resolved
 * it to, any named backend as it is. A thread given `wasm` (no hardware GPU here) never loads
 * Dawn: a thread ended while Dawn was looking for an adapter took the whole process down with
 * it (Dawn's napi_throw into a terminating thread is fatal), and the worker ends warming and
 * cancelled solver threads at any moment.
 */
export function resolvedChoice(choice: BackendChoice): BackendChoice {
  return choice === "auto" ? solverBackend("auto").name : choice;
}

/** The backend a choice names; throws when the named backend cannot run here. */
export function solverBackend(choice: BackendChoice = "auto"): SolverBackend {
  const gpu = choice === "auto" || choice === "webgpu" ? gpuFound.get(choice) : undefined;
  switch (choice) {
    case "reference":
      return referenceBackend;
    case "wasm":
      if (!wasmBackendSupported()) {
        throw new Error(
          "the wasm solver backend needs WebAssembly SIMD and shared memory, which this " +
            "runtime lacks; use the reference backend",
        );
      }
      return wasmBackend;
    case "webgpu":
      if (gpu === undefined) {
        throw new Error(
          "the webgpu solver backend needs its GPU adapter found at start-up: " +
            "await initSolverBackend('webgpu') first",
        );
      }
      if (typeof gpu === "string")
        throw new Error(`no WebGPU adapter for the webgpu backend: ${gpu}`);
      return gpu;
    case "auto":
      if (gpu !== undefined && typeof gpu !== "string") return gpu;
      return wasmBackendSupported() ? wasmBackend : referenceBackend;
    default:
      throw new Error(
        `unknown solver backend "${String(choice)}" (auto, wasm, webgpu or reference)`,
      );
  }
}
