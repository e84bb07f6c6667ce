/**
 * The WebGPU backend (`webgpu`): the main grid's fields, CPML ψ, material indices and tables in
 * GPU storage buffers, stepped by the WGSL compute shaders of shaders.ts in the reference
 * backend's order (reference/backend.ts): per half step the bulk update of each field set with
 * its CPML corrections (absorber.ts), the source's injection terms, then the boundary ghost
 * planes; after a step that the monitors sample, their running DFT. With EMSIM_WEBGPU_FUSED=1 and
 * no ghost copies a step is instead one fused pass over two copies of the fields, read and
 * written by turns (fused-step.ts; off by default: slower on an H200).
 *
 * `advance` only encodes: steps go into one compute pass, and the pass is submitted when a
 * batch of steps has been encoded (FIRST_BATCH_STEPS growing to BATCH_STEPS) or when the
 * driver reads something back (monitor sums,
 * energy, fields, the convergence test's sums), which are the only transfers from the GPU.
 * The convergence test's sums over the monitors' running DFT are reduced on the GPU
 * (`monitorChange`): reading every running sum back at each check cost more than the steps
 * between checks on a fine grid (a 100 nm gold sphere on 0.625 nm cells: 130 MB and a few
 * tenths of a second of the CPU's time per check of 200 steps; 172 s → 108 s on an H200).
 * Per step the CPU writes the source's drive values (and, when the monitors sample, e^{iωt} per wavelength
 * computed in float64) into a step table; each step's dispatches find their row through a
 * dynamic uniform offset, so a batch of steps needs one buffer write and one submit.
 * `timing.kernelSeconds` is the CPU's encoding plus its waits for the GPU at `synchronize`
 * (which the driver calls before each check and at the end, run.ts): the GPU's own time shows
 * only where the CPU waits for it. `energy` and `monitorChange` are the driver's
 * checks, timed there; `timing.monitorSeconds` is reading the monitor sums back.
 *
 * Dispersive cells (dispersion/ade.ts) get their ADE pass after the E half step's source terms,
 * one dispatch per E component and field set over the component's dispersive cells only, with
 * the polarisation state (P, J per pole; Σh, E^n, E^{n−1} per cell) in float32 GPU buffers.
 */
import type {
  BackendMemory,
  GridSize,
  SolverBackend,
  Stepper,
  StepperOptions,
  StepperTiming,
  SteppingProblem,
} from "../backend.js";
import { ghostCopies, type GhostCopy } from "../boundaries.js";
import { ETA0 } from "../constants.js";
import { allocateFieldSet, type FieldSet } from "../fields.js";
import type { YeeLayout } from "../grid.js";
import { DRIVE_VALUES_PER_STEP } from "../sources/injection.js";
import { describeAdapter, type GpuAdapterHandle, type GpuLimits } from "./device.js";
import { PassProfiler, PROFILE_FEATURE } from "./pass-profiler.js";
import { fieldStorageFromEnv } from "../field-storage-setting.js";
import {
  decodeFieldValues,
  fieldBufferBytes,
  fieldValueBytes,
  FLOAT16_CHANGE_FLOOR,
  storageScales,
  energyUnit,
  type StorageScales,
  isPacked,
  type FieldStorage,
} from "./field-storage.js";
import { packedBulkGroups, packedUpdateShader } from "./packed-bulk.js";
import {
  defaultFusedTile,
  FUSED_STORAGE_BUFFERS,
  fusedGroups,
  fusedStepShader,
} from "./fused-step.js";
import { buildTables, type TableOffsets } from "./tables.js";
import {
  DRIVE_UNIFORM_BYTES,
  injectionWeights,
  planInjection,
  type GpuInjection,
} from "./injection-terms.js";
import {
  indexBits,
  indexWords,
  needsSplitIndices,
  packIndices,
  SPLIT_INDEX_STORAGE_BUFFERS,
  type IndexBits,
} from "./material-index.js";
import {
  absorberBytes,
  absorberNodes,
  planAbsorber,
  type AbsorberLayers,
  type AbsorberPlan,
} from "./absorber.js";
import type { AdeTerms } from "../dispersion/ade.js";
import {
  adeShader,
  ADE_PARAMS,
  changeShader,
  CHANGE_FLOAT_PARAMS,
  CHANGE_PARAMS,
  CHANGE_VALUES_PER_THREAD,
  dftShader,
  DFT_FLOAT_PARAMS,
  DFT_PARAMS,
  energyShader,
  ENERGY_FLOAT_PARAMS,
  ENERGY_PARAMS,
  ENERGY_VALUES_PER_THREAD,
  ghostShader,
  GHOST_FLOAT_PARAMS,
  GHOST_PARAMS,
  packParams,
  updateEShader,
  updateHShader,
  WORKGROUP_LINEAR,
  bulkGroups,
  defaultBulkShape,
  type BulkShape,
  bulkBytesPerCellUpdate,
  type ShaderGrid,
  type FieldAccess,
} from "./shaders.js";

/**
 * Steps encoded into one compute pass before it is submitted. A submit costs tens of µs of
 * CPU; a step of a large grid takes milliseconds on a GPU, so 64 keeps the queue fed while the
 * driver's checks (every 100 steps at most) bound how far the CPU runs ahead.
 */
export const BATCH_STEPS = 64;

/**
 * The first batch after the GPU ran dry (a check or read-back waited for it) is this short,
 * and each one after it twice as long up to BATCH_STEPS: the GPU starts on the first steps
 * while the CPU encodes the next. With 64 at once a small grid's GPU sat idle while the CPU
 * encoded them (≈ 6 API calls per dispatch, tens of µs a step): 128³ on an H200 stepped at
 * 186 µs a step of which its passes took 153.
 */
const FIRST_BATCH_STEPS = 4;

const STORAGE = 0x80; // GPUBufferUsage.STORAGE
const COPY_SRC = 0x04;
const COPY_DST = 0x08;
const MAP_READ = 0x01;
const UNIFORM = 0x40;
const COMPUTE = 0x4; // GPUShaderStage.COMPUTE
const MAP_MODE_READ = 0x1;

type BindingKind = "storage" | "read-only-storage" | "uniform" | "dynamic-uniform";

/** A dispatch as encoded: pipeline, bind groups, workgroup counts. */
interface Dispatch {
  /** What it does, as profiled runs report it ("H bulk", "sources", "DFT", …). */
  kind: string;
  pipeline: GPUComputePipeline;
  group0: GPUBindGroup;
  /** Group 1 (step row) for passes that read the step table. */
  stepGroup?: GPUBindGroup;
  size: [number, number, number];
}

/** Bytes of one value's running DFT sum on the GPU: re, im and their Kahan compensations. */
const DFT_SUM_BYTES = 16;

/**
 * The setting that turns the fused step on (`1`). Off by default: on an H200 it ran 10–45 %
 * slower than the two bulk passes (docs/benchmarks.md), its threads waiting on their own
 * arithmetic and loads, not on memory.
 */
export const FUSED_STEP_ENV = "EMSIM_WEBGPU_FUSED";

/**
 * Whether a step of `problem` runs as one fused pass (fused-step.ts): asked for by
 * EMSIM_WEBGPU_FUSED=1, and possible: float32 fields, one field set (no Bloch phase), no ghost
 * copies (periodic, Bloch or mirror boundaries), an adapter that binds the pass's 15 storage
 * buffers and runs its workgroups. Elsewhere a step is the two bulk passes (shaders.ts).
 */
