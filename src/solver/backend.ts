/**
 * The one interface every time-stepping backend implements. FdtdSimulation (simulation.ts)
 * builds the physics once — grid model, medium, the source's injection terms, monitor cells, DFT cadence — as a
 * `SteppingProblem`; a backend turns it into a `Stepper` that owns the main grid's fields
 * (wherever it keeps them: JS arrays, a shared WebAssembly memory, GPU buffers), advances them,
 * runs the monitors' DFT and hands back what the driver reads (monitor sums, energy, fields)
 * through the interface, never by sharing memory. Sources stay outside the backends: each
 * computes its drive values on the CPU (a plane wave steps its 1-D auxiliary line) and passes
 * them in with every step (sources/injection.ts).
 *
 * Backends: `reference` (plain TypeScript, one thread; reference/backend.ts), `wasm`
 * (generated WebAssembly SIMD kernels on several threads; wasm/) and `webgpu` (generated WGSL
 * compute shaders on a GPU; webgpu/), where `advance` only enqueues work and the read-backs wait
 * for the GPU.
 */
import { YeeLayout } from "./grid.js";
import type { MonitorSampling } from "./monitors.js";
import type { InjectionConfig } from "./sources/injection.js";
import type { FieldSet } from "./fields.js";
import type { GridModel } from "./yee.js";
import type { BackendName } from "./backend-names.js";
import type { GpuAdapterReport } from "./adapter-report.js";
import type { GpuSteppingReport } from "./types.js";
import type { FieldStorage } from "./field-storage-setting.js";

/** The backends' names and choices live in the leaf backend-names.ts (types.ts names them). */
export {
  BACKEND_CHOICES,
  BACKEND_NAMES,
  type BackendChoice,
  type BackendName,
} from "./backend-names.js";

/** A main grid to step: the model plus the source's injection terms and the monitors. */
export interface SteppingProblem extends GridModel {
  /** The source's injection terms (sources/injection.ts), or null without a source. */
  injection: InjectionConfig | null;
  monitors: MonitorSampling[];
  /** Monitors take a DFT sample after every step m with m % dftEvery === 0, weighted by it. */
  dftEvery: number;
  /**
   * Steps a multi-step sweep must never straddle (the driver looks at the fields after every
   * multiple of it: DFT samples, checks): a sweep length must divide it.
   */
  alignSteps: number;
  /** The scale of E in V/m the source drives (a scale for flushing denormals). */
  amplitudeVPerM: number;
}

export interface StepperOptions {
  /** Threads wanted (backends that use several); default the available cores. */
  threads?: number;
  /** Fewest cells per thread before a backend uses fewer threads (tests set 0). */
  minCellsPerThread?: number;
  /** Most time steps one sweep may advance (temporal blocking). */
  stepsPerSweep?: number;
  /**
   * wasm backend: false leaves out the mixed pieces (wasm/runs.ts), every material change
   * then ending a span (comparisons and benchmarks only; the results are the same).
   */
  mixedPieces?: boolean;
  /**
   * wasm backend: false stores a 3-D grid with its axes as they are, not its longest axis as
   * the rows (wasm/relabel.ts; comparisons and benchmarks only: the results are the same).
   */
  rowsAlongLongestAxis?: boolean;
  /**
   * wasm backend: the most bytes of kernel memory (default and at most 4 GiB, what wasm32
   * addresses); tests set less to reach the fallbacks of a grid near that limit.
   */
  memoryLimitBytes?: number;
  /** webgpu backend: time each kind of pass with timestamp queries (benchmarks; slower). */
  profilePasses?: boolean;
  /**
   * webgpu backend: the bulk passes' workgroup (x threads along z by y along y,
   * webgpu/shaders.ts BulkShape); benchmarks compare shapes with it.
   */
  bulkShape?: { x: number; y: number };
  /**
   * webgpu backend: the three E components' material indices in three bindings even where
   * one holds them (tests; by default only where one would pass the adapter's binding bound).
   */
  splitIndices?: boolean;
  /**
   * webgpu backend: float32 (default) or float16 storage of the fields (webgpu/field-storage.ts;
   * unset, a worker's EMSIM_WEBGPU_FIELD_STORAGE).
   */
  fieldStorage?: FieldStorage;
}

/** Where a stepper's time went, in seconds, for the run report (zero what does not apply). */
export interface StepperTiming {
  /** Generating and compiling the kernel (set-up). */
  compileSeconds: number;
  /** Starting the kernel threads (set-up). */
  threadStartSeconds: number;
  /** The sweeps themselves: field updates, CPML, boundaries, sources, on every thread. */
  kernelSeconds: number;
  /** The monitors' running DFT, on the calling thread between sweeps. */
  monitorSeconds: number;
  /** GPU backends: dispatches and bytes per step, and the GPU's time per pass when profiled. */
  gpu?: GpuSteppingReport;
}

