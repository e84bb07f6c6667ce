/**
 * Drives a simulation: time slicing (yield to the event loop every ~50 ms so a worker thread
 * can receive an abort), progress, the convergence test of DESIGN §3, divergence detection,
 * and the assembly of the result. Each concern is one piece below; `stepToEnd` only runs the
 * loop and asks them at the checkpoints.
 */
import { availableParallelism, cpus, totalmem } from "node:os";
import { FdtdSimulation, type InternalRunOptions, type MaterialResolver } from "./simulation.js";
import {
  FIELD_COMPONENTS,
  SolverDivergenceError,
  type FieldComponent,
  type MonitorResult,
  type RunReport,
  type SimulationSpec,
  type SolverProgress,
  type SolverResult,
} from "./types.js";
import { spansMirror } from "./flux.js";
import { centreM, mirroredCoordinates, mirrorSign } from "./grid.js";
import { farFieldResults } from "./far-field-results.js";
import { evanescentNotes, modeResults } from "./mode-results.js";
import { fluxResults } from "./flux-results.js";
import { permittivityResults } from "./permittivity-results.js";
import { sourceOffStep } from "./sources/index.js";
import { stopCheck, type StopCheck } from "./stop-flag.js";

/** Compute time between yields to the event loop. */
const SLICE_MS = 50;
/** Minimum time between progress callbacks outside convergence checks. */
const PROGRESS_MS = 500;
/** Minimum time between progress callbacks while the run is set up. */
const SETUP_PROGRESS_MS = 250;
/** Steps between divergence checks (a full pass over the fields). */
const DIVERGENCE_EVERY = 100;
/** Energy growth over its value while the source was on that counts as divergence. */
const DIVERGENCE_GROWTH = 100;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs a simulation to the end; see `runSimulation` in index.ts for the contract. */
export async function runWithMaterials(
  spec: SimulationSpec,
  materials: MaterialResolver,
  options: InternalRunOptions = {},
): Promise<SolverResult> {
  const checkStop = stopCheck(options.signal, options.stopFlag);
  checkStop();
  const wallStart = performance.now();
  const maxSteps = Math.max(0, Math.floor(spec.fdtd_settings.time_steps));
  const solvesModes = spec.source.source_type === "mode";
  const setupProgress = new SetupProgress(maxSteps, options.onProgress, solvesModes);
  setupProgress.report(0);
  // Painting many structures on a large grid takes seconds: it runs in slices, between which
  // the run can be cancelled and reports how far the set-up has got. A mode source's plane is
  // solved next, without a break: it reports each wavelength solved (the cancel it reads
  // itself, stop-flag.ts).
  const onModeSolved = (done: number, total: number) => setupProgress.modesSolved(done, total);
  const sim = await FdtdSimulation.create(
    spec,
    materials,
    { ...options, onModeSolved },
    {
      sliceMs: SLICE_MS,
      checkpoint: async (fraction) => {
        await yieldToEventLoop();
        checkStop();
        setupProgress.painted(fraction);
      },
    },
  );
  try {
    checkStop();
    // Kernel compilation and thread start-up count as set-up, not as stepping time.
    await sim.prepare();
    const outcome = await stepToEnd(sim, options, checkStop);
    return await assembleResult(sim, outcome, (performance.now() - wallStart) / 1000);
  } finally {
    sim.dispose();
  }
}

/** What the time loop leaves behind for the result. */
interface SteppingOutcome {
  converged: boolean;
  convergedAtStep: number | null;
  lastRelativeChange: number | null;
  /** Wall time of the loop alone (set-up excluded), in seconds. */
  steppingSeconds: number;
  /** Of which energy and convergence checks, and yields with progress reports. */
  checksSeconds: number;
  yieldSeconds: number;
}

/**
 * Steps until `time_steps` or convergence. Every DIVERGENCE_EVERY steps and at every check
 * the energy goes to the divergence guard; at checks after the pulse peak, the convergence
 * test runs, and may stop the run once the pulse is fully injected (sourceOffStep); between
 * slices of SLICE_MS the loop yields and honours a cancel (stop-flag.ts).
 */