export function fusedStepAllowed(
  problem: SteppingProblem,
  storage: FieldStorage,
  handle: GpuAdapterHandle,
): boolean {
  if (process.env[FUSED_STEP_ENV] !== "1" || storage !== "float32" || problem.complex) return false;
  const copies = ghostCopies(problem.layout, problem.blochPhase);
  const tile = defaultFusedTile(handle.report.software);
  const l = handle.limits;
  return (
    copies.h.length === 0 &&
    copies.e.length === 0 &&
    l.maxStorageBuffersPerShaderStage >= FUSED_STORAGE_BUFFERS &&
    l.maxComputeInvocationsPerWorkgroup >= tile.k * tile.j
  );
}

/**
 * Whether `problem`'s material indices go in three bindings (material-index.ts): asked for, or
 * one buffer of them would pass the adapter's binding bound. Throws where the adapter cannot
 * bind the ten storage buffers that takes.
 */
function splitIndicesFor(problem: SteppingProblem, handle: GpuAdapterHandle, asked: boolean) {
  const bits = indexBits(problem.medium);
  const split = asked || needsSplitIndices(problem.layout, bits, gpuBindingLimit(handle.limits));
  const bound = handle.limits.maxStorageBuffersPerShaderStage;
  if (split && bound < SPLIT_INDEX_STORAGE_BUFFERS) {
    throw new RangeError(
      `the grid's material indices need three GPU storage bindings of their own, and the ` +
        `adapter binds ${bound} storage buffers per shader, not ${SPLIT_INDEX_STORAGE_BUFFERS}`,
    );
  }
  return split;
}

/** The limits a run's device asks for beyond the defaults (openDevice). */
function deviceLimits(
  handle: GpuAdapterHandle,
  run: { fused: boolean; split: boolean },
): Record<string, number> {
  if (run.split) return { maxStorageBuffersPerShaderStage: SPLIT_INDEX_STORAGE_BUFFERS };
  if (!run.fused) return {};
  const tile = defaultFusedTile(handle.report.software);
  return {
    maxStorageBuffersPerShaderStage: FUSED_STORAGE_BUFFERS,
    maxComputeInvocationsPerWorkgroup: tile.k * tile.j,
    maxComputeWorkgroupSizeX: tile.k,
    maxComputeWorkgroupSizeY: tile.j,
  };
}

/** The backend's buffers' bound: the largest one storage binding may be, in bytes. */
export function gpuBindingLimit(limits: GpuLimits): number {
  return Math.min(limits.maxBufferSize, limits.maxStorageBufferBindingSize);
}

/** Bytes of one field component's buffer on `layout` (field-storage.ts). */
function fieldBytesOf(layout: YeeLayout, storage: FieldStorage): number {
  const [sx] = layout.strides;
  return fieldBufferBytes(storage, layout.paddedCells / sx, sx);
}

/**
 * Bytes of the largest storage buffer a grid needs (the bound that applies per buffer); with
 * `splitIndices` (an adapter that binds ten storage buffers) the material indices count per
 * component (material-index.ts).
 */
export function gpuLargestBuffer(
  grid: GridSize,
  storage: FieldStorage = "float32",
  splitIndices = false,
): number {
  const { layout } = grid;
  // Indices of 16 bits unless the table turns out small (not known before the medium is built).
  const indexBytes = (splitIndices ? 1 : 3) * 4 * indexWords(layout, 16);
  const fieldBytes = fieldBytesOf(layout, storage);
  // The aux buffer: ψ of every absorber slab behind the tables (ten per-axis profiles and the
  // per-material ones, a few KiB: 64 KiB is a bound).
  const auxBytes = absorberBytes(layout, grid.pml) + 2 ** 16;
  return Math.max(indexBytes, fieldBytes, auxBytes);
}

/** The run's absorber cells per face (its plan's CPML layers). */
function absorberLayers(problem: SteppingProblem): AbsorberLayers {
  return problem.plan.axes.map((a) => ({ lo: a.pmlLo, hi: a.pmlHi }));
}

/** Workgroup counts for `threads` threads of WORKGROUP_LINEAR, folded into 2-D when many. */
function linearSize(threads: number, maxPerDim: number, perGroup = WORKGROUP_LINEAR) {
  const groups = Math.max(1, Math.ceil(threads / perGroup));
  if (groups <= maxPerDim) return [groups, 1, 1] as [number, number, number];
  return [maxPerDim, Math.ceil(groups / maxPerDim), 1] as [number, number, number];
}

/** Workgroup counts `size` repeated `depth` times along z. */
function withDepth(size: [number, number, number], depth: number): [number, number, number] {
  return [size[0], size[1], depth];
}

/** The monitors' streams flattened: where each one's indices, sums and e^{iωt} values sit. */
interface StreamPlan {
  monitor: number;
  comp: number;
  points: number;
  wavelengths: number;
  omegas: Float64Array;
  offsets: Int32Array;
  /** Offsets in the base-index buffer (u32), the sums buffer (f32), a step row's trig block. */
  base: number;
  sums: number;
  trig: number;
}

/** The monitor-change reduction (monitorChange): its passes, buffers and counts. */
interface ChangePlan {
  passes: Dispatch[];
  /** Per-wavelength weights, `wavelengths` per stream in stream order. */
  weights: GPUBuffer;
  weightCount: number;
  /** (Σ w(s−p)², Σ w s²) per workgroup. */
  partials: GPUBuffer;
  pairs: number;
}

/** The monitors' streams laid out (planStreams), with the totals the buffers need. */
interface StreamLayout {
  streams: StreamPlan[];
  /** Points of all streams (the base-index buffer's length). */
  points: number;
  /** Floats of the running sums and their compensations, and trig values per step row. */
  sumsLength: number;
  trigPerRow: number;
}

/** The monitors' streams, one plan per stream, in the order monitorSums returns them. */
function planStreams(problem: SteppingProblem): StreamLayout {
  const streams: StreamPlan[] = [];
  let baseAt = 0;
  let sumsAt = 0;
  let trigAt = 0;
  problem.monitors.forEach((m, monitor) => {
    for (const st of m.streams) {
      const points = st.base.length;
      const wavelengths = m.omegas.length;
      streams.push({
        monitor,
        comp: st.comp,
        points,
        wavelengths,
        omegas: m.omegas,
        offsets: st.offsets,
        base: baseAt,
        sums: sumsAt,
        trig: trigAt,
      });
      baseAt += points;
      // Running sums (re, im per wavelength and point), then their Kahan compensations.
      sumsAt += 4 * wavelengths * points;
      trigAt += 2 * wavelengths;
    }
  });
  return { streams, points: baseAt, sumsLength: sumsAt, trigPerRow: trigAt };
}

/** A stream's DFT pass parameters (dftShader) for fields stored at `scales`. */
function dftParams(st: StreamPlan, scales: StorageScales): ArrayBuffer {
  return packParams(DFT_PARAMS, DFT_FLOAT_PARAMS, {
    points: st.points,
    wavelengths: st.wavelengths,
    offsets: st.offsets.length,
    base: st.base,
    o0: st.offsets[0],
    o1: st.offsets[1] ?? 0,
    o2: st.offsets[2] ?? 0,
    o3: st.offsets[3] ?? 0,
    sums: st.sums,
    trig: st.trig,
    weight: 1 / st.offsets.length / (st.comp >= 3 ? scales.h : scales.e),
  });
}

/** What every ADE pass of a run shares (GpuStepper.adePasses). */
interface AdePassParts {
  terms: AdeTerms;
  /** The coefficient table: corrections, then cP, cJ, cE per pole slot. */
  tab: GPUBuffer;
  bindLayout: GPUBindGroupLayout;
  pipeline: GPUComputePipeline;
  /** The adapter's largest binding, in bytes. */
  limit: number;
}

