/**
 * The WebAssembly backend (`wasm`): the main grid's fields, CPML ψ and tables in one shared
 * WebAssembly.Memory, a generated WASM SIMD kernel (kernel-wat.ts), and a slab of x-planes per
 * thread (sweep.ts), the calling thread being thread 0.
 *
 * Lifecycle (backend.ts): `wasmBackend.prepare(problem)` constructs a FastEngine (plans and
 * allocates the memory, copies the tables, lays out the sweep), compiles the kernel and starts
 * the threads; then `advance` per sweep, the read-backs, `dispose`.
 */
import { availableParallelism } from "node:os";
import type {
  BackendMemory,
  GridSize,
  SolverBackend,
  Stepper,
  StepperTiming,
  StepperOptions,
  SteppingProblem,
} from "../backend.js";
import { ghostCopies, GhostPlanes, type GhostCopies } from "../boundaries.js";
import { ETA0 } from "../constants.js";
import { allocateFieldSet, type FieldSet } from "../fields.js";
import { coupledComponents, type YeeLayout } from "../grid.js";
import {
  MonitorRecorders,
  sharedMonitorSums,
  sharedSamplings,
  type MonitorSampling,
} from "../monitors.js";
import { DRIVE_VALUES_PER_STEP, injectionTerms, MAX_BLOCK_STEPS } from "../sources/injection.js";
import { Command, ControlBlock, KernelFailure, MAX_THREADS } from "./barrier.js";
import { adeSweep, planAdeMemory, writeAdeTables, type AdeMemoryPlan } from "./ade-wasm.js";
import { compileWat } from "./compile.js";
import { flushBelow } from "./flush.js";
import { kernelWat } from "./kernel-wat.js";
import {
  bytesPerCellUpdate,
  ESTIMATED_RUNS_PER_ROW,
  fastKernelBytes,
  MAX_MEMORY_BYTES,
  planFastMemory,
  writeKernelTables,
  type FastMemoryPlan,
} from "./memory-plan.js";
import { KernelThreads } from "./pool.js";
import type { DftThreadData } from "./thread.js";
import { wasm, type WasmMemory } from "./wasm-api.js";
import {
  buildFusedPieces,
  buildMaterialRuns,
  SHORTEST_UNIFORM_PIECE,
  type FusedPieces,
  type MaterialRuns,
} from "./runs.js";
import { blocksFit, SlabSweeper, type KernelExports, type SweepConfig } from "./sweep.js";
import { remapStreams, splitGhosts } from "../invariant.js";
import { invariantAxes } from "./thin.js";
import { relabelMapBytes, relabelProblem, relabelShift, RelabelledStepper } from "./relabel.js";

/**
 * Below this many cells per thread a run uses fewer threads: starting a worker costs
 * 50–300 ms and every step three barrier meetings (~10–50 µs), while 64 Ki cells take about
 * 0.3 ms per step on one core.
 */
export const MIN_CELLS_PER_THREAD = 65536;

/** Time steps per sweep by default (measured, docs/benchmarks.md). */
export const DEFAULT_BLOCK_STEPS = 2;

/**
 * Fewest (point, wavelength) pairs of a DFT sample before the threads share it (a Dft
 * command: two barrier meetings, ~10–50 µs; a pair costs a few ns). A flux box over a gold
 * sphere at 2.5 nm cells has 55 000 points × 12 wavelengths, sampled every second step on its
 * graded grid: on the calling thread alone that was 28 % of the run on two threads.
 */
export const MIN_PARALLEL_DFT_PAIRS = 32768;

/** Threads a grid gets: as asked, but at least `minCells` cells and 2 x-planes per thread. */
export function threadsFor(layout: YeeLayout, wanted: number, minCells: number): number {
  const byCells = Math.floor(layout.cells / Math.max(1, minCells));
  const byPlanes = Math.floor((layout.n[0] + 1) / 2);
  return Math.max(1, Math.min(wanted, byCells, byPlanes, MAX_THREADS));
}

/** The threads a run asks for: its option, else the available cores. */
function wantedThreads(options: StepperOptions): number {
  return Math.max(1, Math.floor(options.threads ?? availableParallelism()));
}

/** The threads a run with `options` steps a grid of `layout` with (threadsFor). */
function runThreads(layout: YeeLayout, options: StepperOptions): number {
  const minCells = options.minCellsPerThread ?? MIN_CELLS_PER_THREAD;
  return threadsFor(layout, wantedThreads(options), minCells);
}

