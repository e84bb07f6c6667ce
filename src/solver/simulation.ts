/**
 * Sets a request up as a stepping simulation: grid, medium, source, monitors, and the time
 * step on the chosen backend (backend.ts). run.ts drives it (slicing, convergence, abort).
 *
 * Order of one step n (fields E^n, H^{n−½} → E^{n+1}, H^{n+½}):
 *   main H (bulk + CPML) + the source's H terms + ghosts;
 *   main E (bulk + CPML) + the source's E terms + ghosts;
 *   monitors record E at (n+1)·dt and H at (n+½)·dt.
 * The source computes its drive values first (source.advance; a plane wave steps its auxiliary
 * line) and hands them to the backend, which may then advance several steps in one sweep.
 */
import { availableParallelism } from "node:os";
import { assertFits, type SolverBackend, type Stepper } from "./backend.js";
import type { FieldStorage } from "./field-storage-setting.js";
import { solverBackend } from "./backends.js";
import { SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import type { CpmlParameters } from "./cpml.js";
import { dftSampleInterval } from "./dft-cadence.js";
import type { FieldSet } from "./fields.js";
import { domainFaces, shapeOf } from "./geometry.js";
import { YeeLayout, interiorSpanM, planGrid, type GridPlan } from "./grid.js";
import {
  buildMedium,
  buildMediumSliced,
  isMetal,
  type PaintSlicing,
  type PaintedStructure,
  type UpdateMaterial,
} from "./medium.js";
import type { Medium } from "./medium-types.js";
import { fluxSurface, type FluxSurface } from "./flux.js";
import { gradedGridNote, symmetryNote, unusedStepRatioNote } from "./grid-notes.js";
import { metalSurfaceNotes } from "./metal-notes.js";
import {
  cellCentreStreams,
  listOf,
  sampleBox,
  sampleCoordinates,
  wavelengthList,
  type SampleBox,
  type SampledComponent,
} from "./monitors.js";
import {
  createSource,
  needsComplexFields,
  DRIVE_VALUES_PER_STEP,
  MAX_BLOCK_STEPS,
  type AnySource,
} from "./sources/index.js";
import type {
  FieldComponent,
  MaterialUsed,
  MonitorSpec,
  RunOptions,
  SimulationSpec,
} from "./types.js";
import { buildGridModel, type GridModel } from "./yee.js";
import {
  resolveUpdateMaterial,
  type MaterialResolver,
  type ResolvedMaterial,
} from "./update-material.js";
import { numberText } from "./number-text.js";
import { stopCheck, type StopCheck } from "./stop-flag.js";

export type { MaterialResolver } from "./update-material.js";

/** Test and benchmark hooks on top of the public options. */
export interface InternalRunOptions extends RunOptions {
  materials?: MaterialResolver;
  /** Replaces fdtd_settings.courant_factor without validation (divergence tests). */
  courantOverride?: number;
  /** wasm backend: fewest cells per thread before it uses fewer threads (tests set 0). */
  minCellsPerThread?: number;
  /** Steps between monitor DFT samples; default from dft-cadence.ts. */
  dftEvery?: number;
  /** wasm backend: most time steps per sweep (temporal blocking); default 2. */
  stepsPerSweep?: number;
  /** wasm backend: false leaves out the mixed pieces (wasm/runs.ts); default true. */
  mixedPieces?: boolean;
  /** wasm backend: false stores a 3-D grid as it is (wasm/relabel.ts); default true. */
  rowsAlongLongestAxis?: boolean;
  /** wasm backend: the most bytes of kernel memory (tests); default 4 GiB. */
  memoryLimitBytes?: number;
  cpml?: CpmlParameters;
  /** false: staircased permittivity, for validation comparisons only. */
  smoothing?: boolean;
  /** webgpu backend: time each kind of pass with timestamp queries (benchmarks; slower). */
  profilePasses?: boolean;
  /**
   * webgpu backend: the bulk passes' workgroup (x threads along z by y along y,
   * webgpu/shaders.ts BulkShape); benchmarks compare shapes with it.
   */
  bulkShape?: { x: number; y: number };
  /** webgpu backend: the material indices in three bindings (webgpu/material-index.ts). */
  splitIndices?: boolean;
  /** webgpu backend: how the fields are stored (webgpu/field-storage.ts). */
  fieldStorage?: FieldStorage;
  /** Called as a mode source's wavelengths are solved in the set-up (progress). */
  onModeSolved?: (done: number, total: number) => void;
}

export interface MonitorState {
  spec: MonitorSpec;
  box: SampleBox;
  /** What the backend records (the order of its sums): one stream per component of a field
   * monitor, four per face of a flux monitor (flux.ts). */
  streams: SampledComponent[];
  /** Flux monitors: the surface; null for the others. */
  flux: FluxSurface | null;
  /** Far-field monitors: the surface whose fields are projected, and the directions. */
  farField: { surface: FluxSurface; thetaDeg: number[]; phiDeg: number[] } | null;
  /** Mode monitors: the plane whose fields are decomposed into its modes (mode-results.ts). */
  mode: FluxSurface | null;
  /** Index into the reference's frequency list for each of this monitor's wavelengths. */
  frequencyIndex: number[];
  wavelengthsM: number[];
  coords: [Float64Array, Float64Array, Float64Array];
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

const COMPONENT_NUMBER: Record<FieldComponent, number> = {
  Ex: 0,
  Ey: 1,
  Ez: 2,
  Hx: 3,
  Hy: 4,
  Hz: 5,
};

/** Set-up before the medium: the backend, the grid, and the structures with their materials. */
export interface MediumInputs {
  backend: SolverBackend;
  plan: GridPlan;
  layout: YeeLayout;
  /** Whether the source makes the fields complex (Bloch phases). */
  complex: boolean;
  background: UpdateMaterial;
  painted: PaintedStructure[];
  /** The materials the run uses, as the result reports them. */
  materials: MaterialUsed[];
}

/** A medium painted before the simulation is constructed (FdtdSimulation.create). */
export interface PaintedMedium {
  inputs: MediumInputs;
  medium: Medium;
  planSeconds: number;
  paintingSeconds: number;
}

/**
 * Everything the medium is painted from. Materials: a run that records only the source
 * wavelength takes each at the source frequency (σ = ω0·ε0·Im ε), exact there; a run over
 * several wavelengths steps the multi-pole model of each material that has one, so every
 * wavelength sees its own ε. Metals always use theirs.
 */
function planMedium(
  spec: SimulationSpec,
  materials: MaterialResolver,
  options: InternalRunOptions,
): MediumInputs {
  const backend = solverBackend(options.backend);
  const courant = options.courantOverride ?? spec.fdtd_settings.courant_factor;
  const { plan, background, painted, materials: used } = paintingOf(spec, materials, courant);
  const layout = YeeLayout.ofPlan(plan);
  const complex = needsComplexFields(spec.source);
  // Before the medium (the largest set-up allocation): a grid too big for the backend fails
  // fast.
  assertFits(backend, {
    layout,
    pml: plan.axes.map((a) => ({ lo: a.pmlLo, hi: a.pmlHi })),
    complex,
  });
  return { backend, plan, layout, complex, background, painted, materials: used };
}

/** What a run paints its medium from: its grid, and its structures with their materials. */
export interface Painting {
  plan: GridPlan;
  background: UpdateMaterial;
  /** The request's structures, in its order (later ones painted over earlier ones). */
  painted: PaintedStructure[];
  /** The materials the run uses, as the result reports them (the background's first). */
  materials: MaterialUsed[];
}

/**
 * The grid and the structures' shapes and update materials of a request, as its run paints
 * them (planMedium; the set-up preview, preview.ts, paints its planes from the same).
 * `courantFactor`: the request's unless a test overrides it (InternalRunOptions).
 */
export function paintingOf(
  spec: SimulationSpec,
  materials: MaterialResolver,
  courantFactor = spec.fdtd_settings.courant_factor,
): Painting {
  const plan = planGrid(spec.domain, courantFactor);
  const lambda0 = spec.source.wavelength;
  const broadband = spec.monitors.some((m) =>
    wavelengthList(m.wavelengths, lambda0).some((w) => Math.abs(w - lambda0) > 1e-12 * w),
  );
  const used = new Map<string, ResolvedMaterial>();
  const resolve = (name: string) => {
    const key = name.trim().toLowerCase();
    let hit = used.get(key);
    if (!hit) used.set(key, (hit = resolveUpdateMaterial(materials, name, lambda0, broadband)));
    return hit.mat;
  };
  const background = resolve("vacuum");
  const faces = domainFaces(plan);
  const painted: PaintedStructure[] = spec.structures.map((s) => ({
    shape: shapeOf(s, faces),
    material: resolve(s.material),
  }));
  return { plan, background, painted, materials: [...used.values()].map((u) => u.info) };
}

/** The medium of a plan, painted in one go (`FdtdSimulation.create` paints it in slices). */
function paintMedium(inputs: MediumInputs, options: InternalRunOptions): Medium {
  return buildMedium(
    inputs.plan,
    inputs.layout,
    inputs.background,
    inputs.painted,
    options.smoothing ?? true,
  );
}

/**
 * The run's recorded wavelengths — the source's, then every monitor wavelength not yet
 * listed — and, per monitor, the index of each of its wavelengths in that list.
 */
function recordedWavelengths(spec: SimulationSpec): {
  wavelengths: number[];
  monitorFrequencies: number[][];
} {
  const lambda0 = spec.source.wavelength;
  const wavelengths: number[] = [lambda0];
  const indexOf = (w: number) => {
    let i = wavelengths.findIndex((x) => Math.abs(x - w) <= 1e-12 * w);
    if (i < 0) {
      wavelengths.push(w);
      i = wavelengths.length - 1;
    }
    return i;
  };
  const monitorFrequencies = spec.monitors.map((m) =>
    wavelengthList(m.wavelengths, lambda0).map(indexOf),
  );
  return { wavelengths, monitorFrequencies };
}

/** A monitor on the grid: its sample box, the streams the backend records, its wavelengths. */
function placeMonitor(
  plan: GridPlan,
  layout: YeeLayout,
  m: MonitorSpec,
  frequencyIndex: number[],
  wavelengths: readonly number[],
): MonitorState {
  let flux: FluxSurface | null = null;
  let farField: MonitorState["farField"] = null;
  let mode: FluxSurface | null = null;
  let box: SampleBox;
  let streams: SampledComponent[];
  if (m.monitor_type !== "field") {
    // Flux, far-field and mode monitors record the tangential E and H on a surface (flux.ts).
    const surface = fluxSurface(plan, layout, m.center, m.size);
    if (m.monitor_type === "flux") flux = surface;
    else if (m.monitor_type === "mode") mode = surface;
    else farField = { surface, thetaDeg: listOf(m.theta_deg), phiDeg: listOf(m.phi_deg) };
    box = surface.box;
    streams = surface.faces.flatMap((f) => f.streams);
  } else {
    box = sampleBox(plan, m.center, m.size);
    const comps = m.components.map((c) => COMPONENT_NUMBER[c]);
    streams = cellCentreStreams(layout, box, comps);
  }
  return {
    spec: m,
    box,
    streams,
    flux,
    farField,
    mode,
    frequencyIndex,
    wavelengthsM: frequencyIndex.map((j) => wavelengths[j]!),
    coords: [0, 1, 2].map((a) => sampleCoordinates(plan, box, a)) as MonitorState["coords"],
  };
}

export class FdtdSimulation {
  readonly spec: SimulationSpec;
  readonly plan: GridPlan;
  /** The main grid as every backend steps it (no fields: the stepper holds those). */
  readonly model: GridModel;
  readonly source: AnySource;
  readonly monitors: MonitorState[];
  readonly materials: MaterialUsed[];
  readonly notes: string[] = [];
  readonly backend: SolverBackend;
  /** Union of recorded angular frequencies (the source's first). */
  readonly omegas: Float64Array;
  /** Monitors take a DFT sample every `dftEvery` steps (weighted by it). */
  readonly dftEvery: number;
  /** Threads the run may use (RunOptions.threads; the cores by default): the mode solves'. */
  readonly threadsAllowed: number;
  /** Throws once the run is cancelled (stop-flag.ts): read inside the mode solves. */
  readonly checkStop: StopCheck;
  /** Each structure's bounding box in metres (may be infinite). */
  readonly structureBounds: { lo: readonly number[]; hi: readonly number[] }[];
  /** Seconds of set-up spent on the grid (plan, model, source, monitors) and on painting. */
  readonly setupTimes: { gridSeconds: number; paintingSeconds: number };
  /** Seconds `prepare` took: the backend's fields, kernel compile and threads. */
  prepareSeconds = 0;
  /** Seconds the source spent computing its drive values (on the calling thread). */
  sourceSeconds = 0;
  stepIndex = 0;
  private readonly options: InternalRunOptions;
  private stepperOrNull: Stepper | null = null;
  /** The source's drive values for the steps of one sweep (sources/injection.ts). */
  private readonly drive = new Float64Array(DRIVE_VALUES_PER_STEP * MAX_BLOCK_STEPS);

  constructor(
    spec: SimulationSpec,
    materials: MaterialResolver,
    options: InternalRunOptions = {},
    /** The medium painted already (`create`); painted here when absent. */
    painted?: PaintedMedium,
  ) {
    const setupStart = performance.now();
    this.spec = spec;
    this.options = options;
    const inputs = painted?.inputs ?? planMedium(spec, materials, options);
    const planSeconds = (performance.now() - setupStart) / 1000;
    const paintStart = performance.now();
    const medium = painted?.medium ?? paintMedium(inputs, options);
    const paintingSeconds = painted?.paintingSeconds ?? (performance.now() - paintStart) / 1000;
    const modelStart = performance.now();
    const { plan, layout } = inputs;
    this.backend = inputs.backend;
    this.plan = plan;
    this.materials = inputs.materials;
    const { wavelengths, monitorFrequencies } = recordedWavelengths(spec);
    this.omegas = Float64Array.from(wavelengths, (w) => (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / w);
    this.threadsAllowed = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
    this.checkStop = stopCheck(options.signal, options.stopFlag);
    this.source = createSource({
      spec,
      plan,
      layout,
      medium,
      wavelengthsM: wavelengths,
      omegas: this.omegas,
      threads: this.threadsAllowed,
      checkStop: this.checkStop,
      onModeSolved: options.onModeSolved,
    });
    this.model = buildGridModel(plan, layout, medium, {
      complex: this.source.complex,
      blochPhase: this.source.blochPhase,
      omega0: this.omegas[0]!,
      cpml: options.cpml,
    });
    this.monitors = spec.monitors.map((m, i) =>
      placeMonitor(plan, layout, m, monitorFrequencies[i]!, wavelengths),
    );
    this.dftEvery = options.dftEvery ?? this.defaultDftEvery();
    this.source.attachMonitors(
      this.monitors.map((m) => ({
        name: m.spec.name,
        box: m.box,
        flux: m.flux ?? m.farField?.surface ?? m.mode ?? null,
      })),
      this.dftEvery,
    );
    this.structureBounds = inputs.painted.map((p) => ({ lo: p.shape.lo, hi: p.shape.hi }));
    this.addNotes(inputs.painted);
    this.setupTimes = {
      gridSeconds: (painted?.planSeconds ?? planSeconds) + (performance.now() - modelStart) / 1000,
      paintingSeconds,
    };
  }

  /** The monitors' DFT cadence (dft-cadence.ts) for this run's pulse and grid. */
  private defaultDftEvery(): number {
    return dftSampleInterval(
      this.source.pulse,
      this.omegas,
      this.plan.dtSeconds,
      this.spec.fdtd_settings.check_every_n,
      !this.plan.uniform,
    );
  }

  /**
   * A simulation whose structures are painted in slices (buildMediumSliced): between slices
   * `slicing.checkpoint` may yield, report progress, or throw to cancel the set-up.
   */
  static async create(
    spec: SimulationSpec,
    materials: MaterialResolver,
    options: InternalRunOptions,
    slicing: PaintSlicing,
  ): Promise<FdtdSimulation> {
    const planStart = performance.now();
    const inputs = planMedium(spec, materials, options);
    const paintStart = performance.now();
    const medium = await buildMediumSliced(
      inputs.plan,
      inputs.layout,
      inputs.background,
      inputs.painted,
      options.smoothing ?? true,
      slicing,
    );
    return new FdtdSimulation(spec, materials, options, {
      inputs,
      medium,
      planSeconds: (paintStart - planStart) / 1000,
      paintingSeconds: (performance.now() - paintStart) / 1000,
    });
  }

  /** Time (s) after which the source pulse has passed its peak. */
  get pulsePeakSeconds(): number {
    return this.source.pulse.t0;
  }

  /** The stepper `prepare` made; throws before it. */
  get stepper(): Stepper {
    if (!this.stepperOrNull) throw new Error("FdtdSimulation.prepare() must be awaited first");
    return this.stepperOrNull;
  }

  /** Threads the backend steps with. */
  get threads(): number {
    return this.stepper.threads;
  }

  /** Time steps one sweep of the backend advances. */
  get stepsPerSweep(): number {
    return this.stepper.stepsPerSweep;
  }

  /**
   * Hands the main grid to the backend (allocates the fields; for the wasm backend compiles
   * the kernel and starts its threads); await before the first step.
   */
  async prepare(): Promise<void> {
    if (this.stepperOrNull) return;
    const prepareStart = performance.now();
    const { model, source, monitors, options } = this;
    this.stepperOrNull = await this.backend.prepare(
      {
        ...model,
        injection: source.injection(model.layout, model.medium, model.kernelGrid.hCoefficient),
        monitors: monitors.map((m) => ({
          streams: m.streams,
          omegas: Float64Array.from(m.frequencyIndex, (j) => this.omegas[j]),
        })),
        dftEvery: this.dftEvery,
        // Sweeps of several steps end on every step the driver looks at: DFT samples and,
        // in run.ts, the checks every check_every_n and every 100 steps.
        alignSteps: gcd(this.dftEvery, 100),
        amplitudeVPerM: this.source.fieldScaleVPerM,
      },
      {
        threads: options.threads,
        minCellsPerThread: options.minCellsPerThread,
        stepsPerSweep: options.stepsPerSweep,
        mixedPieces: options.mixedPieces,
        rowsAlongLongestAxis: options.rowsAlongLongestAxis,
        memoryLimitBytes: options.memoryLimitBytes,
        profilePasses: options.profilePasses,
        bulkShape: options.bulkShape,
        splitIndices: options.splitIndices,
        fieldStorage: options.fieldStorage,
      },
    );
    this.prepareSeconds = (performance.now() - prepareStart) / 1000;
  }

  /** Releases the backend (its threads; the fields stay readable on CPU backends). */
  dispose(): void {
    this.stepperOrNull?.dispose();
  }

  /**
   * Advances one time step, or with `until` (a step index) as many as one sweep of the
   * backend does at once without passing it; stepIndex tells how far.
   */
  step(until = this.stepIndex + 1): void {
    const stepper = this.stepper;
    const n = this.stepIndex;
    const d = stepper.stepsPerSweep;
    const count = d > 1 && n % d === 0 && until - n >= d ? d : 1;
    const start = performance.now();
    this.source.advance(n, count, this.drive);
    this.sourceSeconds += (performance.now() - start) / 1000;
    stepper.advance(n, count, this.drive);
    this.stepIndex = n + count;
  }

  /** Resolves once the backend has finished every step given so far. */
  synchronize(): Promise<void> {
    return this.stepper.synchronize?.() ?? Promise.resolve();
  }

  /** Total energy (ε0-scaled, see YeeGrid.energy). */
  energy(): Promise<number> {
    return this.stepper.energy();
  }

  /** Per monitor, per recorded component, the raw DFT sums (not normalised). */
  monitorSums(): Promise<Float64Array[][]> {
    return this.stepper.monitorSums();
  }

  /** The smallest relative change the stepper's stored fields resolve (Stepper.changeFloor). */
  get changeFloor(): number {
    return this.stepper.changeFloor ?? 0;
  }

  /** The stepper's own monitor-change sums (Stepper.monitorChange), or undefined without them. */
  get monitorChange(): Stepper["monitorChange"] {
    return this.stepper.monitorChange?.bind(this.stepper);
  }

  /** The main grid's field sets (tests). */
  fields(): Promise<FieldSet[]> {
    return this.stepper.fields();
  }

  /**
   * The run's notes: the grid's (grading, symmetry, rounded sizes), the source's, and metal
   * surfaces too coarse for their skin depth.
   */
  private addNotes(structures: readonly PaintedStructure[]): void {
    const metres = (v: number) => numberText(v);
    const plan = this.plan;
    const graded = gradedGridNote(plan) ?? unusedStepRatioNote(this.spec.domain);
    if (graded) this.notes.push(graded);
    const mirrored = symmetryNote(this.spec.domain);
    if (mirrored) this.notes.push(mirrored);
    for (let a = 0; a < 3; a++) {
      const ax = plan.axes[a];
      const [from, to] = interiorSpanM(ax);
      const actual = to - from;
      // Only a change the note can show (a step of 33.333333 nm makes 4 µm 3.99999996 µm).
      if (metres(actual) !== metres(ax.requestedSizeM)) {
        const cells = ax.mirror === "none" ? ax.interiorCells : 2 * ax.interiorCells;
        this.notes.push(
          `domain.size along ${"xyz"[a]} rounded from ${metres(ax.requestedSizeM)} m to ` +
            `${cells} cells = ${metres(actual)} m`,
        );
      }
    }
    this.notes.push(...this.source.notes);
    this.notes.push(
      ...metalSurfaceNotes(this.spec, (i) => isMetal(structures[i]?.material.poles), plan),
    );
  }
}
