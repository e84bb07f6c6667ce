/**
 * Entry of a kernel worker thread: instantiates the compiled kernel against the shared memory
 * and then only meets the other threads at the control block's barrier, running the command
 * found there, until told to exit. Nothing is posted per step.
 */
import { parentPort, workerData } from "node:worker_threads";
import { Command, ControlBlock, KernelFailure } from "./barrier.js";
import { SlabSweeper, type KernelExports, type SweepConfig } from "./sweep.js";
import { wasm, type WasmMemory, type WasmModule } from "./wasm-api.js";

export interface KernelThreadData {
  module: WasmModule;
  memory: WasmMemory;
  config: SweepConfig;
  thread: number;
}

const data = workerData as KernelThreadData;
const port = parentPort!;
const control = new ControlBlock(data.memory.buffer, data.config.slabs.length);
try {
  const instance = new wasm.Instance(data.module, { env: { memory: data.memory } });
  const sweeper = new SlabSweeper(
    instance.exports as unknown as KernelExports,
    data.memory.buffer,
    data.config,
    data.thread,
    () => control.failed,
  );
  port.postMessage({ type: "ready" });
  for (;;) {
    control.arrive();
    const command = control.command;
    if (command === Command.Exit) break;
    if (command === Command.Step) {
      sweeper.runBlock(control.blockBase, control.blockDepth);
      control.arrive();
    } else if (command === Command.Energy) {
      control.partial[data.thread] = sweeper.energy();
      control.arrive();
    }
  }
} catch (err) {
  if (!(err instanceof KernelFailure)) {
    control.fail();
    port.postMessage({ type: "error", message: (err as Error).stack ?? String(err) });
  }
}