/** First index past the low-face cells with c ≠ 0, and first index of the high-face ones. */
function zAbsorberExtent(c: Float64Array, pmlLo: number, pmlHi: number, n: number) {
  let a = 0;
  for (let k = 0; k <= pmlLo && k < c.length; k++) if (c[k] !== 0) a = k + 1;
  let b = n + 1;
  if (pmlHi > 0) for (let k = c.length - 1; k >= n - pmlHi && k >= 0; k--) if (c[k] !== 0) b = k;
  return [a, b] as [number, number];
}

/** Slabs of x-planes [lo, hi) per thread, as equal as whole planes allow. */
function slabsFor(layout: YeeLayout, threads: number): [number, number][] {
  const planes = layout.n[0] + 1;
  const slabs: [number, number][] = [];
  for (let t = 0; t < threads; t++) {
    slabs.push([Math.round((t * planes) / threads), Math.round(((t + 1) * planes) / threads)]);
  }
  return slabs;
}

/** The kernel's memory plan and the fused pieces it holds (planEngineMemory). */
interface EngineMemory {
  pieces: FusedPieces;
  plan: FastMemoryPlan;
  ade: AdeMemoryPlan | null;
}

/**
 * Plans the kernel's memory: with the mixed pieces (unless `options` leave them out), without
 * them where that alone fits the limit; throws a RangeError naming the limit where nothing does.
 */
function planEngineMemory(
  problem: SteppingProblem,
  runs: readonly MaterialRuns[],
  options: StepperOptions,
): EngineMemory {
  const { layout, medium, plan } = problem;
  const pml = plan.axes.map((a) => ({ lo: a.pmlLo, hi: a.pmlHi }));
  const sets = problem.complex ? 2 : 1;
  const ade = problem.ade ? planAdeMemory(problem.ade, sets) : null;
  const planFor = (pieces: FusedPieces) =>
    planFastMemory(
      layout,
      pml,
      medium.ca.length,
      runs.map((r) => r.runs.length),
      sets,
      ade?.bytes ?? 0,
      { pieces: pieces.pieces.length / 4, mixedCells: pieces.mixedCells },
      injectionTerms(problem.injection).map((t) => t.wRe.length),
    );
  const shortest = options.mixedPieces === false ? 0 : SHORTEST_UNIFORM_PIECE;
  let pieces = buildFusedPieces(layout, medium.index, shortest);
  let memoryPlan = planFor(pieces);
  const limit = Math.min(MAX_MEMORY_BYTES, options.memoryLimitBytes ?? MAX_MEMORY_BYTES);
  if (memoryPlan.totalBytes > limit && pieces.mixedCells > 0) {
    // The mixed pieces are a speed-up only (6 bytes per cell in them, against 16 per plain
    // piece: mostly the smaller plan, but not where uniform stretches of 3–7 cells fill the
    // rows): without them such a grid may fit, and runs at the per-run rate
    // (wasm/pieces.test.ts).
    pieces = buildFusedPieces(layout, medium.index, 0);
    memoryPlan = planFor(pieces);
  }
  if (memoryPlan.totalBytes > limit) {
    throw new RangeError(
      `the grid needs ${(memoryPlan.totalBytes / 2 ** 30).toFixed(2)} GiB of kernel ` +
        `memory; the fast kernel's WebAssembly memory holds at most ${+(limit / 2 ** 30).toFixed(2)} GiB`,
    );
  }
  return { pieces, plan: memoryPlan, ade };
}

/**
 * The axes the kernel treats as invariant (thin.ts), the ghost copies split into those kept up
 * while stepping and those across invariant axes (made only when the fields are read whole),
 * and the monitors with their streams remapped off the latter. Where a monitor's streams cannot
 * be remapped, no axis is treated as invariant.
 */
