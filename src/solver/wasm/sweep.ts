/**
 * One thread's share of time stepping: its slab of x-planes, swept so that each plane's data
 * is loaded from memory once per *block* of D time steps instead of once per half step.
 *
 * Per plane i and time level L (steps done), two tasks: H_L(i) (bulk + fused CPML, source terms,
 * ghosts along y and z) and E_L(i) (likewise). Their dependencies are only
 *   H_L(i) after E_{L−1}(i) and E_{L−1}(i+1),   E_L(i) after H_L(i) and H_L(i−1),
 * which also cover the write-after-read hazards of updating in place (H_L(i) overwrites the
 * H_{L−1}(i) that E_{L−1}(i+1) reads, E_L(i) the E_{L−1}(i) that H_L(i−1) reads). Each plane
 * carries two Int32 progress counters in the shared memory (steps completed by its H and
 * its E), and a task first waits for its inputs' counters; inside a slab they are always
 * ready, so threads only ever wait on neighbours at slab edges.
 *
 * A thread runs its tasks in two parts (a "trapezoid" then the edges):
 *  1. Wavefront over positions s = lo … hi−1+D−1, level l = 1…D at plane s−l+1, skipping
 *     the planes within l−1 (H) or l (E) of a slab edge shared with another thread. Every
 *     input is then produced earlier by the same thread: the plane i's data stays in cache
 *     across all D levels (2D+2 planes in flight).
 *  2. The skipped edge tasks, level by level, right edge before left edge: the right edge of
 *     level l needs the neighbour's left edge of level l−1, the left edge of level l the
 *     neighbour's right edge of level l, so no thread waits on a chain.
 * Ghosts (boundaries.ts's copies) follow the task of their source plane: y and z ghosts
 * within the plane, x-plane copies (PMC mirrors, periodic/Bloch copies between the last and
 * the first slab) after waiting for the tasks that read the destination's previous values,
 * then publishing the destination's counter when no task owns that plane.
 * D = 1 is the plain sweep: H then E per plane, the first plane's E after the neighbour's.
 *
 * The sweep runs in every kernel thread, the calling thread included, on views of the one
 * shared memory.
 */
import { GhostPlanes, type GhostCopies, type GhostCopy } from "../boundaries.js";
import {
  DRIVE_VALUES_PER_STEP,
  InjectionPlanes,
  injectionTerms,
  type InjectionConfig,
  type TermAdder,
  MAX_BLOCK_STEPS,
} from "../sources/injection.js";
import type { Boundary } from "../types.js";
import type { AdeSweep } from "./ade-wasm.js";
import { DRIVE_BYTE_OFFSET, KernelFailure } from "./barrier.js";
import { flushesAt } from "./flush.js";

/** Everything a thread needs besides the memory and the compiled kernel (structured-clonable). */
export interface SweepConfig {
  n: [number, number, number];
  strides: [number, number, number];
  paddedCells: number;
  boundaries: [Boundary, Boundary, Boundary];
  /** The boundary ghost copies after each half step (boundaries.ts). */
  ghosts: GhostCopies;
  sets: number;
  /** Byte address of each component of field set 0, and the distance to set 1. */
  components: number[];
  setBytes: number;
  lo: number[];
  hi: number[];
  /** Per thread, its x-planes [lo, hi). */
  slabs: [number, number][];
  /** Byte address of the progress counters (memory-plan.ts). */
  progress: number;
  injection: InjectionConfig | null;
  /** Byte address of each injection term's float64 weights (memory-plan.ts). */
  injectionWeights: number[];
  /** The dispersive cells' pass (ade-wasm.ts), or null without poles. */
  ade: AdeSweep | null;
}

/**
 * Whether every slab can run blocks of `depth` steps: its edge tasks on both sides (up to
 * `depth` planes each where it shares an edge with another slab) must not overlap.
 */
export function blocksFit(cfg: SweepConfig, depth: number): boolean {
  const periodic = cfg.boundaries[0] === "periodic";
  return cfg.slabs.every(([lo, hi], t) => {
    const last = t === cfg.slabs.length - 1;
    const taskHi = last && periodic ? Math.min(hi, cfg.n[0]) : hi;
    const margin = (t > 0 || periodic ? 1 : 0) + (!last || periodic ? 1 : 0);
    return taskHi - lo >= margin * depth + 1;
  });
}