/** The step table's bind layout (group 1) and a maker of its bind groups. */
interface StepBinding {
  layout: GPUBindGroupLayout;
  group: () => GPUBindGroup;
}

/** A time step's pipelines, each with its bind layout (group 0). */
interface StepPipelines {
  bulk: Record<"H" | "E", [GPUComputePipeline, GPUBindGroupLayout]>;
  ghost: [GPUComputePipeline, GPUBindGroupLayout];
}

class GpuStepper implements Stepper {
  readonly threads = 1;
  readonly stepsPerSweep: number;
  readonly changeFloor: number | undefined;
  readonly timing: StepperTiming = {
    compileSeconds: 0,
    threadStartSeconds: 0,
    kernelSeconds: 0,
    monitorSeconds: 0,
  };
  private readonly device: GPUDevice;
  private readonly problem: SteppingProblem;
  private readonly layout: YeeLayout;
  private readonly sets: number;
  /** How the fields are stored, and at what scales (field-storage.ts). */
  private readonly storage: FieldStorage;
  private readonly scales: StorageScales;
  /** The field unit the energy reduction squares in (field-storage.ts energyUnit). */
  private readonly energyUnit: number;
  /**
   * The fields' buffers, [copy][set][component]: one copy, or two that the fused step reads
   * from and writes to by turns (fused-step.ts); `current` is the copy that holds them now.
   */
  private readonly copies: GPUBuffer[][][];
  private current = 0;
  /** Whether a step is one fused pass (fusedStepAllowed). */
  private readonly fused: boolean;
  /** The E components' material indices: one buffer, or one per component (split). */
  private readonly indexBuffers: GPUBuffer[];
  private readonly indexBits: IndexBits;
  /**
   * Per copy and field set: the small tables, then the absorber's ψ (absorber.ts), then the
   * injection weights; the fused step reads ψ from one copy and writes the other.
   */
  private readonly auxBuffers: GPUBuffer[][];
  private readonly absorber: AbsorberPlan;
  private readonly stepTable: GPUBuffer;
  /** The open batch's e^{iωt} rows (trigPerRow words a step) and drive slots (slotAlign bytes). */
  private readonly stepRows: Float32Array;
  private readonly driveRows: Float32Array;
  private readonly driveBuffer: GPUBuffer;
  private driveGroup: GPUBindGroup | null = null;
  private readonly trigPerRow: number;
  private readonly streams: StreamPlan[];
  private readonly sumsBuffer: GPUBuffer | null;
  private readonly change: ChangePlan | null;
  /** monitorChange calls so far (the first has no previous sums to compare with). */
  private changeChecks = 0;
  private readonly sumsLength: number;
  /** Per copy: a step's dispatches that leave the fields in it, the DFT's and energy's on it. */
  private readonly stepPasses: Dispatch[][];
  private readonly dftPasses: Dispatch[][];
  private readonly energyPasses: Dispatch[][];
  private readonly energyPartials: GPUBuffer;
  private readonly energyCount: number;
  private readonly maxPerDim: number;
  private readonly bulkShape: BulkShape;
  /** Bytes between steps' uniform slots: room for a step's drive values (32 B), aligned. */
  private readonly slotAlign: number;
  private encoder: GPUCommandEncoder | null = null;
  private pass: GPUComputePassEncoder | null = null;
  /** Step rows of the open batch used so far, and the most it takes (FIRST_BATCH_STEPS). */
  private slot = 0;
  private batchSteps = FIRST_BATCH_STEPS;
  private failure: Error | null = null;
  private disposed = false;
  /** Profiled runs: times each kind of pass (null otherwise, or without timestamp queries). */
  private readonly profiler: PassProfiler | null;

  private constructor(
    device: GPUDevice,
    problem: SteppingProblem,
    handle: GpuAdapterHandle,
    options: StepperOptions,
    { fused, split }: { fused: boolean; split: boolean },
  ) {
    this.device = device;
    this.problem = problem;
    this.layout = problem.layout;
    this.sets = problem.complex ? 2 : 1;
    this.storage = options.fieldStorage ?? "float32";
    this.scales = storageScales(this.storage, problem.amplitudeVPerM);
    this.energyUnit = energyUnit(problem.amplitudeVPerM);
    this.changeFloor = isPacked(this.storage) ? FLOAT16_CHANGE_FLOOR : undefined;
    this.maxPerDim = device.limits.maxComputeWorkgroupsPerDimension;
    this.bulkShape = options.bulkShape ?? defaultBulkShape(handle.report.software);
    this.slotAlign = Math.max(DRIVE_UNIFORM_BYTES, device.limits.minUniformBufferOffsetAlignment);
    this.stepsPerSweep = [4, 2].find((d) => problem.alignSteps % d === 0) ?? 1;
    this.watchDevice();

    const layout = this.layout;
    this.fused = fused;
    const fieldBytes = fieldBytesOf(layout, this.storage);
    this.copies = Array.from({ length: this.fused ? 2 : 1 }, () =>
      Array.from({ length: this.sets }, () =>
        Array.from({ length: 6 }, () => this.buffer(fieldBytes, STORAGE | COPY_SRC | COPY_DST)),
      ),
    );
    this.indexBits = indexBits(problem.medium);
    this.indexBuffers = this.uploadIndices(split);
    const tables = buildTables(problem);
    this.absorber = planAbsorber(layout, absorberLayers(problem), tables.data.length);
    const injectionStart = tables.data.length + this.absorber.psiWords;
    const injection = planInjection(problem.injection, layout, injectionStart, this.sets > 1);
    this.auxBuffers = this.copies.map(() =>
      Array.from({ length: this.sets }, (_, set) => this.auxBuffer(tables.data, injection, set)),
    );
    const shaderGrid = this.shaderGrid(tables.offsets, injection);

    const monitors = planStreams(problem);
    this.streams = monitors.streams;
    this.trigPerRow = monitors.trigPerRow;
    this.sumsLength = monitors.sumsLength;
    this.stepRows = new Float32Array(BATCH_STEPS * this.trigPerRow);
    this.stepTable = this.buffer(4 * this.stepRows.length, STORAGE | COPY_DST);
    const step = this.stepBinding();
    this.driveRows = new Float32Array((BATCH_STEPS * this.slotAlign) / 4);
    this.driveBuffer = this.buffer(4 * this.driveRows.length, UNIFORM | COPY_DST);

    this.stepPasses = this.stepPassesOf(shaderGrid, handle);

    const dft = this.streams.length > 0 ? this.dftPlan(monitors.points, step) : null;
    this.sumsBuffer = dft?.sums ?? null;
    this.dftPasses = dft?.passes ?? this.copies.map(() => []);
    this.change = dft ? this.changePlan() : null;

    const energy = this.energyPlan(shaderGrid);
    this.energyPasses = energy.passes;
    this.energyPartials = energy.partials;
    this.energyCount = energy.count;

    const perStep = this.stepPasses[0].length + this.dftPasses[0].length;
    this.timing.gpu = {
      dispatchesPerStep: perStep,
      bytesPerCellUpdate: this.bytesPerCellUpdate(),
    };
    this.profiler =
      options.profilePasses && PassProfiler.supported(device)
        ? new PassProfiler(device, BATCH_STEPS * perStep)
        : null;
  }