function thinLayout(problem: SteppingProblem): {
  invariant: [boolean, boolean, boolean];
  ghosts: { kept: GhostCopies; thin: GhostCopies };
  samplings: MonitorSampling[];
} {
  const { layout } = problem;
  const copies = ghostCopies(layout, problem.blochPhase);
  let invariant = invariantAxes(layout, problem.blochPhase);
  let ghosts = splitGhosts(copies, invariant);
  let samplings = problem.monitors;
  if (invariant.some((f) => f)) {
    const remapped = problem.monitors.map((m) =>
      remapStreams(m.streams, layout, invariant, ghosts.thin),
    );
    if (remapped.every((r) => r !== null)) {
      samplings = problem.monitors.map((m, i) => ({ ...m, streams: remapped[i]! }));
    } else {
      invariant = [false, false, false];
      ghosts = splitGhosts(copies, invariant);
    }
  }
  return { invariant, ghosts, samplings };
}

/**
 * Per component, whether the kernel updates it: on an invariant grid only the polarisation the
 * source drives (its injection terms' components, closed under the curl couplings); all six
 * otherwise.
 */
function steppedComponents(
  injection: SteppingProblem["injection"],
  invariant: readonly boolean[],
): boolean[] {
  if (!injection || !invariant.some((f) => f)) return [true, true, true, true, true, true];
  return coupledComponents(
    [...injection.h, ...injection.e].map((t) => t.comp),
    invariant.map((f) => !f),
  );
}

/**
 * The monitors' recorders: with enough (point, wavelength) pairs on several threads, their
 * point indices and sums in shared memory, each thread adding its part of the same ones.
 */
function monitorRecorders(
  samplings: MonitorSampling[],
  threads: number,
  stepped: boolean[],
): { dft: DftThreadData | null; monitors: MonitorRecorders } {
  const pairs = samplings.reduce(
    (sum, m) => sum + m.omegas.length * m.streams.reduce((a, st) => a + st.base.length, 0),
    0,
  );
  if (threads > 1 && pairs >= MIN_PARALLEL_DFT_PAIRS) {
    const shared = sharedSamplings(samplings);
    const sums = sharedMonitorSums(shared);
    return {
      dft: { monitors: shared, nonzero: [...stepped], sums },
      monitors: new MonitorRecorders(shared, stepped, sums),
    };
  }
  return { dft: null, monitors: new MonitorRecorders(samplings, stepped) };
}

export class FastEngine implements Stepper {
  readonly memory: WasmMemory;
  readonly threads: number;
  readonly memoryPlan: FastMemoryPlan;
  private readonly adePlan: AdeMemoryPlan | null;
  /** Time steps one sweep advances (configureBlocks). */
  readonly stepsPerSweep: number;
  private readonly problem: SteppingProblem;
  private readonly runs: MaterialRuns[];
  /** The fused E rows' pieces (runs.ts), mixed ones included unless memory is short. */
  readonly pieces: FusedPieces;
  private readonly control: ControlBlock;
  private readonly pool = new KernelThreads();
  private readonly config: SweepConfig;
  /** The field sets, as views of the kernel's memory. */
  private readonly sets: FieldSet[];
  private readonly monitors: MonitorRecorders;
  /** The monitors as the other threads record their parts of them, or null (one thread adds all). */
  private readonly dft: DftThreadData | null;
  private sweeper: SlabSweeper | null = null;
  private disposed = false;
  /**
   * Per axis, whether the grid is invariant along it (one periodic cell, no Bloch phase:
   * thin.ts), so the kernel leaves its derivatives out and its ghosts are not kept up.
   */
  readonly invariant: [boolean, boolean, boolean];
  /** The ghost copies across invariant axes, made only when the fields are read whole. */
  private readonly thinGhosts: GhostCopies;
  /** Whether each sweep is whole-grid passes (thin.ts, sweep.ts runWhole). */
  readonly wholeGrid: boolean;
  /**
   * Per component, whether it is updated: on an invariant grid only the polarisation the
   * source drives (its injection terms' components, closed under the curl couplings); all six
   * otherwise. The others stay exactly zero.
   */
  readonly stepped: boolean[];
  readonly timing: StepperTiming = {
    compileSeconds: 0,
    threadStartSeconds: 0,
    kernelSeconds: 0,
    monitorSeconds: 0,
  };

