/** Worker of the bandwidth probe (bench/bandwidth.ts): runs its share at each barrier. */
import { parentPort, workerData } from "node:worker_threads";
import { Command, ControlBlock } from "../src/solver/wasm/barrier.js";
import { wasm } from "../src/solver/wasm/wasm-api.js";
import { probeRun, type ProbeExports, type ProbeThreadData } from "./bandwidth.js";

const data = workerData as ProbeThreadData;
const instance = new wasm.Instance(data.module, { env: { memory: data.memory } });
const ex = instance.exports as unknown as ProbeExports;
const control = new ControlBlock(data.memory.buffer, data.threads);
parentPort!.postMessage("ready");
for (;;) {
  control.arrive();
  const command = control.command;
  if (command === Command.Exit) break;
  probeRun(ex, command === Command.Step ? 0 : 1, data.thread, data.threads);
  control.arrive();
}
