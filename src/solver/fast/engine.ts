/**
 * The fast path's time stepper: the main grid's fields, CPML ψ and tables in one shared
 * WebAssembly.Memory, a generated WASM SIMD kernel (kernel-wat.ts), and a slab of x-planes per
 * thread (sweep.ts), the calling thread being thread 0. FdtdSimulation uses it instead of
 * YeeGrid.updateH/updateE when `kernel: "fast"` (the default).
 *
 * Lifecycle: construct (plans and allocates the memory; YeeGrid then puts its fields in it),
 * `attach(main, source)` (copies the tables, prepares the TFSF terms), `configureBlocks`
 * (time steps per sweep), `await prepare()` (compiles the kernel, starts the threads),
 * `step(n, maxSteps)` per sweep, `dispose()`.
 */
import { availableParallelism } from "node:os";
import { cpmlProfile, type CpmlParameters, type CpmlProfile } from "../cpml.js";
import { ETA0 } from "../constants.js";
import type { GridPlan, YeeLayout } from "../grid.js";
import { referenceKernel } from "../kernel.js";
import type { Medium } from "../medium.js";
import type { PlaneWaveSource } from "../source.js";
import type { YeeGrid } from "../yee.js";
import { Command, ControlBlock, KernelFailure, MAX_BLOCK_STEPS, MAX_THREADS } from "./barrier.js";
import { compileWat } from "./compile.js";
import { kernelWat } from "./kernel-wat.js";
import {
  bytesPerCellUpdate,
  fastKernelBytes,
  MAX_MEMORY_BYTES,
  planFastMemory,
  writeKernelTables,
  type FastMemoryPlan,
} from "./memory-plan.js";
import { KernelThreads } from "./pool.js";
import { wasm, type WasmMemory } from "./wasm-api.js";
import { buildMaterialRuns, type MaterialRuns } from "./runs.js";
import {
  blocksFit,
  SlabSweeper,
  type KernelExports,
  type SweepConfig,
  type TfsfConfig,
  type TfsfTerm,
} from "./sweep.js";

/**
 * Below this many cells per thread a run uses fewer threads: starting a worker costs
 * 50–300 ms and every step three barrier meetings (~10–50 µs), while 64 Ki cells take about
 * 0.3 ms per step on one core.
 */
export const MIN_CELLS_PER_THREAD = 65536;

/** Time steps per sweep by default (measured, docs/benchmarks.md). */
export const DEFAULT_BLOCK_STEPS = 2;

/**
 * Values below this magnitude are stored as zero by the kernel. Ahead of a wavefront the
 * fields fall through the float32 denormal range (below 1.2e-38), and so does ψ as it decays
 * in the absorber; measured here, 2 % denormal cells cut throughput by 3× while the front
 * crossed a 128³ grid (x86 handles denormals in microcode, and WebAssembly cannot set
 * flush-to-zero). The threshold is 1e-28 of the incident H (1e-25 of E's amplitude at most,
 * so float32 round-off, ~1e-7 of the field, is 18 orders larger), and never below 100× the
 * smallest normal float so that products with the update coefficients stay normal.
 */
export function flushBelow(amplitudeVPerM: number): number {
  return Math.max(1.2e-36, (1e-28 * Math.abs(amplitudeVPerM)) / ETA0);
}

export interface FastEngineOptions {
  plan: GridPlan;
  layout: YeeLayout;
  medium: Medium;
  complex: boolean;
  /** Angular frequency of the source, for the CPML α (as YeeGrid). */
  omega0: number;
  /** Amplitude of the incident E in V/m (sets the denormal flush threshold). */
  amplitude: number;
  cpml?: CpmlParameters;
  /** Threads wanted; default the available cores. */
  threads?: number;
  minCellsPerThread?: number;
}

/**
 * Throws a RangeError when a grid's kernel memory, counting one material run per row (the
 * real runs come once the medium is built, and are checked again then), would pass the
 * 4 GiB a wasm32 memory can hold. Submission refuses such grids first (RunEstimate).
 */
export function assertFitsFastKernel(plan: GridPlan, layout: YeeLayout, complex: boolean): void {
  const pml = plan.axes.map((a) => ({ lo: a.pmlLo, hi: a.pmlHi }));
  const bytes = fastKernelBytes(layout, pml, complex);
  if (bytes > MAX_MEMORY_BYTES) {
    throw new RangeError(
      `the grid needs ${(bytes / 2 ** 30).toFixed(2)} GiB of kernel memory; the fast ` +
        "kernel's WebAssembly memory holds at most 4 GiB (about 540³ cells, 440³ for " +
        "oblique incidence)",
    );
  }
}