  constructor(problem: SteppingProblem, options: StepperOptions = {}) {
    this.problem = problem;
    const { layout, medium } = problem;
    this.runs = [0, 1, 2].map((c) => buildMaterialRuns(layout, medium.index[c], c));
    const planned = planEngineMemory(problem, this.runs, options);
    this.pieces = planned.pieces;
    this.memoryPlan = planned.plan;
    this.adePlan = planned.ade;
    const pages = this.memoryPlan.pages;
    this.memory = new wasm.Memory({ initial: pages, maximum: pages, shared: true });
    this.threads = runThreads(layout, options);
    this.control = new ControlBlock(this.memory.buffer, this.threads);
    const mp = this.memoryPlan;
    this.sets = Array.from({ length: mp.sets }, (_, s) =>
      allocateFieldSet(layout, this.memory.buffer, mp.fields + s * mp.setBytes),
    );
    this.writeTables();
    const thin = thinLayout(problem);
    this.invariant = thin.invariant;
    this.thinGhosts = thin.ghosts.thin;
    this.stepped = steppedComponents(problem.injection, thin.invariant);
    this.wholeGrid = this.threads === 1 && thin.invariant.some((f) => f);
    this.config = this.sweepConfig(thin.ghosts.kept);
    // Whole-grid passes gain nothing from the cache by longer sweeps, but fewer calls.
    this.stepsPerSweep = this.blockLength(
      problem.alignSteps,
      options.stepsPerSweep ?? (this.wholeGrid ? MAX_BLOCK_STEPS : DEFAULT_BLOCK_STEPS),
    );
    const recorders = monitorRecorders(thin.samplings, this.threads, this.stepped);
    this.dft = recorders.dft;
    this.monitors = recorders.monitors;
  }

  /** Copies the kernel's tables (and the dispersive cells') into its memory. */
  private writeTables(): void {
    const { kernelGrid, profiles, medium, ade } = this.problem;
    const buffer = this.memory.buffer;
    const mp = this.memoryPlan;
    const { injection } = this.problem;
    writeKernelTables(buffer, mp, kernelGrid, profiles, medium, this.runs, this.pieces, injection);
    if (ade && this.adePlan) writeAdeTables(buffer, mp.ade, this.adePlan, ade);
  }

  /** What every thread's sweeper needs (sweep.ts), `ghosts` the copies kept up while stepping. */
  private sweepConfig(ghosts: GhostCopies): SweepConfig {
    const { layout, ade } = this.problem;
    const mp = this.memoryPlan;
    return {
      n: [layout.n[0], layout.n[1], layout.n[2]],
      strides: [layout.strides[0], layout.strides[1], layout.strides[2]],
      paddedCells: layout.paddedCells,
      boundaries: [layout.boundaries[0], layout.boundaries[1], layout.boundaries[2]],
      // Ghosts of components that stay zero would copy zeros.
      ghosts: {
        h: ghosts.h.filter((c) => this.stepped[c.comp]),
        e: ghosts.e.filter((c) => this.stepped[c.comp]),
      },
      sets: mp.sets,
      components: [...mp.components],
      setBytes: mp.setBytes,
      lo: Array.from(layout.lo),
      hi: Array.from(layout.hi),
      slabs: slabsFor(layout, this.threads),
      progress: mp.progress,
      injection: this.problem.injection,
      injectionWeights: mp.injectionWeights,
      ade:
        ade && this.adePlan
          ? adeSweep(this.adePlan, mp.ade, mp.components, mp.setBytes, mp.sets)
          : null,
    };
  }

  /**
   * Time steps per sweep (temporal blocking, sweep.ts): the largest of 4, 2, 1 not above
   * `wanted` that divides `alignTo` (sweeps must end on every step where the driver looks at
   * the fields: DFT samples, checks) and fits the slabs (whole-grid passes always do).
   */
  private blockLength(alignTo: number, wanted: number = DEFAULT_BLOCK_STEPS): number {
    for (const d of [4, 2]) {
      if (
        d <= Math.min(wanted, MAX_BLOCK_STEPS) &&
        alignTo % d === 0 &&
        (this.wholeGrid || blocksFit(this.config, d))
      ) {
        return d;
      }
    }
    return 1;
  }

  /** Bytes one cell-update moves to and from memory (memory-plan.ts). */
  get bytesPerCellUpdate(): number {
    return bytesPerCellUpdate(this.memoryPlan, this.problem.layout);
  }

