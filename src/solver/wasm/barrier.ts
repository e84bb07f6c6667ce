/**
 * The control block at the start of the kernel's shared memory: a generation barrier, the
 * command the threads run next, an error flag, the source's drive values of the current step
 * and per-thread partial sums. Threads meet at the barrier three times per time step (start,
 * between the sweep and the deferred planes, end); no message is posted per step.
 *
 * A waiting thread spins briefly before it sleeps in Atomics.wait: a half step of a large grid
 * takes milliseconds, but the threads of a small one arrive within microseconds of each
 * other, and a futex wake-up costs tens of microseconds.
 */
import { DRIVE_VALUES_PER_STEP, MAX_BLOCK_STEPS } from "../sources/injection.js";

const COUNT = 0;
const GENERATION = 1;
const COMMAND = 2;
const FAILED = 3;
const BLOCK_BASE = 4;
const BLOCK_DEPTH = 5;
/** Byte offset of the f64 drive slots, DRIVE_VALUES_PER_STEP per step of a block. */
export const DRIVE_BYTE_OFFSET = 64;
/**
 * Byte offset of the f64 slots of a Dft command: E's and H's time stamps, the sample weight;
 * past the drive slots and before the partial sums (checked below).
 */
export const DFT_BYTE_OFFSET = 448;
/** Byte offset of the per-thread f64 partial sums. */
export const PARTIAL_BYTE_OFFSET = 512;
export const MAX_THREADS = (4096 - PARTIAL_BYTE_OFFSET) / 8;
if (
  DRIVE_BYTE_OFFSET + 8 * DRIVE_VALUES_PER_STEP * MAX_BLOCK_STEPS > DFT_BYTE_OFFSET ||
  DFT_BYTE_OFFSET + 3 * 8 > PARTIAL_BYTE_OFFSET
) {
  throw new Error("the control block's drive, DFT and partial-sum slots overlap");
}

export const Command = { Step: 1, Energy: 2, Exit: 3, Dft: 4 } as const;
export type Command = (typeof Command)[keyof typeof Command];

const SPINS = 20000;

export class KernelFailure extends Error {
  override name = "KernelFailure";
}

export class ControlBlock {
  private readonly i32: Int32Array;
  readonly drive: Float64Array;
  readonly partial: Float64Array;
  /** The sample a Dft command adds: [tE, tH, sample weight] (monitors.ts DftRecorder.record). */
  readonly dft: Float64Array;

  constructor(
    buffer: ArrayBufferLike,
    private readonly parties: number,
  ) {
    this.i32 = new Int32Array(buffer, 0, 16);
    this.drive = new Float64Array(
      buffer,
      DRIVE_BYTE_OFFSET,
      DRIVE_VALUES_PER_STEP * MAX_BLOCK_STEPS,
    );
    this.dft = new Float64Array(buffer, DFT_BYTE_OFFSET, 3);
    this.partial = new Float64Array(buffer, PARTIAL_BYTE_OFFSET, MAX_THREADS);
  }

  get command(): Command {
    return Atomics.load(this.i32, COMMAND) as Command;
  }
  set command(c: Command) {
    Atomics.store(this.i32, COMMAND, c);
  }

  /** The block of time steps the next Step command advances: steps done before it, count. */
  setBlock(base: number, depth: number): void {
    Atomics.store(this.i32, BLOCK_BASE, base);
    Atomics.store(this.i32, BLOCK_DEPTH, depth);
  }
  get blockBase(): number {
    return Atomics.load(this.i32, BLOCK_BASE);
  }
  get blockDepth(): number {
    return Atomics.load(this.i32, BLOCK_DEPTH);
  }

  get failed(): boolean {
    return Atomics.load(this.i32, FAILED) !== 0;
  }

  /** Marks the run failed and wakes every waiting thread (they then throw). */
  fail(): void {
    Atomics.store(this.i32, FAILED, 1);
    Atomics.add(this.i32, GENERATION, 1);
    Atomics.notify(this.i32, GENERATION);
  }

  /** Waits until all parties have arrived; throws KernelFailure if a thread failed. */
  arrive(): void {
    const i32 = this.i32;
    if (this.parties === 1) return;
    const gen = Atomics.load(i32, GENERATION);
    if (Atomics.add(i32, COUNT, 1) === this.parties - 1) {
      Atomics.store(i32, COUNT, 0);
      Atomics.add(i32, GENERATION, 1);
      Atomics.notify(i32, GENERATION);
    } else {
      let spins = 0;
      while (Atomics.load(i32, GENERATION) === gen) {
        if (Atomics.load(i32, FAILED) !== 0) break;
        if (++spins > SPINS) Atomics.wait(i32, GENERATION, gen, 1000);
      }
    }
    if (Atomics.load(i32, FAILED) !== 0) throw new KernelFailure("a kernel thread failed");
  }
}