async function stepToEnd(
  sim: FdtdSimulation,
  options: InternalRunOptions,
  checkStop: StopCheck,
): Promise<SteppingOutcome> {
  const settings = sim.spec.fdtd_settings;
  const maxSteps = Math.max(0, Math.floor(settings.time_steps));
  const checkEvery = Math.max(1, Math.floor(settings.check_every_n));
  const threshold = convergenceThreshold(sim);
  const peakStep = Math.ceil(sim.pulsePeakSeconds / sim.plan.dtSeconds);
  const offStep = sourceOffStep(sim.source.pulse, sim.plan.dtSeconds);
  const guard = new DivergenceGuard(sim, offStep);
  const convergence = new ConvergenceTest(sim);
  const progress = new ProgressReporter(sim, maxSteps, options.onProgress);
  let converged = false;
  let convergedAt: number | null = null;
  let sliceStart = performance.now();
  let checksMs = 0;
  let yieldMs = 0;

  while (sim.stepIndex < maxSteps) {
    sim.step(maxSteps);
    const n = sim.stepIndex;
    const isCheck = n % checkEvery === 0;
    if (n % DIVERGENCE_EVERY === 0 || isCheck) {
      // A GPU backend may still be stepping what it was given: waiting for that is the
      // kernel's time (the stepper's timing), not the check's.
      await sim.synchronize();
      const checkStart = performance.now();
      const energy = await sim.energy();
      guard.observe(energy, n);
      if (isCheck && n >= peakStep) {
        const change = await convergence.check(energy, guard.maxEnergy);
        // The change since the last check says nothing of the pulse still to come: a slowly
        // varying envelope changes the phasors little per check however much of it is left
        // (check_every_n 1, threshold 1e-3 stopped the 2 nm column at its peak, T = 0.879).
        if (n >= offStep && threshold > 0 && change !== null && change < threshold) {
          converged = true;
          convergedAt = n;
        }
      }
      if (isCheck) progress.report(convergence.lastChange);
      checksMs += performance.now() - checkStart;
      if (converged) break;
    }
    const now = performance.now();
    if (now - sliceStart >= SLICE_MS) {
      await yieldToEventLoop();
      checkStop();
      progress.reportIfDue(convergence.lastChange);
      sliceStart = performance.now();
      yieldMs += sliceStart - now;
    }
  }
  // A GPU backend may still be stepping what it was given: the stepping time includes it.
  await sim.synchronize();
  checkStop();
  progress.report(convergence.lastChange);
  return {
    converged,
    convergedAtStep: convergedAt,
    lastRelativeChange: convergence.lastChange,
    steppingSeconds: progress.seconds(),
    checksSeconds: checksMs / 1000,
    yieldSeconds: yieldMs / 1000,
  };
}

/**
 * Energy can only come from the source: it is bounded by a generous multiple of what the
 * source could inject (the square of its field scale, Source.fieldScaleVPerM — a plane wave's
 * amplitude, a dipole's near field — per cell and unit ε_r), and, once the pulse is over, by its value
 * while the source was on. Non-finite or larger energy means the update is unstable.
 *
 * The energy the backends sum weighs every cell alike (fieldEnergy). On a graded grid a wave
 * that moves into finer cells after the source is off raises that sum by up to the ratio of
 * the largest cell's volume to the smallest's without gaining any energy (a pulse entering a
 * 10 → 1.25 nm override: 512 times), so the growth allowed after the pulse is that much
 * larger there. An unstable update grows exponentially and passes it within a few checks.
 */
class DivergenceGuard {
  maxEnergy = 0;
  private sourceEnergy = 0;
  private readonly bound: number;
  private readonly growth: number;

  constructor(
    private readonly sim: FdtdSimulation,
    /** Step from which the source pulse is fully injected (sourceOffStep). */
    private readonly sourceOffStep: number,
  ) {
    const amplitude = Math.max(Math.abs(sim.source.fieldScaleVPerM), 1e-30);
    let maxEps = 1;
    for (const e of sim.model.medium.epsEff) maxEps = Math.max(maxEps, e);
    this.bound = 1e6 * amplitude * amplitude * sim.model.layout.cells * maxEps;
    const volumeRatio = sim.plan.axes.reduce((r, ax) => (r * ax.maxStepM) / ax.minStepM, 1);
    this.growth = DIVERGENCE_GROWTH * volumeRatio;
  }