  /**
   * Whether every inverse step is exactly 1/step wherever the CPML c is zero (true for any
   * absorber with κmax > 1 or κ ≡ 1); the kernel's fused spans rely on it.
   */
  private unitKappa(): boolean {
    const { kernelGrid: grid, profiles } = this.problem;
    // A graded grid (mesh overrides) has no one step to fold in.
    if (grid.uniformStepM === null) return false;
    const unit = 1 / grid.uniformStepM;
    for (let a = 0; a < 3; a++) {
      const p = profiles[a];
      for (let i = 0; i < p.cOverStepNode.length; i++) {
        if (p.cOverStepNode[i] === 0 && grid.invStepNode[a][i + 1] !== unit) return false;
      }
      for (let i = 0; i < p.cOverStepHalf.length; i++) {
        if (p.cOverStepHalf[i] === 0 && grid.invStepHalf[a][i + 1] !== unit) return false;
      }
    }
    return true;
  }

  /** Compiles the kernel and starts the worker threads; call once before `advance`. */
  async prepare(): Promise<void> {
    if (this.sweeper) return;
    // Fault the pages in now (set-up), not in the first time step; they are zero already.
    const pageWords = 1024;
    const words = new Int32Array(this.memory.buffer);
    for (let w = this.memoryPlan.psiStart / 4; w < words.length; w += pageWords) words[w] = 0;
    const compileStart = performance.now();
    const { layout, plan, kernelGrid, profiles } = this.problem;
    const p = profiles[2];
    const ax = plan.axes[2];
    const wat = kernelWat({
      layout,
      plan: this.memoryPlan,
      hCoefficient: kernelGrid.hCoefficient,
      eta0Squared: ETA0 * ETA0,
      flushBelow: flushBelow(this.problem.amplitudeVPerM),
      unitKappaStepM: this.unitKappa() ? kernelGrid.uniformStepM : null,
      invariantAxes: this.invariant,
      steppedComponents: this.stepped,
      zAbsorber: {
        node: zAbsorberExtent(p.cOverStepNode, ax.pmlLo, ax.pmlHi, layout.n[2]),
        half: zAbsorberExtent(p.cOverStepHalf, ax.pmlLo, ax.pmlHi, layout.n[2]),
      },
      ade: this.adePlan !== null,
    });
    const module = await compileWat("fdtd-kernel", wat);
    const instance = await wasm.instantiate(module, { env: { memory: this.memory } });
    const exports = instance.exports as unknown as KernelExports;
    const threadStart = performance.now();
    this.timing.compileSeconds = (threadStart - compileStart) / 1000;
    const workers = [];
    for (let t = 1; t < this.threads; t++) {
      workers.push({ module, memory: this.memory, config: this.config, thread: t, dft: this.dft });
    }
    try {
      await this.pool.start(workers);
    } catch (err) {
      await this.pool.terminate();
      throw err;
    }
    this.timing.threadStartSeconds = (performance.now() - threadStart) / 1000;
    this.sweeper = new SlabSweeper(
      exports,
      this.memory.buffer,
      this.config,
      0,
      () => this.control.failed,
    );
    this.sweeper.initProgress();
  }

  /**
   * One sweep of `count` time steps (1, or stepsPerSweep from a multiple of it) on every
   * thread, in the order of the reference backend (sweep.ts), then the monitors' sample.
   */
  advance(n: number, count: number, drive: Float64Array): void {
    const sweeper = this.requireSweeper();
    if (count !== 1 && (count !== this.stepsPerSweep || n % count !== 0)) {
      throw new RangeError(`a sweep advances 1 or ${this.stepsPerSweep} steps, not ${count}`);
    }
    this.control.drive.set(drive.subarray(0, DRIVE_VALUES_PER_STEP * count));
    this.control.setBlock(n, count);
    const start = performance.now();
    if (this.wholeGrid) this.run(Command.Step, () => sweeper.runWhole(n, count));
    else this.run(Command.Step, () => sweeper.runBlock(n, count));
    const swept = performance.now();
    this.timing.kernelSeconds += (swept - start) / 1000;
    const m = n + count;
    const { dftEvery, plan } = this.problem;
    if (m % dftEvery === 0) {
      const dt = plan.dtSeconds;
      const [re, im] = [this.sets[0], this.sets[1] ?? null];
      if (this.dft) {
        // Every thread adds its part of each stream's points to the shared sums.
        const sample = this.control.dft;
        sample[0] = m * dt;
        sample[1] = (m - 0.5) * dt;
        sample[2] = dftEvery;
        const parts = this.threads;
        this.run(Command.Dft, () =>
          this.monitors.record(re, im, m * dt, (m - 0.5) * dt, dftEvery, 0, parts),
        );
      } else {
        this.monitors.record(re, im, m * dt, (m - 0.5) * dt, dftEvery);
      }
      this.timing.monitorSeconds += (performance.now() - swept) / 1000;
    }
  }