export interface KernelExports {
  /** `flush`: whether this step stores tiny values as zero (flush.ts flushesAt). */
  h(i: number, set: number, flush: 0 | 1): void;
  e(i: number, set: number, flush: 0 | 1): void;
  /** h and e over planes i0 … i1−1 in one call (whole-grid passes). */
  hPlanes(i0: number, i1: number, set: number, flush: 0 | 1): void;
  ePlanes(i0: number, i1: number, set: number, flush: 0 | 1): void;
  energy(i: number, set: number): number;
  /**
   * F += w·drive over `rows` runs of `n` cells of a float32 array from byte address p (strides
   * dp bytes along a run, pRow between runs), the float64 weights from byte address w (dw,
   * wRow): sources/injection.ts's `addTerm` over a TermBlock.
   */
  addTerm(
    p: number,
    dp: number,
    pRow: number,
    w: number,
    dw: number,
    wRow: number,
    n: number,
    rows: number,
    drive: number,
  ): void;
  /** Present when the grid has dispersive cells (ade-wasm.ts). */
  ade?(
    g0: number,
    g1: number,
    field: number,
    groups: number,
    e1: number,
    p: number,
    h: number,
  ): void;
}

/** Counter value of ghost planes that nothing ever writes (PML, PEC): always ready. */
const READY = 1 << 30;
const SPINS = 20000;
const H = 0;
const E = 1;

export class SlabSweeper {
  private readonly f: Float32Array[][];
  private readonly drive: Float64Array;
  /** Steps completed per plane: H at plane + 1, E at planes + plane + 1. */
  private readonly progress: Int32Array;
  private readonly planes: number;
  private readonly lo: number;
  private readonly hi: number;
  /** Planes this thread runs tasks for: [lo, taskHi) (periodic x: plane n is a ghost). */
  private readonly taskHi: number;
  private readonly first: boolean;
  private readonly last: boolean;
  private readonly linkLeft: boolean;
  private readonly linkRight: boolean;
  private readonly periodicX: boolean;
  /** Planes that have tasks, over all threads: [0, taskPlanes). */
  private readonly taskPlanes: number;
  private readonly ghosts: GhostPlanes;
  /** Per kind (H, E), the copies along x keyed by their source plane. */
  private readonly xCopies: Map<number, GhostCopy[]>[];
  /** Task lists (kind, plane, level) per block depth, built on first use. */
  private readonly orders = new Map<number, Int32Array>();
  private readonly injection: InjectionPlanes | null;
  /** Incident slot offset of the task being run (8 per step of the block). */
  private slotBase = 0;

  constructor(
    private readonly kernel: KernelExports,
    buffer: ArrayBufferLike,
    private readonly cfg: SweepConfig,
    readonly thread: number,
    private readonly isFailed: () => boolean = () => false,
  ) {
    this.f = [];
    for (let s = 0; s < cfg.sets; s++) {
      this.f.push(
        cfg.components.map(
          (at) => new Float32Array(buffer, at + s * cfg.setBytes, cfg.paddedCells),
        ),
      );
    }
    this.drive = new Float64Array(
      buffer,
      DRIVE_BYTE_OFFSET,
      DRIVE_VALUES_PER_STEP * MAX_BLOCK_STEPS,
    );
    this.planes = cfg.n[0] + 2;
    this.progress = new Int32Array(buffer, cfg.progress, 2 * this.planes);
    [this.lo, this.hi] = cfg.slabs[thread];
    const threads = cfg.slabs.length;
    this.first = thread === 0;
    this.last = thread === threads - 1;
    this.periodicX = cfg.boundaries[0] === "periodic";
    this.taskPlanes = this.periodicX ? cfg.n[0] : cfg.n[0] + 1;
    this.taskHi = Math.min(this.hi, this.taskPlanes);
    this.ghosts = new GhostPlanes(this.f, cfg.n, cfg.strides);
    this.xCopies = [cfg.ghosts.h, cfg.ghosts.e].map((copies) => {
      const bySource = new Map<number, GhostCopy[]>();
      for (const c of copies) {
        if (c.axis === 0) bySource.set(c.src, [...(bySource.get(c.src) ?? []), c]);
      }
      return bySource;
    });
    this.linkLeft = !this.first || this.periodicX;
    this.linkRight = !this.last || this.periodicX;
    this.injection = cfg.injection
      ? new InjectionPlanes(cfg.injection, this.f, cfg, this.termAdder(cfg.injection))
      : null;
  }

  /** The injection terms added by the kernel, on the weights in its memory (set 0). */
  private termAdder(injection: InjectionConfig): TermAdder {
    const weights = new Map(
      injectionTerms(injection).map((t, i) => [t, this.cfg.injectionWeights[i]]),
    );
    const fields = this.cfg.components;
    return (term, b, drive) =>
      this.kernel.addTerm(
        fields[term.comp] + 4 * b.p0,
        4 * b.dp,
        4 * b.pRow,
        weights.get(term)! + 8 * b.w0,
        8 * b.dw,
        8 * b.wRow,
        b.count,
        b.rows,
        drive,
      );
  }

