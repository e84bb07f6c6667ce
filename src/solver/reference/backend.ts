/**
 * The reference backend: the plain TypeScript kernel (kernel.ts) over the whole grid on one
 * thread, each half step in the textbook order — bulk update, CPML ψ pass, injection terms (sources/injection.ts),
 * boundary ghosts — on float32 fields in JS arrays with float64 arithmetic. It is the
 * baseline the WebAssembly and WebGPU backends are checked against (wasm/agreement.test.ts,
 * webgpu/agreement.test.ts) and the fallback where WebAssembly SIMD or shared memory is missing.
 */
import type {
  BackendMemory,
  GridSize,
  SolverBackend,
  Stepper,
  StepperTiming,
  SteppingProblem,
} from "../backend.js";
import type { FieldSet } from "../fields.js";
import { referenceKernel } from "../kernel.js";
import { MonitorRecorders } from "../monitors.js";
import { DRIVE_VALUES_PER_STEP, InjectionPlanes } from "../sources/injection.js";
import { YeeGrid } from "../yee.js";

/**
 * The largest typed array V8 allocates (buffer.constants.MAX_LENGTH in Node 20: 4 GiB);
 * every field component is one such array.
 */
const MAX_ARRAY_BYTES = 2 ** 32;

class ReferenceStepper implements Stepper {
  readonly threads = 1;
  readonly stepsPerSweep = 1;
  readonly timing: StepperTiming = {
    compileSeconds: 0,
    threadStartSeconds: 0,
    kernelSeconds: 0,
    monitorSeconds: 0,
  };
  private readonly grid: YeeGrid;
  private readonly injection: InjectionPlanes | null;
  private readonly monitors: MonitorRecorders;

  constructor(private readonly problem: SteppingProblem) {
    this.grid = new YeeGrid(problem);
    const sets = this.grid.im ? [this.grid.re.c, this.grid.im.c] : [this.grid.re.c];
    this.injection = problem.injection
      ? new InjectionPlanes(problem.injection, sets, problem.layout)
      : null;
    this.monitors = new MonitorRecorders(problem.monitors);
  }

  advance(n: number, count: number, drive: Float64Array): void {
    const { grid, injection, problem } = this;
    const dt = problem.plan.dtSeconds;
    const timing = this.timing;
    for (let l = 0; l < count; l++) {
      const slotBase = DRIVE_VALUES_PER_STEP * l;
      const start = performance.now();
      grid.updateH(referenceKernel);
      injection?.applyAll(true, drive, slotBase);
      grid.fillGhostsH();
      grid.updateE(referenceKernel);
      injection?.applyAll(false, drive, slotBase);
      grid.updatePolarization();
      grid.fillGhostsE();
      const swept = performance.now();
      timing.kernelSeconds += (swept - start) / 1000;
      const m = n + l + 1;
      if (m % problem.dftEvery === 0) {
        this.monitors.record(grid.re, grid.im, m * dt, (m - 0.5) * dt, problem.dftEvery);
        timing.monitorSeconds += (performance.now() - swept) / 1000;
      }
    }
  }

  energy(): Promise<number> {
    return Promise.resolve(this.grid.energy());
  }

  monitorSums(): Promise<Float64Array[][]> {
    return Promise.resolve(this.monitors.sums());
  }

  fields(): Promise<FieldSet[]> {
    return Promise.resolve(this.grid.im ? [this.grid.re, this.grid.im] : [this.grid.re]);
  }

  dispose(): void {}
}

export const referenceBackend: SolverBackend = {
  name: "reference",

  memory(grid: GridSize): BackendMemory {
    return {
      bytes: 4 * grid.layout.paddedCells,
      limitBytes: MAX_ARRAY_BYTES,
      what: "one array per field component (JavaScript typed arrays)",
    };
  },

  threadsFor: () => 1,

  prepare(problem: SteppingProblem): Promise<Stepper> {
    return Promise.resolve(new ReferenceStepper(problem));
  },
};