  /** Σ ε_r|E|² + η0²|H|² over every stored value (YeeGrid.energy, summed in the kernel). */
  energy(): Promise<number> {
    const sweeper = this.requireSweeper();
    this.fillThinGhosts();
    this.run(Command.Energy, () => {
      this.control.partial[0] = sweeper.energy();
    });
    let sum = 0;
    for (let t = 0; t < this.threads; t++) sum += this.control.partial[t];
    return Promise.resolve(sum);
  }

  monitorSums(): Promise<Float64Array[][]> {
    return Promise.resolve(this.monitors.sums());
  }

  fields(): Promise<FieldSet[]> {
    this.requireSweeper();
    this.fillThinGhosts();
    return Promise.resolve(this.sets);
  }

  /**
   * Fills the ghosts across invariant axes (not kept up while stepping) from the current
   * fields, as boundaries.ts's copies would have: for reading the fields whole. One difference
   * from a run that kept them: where the grid is also periodic along z, the corner ghost that
   * a y copy takes from the z ghost gets this step's value rather than the previous one's
   * (nothing reads it but the energy sum).
   */
  private fillThinGhosts(): void {
    const { h, e } = this.thinGhosts;
    if (h.length === 0 && e.length === 0) return;
    const layout = this.problem.layout;
    const planes = new GhostPlanes(
      this.sets.map((set) => set.c),
      layout.n,
      layout.strides,
    );
    for (const copies of [h, e]) {
      for (let i = -1; i <= layout.n[0]; i++) planes.inPlane(i, copies);
      for (const c of copies) if (c.axis === 0) planes.xPlane(c);
    }
  }

  /** Stops the threads (idempotent). The memory stays valid for reading the fields. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.sweeper && !this.control.failed && this.threads > 1) {
      this.control.command = Command.Exit;
      try {
        this.control.arrive();
        // The threads left their run: kept for the next one (pool.ts).
        void this.pool.release();
        return;
      } catch {
        // A failed thread: terminate() below ends the others.
      }
    }
    void this.pool.terminate();
  }

  private run(command: Command, own: () => void): void {
    const control = this.control;
    control.command = command;
    try {
      control.arrive();
      own();
      control.arrive();
    } catch (err) {
      if (!(err instanceof KernelFailure)) control.fail();
      const detail = this.pool.failures().join("\n");
      throw new Error(`fast kernel failed${detail ? `: ${detail}` : ""}`, { cause: err });
    }
  }

  private requireSweeper(): SlabSweeper {
    if (this.disposed) throw new Error("the fast engine was disposed");
    if (!this.sweeper) throw new Error("FastEngine.prepare() must be awaited before stepping");
    return this.sweeper;
  }
}

/** The WebAssembly SIMD backend. */
export const wasmBackend: SolverBackend = {
  name: "wasm",

  memory(grid: GridSize): BackendMemory {
    return {
      bytes: fastKernelBytes(grid.layout, grid.pml, grid.complex, ESTIMATED_RUNS_PER_ROW),
      limitBytes: MAX_MEMORY_BYTES,
      what:
        "kernel memory (one WebAssembly memory: fields, CPML ψ and tables; 24 B per cell, " +
        "48 for oblique incidence)",
      hostBytes: relabelMapBytes(grid.layout),
    };
  },

  threadsFor: (layout, wanted, minCells = MIN_CELLS_PER_THREAD) =>
    threadsFor(layout, wanted, minCells),

  async prepare(problem: SteppingProblem, options: StepperOptions): Promise<Stepper> {
    // A grid one cell thick along z, or longest along x or y, is stored with its axes
    // relabelled (relabel.ts).
    const shift = relabelShift(problem, {
      alongLongest: options.rowsAlongLongestAxis,
      threadsOf: (layout) => runThreads(layout, options),
    });
    const relabelled = shift === 0 ? null : relabelProblem(problem, shift);
    const engine = new FastEngine(relabelled?.problem ?? problem, options);
    try {
      await engine.prepare();
    } catch (err) {
      engine.dispose();
      throw err;
    }
    return relabelled ? new RelabelledStepper(engine, problem, relabelled) : engine;
  },
};