  /** The material indices (material-index.ts): one buffer, or one per E component. */
  private uploadIndices(split: boolean): GPUBuffer[] {
    const indices = packIndices(this.problem.medium, this.layout, this.indexBits);
    if (!split) return [this.upload(indices, STORAGE)];
    const words = indexWords(this.layout, this.indexBits);
    return [0, 1, 2].map((c) => this.upload(indices.subarray(c * words, (c + 1) * words), STORAGE));
  }

  /** Per copy the fields end a step in: that step's dispatches (fused, or the two half steps). */
  private stepPassesOf(shaderGrid: ShaderGrid, handle: GpuAdapterHandle): Dispatch[][] {
    const driveLayout = this.driveBinding();
    if (this.fused) return this.fusedStepPasses(shaderGrid, driveLayout, handle, handle.limits);
    const pipelines = this.stepPipelines(shaderGrid, driveLayout);
    const h = this.halfStepPasses("H", pipelines, handle.limits);
    return [[...h, ...this.halfStepPasses("E", pipelines, handle.limits)]];
  }

  /** What the generated shaders need to know of this run (shaders.ts ShaderGrid). */
  private shaderGrid(tables: TableOffsets, injection: GpuInjection | null): ShaderGrid {
    return {
      layout: this.layout,
      tables,
      absorber: this.absorber,
      hCoefficient: this.problem.kernelGrid.hCoefficient,
      bulk: this.bulkShape,
      indexBits: this.indexBits,
      indexWords: indexWords(this.layout, this.indexBits),
      indexSplit: this.indexBuffers.length > 1,
      injection,
      storage: this.storage,
      scales: this.scales,
    };
  }

  /** Records the device's uncaptured errors and its loss as the stepper's failure. */
  private watchDevice(): void {
    this.device.addEventListener("uncapturederror", (event) => {
      const err = (event as GPUUncapturedErrorEvent).error;
      this.failure ??= new Error(`webgpu: ${err.message}`);
    });
    void this.device.lost.then((info) => {
      if (!this.disposed) this.failure ??= new Error(`webgpu device lost: ${info.message}`);
    });
  }

  /**
   * The step table's binding (group 1 of the DFT passes): each step row's offset into the
   * table, one aligned uniform slot per row for the dynamic offset, and the table.
   */
  private stepBinding(): StepBinding {
    const align = this.slotAlign;
    const slots = new Uint32Array((BATCH_STEPS * align) / 4);
    for (let l = 0; l < BATCH_STEPS; l++) slots[(l * align) / 4] = this.trigPerRow * l;
    const slotBuffer = this.upload(slots, UNIFORM);
    const layout = this.bindLayout([
      [0, "dynamic-uniform"],
      [1, "read-only-storage"],
    ]);
    const group = () =>
      this.device.createBindGroup({
        layout,
        entries: [
          { binding: 0, resource: { buffer: slotBuffer, offset: 0, size: 16 } },
          { binding: 1, resource: { buffer: this.stepTable } },
        ],
      });
    return { layout, group };
  }

  /**
   * Group 1 of the step's passes: the step's drive values (injection-terms.ts), a dynamic
   * offset per step.
   */
  private driveBinding(): GPUBindGroupLayout {
    const driveLayout = this.bindLayout([[0, "dynamic-uniform"]]);
    this.driveGroup = this.device.createBindGroup({
      layout: driveLayout,
      entries: [
        {
          binding: 0,
          resource: { buffer: this.driveBuffer, offset: 0, size: DRIVE_UNIFORM_BYTES },
        },
      ],
    });
    return driveLayout;
  }

  /**
   * A step as one fused pass per copy it ends in (fused-step.ts), each followed by the ADE
   * pass on that copy's E.
   */
  private fusedStepPasses(
    shaderGrid: ShaderGrid,
    driveLayout: GPUBindGroupLayout,
    handle: GpuAdapterHandle,
    limits: GpuLimits,
  ): Dispatch[][] {
    const tile = defaultFusedTile(handle.report.software);
    const kinds: BindingKind[] = [
      ...Array<BindingKind>(6).fill("read-only-storage"),
      ...Array<BindingKind>(6).fill("storage"),
      "read-only-storage",
      "storage",
      "read-only-storage",
    ];
    const bindLayout = this.bindLayout(kinds.map((kind, b) => [b, kind]));
    const code = fusedStepShader(shaderGrid, tile);
    const pipeline = this.pipeline("fused step", code, [bindLayout, driveLayout]);
    const ade = this.problem.ade ? this.adePasses(this.problem.ade, limits) : null;
    return [0, 1].map((to) => {
      const from = 1 - to;
      const buffers = [
        ...this.copies[from][0],
        ...this.copies[to][0],
        this.auxBuffers[from][0],
        this.auxBuffers[to][0],
        ...this.indexBuffers,
      ];
      const entries = buffers.map((buffer, binding) => ({ binding, resource: { buffer } }));
      const step: Dispatch = {
        kind: "fused step",
        pipeline,
        group0: this.device.createBindGroup({ layout: bindLayout, entries }),
        stepGroup: this.driveGroup!,
        size: fusedGroups(this.layout.n, tile),
      };
      return [step, ...(ade?.[to] ?? [])];
    });
  }

  /** The bind layouts and pipelines of a time step's passes (bulk with CPML and sources, ghosts). */
  private stepPipelines(shaderGrid: ShaderGrid, driveLayout: GPUBindGroupLayout): StepPipelines {
    const hLayout = this.bindLayout([
      [0, "read-only-storage"],
      [1, "read-only-storage"],
      [2, "read-only-storage"],
      [3, "storage"],
      [4, "storage"],
      [5, "storage"],
      [6, "storage"],
    ]);
    const eLayout = this.bindLayout([
      [0, "storage"],
      [1, "storage"],
      [2, "storage"],
      [3, "read-only-storage"],
      [4, "read-only-storage"],
      [5, "read-only-storage"],
      [6, "storage"],
      ...this.indexBuffers.map((_, b): [number, BindingKind] => [7 + b, "read-only-storage"]),
    ]);
    const packed = isPacked(this.storage);
    const code = (kind: "H" | "E") =>
      packed
        ? packedUpdateShader(shaderGrid, kind)
        : kind === "H"
          ? updateHShader(shaderGrid)
          : updateEShader(shaderGrid);
    const bulk = (kind: "H" | "E", code: string, layout: GPUBindGroupLayout) =>
      [this.pipeline(`update${kind}`, code, [layout, driveLayout]), layout] as [
        GPUComputePipeline,
        GPUBindGroupLayout,
      ];
    const complex = this.sets > 1;
    const ghostLayout = this.fieldsLayout(true, [[2, "uniform"]]);
    const ghost = this.pipeline("ghost", ghostShader(complex, this.fieldAccess()), [ghostLayout]);
    return {
      bulk: {
        H: bulk("H", code("H"), hLayout),
        E: bulk("E", code("E"), eLayout),
      },
      ghost: [ghost, ghostLayout],
    };
  }

  /**
   * A bind layout of one field component's buffers (one per field set, binding 0 and, in Bloch
   * runs, 1), then `extra`.
   */
  private fieldsLayout(writable: boolean, extra: [number, BindingKind][]): GPUBindGroupLayout {
    const complex = this.sets > 1;
    return this.bindLayout([
      [0, writable ? "storage" : "read-only-storage"],
      ...(complex
        ? [[1, writable ? "storage" : "read-only-storage"] as [number, BindingKind]]
        : []),
      ...extra,
    ]);
  }

  /** Component `comp`'s buffers of every field set of `copy`, as fieldsLayout binds them. */
  private fieldEntries(comp: number, copy = 0): GPUBindGroupEntry[] {
    return this.copies[copy].map((set, s) => ({ binding: s, resource: { buffer: set[comp] } }));
  }

