/**
 * Which backend runs: `auto` picks the WebAssembly SIMD backend where the runtime has SIMD and
 * shared memories (Node 20 on x86-64 and arm64 does), else the reference backend.
 */
import type { BackendChoice, SolverBackend } from "./backend.js";
import { wasmBackend } from "./fast/engine.js";
import { referenceBackend } from "./reference-backend.js";

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

/** The backend a choice names; throws when the named backend cannot run here. */
export function solverBackend(choice: BackendChoice = "auto"): SolverBackend {
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
    case "auto":
      return wasmBackendSupported() ? wasmBackend : referenceBackend;
    default:
      throw new Error(`unknown solver backend "${String(choice)}" (auto, wasm or reference)`);
  }
}