  /** Throws SolverDivergenceError when the energy at step n says the run diverged. */
  observe(energy: number, n: number): void {
    const grew =
      n > this.sourceOffStep && this.sourceEnergy > 0 && energy > this.growth * this.sourceEnergy;
    if (!Number.isFinite(energy) || energy > this.bound || grew) {
      throw new SolverDivergenceError(
        `the fields diverged at time step ${n} (courant_factor ${this.sim.plan.courantFactor}): ` +
          "lower fdtd_settings.courant_factor (it must be at most 1; 0.99 is the default), " +
          "and check that every material has a permittivity of at least 1",
      );
    }
    if (n <= this.sourceOffStep) this.sourceEnergy = Math.max(this.sourceEnergy, energy);
    this.maxEnergy = Math.max(this.maxEnergy, energy);
  }
}

/**
 * DESIGN §3's convergence measure: the relative L2 change of all monitors' normalised
 * phasors since the previous check, or with no monitors the energy relative to its maximum.
 */
class ConvergenceTest {
  lastChange: number | null = null;
  private previous: Float64Array[] | null = null;

  constructor(private readonly sim: FdtdSimulation) {}

  /** Measures the change now (null at the first check with monitors) and keeps it. */
  async check(energy: number, maxEnergy: number): Promise<number | null> {
    if (this.sim.monitors.length === 0) {
      this.lastChange = maxEnergy > 0 ? energy / maxEnergy : 0;
      return this.lastChange;
    }
    let change: number | null;
    const onStepper = this.sim.monitorChange;
    if (onStepper) {
      // The same sums, made where the running sums live (a GPU): a few numbers come back.
      const sums = await onStepper(this.weights());
      change = sums === null ? null : sums.total2 > 0 ? Math.sqrt(sums.diff2 / sums.total2) : 0;
    } else {
      const measured = this.monitorChange(await this.sim.monitorSums());
      this.previous = measured.snapshot;
      change = measured.change;
    }
    if (change !== null) this.lastChange = change;
    return change;
  }

  /** Per monitor, per wavelength: |normalisation|², the weight of its sums in the change. */
  private weights(): Float64Array[] {
    const norm = this.sim.source.normalisation();
    return this.sim.monitors.map((m) =>
      Float64Array.from(m.frequencyIndex, (f) => norm[2 * f] ** 2 + norm[2 * f + 1] ** 2),
    );
  }

  private monitorChange(monitorSums: Float64Array[][]): {
    change: number | null;
    snapshot: Float64Array[];
  } {
    const { sim, previous } = this;
    const weights = this.weights();
    let diff2 = 0;
    let total2 = 0;
    const snapshot: Float64Array[] = [];
    sim.monitors.forEach((m, mi) => {
      for (const sums of monitorSums[mi]) {
        const P = sums.length / (2 * m.frequencyIndex.length);
        const prev = previous ? previous[snapshot.length] : null;
        for (let w = 0; w < m.frequencyIndex.length; w++) {
          const n2 = weights[mi][w];
          let d = 0;
          let t = 0;
          for (let q = 2 * w * P; q < 2 * (w + 1) * P; q++) {
            t += sums[q] * sums[q];
            if (prev) d += (sums[q] - prev[q]) ** 2;
          }
          diff2 += n2 * d;
          total2 += n2 * t;
        }
        snapshot.push(Float64Array.from(sums));
      }
    });
    if (!previous) return { change: null, snapshot };
    return { change: total2 > 0 ? Math.sqrt(diff2 / total2) : 0, snapshot };
  }
}

/**
 * Progress callbacks during set-up: step 0, and how much of the set-up is done. That is the
 * painting's share of its cell visits; for a run whose mode source solves its plane after
 * the painting (a mode source, each run of a ports job), the painting fills the first half and
 * the plane's wavelengths solved the second.
 */
class SetupProgress {
  private last = Number.NEGATIVE_INFINITY;
  private readonly paintingShare: number;

  constructor(
    private readonly totalSteps: number,
    private readonly onProgress: ((p: SolverProgress) => void) | undefined,
    solvesModes: boolean,
  ) {
    this.paintingShare = solvesModes ? 0.5 : 1;
  }

  painted(fraction: number): void {
    this.reportIfDue(fraction * this.paintingShare);
  }