  /**
   * Marks the ghost plane −1 of H and of E ready where no copy writes it (no task ever
   * does). Call once, on one thread, before the first block.
   */
  initProgress(): void {
    const writes = (copies: GhostCopy[]) => copies.some((c) => c.axis === 0 && c.dst === -1);
    if (!writes(this.cfg.ghosts.h)) this.progress[0] = READY;
    if (!writes(this.cfg.ghosts.e)) this.progress[this.planes] = READY;
  }

  /** Advances this thread's planes from `base` to `base + depth` time steps. */
  runBlock(base: number, depth: number): void {
    const order = this.order(depth);
    for (let t = 0; t < order.length; t += 3) {
      const level = base + order[t + 2];
      this.slotBase = DRIVE_VALUES_PER_STEP * (order[t + 2] - 1);
      if (order[t] === H) this.taskH(order[t + 1], level);
      else this.taskE(order[t + 1], level);
    }
  }

  /**
   * Advances the whole grid from `base` to `base + depth` time steps, one half step at a time:
   * every plane's H in one kernel call, the source's terms, the ghosts; then E likewise, with the
   * dispersive cells. Alone on the grid only (one thread): for grids whose planes are so small
   * (a row each on a grid one cell thick along y, wasm/thin.ts) that the per-plane work of
   * `runBlock` in JavaScript outweighs their update; the same operations on the same values
   * as `runBlock` (each plane's update reads only the other kind's fields), so the same
   * results. A run uses one or the other throughout (this leaves the plane counters alone).
   */
  runWhole(base: number, depth: number): void {
    if (this.cfg.slabs.length !== 1) throw new Error("whole-grid passes need one thread");
    const cfg = this.cfg;
    for (let l = 1; l <= depth; l++) {
      this.slotBase = DRIVE_VALUES_PER_STEP * (l - 1);
      const flush = flushesAt(base + l);
      for (let s = 0; s < cfg.sets; s++) this.kernel.hPlanes(0, this.taskPlanes, s, flush);
      this.injection?.applyAll(true, this.drive, this.slotBase);
      this.ghosts.fillAll(cfg.ghosts.h);
      for (let s = 0; s < cfg.sets; s++) this.kernel.ePlanes(0, this.taskPlanes, s, flush);
      this.injection?.applyAll(false, this.drive, this.slotBase);
      if (cfg.ade) for (let i = 0; i < this.taskPlanes; i++) this.adePlane(i, cfg.ade);
      this.ghosts.fillAll(cfg.ghosts.e);
    }
  }

  /** Σ ε|E|² + η0²|H|² over this thread's padded planes (thread 0 adds plane −1). */
  energy(): number {
    let sum = 0;
    const from = this.first ? -1 : this.lo;
    for (let s = 0; s < this.cfg.sets; s++) {
      for (let i = from; i < this.hi; i++) sum += this.kernel.energy(i, s);
    }
    return sum;
  }

  /** The task order for blocks of `depth` steps: (kind, plane, level 1…depth) triples. */
  private order(depth: number): Int32Array {
    const hit = this.orders.get(depth);
    if (hit) return hit;
    const out: number[] = [];
    const lo = this.lo;
    const last = this.taskHi - 1;
    const mL = this.linkLeft ? 1 : 0;
    const mR = this.linkRight ? 1 : 0;
    const hRange = (l: number) => [lo + mL * (l - 1), last - mR * (l - 1)];
    const eRange = (l: number) => [lo + mL * l, last - mR * (l - 1)];
    // 1. The trapezoid, as a wavefront: level l works on plane s − l + 1.
    for (let s = lo; s <= last + depth - 1; s++) {
      for (let l = 1; l <= depth; l++) {
        const p = s - l + 1;
        const [h0, h1] = hRange(l);
        const [e0, e1] = eRange(l);
        if (p >= h0 && p <= h1) out.push(H, p, l);
        if (p >= e0 && p <= e1) out.push(E, p, l);
      }
    }
    // 2. The edges, level by level, right before left.
    for (let l = 1; l <= depth; l++) {
      const [h0, h1] = hRange(l);
      const [e0, e1] = eRange(l);
      for (let p = Math.max(h1 + 1, lo); p <= last; p++) out.push(H, p, l);
      for (let p = Math.max(e1 + 1, lo); p <= last; p++) out.push(E, p, l);
      for (let p = lo; p < Math.min(h0, last + 1); p++) out.push(H, p, l);
      for (let p = lo; p < Math.min(e0, last + 1); p++) out.push(E, p, l);
    }
    const order = Int32Array.from(out);
    this.orders.set(depth, order);
    return order;
  }