  /**
   * One kind's half step, in the reference backend's order: per field set the bulk update with
   * its CPML corrections and the source's injection terms; for E the ADE pass; the ghost planes.
   */
  private halfStepPasses(kind: "H" | "E", pipelines: StepPipelines, limits: GpuLimits): Dispatch[] {
    const problem = this.problem;
    const passes: Dispatch[] = [];
    for (let s = 0; s < this.sets; s++) passes.push(this.bulkPass(kind, s, pipelines));
    if (kind === "E" && problem.ade) passes.push(...this.adePasses(problem.ade, limits)[0]);
    // Ghost planes: copies along y, then z (within each x-plane), then whole x-planes.
    const copies = ghostCopies(this.layout, problem.blochPhase);
    const list = kind === "H" ? copies.h : copies.e;
    const [ghost, ghostLayout] = pipelines.ghost;
    for (const axis of [1, 2, 0]) {
      for (const copy of list) {
        if (copy.axis !== axis) continue;
        passes.push(...this.ghostPasses(copy, ghost, ghostLayout));
      }
    }
    return passes;
  }

  /** The bulk update of `kind` on field set `set`: one thread per cell, three components. */
  private bulkPass(kind: "H" | "E", set: number, pipelines: StepPipelines): Dispatch {
    const layout = this.layout;
    const [pipeline, bindLayout] = pipelines.bulk[kind];
    const entries: GPUBindGroupEntry[] = this.copies[0][set].map((buffer, c) => ({
      binding: c,
      resource: { buffer },
    }));
    entries.push({ binding: 6, resource: { buffer: this.auxBuffers[0][set] } });
    if (kind === "E") {
      this.indexBuffers.forEach((buffer, b) =>
        entries.push({ binding: 7 + b, resource: { buffer } }),
      );
    }
    return {
      kind: `${kind} bulk`,
      pipeline,
      group0: this.device.createBindGroup({ layout: bindLayout, entries }),
      stepGroup: this.driveGroup!,
      size: isPacked(this.storage)
        ? packedBulkGroups(layout, this.bulkShape)
        : bulkGroups(layout, this.bulkShape),
    };
  }

  /**
   * The monitors' running DFT: their point indices (`points` in all) and sums in two buffers,
   * one pass per stream.
   */
  private dftPlan(points: number, step: StepBinding): { sums: GPUBuffer; passes: Dispatch[][] } {
    const base = new Uint32Array(points);
    let at = 0;
    for (const m of this.problem.monitors) {
      for (const st of m.streams) {
        base.set(st.base, at);
        at += st.base.length;
      }
    }
    const baseBuffer = this.upload(base, STORAGE);
    const sums = this.buffer(4 * this.sumsLength, STORAGE | COPY_SRC | COPY_DST);
    const dftLayout = this.fieldsLayout(false, [
      [2, "read-only-storage"],
      [3, "storage"],
      [4, "uniform"],
    ]);
    const dft = this.pipeline("dft", dftShader(this.sets > 1, this.fieldAccess()), [
      dftLayout,
      step.layout,
    ]);
    const dftStep = step.group();
    const params = this.streams.map((st) => this.upload(dftParams(st, this.scales), UNIFORM));
    const passes = this.copies.map((_, copy) =>
      this.streams.map((st, i) => ({
        kind: "DFT",
        pipeline: dft,
        group0: this.device.createBindGroup({
          layout: dftLayout,
          entries: [
            ...this.fieldEntries(st.comp, copy),
            { binding: 2, resource: { buffer: baseBuffer } },
            { binding: 3, resource: { buffer: sums } },
            { binding: 4, resource: { buffer: params[i] } },
          ],
        }),
        stepGroup: dftStep,
        // One thread per point and wavelength (dftShader): the wavelengths along z.
        size: withDepth(linearSize(st.points, this.maxPerDim), st.wavelengths),
      })),
    );
    return { sums, passes };
  }

  /** The energy reduction: one pass per component and set into per-workgroup partials. */
  private energyPlan(shaderGrid: ShaderGrid): {
    passes: Dispatch[][];
    partials: GPUBuffer;
    count: number;
  } {
    const layout = this.layout;
    const energyLayout = this.bindLayout([
      [0, "read-only-storage"],
      [1, "read-only-storage"],
      [2, "read-only-storage"],
      [3, "storage"],
      [4, "uniform"],
    ]);
    const energy = this.pipeline("energy", energyShader(shaderGrid), [energyLayout]);
    const perValue = WORKGROUP_LINEAR * ENERGY_VALUES_PER_THREAD;
    const groups = Math.ceil(layout.paddedCells / perValue);
    const count = groups * 6 * this.sets;
    const partials = this.buffer(4 * count, STORAGE | COPY_SRC);
    const passes: Dispatch[][] = this.copies.map(() => []);
    let out = 0;
    for (let s = 0; s < this.sets; s++) {
      for (let c = 0; c < 6; c++) {
        const params = this.upload(
          packParams(ENERGY_PARAMS, ENERGY_FLOAT_PARAMS, {
            count: layout.paddedCells,
            comp: c,
            out,
            useIndex: c < 3 ? 1 : 0,
            scale:
              c < 3
                ? 1 / (this.scales.e * this.energyUnit)
                : ETA0 / (this.scales.h * this.energyUnit),
          }),
          UNIFORM,
        );
        out += groups;
        this.copies.forEach((fields, copy) =>
          passes[copy].push({
            kind: "checks",
            pipeline: energy,
            group0: this.device.createBindGroup({
              layout: energyLayout,
              entries: [
                { binding: 0, resource: { buffer: fields[s][c] } },
                // Split indices: E component c's own buffer (energyShader reads it from 0).
                {
                  binding: 1,
                  resource: { buffer: this.indexBuffers[c < 3 ? c % this.indexBuffers.length : 0] },
                },
                { binding: 2, resource: { buffer: this.auxBuffers[0][0] } },
                { binding: 3, resource: { buffer: partials } },
                { binding: 4, resource: { buffer: params } },
              ],
            }),
            size: linearSize(groups, this.maxPerDim, 1),
          }),
        );
      }
    }
    return { passes, partials, count };
  }

  /** Opens a device on the adapter, uploads the grid and compiles the shaders. */
  static async create(
    handle: GpuAdapterHandle,
    problem: SteppingProblem,
    options: StepperOptions,
  ): Promise<GpuStepper> {
    const start = performance.now();
    const profile = options.profilePasses === true;
    const split = splitIndicesFor(problem, handle, options.splitIndices === true);
    const fused = !split && fusedStepAllowed(problem, options.fieldStorage ?? "float32", handle);
    const device = await handle.openDevice(
      profile ? [PROFILE_FEATURE] : [],
      deviceLimits(handle, { fused, split }),
    );
    device.pushErrorScope("validation");
    device.pushErrorScope("out-of-memory");
    let stepper: GpuStepper;
    try {
      stepper = new GpuStepper(device, problem, handle, options, { fused, split });
    } catch (err) {
      device.destroy();
      throw err;
    }
    const oom = await device.popErrorScope();
    const invalid = await device.popErrorScope();
    if (oom || invalid) {
      device.destroy();
      throw new Error(
        `webgpu set-up failed on ${describeAdapter(handle.report)}: ${(oom ?? invalid)!.message}`,
      );
    }
    await device.queue.onSubmittedWorkDone();
    stepper.timing.compileSeconds = (performance.now() - start) / 1000;
    return stepper;
  }