  modesSolved(done: number, total: number): void {
    this.reportIfDue(this.paintingShare + ((1 - this.paintingShare) * done) / Math.max(1, total));
  }

  report(fraction: number): void {
    this.last = performance.now();
    this.onProgress?.({
      phase: "setup",
      setupFraction: Math.min(1, Math.max(0, fraction)),
      step: 0,
      totalSteps: this.totalSteps,
      fraction: 0,
      lastRelativeChange: null,
      mcellsPerSecond: 0,
    });
  }

  /** Reports when SETUP_PROGRESS_MS have passed since the last report. */
  reportIfDue(fraction: number): void {
    if (performance.now() - this.last >= SETUP_PROGRESS_MS) this.report(fraction);
  }
}

/** Progress callbacks with the stepping rate so far. */
class ProgressReporter {
  private readonly start = performance.now();
  private last = this.start;

  constructor(
    private readonly sim: FdtdSimulation,
    private readonly maxSteps: number,
    private readonly onProgress: ((p: SolverProgress) => void) | undefined,
  ) {}

  /** Seconds since stepping began. */
  seconds(): number {
    return (performance.now() - this.start) / 1000;
  }

  report(lastChange: number | null): void {
    if (!this.onProgress) return;
    const { sim, maxSteps } = this;
    const seconds = this.seconds();
    this.onProgress({
      phase: "stepping",
      setupFraction: 1,
      step: sim.stepIndex,
      totalSteps: maxSteps,
      fraction: maxSteps > 0 ? sim.stepIndex / maxSteps : 1,
      lastRelativeChange: lastChange,
      mcellsPerSecond: seconds > 0 ? (sim.model.layout.cells * sim.stepIndex) / seconds / 1e6 : 0,
    });
    this.last = performance.now();
  }

  /** Reports when PROGRESS_MS have passed since the last report. */
  reportIfDue(lastChange: number | null): void {
    if (performance.now() - this.last >= PROGRESS_MS) this.report(lastChange);
  }
}

/** The result: normalised monitor phasors, grid coordinates, materials and the run report. */
async function assembleResult(
  sim: FdtdSimulation,
  outcome: SteppingOutcome,
  wallSeconds: number,
): Promise<SolverResult> {
  const plan = sim.plan;
  const sums = await sim.monitorSums();
  // The whole grid's cell centres: along a symmetric axis, the half that ran and its image.
  const gridCoords = [0, 1, 2].map((a) => {
    const ax = plan.axes[a];
    const centres = Float64Array.from({ length: ax.cells }, (_, i) => centreM(ax, i));
    return ax.mirror === "none" ? centres : mirroredCoordinates(centres);
  });
  const modeMonitors = modeResults(sim, sums);
  return {
    grid: { x: gridCoords[0], y: gridCoords[1], z: gridCoords[2], dtSeconds: plan.dtSeconds },
    monitors: monitorResults(sim, sums),
    fluxMonitors: fluxResults(sim, sums),
    farFieldMonitors: farFieldResults(sim, sums),
    modeMonitors,
    permittivity: permittivityResults(sim),
    materials: sim.materials,
    report: runReport(sim, outcome, wallSeconds, evanescentNotes(modeMonitors)),
  };
}