  /** Waits until plane `plane`'s `kind` counter reaches `level`. */
  private waitFor(kind: number, plane: number, level: number): void {
    if (plane < -1 || plane > this.planes - 2) return;
    const idx = kind * this.planes + plane + 1;
    const prog = this.progress;
    let spins = 0;
    for (;;) {
      const v = Atomics.load(prog, idx);
      if (v >= level) return;
      if (++spins > SPINS) {
        if (this.isFailed()) throw new KernelFailure("a kernel thread failed");
        Atomics.wait(prog, idx, v, 5);
      }
    }
  }

  private publish(kind: number, plane: number, level: number): void {
    const idx = kind * this.planes + plane + 1;
    Atomics.store(this.progress, idx, level);
    // Alone, nobody waits on a counter (a tenth of a small job's stepping time otherwise).
    if (this.cfg.slabs.length > 1) Atomics.notify(this.progress, idx);
  }

  /** H of plane i to `level` steps, then its source terms and ghosts. */
  private taskH(i: number, level: number): void {
    this.waitFor(E, i, level - 1);
    this.waitFor(E, i + 1, level - 1);
    const flush = flushesAt(level);
    for (let s = 0; s < this.cfg.sets; s++) this.kernel.h(i, s, flush);
    this.injection?.apply(i, true, this.drive, this.slotBase);
    this.ghosts.inPlane(i, this.cfg.ghosts.h);
    this.copyXPlanes(H, i, level);
    this.publish(H, i, level);
  }

  /** E of plane i to `level` steps, then its source terms, dispersive cells and ghosts. */
  private taskE(i: number, level: number): void {
    this.waitFor(H, i, level);
    this.waitFor(H, i - 1, level);
    const flush = flushesAt(level);
    for (let s = 0; s < this.cfg.sets; s++) this.kernel.e(i, s, flush);
    this.injection?.apply(i, false, this.drive, this.slotBase);
    if (this.cfg.ade) this.adePlane(i, this.cfg.ade);
    this.ghosts.inPlane(i, this.cfg.ghosts.e);
    this.copyXPlanes(E, i, level);
    this.publish(E, i, level);
  }

  /** The dispersive cells of plane i, every component and field set (ade-wasm.ts). */
  private adePlane(i: number, ade: AdeSweep): void {
    const run = this.kernel.ade!;
    for (let c = 0; c < 3; c++) {
      const g0 = ade.planeStart[c][i + 1];
      const g1 = ade.planeStart[c][i + 2];
      if (g0 === g1) continue;
      const pStart = ade.pStart[c];
      const hStart = ade.hStart[c];
      for (let s = 0; s < this.cfg.sets; s++) {
        const a = ade.args[s][c];
        run(g0, g1, a[0], a[1], a[2], a[3] + pStart[i + 1], a[4] + hStart[i + 1]);
      }
    }
  }

  /**
   * The copies along x whose source is plane i, right after its task at `level`. First every
   * task that reads the destination's previous values must have run: H(d) is read by E(d)
   * and E(d+1) one level down, E(d) by H(d−1) and H(d) at this level (PMC: the slab split
   * keeps planes n−1 and n on one thread, so those waits are already met; periodic: the
   * waits between the first and the last slab). Then a destination no task owns (−1, or n
   * for periodic x) is published at `level` for the tasks that wait on it.
   */
  private copyXPlanes(kind: number, i: number, level: number): void {
    const copies = this.xCopies[kind].get(i);
    if (!copies) return;
    for (const c of copies) {
      if (kind === H) {
        this.waitForTask(E, c.dst, level - 1);
        this.waitForTask(E, c.dst + 1, level - 1);
      } else {
        this.waitForTask(H, c.dst - 1, level);
        this.waitForTask(H, c.dst, level);
      }
    }
    for (const c of copies) this.ghosts.xPlane(c);
    for (const c of copies) {
      if (c.dst < 0 || c.dst >= this.taskPlanes) this.publish(kind, c.dst, level);
    }
  }

  /** waitFor, for planes that have tasks (others have no counter anyone advances). */
  private waitForTask(kind: number, plane: number, level: number): void {
    if (plane >= 0 && plane < this.taskPlanes) this.waitFor(kind, plane, level);
  }
}