  advance(n: number, count: number, drive: Float64Array): void {
    this.check();
    const start = performance.now();
    for (let l = 0; l < count; l++) {
      if (this.slot === this.batchSteps) {
        this.flush();
        this.batchSteps = Math.min(2 * this.batchSteps, BATCH_STEPS);
      }
      const row = this.slot;
      this.driveRows.set(
        drive.subarray(DRIVE_VALUES_PER_STEP * l, DRIVE_VALUES_PER_STEP * (l + 1)),
        (this.slotAlign / 4) * row,
      );
      const m = n + l + 1;
      // The copy this step leaves the fields in: the other one where a step is fused.
      const to = this.copies.length - 1 - this.current;
      const sample = m % this.problem.dftEvery === 0 && this.dftPasses[to].length > 0;
      if (sample) this.writeTrig(row, m);
      this.encodeStep(this.stepPasses[to], row);
      if (sample) this.encodeStep(this.dftPasses[to], row);
      this.current = to;
      this.slot++;
    }
    this.timing.kernelSeconds += (performance.now() - start) / 1000;
  }

  async synchronize(): Promise<void> {
    const start = performance.now();
    this.flush();
    await this.device.queue.onSubmittedWorkDone();
    this.batchSteps = FIRST_BATCH_STEPS;
    this.check();
    this.timing.kernelSeconds += (performance.now() - start) / 1000;
    if (this.profiler) this.timing.gpu!.passSeconds = await this.profiler.seconds();
  }

  async energy(): Promise<number> {
    this.flush();
    const encoder = this.device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    this.encode(pass, this.energyPasses[this.current], 0);
    pass.end();
    const partials = await this.readBack(encoder, this.energyPartials, 4 * this.energyCount);
    const values = new Float32Array(partials);
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[i];
    return sum * this.energyUnit ** 2;
  }

  async monitorSums(): Promise<Float64Array[][]> {
    const start = performance.now();
    this.flush();
    const out: Float64Array[][] = this.problem.monitors.map(() => []);
    if (this.sumsBuffer) {
      const encoder = this.device.createCommandEncoder();
      const raw = new Float32Array(
        await this.readBack(encoder, this.sumsBuffer, 4 * this.sumsLength),
      );
      for (const st of this.streams) {
        const len = 2 * st.wavelengths * st.points;
        const sums = new Float64Array(len);
        // Kahan: the true sum is the running sum less its compensation.
        for (let o = 0; o < len; o++) sums[o] = raw[st.sums + o] - raw[st.sums + len + o];
        out[st.monitor].push(sums);
      }
    }
    this.timing.monitorSeconds += (performance.now() - start) / 1000;
    return out;
  }

  /**
   * The convergence test's sums on the GPU (changeShader): Σ w·|s − p|² and Σ w·|s|² over every
   * monitor's running sums s, p being s at the previous call, w = `weights[monitor][wavelength]`
   * (scaled here by their largest, which the test's ratio does not see). Null at the first
   * call, which only records p. Reads back one pair of floats per 2048 sums, not the sums.
   */
  async monitorChange(
    weights: readonly Float64Array[],
  ): Promise<{ diff2: number; total2: number } | null> {
    this.flush();
    const plan = this.change;
    // No running sums at all: no change, as the read-back test finds (after its first check).
    if (!plan) return this.changeChecks++ === 0 ? null : { diff2: 0, total2: 0 };
    let largest = 0;
    for (const w of weights) for (const x of w) largest = Math.max(largest, x);
    const scaled = new Float32Array(plan.weightCount);
    let at = 0;
    for (const st of this.streams) {
      const w = weights[st.monitor];
      for (let i = 0; i < st.wavelengths; i++) scaled[at++] = largest > 0 ? w[i] / largest : 0;
    }
    this.device.queue.writeBuffer(plan.weights, 0, scaled);
    const encoder = this.device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    this.encode(pass, plan.passes, 0);
    pass.end();
    const pairs = new Float32Array(await this.readBack(encoder, plan.partials, 8 * plan.pairs));
    let diff2 = 0;
    let total2 = 0;
    for (let i = 0; i < plan.pairs; i++) {
      diff2 += pairs[2 * i];
      total2 += pairs[2 * i + 1];
    }
    return this.changeChecks++ === 0 ? null : { diff2, total2 };
  }

  async fields(): Promise<FieldSet[]> {
    this.flush();
    const storage = this.storage;
    const bytes = fieldBytesOf(this.layout, storage);
    const sx = this.layout.strides[0];
    const result: FieldSet[] = [];
    for (const set of this.copies[this.current]) {
      const fs = allocateFieldSet(this.layout);
      for (let c = 0; c < 6; c++) {
        const data = await this.readBack(this.device.createCommandEncoder(), set[c], bytes);
        const scale = 1 / (c < 3 ? this.scales.e : this.scales.h);
        decodeFieldValues(storage, data, fs.c[c], sx, scale);
      }
      result.push(fs);
    }
    return result;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.pass = null;
    this.encoder = null;
    this.profiler?.dispose();
    this.device.destroy();
  }

  private check(): void {
    if (this.disposed) throw new Error("the webgpu stepper was disposed");
    if (this.failure) throw this.failure;
  }

  /**
   * Encodes a step's dispatches into the batch: into its one compute pass, or, profiled, each
   * run of dispatches of one kind into a timed pass of its own.
   */
  private encodeStep(list: readonly Dispatch[], row: number): void {
    this.encoder ??= this.device.createCommandEncoder();
    if (!this.profiler) {
      this.pass ??= this.encoder.beginComputePass();
      this.encode(this.pass, list, row);
      return;
    }
    for (let i = 0; i < list.length;) {
      let j = i + 1;
      while (j < list.length && list[j].kind === list[i].kind) j++;
      const pass = this.profiler.beginPass(this.encoder, list[i].kind);
      this.encode(pass, list.slice(i, j), row);
      pass.end();
      i = j;
    }
  }

  /** Ends the open pass, writes the batch's step rows and submits it. */
  private flush(): void {
    this.check();
    if (!this.encoder) return;
    this.pass?.end();
    const rows = this.slot;
    const q = this.device.queue;
    q.writeBuffer(this.driveBuffer, 0, this.driveRows, 0, (this.slotAlign / 4) * rows);
    if (this.trigPerRow > 0)
      q.writeBuffer(this.stepTable, 0, this.stepRows, 0, this.trigPerRow * rows);
    const collect = this.profiler?.endBatch(this.encoder);
    q.submit([this.encoder.finish()]);
    collect?.();
    this.pass = null;
    this.encoder = null;
    this.slot = 0;
  }

  private encode(pass: GPUComputePassEncoder, list: readonly Dispatch[], row: number): void {
    const align = this.slotAlign;
    let pipeline: GPUComputePipeline | null = null;
    for (const d of list) {
      // Each call into Dawn costs the CPU a µs or two: the pipeline is set where it changes.
      if (d.pipeline !== pipeline) pass.setPipeline(d.pipeline);
      pipeline = d.pipeline;
      pass.setBindGroup(0, d.group0);
      if (d.stepGroup) pass.setBindGroup(1, d.stepGroup, [row * align]);
      pass.dispatchWorkgroups(d.size[0], d.size[1], d.size[2]);
    }
  }