/** Each field monitor's sums times the source normalisation N(ω), as float32 (re, im). */
function monitorResults(sim: FdtdSimulation, allSums: Float64Array[][]): MonitorResult[] {
  const norm = sim.source.normalisation();
  const out: MonitorResult[] = [];
  sim.monitors.forEach((m, mi) => {
    if (m.spec.monitor_type !== "field") return;
    const [nx, ny, nz] = m.coords.map((c) => c.length);
    const W = m.frequencyIndex.length;
    const data: MonitorResult["data"] = {};
    m.streams.forEach(({ comp, base }, ci) => {
      const P = base.length;
      const sums = allSums[mi][ci];
      const values = new Float32Array(2 * W * P);
      for (let w = 0; w < W; w++) {
        const f = m.frequencyIndex[w];
        const nr = norm[2 * f];
        const ni = norm[2 * f + 1];
        for (let q = 0; q < P; q++) {
          const o = 2 * (w * P + q);
          values[o] = sums[o] * nr - sums[o + 1] * ni;
          values[o + 1] = sums[o] * ni + sums[o + 1] * nr;
        }
      }
      data[FIELD_COMPONENTS[comp]] = values;
    });
    // Across a mirror plane the monitor holds the half at ≥ 0; the other half is its image.
    let shape: MonitorResult["shape"] = [W, nx, ny, nz];
    const coords = [...m.coords];
    for (let a = 0; a < 3; a++) {
      if (!spansMirror(sim.plan, a, m.spec.center, m.spec.size)) continue;
      const mirror = sim.plan.axes[a].mirror as "pec" | "pmc";
      for (const name of Object.keys(data) as FieldComponent[]) {
        const comp = FIELD_COMPONENTS.indexOf(name);
        data[name] = unfoldAlong(data[name]!, shape, a, mirrorSign(mirror, comp, a));
      }
      coords[a] = mirroredCoordinates(coords[a]);
      shape = shape.map((v, d) => (d === a + 1 ? 2 * v : v)) as MonitorResult["shape"];
    }
    out.push({
      name: m.spec.name,
      center: [...m.spec.center],
      size: [...m.spec.size],
      wavelengthsM: m.wavelengthsM,
      frequenciesHz: m.frequencyIndex.map((f) => sim.omegas[f] / (2 * Math.PI)),
      x: coords[0],
      y: coords[1],
      z: coords[2],
      shape,
      data,
    });
  });
  return out;
}

/**
 * Interleaved complex samples over `shape` ([W, nx, ny, nz], C order) with their mirror image
 * along `axis` before them, times `sign`: the array over the shape doubled along that axis.
 */
function unfoldAlong(
  values: Float32Array,
  shape: readonly number[],
  axis: number,
  sign: number,
): Float32Array {
  const d = axis + 1;
  const n = shape[d];
  // Complex values per index along the axis (everything inside it) and blocks outside it.
  const inner = 2 * shape.slice(d + 1).reduce((p, v) => p * v, 1);
  const outer = shape.slice(0, d).reduce((p, v) => p * v, 1);
  const out = new Float32Array(2 * values.length);
  for (let o = 0; o < outer; o++) {
    const src = o * n * inner;
    const dst = o * 2 * n * inner;
    for (let i = 0; i < n; i++) {
      const from = src + i * inner;
      out.set(values.subarray(from, from + inner), dst + (n + i) * inner);
      const image = dst + (n - 1 - i) * inner;
      for (let q = 0; q < inner; q++) out[image + q] = sign * values[from + q];
    }
  }
  return out;
}

/**
 * The relative change the run converges at: the request's, or the stepper's change floor where
 * that is larger (float16 storage); 0 (no test) stays 0.
 */
function convergenceThreshold(sim: FdtdSimulation): number {
  const asked = sim.spec.fdtd_settings.convergence_threshold;
  return asked > 0 ? Math.max(asked, sim.changeFloor) : asked;
}

/** The note that the stepper's precision raised the convergence threshold, if it did. */
function thresholdNote(sim: FdtdSimulation): string | null {
  const asked = sim.spec.fdtd_settings.convergence_threshold;
  const used = convergenceThreshold(sim);
  if (used === asked) return null;
  return (
    `the fields are stored in float16 (EMSIM_WEBGPU_FIELD_STORAGE), which resolves relative ` +
    `changes down to about ${used}: the run converged at that change, not at the ` +
    `convergence_threshold asked for (${asked})`
  );
}

/**
 * The note that dispersive materials were stepped with float16 field storage, which does not
 * hold them to float32's accuracy (a 30 nm Au film's transmission 3 % off float32's in an
 * outside audit; docs/solver.md), if they were.
 */
function float16DispersionNote(sim: FdtdSimulation): string | null {
  if (!(sim.changeFloor > 0)) return null;
  if (!(sim.model.medium.poles ?? []).some((poles) => poles.length > 0)) return null;
  return (
    "the fields are stored in float16 (EMSIM_WEBGPU_FIELD_STORAGE) and the run has dispersive " +
    "materials, which float16 does not hold to float32's accuracy (metals' transmission can be " +
    "off by a few per cent): for figures to rely on, run with float32 storage"
  );
}

/**
 * The note on how the run ended, if it needs one: the time_steps limit ended it before the
 * pulse was fully injected (convergence cannot: stepToEnd), or after it without convergence.
 */