/** Threads a grid gets: as asked, but at least `minCells` cells and 2 x-planes per thread. */
export function threadsFor(layout: YeeLayout, wanted: number, minCells: number): number {
  const byCells = Math.floor(layout.cells / Math.max(1, minCells));
  const byPlanes = Math.floor((layout.n[0] + 1) / 2);
  return Math.max(1, Math.min(wanted, byCells, byPlanes, MAX_THREADS));
}

/** First index past the low-face cells with c ≠ 0, and first index of the high-face ones. */
function zAbsorberExtent(c: Float64Array, pmlLo: number, pmlHi: number, n: number) {
  let a = 0;
  for (let k = 0; k <= pmlLo && k < c.length; k++) if (c[k] !== 0) a = k + 1;
  let b = n + 1;
  if (pmlHi > 0) for (let k = c.length - 1; k >= n - pmlHi && k >= 0; k--) if (c[k] !== 0) b = k;
  return [a, b] as [number, number];
}

export class FastEngine {
  readonly memory: WasmMemory;
  /** Where YeeGrid must put its field sets. */
  readonly fieldByteOffset: number;
  readonly threads: number;
  readonly memoryPlan: FastMemoryPlan;
  private readonly opts: FastEngineOptions;
  private readonly runs: MaterialRuns[];
  private readonly profiles: CpmlProfile[];
  private readonly control: ControlBlock;
  private readonly pool = new KernelThreads();
  private config: SweepConfig | null = null;
  private main: YeeGrid | null = null;
  private source: PlaneWaveSource | null = null;
  private sweeper: SlabSweeper | null = null;
  private incidentAt: { comp: number; index: number }[] = [];
  /** Time steps per sweep (sweep.ts); 1 until configureBlocks. */
  private blockSteps = 1;
  private disposed = false;

  constructor(opts: FastEngineOptions) {
    this.opts = opts;
    const { plan, layout, medium } = opts;
    this.profiles = plan.axes.map((ax) => cpmlProfile(ax, plan.dtSeconds, opts.omega0, opts.cpml));
    this.runs = [0, 1, 2].map((c) => buildMaterialRuns(layout, medium.index[c], c));
    const pml = plan.axes.map((a) => ({ lo: a.pmlLo, hi: a.pmlHi }));
    this.memoryPlan = planFastMemory(
      layout,
      pml,
      medium.ca.length,
      this.runs.map((r) => r.runs.length),
      opts.complex ? 2 : 1,
    );
    if (this.memoryPlan.totalBytes > MAX_MEMORY_BYTES) {
      throw new RangeError(
        `the grid needs ${(this.memoryPlan.totalBytes / 2 ** 30).toFixed(2)} GiB of kernel ` +
          "memory; the fast kernel's WebAssembly memory holds at most 4 GiB",
      );
    }
    const pages = this.memoryPlan.pages;
    this.memory = new wasm.Memory({ initial: pages, maximum: pages, shared: true });
    this.fieldByteOffset = this.memoryPlan.fields;
    const wanted = Math.max(1, Math.floor(opts.threads ?? availableParallelism()));
    this.threads = threadsFor(layout, wanted, opts.minCellsPerThread ?? MIN_CELLS_PER_THREAD);
    this.control = new ControlBlock(this.memory.buffer, this.threads);
  }

  /** Fills the tables from the grid whose fields live in this engine's memory. */
  attach(main: YeeGrid, source: PlaneWaveSource): void {
    const { layout, plan } = this.opts;
    if (main.re.c[0].buffer !== this.memory.buffer) {
      throw new Error("the grid's fields must live in the fast engine's memory");
    }
    this.main = main;
    this.source = source;
    writeKernelTables(
      this.memory.buffer,
      this.memoryPlan,
      main.kernelGrid,
      this.profiles,
      main.medium,
      this.runs,
    );
    const planes = layout.n[0] + 1;
    const slabs: [number, number][] = [];
    for (let t = 0; t < this.threads; t++) {
      slabs.push([
        Math.round((t * planes) / this.threads),
        Math.round(((t + 1) * planes) / this.threads),
      ]);
    }
    this.config = {
      n: [layout.n[0], layout.n[1], layout.n[2]],
      strides: [layout.strides[0], layout.strides[1], layout.strides[2]],
      paddedCells: layout.paddedCells,
      boundaries: [layout.boundaries[0], layout.boundaries[1], layout.boundaries[2]],
      blochPhase: [...main.boundary.blochPhase],
      sets: this.memoryPlan.sets,
      components: [...this.memoryPlan.components],
      setBytes: this.memoryPlan.setBytes,
      lo: Array.from(layout.lo),
      hi: Array.from(layout.hi),
      slabs,
      progress: this.memoryPlan.progress,
      tfsf: this.tfsfConfig(main, source, plan),
    };
  }

