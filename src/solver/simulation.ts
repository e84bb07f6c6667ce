/**
 * Sets a request up as a stepping simulation: grid, medium, plane-wave source, monitors, and
 * the time step on the chosen backend (backend.ts). run.ts drives it (slicing, convergence,
 * abort).
 *
 * Order of one step n (fields E^n, H^{n−½} → E^{n+1}, H^{n+½}):
 *   aux H; main H (bulk + CPML) + TFSF(H, aux E^n) + ghosts;
 *   aux E + sheet current over [n·dt, (n+1)·dt]; main E + TFSF(E, aux H^{n+½}) + ghosts;
 *   monitors record E at (n+1)·dt and H at (n+½)·dt.
 * The auxiliary line runs first (source.advance) and hands its incident samples to the
 * backend, which may then advance several steps in one sweep.
 */
import { assertFits, type SolverBackend, type Stepper } from "./backend.js";
import { solverBackend } from "./backends.js";
import { EPS0, SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import type { CpmlParameters } from "./cpml.js";
import { dftSampleInterval } from "./fast/dft-cadence.js";
import { MAX_BLOCK_STEPS } from "./fast/barrier.js";
import type { FieldSet } from "./fields.js";
import { domainFaces, shapeOf } from "./geometry.js";
import { YeeLayout, interiorSpanM, nodeM, planGrid, type GridPlan } from "./grid.js";
import type { PoleModel } from "./dispersion/model.js";
import {
  buildMedium,
  buildMediumSliced,
  isMetal,
  type Medium,
  type PaintSlicing,
  type PaintedStructure,
  type UpdateMaterial,
} from "./medium.js";
import { fluxSurface, type FluxSurface } from "./flux.js";
import { gradedGridNote, symmetryNote, unusedStepRatioNote } from "./grid-notes.js";
import { metalSurfaceNotes } from "./metal-notes.js";
import {
  cellCentreStreams,
  sampleBox,
  sampleCoordinates,
  wavelengthList,
  type SampleBox,
  type SampledComponent,
} from "./monitors.js";
import { PlaneWaveSource, TFSF_OFFSET_CELLS, planeWaveGeometry, pulseFor } from "./source.js";
import { INCIDENT_VALUES_PER_STEP } from "./tfsf.js";
import type {
  FieldComponent,
  MaterialUsed,
  MonitorSpec,
  RunOptions,
  SimulationSpec,
} from "./types.js";
import { buildGridModel, type GridModel } from "./yee.js";

/** Where the solver gets materials from; the default is the materials library. */
export interface MaterialResolver {
  describe(
    name: string,
  ): { name: string; model: string; reference: string; validRangeM: [number, number] } | undefined;
  /** Relative permittivity (Im ≥ 0 for loss); throws outside the valid range. */
  permittivity(name: string, wavelengthM: number): { re: number; im: number };
  /**
   * The material's multi-pole model for the time-domain update, if it has one; `always`
   * when it must be used even at a single wavelength (metals: Re ε < 0 has no constant form).
   */
  dispersion?(name: string): { model: PoleModel; always: boolean } | undefined;
}

/** Test and benchmark hooks on top of the public options. */
export interface InternalRunOptions extends RunOptions {
  materials?: MaterialResolver;
  /** Replaces fdtd_settings.courant_factor without validation (divergence tests). */
  courantOverride?: number;
  /** wasm backend: fewest cells per thread before it uses fewer threads (tests set 0). */
  minCellsPerThread?: number;
  /** Steps between monitor DFT samples; default from fast/dft-cadence.ts. */
  dftEvery?: number;
  /** wasm backend: most time steps per sweep (temporal blocking); default 2. */
  stepsPerSweep?: number;
  /** wasm backend: false leaves out the mixed pieces (fast/runs.ts); default true. */
  mixedPieces?: boolean;
  /** wasm backend: the most bytes of kernel memory (tests); default 4 GiB. */
  memoryLimitBytes?: number;
  cpml?: CpmlParameters;
  /** false: staircased permittivity, for validation comparisons only. */
  smoothing?: boolean;
}

export interface MonitorState {
  spec: MonitorSpec;
  box: SampleBox;
  /** What the backend records (the order of its sums): one stream per component of a field
   * monitor, four per face of a flux monitor (flux.ts). */
  streams: SampledComponent[];
  /** Flux monitors: the surface; null for field monitors. */
  flux: FluxSurface | null;
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
  geometry: ReturnType<typeof planeWaveGeometry>;
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
  const plan = planGrid(spec.domain, courant);
  const lambda0 = spec.source.wavelength;
  const omega0 = (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / lambda0;
  const broadband = spec.monitors.some((m) =>
    wavelengthList(m.wavelengths, lambda0).some((w) => Math.abs(w - lambda0) > 1e-12 * w),
  );
  const used = new Map<string, { mat: UpdateMaterial; info: MaterialUsed }>();
  const resolve = (name: string) => {
    const key = name.trim().toLowerCase();
    const hit = used.get(key);
    if (hit) return hit.mat;
    const info = materials.describe(name);
    if (!info) throw new Error(`unknown material "${name}"`);
    const eps = materials.permittivity(name, lambda0);
    const dispersion = materials.dispersion?.(name);
    const model = dispersion && (dispersion.always || broadband) ? dispersion.model : null;
    const mat: UpdateMaterial = model
      ? { epsRe: model.epsInf, sigma: model.sigma, poles: model.poles }
      : { epsRe: eps.re, sigma: omega0 * EPS0 * eps.im };
    used.set(key, {
      mat,
      info: {
        name: info.name,
        permittivity: [eps.re, eps.im],
        timeDomain: model && model.poles.length > 0 ? "poles" : "constant",
        poleModel: model,
        conductivitySPerM: mat.sigma,
        model: info.model,
        reference: info.reference,
        validRangeM: [info.validRangeM[0], info.validRangeM[1]],
      },
    });
    return mat;
  };
  const background = resolve("vacuum");
  const faces = domainFaces(plan);
  const painted: PaintedStructure[] = spec.structures.map((s) => ({
    shape: shapeOf(s, faces),
    material: resolve(s.material),
  }));
  const layout = YeeLayout.ofPlan(plan);
  const geometry = planeWaveGeometry(spec.source);
  // Before the medium (the largest set-up allocation): a grid too big for the backend fails
  // fast.
  assertFits(backend, {
    layout,
    pml: plan.axes.map((a) => ({ lo: a.pmlLo, hi: a.pmlHi })),
    complex: geometry.cosTheta < 1,
  });
  return {
    backend,
    plan,
    layout,
    geometry,
    background,
    painted,
    materials: [...used.values()].map((u) => u.info),
  };
}

export class FdtdSimulation {
  readonly spec: SimulationSpec;
  readonly plan: GridPlan;
  /** The main grid as every backend steps it (no fields: the stepper holds those). */
  readonly model: GridModel;
  readonly source: PlaneWaveSource;
  readonly monitors: MonitorState[];
  readonly materials: MaterialUsed[];
  readonly notes: string[] = [];
  readonly backend: SolverBackend;
  /** Union of recorded angular frequencies (the source's first). */
  readonly omegas: Float64Array;
  /** Monitors take a DFT sample every `dftEvery` steps (weighted by it). */
  readonly dftEvery: number;
  /** Each structure's [lo, hi] along the propagation axis in metres (may be infinite). */
  readonly structureExtents: [number, number][];
  /** Seconds of set-up spent on the grid (plan, model, source, monitors) and on painting. */
  readonly setupTimes: { gridSeconds: number; paintingSeconds: number };
  /** Seconds `prepare` took: the backend's fields, kernel compile and threads. */
  prepareSeconds = 0;
  /** Seconds spent advancing the plane wave's auxiliary line (on the calling thread). */
  sourceSeconds = 0;
  stepIndex = 0;
  private readonly options: InternalRunOptions;
  private stepperOrNull: Stepper | null = null;
  /** The auxiliary line's incident samples for the steps of one sweep (tfsf.ts). */
  private readonly incident = new Float64Array(INCIDENT_VALUES_PER_STEP * MAX_BLOCK_STEPS);

  // eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
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
    const medium =
      painted?.medium ??
      buildMedium(
        inputs.plan,
        inputs.layout,
        inputs.background,
        inputs.painted,
        options.smoothing ?? true,
      );
    const paintingSeconds = painted?.paintingSeconds ?? (performance.now() - paintStart) / 1000;
    const modelStart = performance.now();
    const { plan, layout, geometry } = inputs;
    this.backend = inputs.backend;
    this.plan = plan;
    this.materials = inputs.materials;
    const lambda0 = spec.source.wavelength;
    const omega0 = (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / lambda0;
    const structures = inputs.painted;

    // Frequencies: the source's, then every monitor wavelength not yet listed.
    const wavelengths: number[] = [lambda0];
    const freqIndex = (w: number) => {
      let i = wavelengths.findIndex((x) => Math.abs(x - w) <= 1e-12 * w);
      if (i < 0) {
        wavelengths.push(w);
        i = wavelengths.length - 1;
      }
      return i;
    };
    const monitorFreqs = spec.monitors.map((m) =>
      wavelengthList(m.wavelengths, lambda0).map(freqIndex),
    );
    this.omegas = Float64Array.from(wavelengths, (w) => (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / w);

    const pulse = pulseFor(lambda0, wavelengths, Math.sqrt(1 - geometry.cosTheta ** 2));
    const sourceMedium = this.sourcePlaneMedium(layout, medium, geometry.axis, geometry.sign);
    this.source = new PlaneWaveSource(plan, {
      geometry,
      pulse,
      amplitude: spec.source.amplitude,
      medium: sourceMedium,
      omegas: this.omegas,
    });
    this.model = buildGridModel(plan, layout, medium, {
      complex: this.source.complex,
      blochPhase: this.source.mainBlochPhase,
      omega0,
      cpml: options.cpml,
    });

    this.monitors = spec.monitors.map((m, i) => {
      const idx = monitorFreqs[i];
      let flux: FluxSurface | null = null;
      let box: SampleBox;
      let streams: SampledComponent[];
      if (m.monitor_type === "flux") {
        flux = fluxSurface(plan, layout, m.center, m.size);
        box = flux.box;
        streams = flux.faces.flatMap((f) => f.streams);
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
        frequencyIndex: idx,
        wavelengthsM: idx.map((j) => wavelengths[j]),
        coords: [0, 1, 2].map((a) => sampleCoordinates(plan, box, a)) as MonitorState["coords"],
      };
    });
    this.dftEvery =
      options.dftEvery ??
      dftSampleInterval(
        pulse,
        this.omegas,
        plan.dtSeconds,
        spec.fdtd_settings.check_every_n,
        !plan.uniform,
      );
    if (this.monitors.some((m) => m.flux)) {
      // Flux monitors add or remove the incident field (flux.ts): record it along the whole
      // region of interest, one index beyond on each side.
      const ax = plan.axes[geometry.axis];
      this.source.recordIncidentLine(ax.pmlLo - 1, ax.cells - ax.pmlHi + 1, this.dftEvery);
    }
    this.structureExtents = structures.map((p): [number, number] => [
      p.shape.lo[geometry.axis],
      p.shape.hi[geometry.axis],
    ]);
    this.addNotes(geometry.axis, geometry.sign);
    this.notes.push(
      ...metalSurfaceNotes(spec, (i) => isMetal(structures[i]?.material.poles), plan),
    );
    this.setupTimes = {
      gridSeconds: (painted?.planSeconds ?? planSeconds) + (performance.now() - modelStart) / 1000,
      paintingSeconds,
    };
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
        tfsf: source.tfsfConfig(model.layout, model.medium, model.kernelGrid.hCoefficient),
        monitors: monitors.map((m) => ({
          streams: m.streams,
          omegas: Float64Array.from(m.frequencyIndex, (j) => this.omegas[j]),
        })),
        dftEvery: this.dftEvery,
        // Sweeps of several steps end on every step the driver looks at: DFT samples and,
        // in run.ts, the checks every check_every_n and every 100 steps.
        alignSteps: gcd(this.dftEvery, 100),
        amplitudeVPerM: this.spec.source.amplitude,
      },
      {
        threads: options.threads,
        minCellsPerThread: options.minCellsPerThread,
        stepsPerSweep: options.stepsPerSweep,
        mixedPieces: options.mixedPieces,
        memoryLimitBytes: options.memoryLimitBytes,
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
    this.source.advance(n, count, this.incident);
    this.sourceSeconds += (performance.now() - start) / 1000;
    stepper.advance(n, count, this.incident);
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

  /** The stepper's own monitor-change sums (Stepper.monitorChange), or undefined without them. */
  get monitorChange(): Stepper["monitorChange"] {
    return this.stepper.monitorChange?.bind(this.stepper);
  }

  /** The main grid's field sets (tests). */
  fields(): Promise<FieldSet[]> {
    return this.stepper.fields();
  }

  /**
   * The medium the incident wave travels in at the TFSF plane: that of the plane when one
   * material fills it, else vacuum (and a note, since the TFSF plane then is approximate).
   */
  private sourcePlaneMedium(
    layout: YeeLayout,
    medium: Medium,
    axis: number,
    sign: number,
  ): UpdateMaterial {
    const ax = this.plan.axes[axis];
    const s = sign > 0 ? ax.pmlLo + TFSF_OFFSET_CELLS : ax.cells - ax.pmlHi - TFSF_OFFSET_CELLS;
    let entry = -1;
    let uniform = true;
    for (let c = 0; c < 3 && uniform; c++) {
      if (c === axis) continue;
      const u = (axis + 1) % 3;
      const v = (axis + 2) % 3;
      for (let iu = layout.lo[c * 3 + u]; iu <= layout.hi[c * 3 + u] && uniform; iu++) {
        for (let iv = layout.lo[c * 3 + v]; iv <= layout.hi[c * 3 + v]; iv++) {
          const pos = [0, 0, 0];
          pos[axis] = s;
          pos[u] = iu;
          pos[v] = iv;
          const m = medium.index[c][layout.index(pos[0], pos[1], pos[2])];
          if (entry < 0) entry = m;
          else if (m !== entry) {
            uniform = false;
            break;
          }
        }
      }
    }
    if (!uniform) {
      this.notes.push(
        "structures cross the plane-wave source plane non-uniformly: the incident field is " +
          "computed for vacuum there, so the injection is approximate",
      );
      return { epsRe: 1, sigma: 0 };
    }
    const e = Math.max(entry, 0);
    const poles = medium.poles?.[e];
    return {
      epsRe: medium.epsEff[e],
      sigma: medium.sigma[e],
      ...(poles && poles.length > 0 ? { poles } : {}),
    };
  }

  private addNotes(axis: number, sign: number): void {
    /** Six significant digits: -9.2e-7, not -9.199999999999999e-7. */
    const metres = (v: number) => String(Number(v.toPrecision(6)));
    const plan = this.plan;
    const names = "xyz";
    const graded = gradedGridNote(plan) ?? unusedStepRatioNote(this.spec.domain);
    if (graded) this.notes.push(graded);
    const mirrored = symmetryNote(this.spec.domain);
    if (mirrored) this.notes.push(mirrored);
    for (let a = 0; a < 3; a++) {
      const ax = plan.axes[a];
      const [from, to] = interiorSpanM(ax);
      const actual = to - from;
      if (Math.abs(actual - ax.requestedSizeM) > 1e-9 * ax.requestedSizeM) {
        const cells = ax.mirror === "none" ? ax.interiorCells : 2 * ax.interiorCells;
        this.notes.push(
          `domain.size along ${names[a]} rounded from ${metres(ax.requestedSizeM)} m to ` +
            `${cells} cells = ${metres(actual)} m`,
        );
      }
      if (a !== axis && ax.boundary === "pml") {
        this.notes.push(
          `the plane wave is truncated by the pml boundaries along ${names[a]}: fields ` +
            "within a few wavelengths of those faces are approximate",
        );
      }
    }
    if (this.source.complex) {
      const deg = (Math.acos(this.source.geometry.cosTheta) * 180) / Math.PI;
      this.notes.push(
        `oblique incidence (${deg.toFixed(2)}° from the ${names[axis]} axis) uses ` +
          "Bloch-periodic boundaries with the transverse wavevector fixed at the source " +
          "wavelength; at another wavelength λ the angle is asin(sin θ0 · λ/λ0)",
      );
    }
    const ax = plan.axes[axis];
    const tfsf = this.source.tfsfIndex;
    const tfsfCoord = nodeM(ax, tfsf);
    for (const m of this.monitors) {
      // Flux monitors add the incident field back where the grid holds only the scattered one.
      if (m.flux) continue;
      const lo = m.box.lo[axis];
      const hi = m.box.hi[axis];
      const upstream = sign > 0 ? lo + 0.5 < tfsf : hi + 0.5 > tfsf;
      if (upstream) {
        this.notes.push(
          `monitor "${m.spec.name}" has samples upstream of the source plane at ` +
            `${names[axis]} = ${metres(tfsfCoord)} m: there it records only the scattered field`,
        );
      }
    }
  }
}