function endNote(sim: FdtdSimulation, outcome: SteppingOutcome): string | null {
  const settings = sim.spec.fdtd_settings;
  const maxSteps = Math.max(0, Math.floor(settings.time_steps));
  const threshold = convergenceThreshold(sim);
  if (outcome.converged) return null;
  const pulse = sim.source.pulse;
  const offStep = sourceOffStep(pulse, sim.plan.dtSeconds);
  if (sim.stepIndex < offStep) {
    const u = (sim.stepIndex * sim.plan.dtSeconds - pulse.t0) / pulse.tau;
    const envelope = Math.exp(-u * u);
    const shown = envelope < 0.01 ? envelope.toExponential(1) : envelope.toFixed(2);
    const left = u > 0 ? `its envelope was still at ${shown} of its peak` : "it had not yet peaked";
    return (
      `the time_steps limit (${maxSteps}) ended the run before the source pulse was fully ` +
      `injected (${left}; that takes about ${offStep} steps): the phasors and spectra lack ` +
      `the rest of the pulse and are not reliable; raise time_steps to at least ${offStep}`
    );
  }
  if (threshold <= 0) return null;
  return (
    `not converged within time_steps (last relative change ` +
    `${outcome.lastRelativeChange ?? "n/a"}, threshold ${threshold})`
  );
}

/**
 * The run report, with the notes the run itself adds (pulse cut short, not converged) and
 * those of its results (`resultNotes`).
 */
function runReport(
  sim: FdtdSimulation,
  outcome: SteppingOutcome,
  wallSeconds: number,
  resultNotes: readonly string[],
): RunReport {
  const { plan, spec } = sim;
  const maxSteps = Math.max(0, Math.floor(spec.fdtd_settings.time_steps));
  const cells = sim.model.layout.cells;
  const notes = [...sim.notes, ...resultNotes];
  for (const note of [thresholdNote(sim), float16DispersionNote(sim), endNote(sim, outcome)])
    if (note !== null) notes.push(note);
  const seconds = outcome.steppingSeconds;
  const setupSeconds = Math.max(0, wallSeconds - seconds);
  const timing = sim.stepper.timing;
  const stepping = {
    kernelSeconds: timing.kernelSeconds,
    sourceSeconds: sim.sourceSeconds,
    monitorSeconds: timing.monitorSeconds,
    checksSeconds: outcome.checksSeconds,
    yieldSeconds: outcome.yieldSeconds,
    otherSeconds: 0,
    ...(timing.gpu ? { gpu: timing.gpu } : {}),
  };
  stepping.otherSeconds = Math.max(
    0,
    seconds -
      stepping.kernelSeconds -
      stepping.sourceSeconds -
      stepping.monitorSeconds -
      stepping.checksSeconds -
      stepping.yieldSeconds,
  );
  return {
    stepsRun: sim.stepIndex,
    timeStepsLimit: maxSteps,
    converged: outcome.converged,
    convergedAtStep: outcome.convergedAtStep,
    lastRelativeChange: outcome.lastRelativeChange,
    cells,
    grid: [plan.axes[0].cells, plan.axes[1].cells, plan.axes[2].cells],
    dtSeconds: plan.dtSeconds,
    gridStepM: plan.baseStepM,
    minGridStepM: Math.min(...plan.axes.map((ax) => ax.minStepM)),
    wallSeconds,
    mcellsPerSecond: seconds > 0 ? (cells * sim.stepIndex) / seconds / 1e6 : 0,
    kernel: sim.backend.name,
    adapter: sim.backend.adapter ?? null,
    threads: sim.threads,
    setupSeconds,
    steppingSeconds: seconds,
    setup: {
      gridSeconds: sim.setupTimes.gridSeconds,
      paintingSeconds: sim.setupTimes.paintingSeconds,
      fieldsSeconds: Math.max(
        0,
        sim.prepareSeconds - timing.compileSeconds - timing.threadStartSeconds,
      ),
      compileSeconds: timing.compileSeconds,
      threadStartSeconds: timing.threadStartSeconds,
    },
    stepping,
    machine: {
      cores: availableParallelism(),
      cpu: cpus()[0]?.model.trim() ?? "unknown",
      memoryBytes: totalmem(),
    },
    stepsPerSweep: sim.stepsPerSweep,
    notes,
  };
}
