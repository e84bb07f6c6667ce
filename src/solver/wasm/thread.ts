/**
 * Entry of a kernel worker thread. Per run (a `job` message, pool.ts) it instantiates the
 * compiled kernel against the run's shared memory and then only meets the other threads at
 * the control block's barrier, running the command found there, until told to exit; then it
 * answers `done` and waits for the next run. Nothing is posted per step.
 */
import { parentPort } from "node:worker_threads";
import { allocateFieldSet, type FieldSet } from "../fields.js";
import { MonitorRecorders, type MonitorSampling } from "../monitors.js";
import { Command, ControlBlock, KernelFailure } from "./barrier.js";
import { SlabSweeper, type KernelExports, type SweepConfig } from "./sweep.js";
import { wasm, type WasmMemory, type WasmModule } from "./wasm-api.js";

export interface KernelThreadData {
  module: WasmModule;
  memory: WasmMemory;
  config: SweepConfig;
  thread: number;
  /** The monitors whose points this thread's part of each Dft command adds (engine.ts). */
  dft: DftThreadData | null;
}

/** What a thread needs to add its part of the monitors' DFT samples. */
export interface DftThreadData {
  monitors: MonitorSampling[];
  nonzero: boolean[];
  /** The running sums, per monitor and stream, in shared memory. */
  sums: Float64Array[][];
}

/** The field sets as views of the kernel's memory, as the engine makes them (engine.ts). */
function fieldSets(buffer: ArrayBufferLike, config: SweepConfig): FieldSet[] {
  return Array.from({ length: config.sets }, (_, s) =>
    allocateFieldSet(config, buffer, config.components[0] + s * config.setBytes),
  );
}

/** What a thread posts: its run started, its run ended (Command.Exit), or it failed. */
export type ThreadReply = { type: "ready" } | { type: "done" } | { type: "error"; message: string };

const port = parentPort!;
const reply = (m: ThreadReply) => port.postMessage(m);
port.on("message", (m: { type: "job"; data: KernelThreadData }) => {
  if (m.type === "job") runJob(m.data);
});

/** One run: the kernel against the run's memory, the commands at the barrier until Exit. */
function runJob(data: KernelThreadData): void {
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
    const recorders = data.dft
      ? new MonitorRecorders(data.dft.monitors, data.dft.nonzero, data.dft.sums)
      : null;
    const sets = fieldSets(data.memory.buffer, data.config);
    reply({ type: "ready" });
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
      } else if (command === Command.Dft) {
        const [tE, tH, weight] = control.dft;
        recorders?.record(
          sets[0],
          sets[1] ?? null,
          tE,
          tH,
          weight,
          data.thread,
          data.config.slabs.length,
        );
        control.arrive();
      }
    }
    reply({ type: "done" });
  } catch (err) {
    if (!(err instanceof KernelFailure)) control.fail();
    const message = err instanceof KernelFailure ? "" : ((err as Error).stack ?? String(err));
    reply({ type: "error", message });
  }
}
