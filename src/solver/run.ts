/**
 * Drives a simulation: time slicing (yield to the event loop every ~50 ms so a worker thread
 * can receive an abort), progress, the convergence test of DESIGN §3, divergence detection,
 * and the assembly of the result.
 */
import { FdtdSimulation, type InternalRunOptions, type MaterialResolver } from "./simulation.js";
import {
  FIELD_COMPONENTS,
  SolverDivergenceError,
  type MonitorResult,
  type SimulationSpec,
  type SolverProgress,
  type SolverResult,
} from "./types.js";

/** Compute time between yields to the event loop. */
const SLICE_MS = 50;
/** Minimum time between progress callbacks outside convergence checks. */
const PROGRESS_MS = 500;
/** Steps between divergence checks (a full pass over the fields). */
const DIVERGENCE_EVERY = 100;
/** Energy growth over its value while the source was on that counts as divergence. */
const DIVERGENCE_GROWTH = 100;

function abortError(): Error {
  const err = new Error("the simulation was cancelled");
  err.name = "AbortError";
  return err;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Relative L2 change of the normalised monitor phasors since `previous` (then updated). */
function monitorChange(
  sim: FdtdSimulation,
  monitorSums: Float64Array[][],
  previous: Float64Array[] | null,
): {
  change: number | null;
  snapshot: Float64Array[];
} {
  const norm = sim.source.normalisation();
  let diff2 = 0;
  let total2 = 0;
  const snapshot: Float64Array[] = [];
  let s = 0;
  sim.monitors.forEach((m, mi) => {
    const P = m.points;
    for (const sums of monitorSums[mi]) {
      const prev = previous ? previous[s] : null;
      for (let w = 0; w < m.frequencyIndex.length; w++) {
        const f = m.frequencyIndex[w];
        const n2 = norm[2 * f] ** 2 + norm[2 * f + 1] ** 2;
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
      s++;
    }
  });
  if (!previous) return { change: null, snapshot };
  return { change: total2 > 0 ? Math.sqrt(diff2 / total2) : 0, snapshot };
}

/** Runs a simulation to the end; see `runSimulation` in index.ts for the contract. */
export async function runWithMaterials(
  spec: SimulationSpec,
  materials: MaterialResolver,
  options: InternalRunOptions = {},
): Promise<SolverResult> {
  if (options.signal?.aborted) throw abortError();
  const wallStart = performance.now();
  const sim = new FdtdSimulation(spec, materials, options);
  try {
    // Kernel compilation and thread start-up count as set-up, not as stepping time.
    await sim.prepare();
    return await stepToEnd(sim, spec, options, wallStart);
  } finally {
    sim.dispose();
  }
}

async function stepToEnd(
  sim: FdtdSimulation,
  spec: SimulationSpec,
  options: InternalRunOptions,
  wallStart: number,
): Promise<SolverResult> {
  const signal = options.signal;
  const settings = spec.fdtd_settings;
  const maxSteps = Math.max(0, Math.floor(settings.time_steps));
  const checkEvery = Math.max(1, Math.floor(settings.check_every_n));
  const threshold = settings.convergence_threshold;
  const dt = sim.plan.dtSeconds;
  const peakStep = Math.ceil(sim.pulsePeakSeconds / dt);
  const sourceOffStep = 2 * peakStep;
  const cells = sim.model.layout.cells;
  const amplitude = Math.max(Math.abs(spec.source.amplitude), 1e-30);

  let previous: Float64Array[] | null = null;
  let lastChange: number | null = null;
  let converged = false;
  let convergedAt: number | null = null;
  let maxEnergy = 0;
  let sourceEnergy = 0;
  let sliceStart = performance.now();
  let lastProgress = sliceStart;
  const stepStart = sliceStart;

  const progress = () => {
    if (!options.onProgress) return;
    const seconds = (performance.now() - stepStart) / 1000;
    const p: SolverProgress = {
      step: sim.stepIndex,
      totalSteps: maxSteps,
      fraction: maxSteps > 0 ? sim.stepIndex / maxSteps : 1,
      lastRelativeChange: lastChange,
      mcellsPerSecond: seconds > 0 ? (cells * sim.stepIndex) / seconds / 1e6 : 0,
    };
    options.onProgress(p);
    lastProgress = performance.now();
  };

  let maxEps = 1;
  for (const e of sim.model.medium.epsEff) maxEps = Math.max(maxEps, e);
  const checkDivergence = (energy: number) => {
    const n = sim.stepIndex;
    // Energy can only come from the source: bound it by a generous multiple of what the
    // source could inject (A² per cell and unit ε_r), and, once the pulse is over, by its
    // value while the source was on.
    const bound = 1e6 * amplitude * amplitude * cells * maxEps;
    const grew = n > sourceOffStep && sourceEnergy > 0 && energy > DIVERGENCE_GROWTH * sourceEnergy;
    if (!Number.isFinite(energy) || energy > bound || grew) {
      throw new SolverDivergenceError(
        `the fields diverged at time step ${n} (courant_factor ${sim.plan.courantFactor}): ` +
          "lower fdtd_settings.courant_factor (it must be at most 1; 0.99 is the default), " +
          "and check that every material has a permittivity of at least 1",
      );
    }
  };

  while (sim.stepIndex < maxSteps) {
    sim.step(maxSteps);
    const n = sim.stepIndex;
    const isCheck = n % checkEvery === 0;
    if (n % DIVERGENCE_EVERY === 0 || isCheck) {
      const energy = await sim.energy();
      checkDivergence(energy);
      if (n <= sourceOffStep) sourceEnergy = Math.max(sourceEnergy, energy);
      maxEnergy = Math.max(maxEnergy, energy);
      if (isCheck && n >= peakStep) {
        if (sim.monitors.length > 0) {
          const r = monitorChange(sim, await sim.monitorSums(), previous);
          previous = r.snapshot;
          if (r.change !== null) lastChange = r.change;
        } else {
          lastChange = maxEnergy > 0 ? energy / maxEnergy : 0;
        }
        if (threshold > 0 && lastChange !== null && lastChange < threshold) {
          converged = true;
          convergedAt = n;
        }
      }
      if (isCheck) progress();
      if (converged) break;
    }
    const now = performance.now();
    if (now - sliceStart >= SLICE_MS) {
      await yieldToEventLoop();
      if (signal?.aborted) throw abortError();
      if (performance.now() - lastProgress >= PROGRESS_MS) progress();
      sliceStart = performance.now();
    }
  }
  if (signal?.aborted) throw abortError();
  progress();

  const stepSeconds = (performance.now() - stepStart) / 1000;
  const notes = [...sim.notes];
  if (sim.stepIndex * dt < 2 * sim.pulsePeakSeconds) {
    notes.push(
      `time_steps (${maxSteps}) ended before the source pulse was fully injected ` +
        `(needs about ${sourceOffStep} steps): the phasors are not meaningful`,
    );
  } else if (!converged && threshold > 0) {
    notes.push(
      `not converged within time_steps (last relative change ${lastChange ?? "n/a"}, ` +
        `threshold ${threshold})`,
    );
  }

  const norm = sim.source.normalisation();
  const allSums = await sim.monitorSums();
  const monitors: MonitorResult[] = sim.monitors.map((m, mi) => {
    const [nx, ny, nz] = m.coords.map((c) => c.length);
    const W = m.frequencyIndex.length;
    const P = m.points;
    const data: MonitorResult["data"] = {};
    m.components.forEach((comp, ci) => {
      const sums = allSums[mi][ci];
      const out = new Float32Array(2 * W * P);
      for (let w = 0; w < W; w++) {
        const f = m.frequencyIndex[w];
        const nr = norm[2 * f];
        const ni = norm[2 * f + 1];
        for (let q = 0; q < P; q++) {
          const o = 2 * (w * P + q);
          out[o] = sums[o] * nr - sums[o + 1] * ni;
          out[o + 1] = sums[o] * ni + sums[o + 1] * nr;
        }
      }
      data[FIELD_COMPONENTS[comp]] = out;
    });
    return {
      name: m.spec.name,
      center: [...m.spec.center],
      size: [...m.spec.size],
      wavelengthsM: m.wavelengthsM,
      frequenciesHz: m.frequencyIndex.map((f) => sim.omegas[f] / (2 * Math.PI)),
      x: m.coords[0],
      y: m.coords[1],
      z: m.coords[2],
      shape: [W, nx, ny, nz],
      data,
    };
  });

  const gridCoords = [0, 1, 2].map((a) => {
    const ax = sim.plan.axes[a];
    return Float64Array.from({ length: ax.cells }, (_, i) => ax.originM + (i + 0.5) * ax.stepM);
  });
  const wallSeconds = (performance.now() - wallStart) / 1000;
  const mcells = stepSeconds > 0 ? (cells * sim.stepIndex) / stepSeconds / 1e6 : 0;
  return {
    grid: { x: gridCoords[0], y: gridCoords[1], z: gridCoords[2], dtSeconds: dt },
    monitors,
    materials: sim.materials,
    report: {
      stepsRun: sim.stepIndex,
      timeStepsLimit: maxSteps,
      converged,
      convergedAtStep: convergedAt,
      lastRelativeChange: lastChange,
      cells,
      grid: [sim.plan.axes[0].cells, sim.plan.axes[1].cells, sim.plan.axes[2].cells],
      dtSeconds: dt,
      gridStepM: sim.plan.stepM,
      wallSeconds,
      mcellsPerSecond: mcells,
      kernel: sim.backend.name,
      threads: sim.threads,
      stepsPerSweep: sim.stepsPerSweep,
      notes,
    },
  };
}