/** A prepared grid: fields allocated, kernels ready, threads started. */
export interface Stepper {
  readonly threads: number;
  /** Seconds so far, by what they were spent on. */
  readonly timing: StepperTiming;
  /** Time steps one sweep advances when the step index is a multiple of it (else 1). */
  readonly stepsPerSweep: number;
  /**
   * The smallest relative change of the monitors' phasors between checks that the stored
   * fields' precision resolves, where that is above float32's (webgpu's float16 storage,
   * webgpu/field-storage.ts): the convergence test stops at it when asked for less.
   */
  readonly changeFloor?: number;
  /**
   * Advances E^n, H^{n−½} → E^{n+count}, H^{n+count−½} (count 1, or stepsPerSweep at a
   * multiple of it) with CPML, boundaries and the injection terms, whose drive values for
   * step n + l are at `drive[DRIVE_VALUES_PER_STEP·l …]` (sources/injection.ts); then takes the monitors'
   * DFT sample if n + count is a multiple of dftEvery.
   */
  advance(n: number, count: number, drive: Float64Array): void;
  /**
   * Resolves once every step `advance` was given has run (backends that only enqueue work:
   * webgpu); absent where `advance` returns when the work is done.
   */
  synchronize?(): Promise<void>;
  /** Σ ε_r|E|² + η0²|H|² over every stored value (ε0-scaled, see YeeGrid.energy). */
  energy(): Promise<number>;
  /** Per monitor, per recorded component: the raw DFT sums (DftRecorder layout). */
  monitorSums(): Promise<Float64Array[][]>;
  /**
   * The convergence test's two sums where the running sums live (run.ts ConvergenceTest):
   * Σ w·|s − p|² and Σ w·|s|² over every monitor's sums s, p being s at the previous call and
   * w = weights[monitor][wavelength] up to a common factor; null at the first call. Backends
   * whose sums are in another memory (webgpu) have it, so a check does not copy every sum back;
   * elsewhere the test computes it from monitorSums.
   */
  monitorChange?(
    weights: readonly Float64Array[],
  ): Promise<{ diff2: number; total2: number } | null>;
  /** The main grid's field sets (real, then imaginary for Bloch runs), for tests. */
  fields(): Promise<FieldSet[]>;
  /** Releases threads and memory it holds; idempotent. */
  dispose(): void;
}

/** The grid a backend is asked to hold, as known before the medium is built. */
export interface GridSize {
  layout: YeeLayout;
  /** Absorber cells per axis on the low and high face. */
  pml: readonly { lo: number; hi: number }[];
  /** Two field sets (Bloch-periodic runs). */
  complex: boolean;
  /**
   * Values the monitors' running DFT sums hold on the grid: each recorded component's points
   * times its monitor's wavelengths (the estimate's count; absent: none).
   */
  dftValues?: number;
}

/** How much of its bounded memory a backend needs for a grid, and the bound. */
export interface BackendMemory {
  /** Bytes that count against the bound. */
  bytes: number;
  /** The most those bytes may be, per run. */
  limitBytes: number;
  /** What is counted and why it is bounded, for messages. */
  what: string;
  /** The monitors' running sums are what is counted (fewer of them would fit), not the grid. */
  ofMonitors?: true;
  /**
   * Ordinary (JavaScript) memory it keeps besides the grid the estimate counts, not against
   * the bound: the wasm backend's map of a relabelled grid's cells.
   */
  hostBytes?: number;
}

export interface SolverBackend {
  readonly name: BackendName;
  /** The GPU adapter it runs on (GPU backends only). */
  readonly adapter?: GpuAdapterReport;
  /**
   * Its memory for a grid (an estimate allowing ESTIMATED_RUNS_PER_ROW material runs where
   * the real count is known only once the medium is built) and the most it can hold.
   */
  memory(grid: GridSize): BackendMemory;
  /** Threads it would step a grid with when `wanted` are allowed. */
  threadsFor(layout: YeeLayout, wanted: number, minCellsPerThread?: number): number;
  /** Allocates the fields, prepares the kernels and starts the threads. */
  prepare(problem: SteppingProblem, options: StepperOptions): Promise<Stepper>;
}

const gib = (bytes: number) => `${Number((bytes / 2 ** 30).toFixed(2))} GiB`;

/**
 * The largest grid of N³ cells, absorber included (12 PML layers on every face, the default),
 * whose memory fits the backend's bound: a figure for messages and the documentation.
 */
export function largestCube(backend: SolverBackend, complex: boolean, pmlLayers = 12): number {
  const key = `${backend.name} ${complex} ${pmlLayers}`;
  const hit = cubes.get(key);
  if (hit !== undefined) return hit;
  const fits = (n: number) => {
    const m = backend.memory({
      layout: new YeeLayout([n, n, n], ["pml", "pml", "pml"]),
      pml: [0, 1, 2].map(() => ({ lo: pmlLayers, hi: pmlLayers })),
      complex,
    });
    return m.bytes <= m.limitBytes;
  };
  let lo = 2 * pmlLayers + 1;
  let hi = lo;
  while (fits(hi) && hi < 1 << 20) hi *= 2;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  cubes.set(key, lo);
  return lo;
}

const cubes = new Map<string, number>();

/**
 * Throws a RangeError naming the bound when a grid would not fit the backend: called before
 * the medium (the largest set-up allocation) is built, so a grid too large fails fast.
 */
export function assertFits(backend: SolverBackend, grid: GridSize): void {
  const m = backend.memory(grid);
  if (m.bytes <= m.limitBytes) return;
  const cube = largestCube(backend, grid.complex);
  throw new RangeError(
    `the grid needs ${gib(m.bytes)} of ${m.what}; the ${backend.name} backend holds at most ` +
      `${gib(m.limitBytes)} (about ${cube}³ cells with PML${grid.complex ? " for oblique incidence" : ""})`,
  );
}