  /** e^{iωt}·dftEvery per stream and wavelength for the sample after step m (monitors.ts). */
  private writeTrig(row: number, m: number): void {
    const { dftEvery, plan } = this.problem;
    const dt = plan.dtSeconds;
    const tE = m * dt;
    const tH = (m - 0.5) * dt;
    const at = this.trigPerRow * row;
    for (const st of this.streams) {
      const t = st.comp < 3 ? tE : tH;
      for (let w = 0; w < st.wavelengths; w++) {
        this.stepRows[at + st.trig + 2 * w] = dftEvery * Math.cos(st.omegas[w] * t);
        this.stepRows[at + st.trig + 2 * w + 1] = dftEvery * Math.sin(st.omegas[w] * t);
      }
    }
  }

  /** Copies `bytes` of `source` to a mappable buffer after `encoder`'s work, and reads it. */
  private async readBack(
    encoder: GPUCommandEncoder,
    source: GPUBuffer,
    bytes: number,
  ): Promise<ArrayBuffer> {
    const staging = this.device.createBuffer({ size: bytes, usage: MAP_READ | COPY_DST });
    encoder.copyBufferToBuffer(source, 0, staging, 0, bytes);
    this.device.queue.submit([encoder.finish()]);
    try {
      await staging.mapAsync(MAP_MODE_READ);
      this.batchSteps = FIRST_BATCH_STEPS;
      this.check();
      return staging.getMappedRange().slice(0);
    } finally {
      if (staging.mapState === "mapped") staging.unmap();
      staging.destroy();
    }
  }

  /**
   * Field set `set`'s aux buffer: the tables, zeroed ψ for every absorber slab, the source's
   * injection weights (injection-terms.ts).
   */
  private auxBuffer(tables: Float32Array, injection: GpuInjection | null, set: number): GPUBuffer {
    const head = tables.length + this.absorber.psiWords;
    const aux = this.buffer(4 * (head + (injection?.words ?? 0)), STORAGE | COPY_DST);
    this.device.queue.writeBuffer(aux, 0, tables);
    if (injection) {
      const weights = injectionWeights(injection, this.problem.injection!, set);
      this.device.queue.writeBuffer(aux, 4 * head, weights);
    }
    return aux;
  }

  /**
   * DRAM bytes of one cell-update averaged over the grid, from what the bulk passes bind: per
   * node and field set H reads six components and writes three (36 B; 18 B in float16), E the
   * same and three material indices (1 or 2 B each); per absorber node and half step ψ of two
   * components is read and written (16 B, twice a step). Planes (sources, ghosts) and the
   * monitors are left out.
   */
  private bytesPerCellUpdate(): number {
    const { n, cells } = this.layout;
    const nodes = (n[0] + 1) * (n[1] + 1) * (n[2] + 1);
    // A fused step reads each field value once and writes it once (fused-step.ts).
    const bulk = this.fused
      ? 12 * 4 + (3 * this.indexBits) / 8
      : bulkBytesPerCellUpdate(this.indexBits, fieldValueBytes(this.storage));
    const perSet = bulk * nodes + 2 * 16 * absorberNodes(this.absorber);
    return (this.sets * perSet) / cells;
  }

  /** How the passes that take single field values find them. */
  private fieldAccess(): FieldAccess {
    return { storage: this.storage, sx: this.layout.strides[0] };
  }

  private buffer(bytes: number, usage: number): GPUBuffer {
    return this.device.createBuffer({ size: Math.max(16, Math.ceil(bytes / 4) * 4), usage });
  }

  private upload(data: ArrayBufferView | ArrayBuffer, usage: number): GPUBuffer {
    const bytes = data instanceof ArrayBuffer ? data.byteLength : data.byteLength;
    const buffer = this.buffer(bytes, usage | COPY_DST);
    const view =
      data instanceof ArrayBuffer
        ? new Uint8Array(data)
        : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.device.queue.writeBuffer(buffer, 0, view);
    return buffer;
  }

  /** The monitor-change passes, one per stream over its running sums (changeShader). */
  private changePlan(): ChangePlan {
    const device = this.device;
    const layout = this.bindLayout([
      [0, "read-only-storage"],
      [1, "storage"],
      [2, "read-only-storage"],
      [3, "storage"],
      [4, "uniform"],
    ]);
    const pipeline = this.pipeline("change", changeShader(), [layout]);
    const perGroup = WORKGROUP_LINEAR * CHANGE_VALUES_PER_THREAD;
    const values = this.streams.map((st) => 2 * st.wavelengths * st.points);
    const prevCount = values.reduce((a, b) => a + b, 0);
    const weightCount = this.streams.reduce((a, st) => a + st.wavelengths, 0);
    const groups = values.map((v) => Math.ceil(v / perGroup));
    const pairs = groups.reduce((a, b) => a + b, 0);
    const prev = this.buffer(4 * prevCount, STORAGE);
    const weights = this.buffer(4 * weightCount, STORAGE | COPY_DST);
    const partials = this.buffer(8 * pairs, STORAGE | COPY_SRC);
    const passes: Dispatch[] = [];
    let prevAt = 0;
    let weightAt = 0;
    let out = 0;
    this.streams.forEach((st, i) => {
      const params = this.upload(
        packParams(CHANGE_PARAMS, CHANGE_FLOAT_PARAMS, {
          count: values[i],
          sums: st.sums,
          prev: prevAt,
          perWavelength: 2 * st.points,
          weights: weightAt,
          out,
          scale: 1 / this.energyUnit,
        }),
        UNIFORM,
      );
      passes.push({
        kind: "checks",
        pipeline,
        group0: device.createBindGroup({
          layout,
          entries: [
            { binding: 0, resource: { buffer: this.sumsBuffer! } },
            { binding: 1, resource: { buffer: prev } },
            { binding: 2, resource: { buffer: weights } },
            { binding: 3, resource: { buffer: partials } },
            { binding: 4, resource: { buffer: params } },
          ],
        }),
        size: linearSize(groups[i], this.maxPerDim, 1),
      });
      prevAt += values[i];
      weightAt += st.wavelengths;
      out += groups[i];
    });
    return { passes, weights, weightCount, partials, pairs };
  }

  private bindLayout(entries: [number, BindingKind][]): GPUBindGroupLayout {
    return this.device.createBindGroupLayout({
      entries: entries.map(([binding, kind]) => ({
        binding,
        visibility: COMPUTE,
        buffer:
          kind === "dynamic-uniform" ? { type: "uniform", hasDynamicOffset: true } : { type: kind },
      })),
    });
  }

  private pipeline(label: string, code: string, layouts: GPUBindGroupLayout[]): GPUComputePipeline {
    const module = this.device.createShaderModule({ label, code });
    return this.device.createComputePipeline({
      label,
      layout: this.device.createPipelineLayout({ bindGroupLayouts: layouts }),
      compute: { module, entryPoint: "main" },
    });
  }

  /**
   * The ADE passes (dispersion/ade.ts) of every E component with dispersive cells, per field
   * set; each component's cells, pole state and history in their own buffers. With packed
   * fields (field-storage.ts) a component's cells in even and in odd padded x-planes are two
   * passes, so that no dispatch writes both halves of a word.
   */
  private adePasses(terms: AdeTerms, limits: GpuLimits): Dispatch[][] {
    const tab = new Float32Array([...terms.correction, ...terms.cP, ...terms.cJ, ...terms.cE]);
    const bindLayout = this.bindLayout([
      [0, "storage"],
      [1, "read-only-storage"],
      [2, "read-only-storage"],
      [3, "storage"],
      [4, "storage"],
      [5, "storage"],
      [6, "uniform"],
    ]);
    const ade: AdePassParts = {
      terms,
      tab: this.upload(tab, STORAGE),
      bindLayout,
      pipeline: this.pipeline("ade", adeShader(this.fieldAccess()), [bindLayout]),
      limit: gpuBindingLimit(limits),
    };
    const sx = this.layout.strides[0];
    const passes: Dispatch[][] = this.copies.map(() => []);
    for (let c = 0; c < 3; c++) {
      const all = Array.from(terms.cells[c].keys());
      const lists = isPacked(this.storage)
        ? [0, 1].map((h) => all.filter((q) => Math.floor(terms.cells[c][q] / sx) % 2 === h))
        : [all];
      for (const list of lists) {
        if (list.length === 0) continue;
        this.adeCellPasses(ade, c, list).forEach((copy, k) => passes[k].push(...copy));
      }
    }
    return passes;
  }