  /**
   * The TFSF terms of source.ts's correctMainH/correctMainE, with their incident samples
   * (aux E at the TFSF plane, aux H half a cell upstream) read each step into slots 0–3.
   */
  private tfsfConfig(main: YeeGrid, source: PlaneWaveSource, plan: GridPlan): TfsfConfig {
    const g = source.geometry;
    const a = g.axis;
    const b = (a + 1) % 3;
    const c = (a + 2) % 3;
    const sg = g.sign;
    const s = source.tfsfIndex;
    const hIdx = sg > 0 ? s - 1 : s;
    const h = plan.stepM;
    const aux = source.aux;
    const auxShift = Math.round((plan.axes[a].originM - aux.plan.axes[a].originM) / h);
    const auxIndex = (along: number) => {
      const pos = [0, 0, 0];
      pos[a] = along + auxShift;
      return aux.layout.index(pos[0], pos[1], pos[2]);
    };
    this.incidentAt = [
      { comp: c, index: auxIndex(s) },
      { comp: b, index: auxIndex(s) },
      { comp: 3 + c, index: auxIndex(hIdx) },
      { comp: 3 + b, index: auxIndex(hIdx) },
    ];
    const layout = main.layout;
    const kH = main.kernelGrid.hCoefficient / h;
    const kE = 1 / h;
    const u = b;
    const v = c;
    // Transverse phase e^{i k_t·(index)·h} per axis and padded index, as source.ts uses.
    const phase = [0, 1, 2].map((d) => {
      const kt = source.kTransverse[d];
      return Array.from({ length: layout.n[d] + 2 }, (_, i) => kt * (i - 1) * h);
    });
    // w = coef·(cb of the cell, E only)·e^{i(θu + θv)} over the component's cross-section.
    const term = (comp: number, plane: number, slot: number, coef: number, useCb: boolean) => {
      const nv = layout.n[v] + 2;
      const wRe = new Float64Array((layout.n[u] + 2) * nv);
      const wIm = new Float64Array(wRe.length);
      const idx = main.medium.index[comp];
      for (let iu = layout.lo[comp * 3 + u]; iu <= layout.hi[comp * 3 + u]; iu++) {
        for (let iv = layout.lo[comp * 3 + v]; iv <= layout.hi[comp * 3 + v]; iv++) {
          const pos = [0, 0, 0];
          pos[a] = plane;
          pos[u] = iu;
          pos[v] = iv;
          const cb = useCb ? main.medium.cb[idx[layout.index(pos[0], pos[1], pos[2])]] : 1;
          const w = coef * cb;
          // cos(θu)cos(θv) − sin(θu)sin(θv) etc. as source.ts forms it, for equal rounding.
          const cu = Math.cos(phase[u][iu + 1]);
          const su = Math.sin(phase[u][iu + 1]);
          const cv = Math.cos(phase[v][iv + 1]);
          const sv = Math.sin(phase[v][iv + 1]);
          wRe[(iu + 1) * nv + iv + 1] = w * (cu * cv - su * sv);
          wIm[(iu + 1) * nv + iv + 1] = w * (su * cv + cu * sv);
        }
      }
      return { comp, plane, slot, wRe, wIm };
    };
    const hTerms: TfsfTerm[] = [
      term(3 + b, hIdx, 0, -sg * kH, false),
      term(3 + c, hIdx, 1, sg * kH, false),
    ];
    const eTerms: TfsfTerm[] = [term(b, s, 2, sg * kE, true), term(c, s, 3, -sg * kE, true)];
    return { axis: a, h: hTerms, e: eTerms };
  }

  /** Bytes one cell-update moves to and from memory (memory-plan.ts). */
  get bytesPerCellUpdate(): number {
    return bytesPerCellUpdate(this.memoryPlan, this.opts.layout);
  }

  /**
   * Whether every inverse step is exactly 1/step wherever the CPML c is zero (true for any
   * absorber with κmax > 1 or κ ≡ 1); the kernel's fused spans rely on it.
   */
  private unitKappa(): boolean {
    const grid = this.main!.kernelGrid;
    const unit = 1 / grid.stepM;
    for (let a = 0; a < 3; a++) {
      const p = this.profiles[a];
      for (let i = 0; i < p.cNode.length; i++) {
        if (p.cNode[i] === 0 && grid.invStepNode[a][i + 1] !== unit) return false;
      }
      for (let i = 0; i < p.cHalf.length; i++) {
        if (p.cHalf[i] === 0 && grid.invStepHalf[a][i + 1] !== unit) return false;
      }
    }
    return true;
  }

