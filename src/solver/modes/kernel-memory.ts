/**
 * The kernel memories of the mode solver (kernels.ts): one linear memory per LU's store or
 * Krylov basis, and the spare ones this thread keeps for the next solve.
 *
 * Why keep them: a page of fresh memory costs its first touch, and on the virtual machines
 * this service runs on that is 10–12 µs a 4 KiB page (2.8 ms a MiB, measured: a 100 MB
 * Float64Array filled once took 280 ms, a second time 3 ms). A port plane of 6 000 unknowns
 * takes an 11 MB store per LU and 3 MB per Krylov basis, and a plane's eleven wavelengths
 * took three stores and eleven bases afresh: about a quarter of a solve in page faults
 * (docs/benchmarks.md, "Fresh pages"). A memory given back (`release`) is kept (at most
 * SPARE_COUNT of them, none larger than SPARE_MAX_BYTES) and the next kernelMemory takes the
 * smallest that fits (or a new one: takeMemory) and zeroes the part it hands out, so that a
 * solve sees exactly what a fresh memory would give it. A server's warm-up reserves memories
 * of a port plane's size on each thread (reserveKernelMemory), so that its first job's planes
 * find them touched already.
 */
import { boundKernels, type KernelExports, type WasmMemory } from "./kernels.js";

const PAGE_BYTES = 65536;
/** wasm32 addresses 4 GiB; the planes' byte offsets must stay below 2³¹ as i32 arithmetic. */
const MAX_BYTES = 2 ** 31 - PAGE_BYTES;
/** Spare memories kept per thread: an LU's store and a Krylov basis, and one more. */
export const SPARE_COUNT = 3;
/** Larger memories are not kept (a big plane's store would hold its memory for good). */
export const SPARE_MAX_BYTES = 64 * 2 ** 20;

/** A complex array of `length` elements in a kernel memory: planes and their byte offsets. */
export interface KernelArray {
  re: Float64Array;
  im: Float64Array;
  reOff: number;
  imOff: number;
}

interface Bound {
  memory: WasmMemory;
  k: KernelExports;
}

/** This thread's spare memories, smallest first (module state is per thread). */
const spares: Bound[] = [];

/**
 * One linear memory holding complex arrays of the given lengths, with the kernels bound to
 * it: all real planes first, then all imaginary planes in the same order, so that every
 * array's imaginary plane lies the same `planeGap` bytes after its real one (kernels that
 * take one pair of plane bases can then combine any two arrays). The memory does not grow
 * while it is handed out (growing would detach the arrays' views); `release` gives it back
 * for a later solve, after which the arrays must not be used.
 * @throws RangeError when the arrays need more than 2 GiB
 */
export function kernelMemory(
  lengths: readonly number[],
  ints = 0,
): {
  arrays: KernelArray[];
  planeGap: number;
  /** `ints` i32 of scratch after the planes (index lists for the kernels). */
  ints: { view: Int32Array; off: number };
  k: KernelExports;
  release: () => void;
} {
  const elements = lengths.reduce((sum, n) => sum + n + 2, 0);
  const planeGap = 8 * elements;
  const bytes = 2 * planeGap + 4 * ints;
  if (bytes > MAX_BYTES) {
    throw new RangeError(`the LU needs ${(bytes / 2 ** 30).toFixed(1)} GiB (2 GiB at most)`);
  }
  const bound = takeMemory(bytes);
  const buffer = bound.memory.buffer;
  const arrays: KernelArray[] = [];
  let reOff = 0;
  for (const n of lengths) {
    const imOff = reOff + planeGap;
    arrays.push({
      re: new Float64Array(buffer, reOff, n),
      im: new Float64Array(buffer, imOff, n),
      reOff,
      imOff,
    });
    reOff += 8 * (n + 2);
  }
  const intsOff = 2 * planeGap;
  let released = false;
  return {
    arrays,
    planeGap,
    ints: { view: new Int32Array(buffer, intsOff, ints), off: intsOff },
    k: bound.k,
    release: () => {
      if (!released) keepSpare(bound);
      released = true;
    },
  };
}

/**
 * Makes sure this thread keeps a spare memory of at least each of `bytes`, its pages touched
 * (a server's warm-up, for its first job's planes).
 */
export function reserveKernelMemory(bytes: readonly number[]): void {
  const taken = bytes.map((b) => takeMemory(Math.min(b, SPARE_MAX_BYTES)));
  for (const bound of taken) {
    bound.k.zero(0, bound.memory.buffer.byteLength);
    keepSpare(bound);
  }
}

/** Bytes of the spare memories this thread keeps, smallest first (tests). */
export function spareKernelBytes(): number[] {
  return spares.map((b) => b.memory.buffer.byteLength);
}

/**
 * A memory of at least `bytes` (and a page more), its first `bytes` zero: the smallest spare
 * that fits, else a new one. Spares are never grown: growing a memory detaches its buffer,
 * and the first ArrayBuffer detached in a thread makes V8 drop the optimised code of every
 * function that assumed none would be (its "detaching protector"), typed-array loops
 * included: a server's first ports job took 0.2–0.3 s longer with spares grown.
 */
function takeMemory(bytes: number): Bound {
  const pages = Math.ceil(bytes / PAGE_BYTES) + 1;
  const fits = spares.findIndex((b) => b.memory.buffer.byteLength >= pages * PAGE_BYTES);
  if (fits < 0) return boundKernels(pages);
  const [bound] = spares.splice(fits, 1) as [Bound];
  bound.k.zero(0, bytes);
  return bound;
}

/** Keeps a memory given back, unless it is too large; beyond SPARE_COUNT the smallest goes. */
function keepSpare(bound: Bound): void {
  if (bound.memory.buffer.byteLength > SPARE_MAX_BYTES) return;
  spares.push(bound);
  spares.sort((a, b) => a.memory.buffer.byteLength - b.memory.buffer.byteLength);
  if (spares.length > SPARE_COUNT) spares.shift();
}