  /**
   * The ADE pass of E component `c` over its dispersive cells `list`, per field set, for each
   * copy of the fields ([copy][set]; the pole state is the same for both).
   */
  private adeCellPasses(ade: AdePassParts, c: number, list: number[]): Dispatch[][] {
    const { terms } = ade;
    const entries = terms.correction.length;
    const slotsAll = terms.cP.length;
    const count = list.length;
    const head = terms.poleStart.length;
    const cells = new Uint32Array(head + 3 * count);
    cells.set(terms.poleStart, 0);
    let slots = 0;
    list.forEach((cell, q) => {
      const m = terms.entry[c][cell];
      cells[head + 3 * q] = terms.cells[c][cell];
      cells[head + 3 * q + 1] = m;
      cells[head + 3 * q + 2] = slots;
      slots += terms.poleStart[m + 1] - terms.poleStart[m];
    });
    const largest = Math.max(4 * cells.length, 12 * count, 4 * slots);
    if (largest > ade.limit) {
      throw new RangeError(
        `the dispersive cells need a GPU buffer of ${(largest / 2 ** 30).toFixed(2)} GiB; ` +
          `the adapter binds at most ${(ade.limit / 2 ** 30).toFixed(2)} GiB per buffer`,
      );
    }
    const cellBuffer = this.upload(cells, STORAGE);
    const params = this.upload(
      packParams(ADE_PARAMS, new Set(), {
        count,
        cells: head,
        poleStart: 0,
        correction: 0,
        cP: entries,
        cJ: entries + slotsAll,
        cE: entries + 2 * slotsAll,
      }),
      UNIFORM,
    );
    // Per field set its pole state (P, J) and history; bound with that set's E in each copy.
    const state = this.copies[0].map(() => [4 * slots, 4 * slots, 12 * count]);
    const stateBuffers = state.map((sizes) => sizes.map((b) => this.buffer(b, STORAGE)));
    return this.copies.map((fields) =>
      fields.map((set, s) => ({
        kind: "ADE",
        pipeline: ade.pipeline,
        group0: this.device.createBindGroup({
          layout: ade.bindLayout,
          entries: [
            { binding: 0, resource: { buffer: set[c] } },
            { binding: 1, resource: { buffer: cellBuffer } },
            { binding: 2, resource: { buffer: ade.tab } },
            ...stateBuffers[s].map((buffer, k) => ({ binding: 3 + k, resource: { buffer } })),
            { binding: 6, resource: { buffer: params } },
          ],
        }),
        size: linearSize(count, this.maxPerDim),
      })),
    );
  }

  /**
   * One ghost copy (boundaries.ts) as a 2-D strided copy over the padded arrays: one dispatch,
   * or with packed fields (field-storage.ts) a copy within x-planes as two, the even planes'
   * and the odd ones', so that no dispatch writes both halves of a word.
   */
  private ghostPasses(
    copy: GhostCopy,
    pipeline: GPUComputePipeline,
    bindLayout: GPUBindGroupLayout,
  ): Dispatch[] {
    const { n, strides } = this.layout;
    const [sx, sy] = strides;
    let values: Record<string, number>;
    if (copy.axis === 0) {
      // A whole padded x-plane, ghosts included.
      values = {
        src: (copy.src + 1) * sx,
        dst: (copy.dst + 1) * sx,
        strideA: 0,
        countA: 1,
        strideB: 1,
        countB: sx,
      };
    } else if (copy.axis === 1) {
      // Per x-plane 0…nx: the row j = src → dst, k = 0…nz.
      values = {
        src: sx + (copy.src + 1) * sy + 1,
        dst: sx + (copy.dst + 1) * sy + 1,
        strideA: sx,
        countA: n[0] + 1,
        strideB: 1,
        countB: n[2] + 1,
      };
    } else {
      // Per x-plane 0…nx: the column k = src → dst, j = 0…ny.
      values = {
        src: sx + sy + copy.src + 1,
        dst: sx + sy + copy.dst + 1,
        strideA: sx,
        countA: n[0] + 1,
        strideB: sy,
        countB: n[1] + 1,
      };
    }
    values.cosT = Math.cos(copy.theta);
    values.sinT = Math.sin(copy.theta);
    const parts: Record<string, number>[] =
      isPacked(this.storage) && copy.axis !== 0
        ? [0, 1].map((first) => ({
            ...values,
            src: values.src + first * values.strideA,
            dst: values.dst + first * values.strideA,
            strideA: 2 * values.strideA,
            countA: Math.floor((values.countA + 1 - first) / 2),
          }))
        : [values];
    return parts
      .filter((part) => part.countA > 0)
      .map((part) => {
        const params = packParams(GHOST_PARAMS, GHOST_FLOAT_PARAMS, part);
        const group0 = this.device.createBindGroup({
          layout: bindLayout,
          entries: [
            ...this.fieldEntries(copy.comp),
            { binding: 2, resource: { buffer: this.upload(params, UNIFORM) } },
          ],
        });
        const size = linearSize(part.countA * part.countB, this.maxPerDim);
        return { kind: "ghosts", pipeline, group0, size };
      });
  }
}

/** The WebGPU backend on one adapter (backends.ts makes it once the adapter is known). */
export function webgpuBackend(handle: GpuAdapterHandle): SolverBackend {
  const limit = gpuBindingLimit(handle.limits);
  return {
    name: "webgpu",
    adapter: handle.report,

    memory(grid: GridSize): BackendMemory {
      const storage = fieldStorageFromEnv();
      const value = fieldValueBytes(storage);
      const split = handle.limits.maxStorageBuffersPerShaderStage >= SPLIT_INDEX_STORAGE_BUFFERS;
      const largest = gpuLargestBuffer(grid, storage, split);
      // The running sums of every monitor share one buffer: re, im and their compensations.
      const sums = DFT_SUM_BYTES * (grid.dftValues ?? 0) * (grid.complex ? 2 : 1);
      if (sums > largest) {
        return {
          bytes: sums,
          limitBytes: limit,
          ofMonitors: true,
          what:
            "its largest GPU storage buffer, the monitors' running sums (16 B per recorded " +
            "point, component and wavelength, all monitors in one; record fewer points, " +
            "components or wavelengths)",
        };
      }
      const indices = split ? "up to 2 B per cell in each of three buffers" : "up to 6 B per cell";
      return {
        bytes: largest,
        limitBytes: limit,
        what:
          `its largest GPU storage buffer (the material indices, ${indices}; fields take ` +
          `${(grid.complex ? 12 : 6) * value} B per cell in six buffers of ${value} B per cell ` +
          "each)",
      };
    },

    threadsFor: () => 1,

    prepare(problem: SteppingProblem, options: StepperOptions): Promise<Stepper> {
      const fieldStorage = options.fieldStorage ?? fieldStorageFromEnv();
      return GpuStepper.create(handle, problem, { ...options, fieldStorage });
    },
  };
}
