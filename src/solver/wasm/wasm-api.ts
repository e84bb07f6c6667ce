/**
 * The part of the WebAssembly JS API the fast kernel uses, typed here because the project
 * compiles against lib ES2023 without the DOM typings that declare it.
 */
export interface WasmMemory {
  readonly buffer: SharedArrayBuffer;
}
/** A compiled module (opaque; clonable to worker threads). */
export interface WasmModule {
  readonly __wasmModule?: never;
}
export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum: number; shared: true }) => WasmMemory;
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(
    module: WasmModule,
    imports: Record<string, Record<string, unknown>>,
  ): Promise<WasmInstance>;
  Instance: new (
    module: WasmModule,
    imports: Record<string, Record<string, unknown>>,
  ) => WasmInstance;
}

export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