  /** Compiles the kernel and starts the worker threads; call once before `step`. */
  async prepare(): Promise<void> {
    if (this.sweeper) return;
    // Fault the pages in now (set-up), not in the first time step; they are zero already.
    const pageWords = 1024;
    const words = new Int32Array(this.memory.buffer);
    for (let w = this.memoryPlan.psiStart / 4; w < words.length; w += pageWords) words[w] = 0;
    const { main, config } = this;
    if (!main || !config) throw new Error("FastEngine.attach() must come before prepare()");
    const { layout } = this.opts;
    const p = this.profiles[2];
    const ax = this.opts.plan.axes[2];
    const wat = kernelWat({
      layout,
      plan: this.memoryPlan,
      hCoefficient: main.kernelGrid.hCoefficient,
      eta0Squared: ETA0 * ETA0,
      flushBelow: flushBelow(this.opts.amplitude),
      unitKappaStepM: this.unitKappa() ? this.opts.plan.stepM : null,
      zAbsorber: {
        node: zAbsorberExtent(p.cNode, ax.pmlLo, ax.pmlHi, layout.n[2]),
        half: zAbsorberExtent(p.cHalf, ax.pmlLo, ax.pmlHi, layout.n[2]),
      },
    });
    const module = await compileWat("fdtd-kernel", wat);
    const instance = await wasm.instantiate(module, { env: { memory: this.memory } });
    const exports = instance.exports as unknown as KernelExports;
    const workers = [];
    for (let t = 1; t < this.threads; t++) {
      workers.push({ module, memory: this.memory, config, thread: t });
    }
    try {
      await this.pool.start(workers);
    } catch (err) {
      await this.pool.terminate();
      throw err;
    }
    this.sweeper = new SlabSweeper(
      exports,
      this.memory.buffer,
      config,
      0,
      () => this.control.failed,
    );
    this.sweeper.initProgress();
  }

  /**
   * Lets sweeps advance up to `wanted` time steps at a time (temporal blocking, sweep.ts),
   * the largest of 4, 2, 1 not above it that divides `alignTo` (blocks must end on every
   * step where the caller looks at the fields: DFT samples, checks) and fits the slabs.
   */
  configureBlocks(alignTo: number, wanted: number = DEFAULT_BLOCK_STEPS): void {
    const config = this.config;
    if (!config) throw new Error("FastEngine.attach() must come first");
    this.blockSteps = 1;
    for (const d of [4, 2]) {
      if (d <= Math.min(wanted, MAX_BLOCK_STEPS) && alignTo % d === 0 && blocksFit(config, d)) {
        this.blockSteps = d;
        return;
      }
    }
  }

  /** Time steps one sweep advances (see configureBlocks). */
  get stepsPerSweep(): number {
    return this.blockSteps;
  }

  /**
   * Advances the main grid (and the source's auxiliary line) from step n by one block of
   * time steps, at most `maxSteps`: a whole block when n is a multiple of the block length
   * and enough steps remain, else one step. Fields E^n, H^{n−½} → E^{n+k}, H^{n+k−½}, with
   * CPML, TFSF and ghosts, in the order of FdtdSimulation.step; the source's incident
   * reference is recorded at every step. Returns k.
   */
  step(n: number, maxSteps = 1): number {
    const sweeper = this.requireSweeper();
    const source = this.source!;
    const d = this.blockSteps;
    const count = d > 1 && n % d === 0 && maxSteps >= d ? d : 1;
    const dt = this.opts.plan.dtSeconds;
    const aux = source.aux;
    const inc = this.control.incident;
    for (let l = 0; l < count; l++) {
      source.stepAuxH(referenceKernel);
      // The TFSF terms of step n+l need aux E^{n+l} and aux H^{n+l+½}: sample them before
      // aux E moves on.
      this.incidentAt.forEach(({ comp, index }, slot) => {
        inc[8 * l + 2 * slot] = aux.re.c[comp][index];
        inc[8 * l + 2 * slot + 1] = aux.im ? aux.im.c[comp][index] : 0;
      });
      source.stepAuxE(referenceKernel, (n + l) * dt);
      source.record((n + l + 1) * dt, (n + l + 0.5) * dt);
    }
    this.control.setBlock(n, count);
    this.run(Command.Step, () => sweeper.runBlock(n, count));
    return count;
  }

  /** Σ ε_r|E|² + η0²|H|² over every stored value (YeeGrid.energy, summed in the kernel). */
  energy(): number {
    const sweeper = this.requireSweeper();
    this.run(Command.Energy, () => {
      this.control.partial[0] = sweeper.energy();
    });
    let sum = 0;
    for (let t = 0; t < this.threads; t++) sum += this.control.partial[t];
    return sum;
  }

  /** Stops the threads (idempotent). The memory stays valid for reading the fields. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.sweeper && !this.control.failed && this.threads > 1) {
      this.control.command = Command.Exit;
      try {
        this.control.arrive();
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
