/**
 * A cheap estimate of a run (nothing the size of the grid is allocated): the same grid plan
 * and the same allocations runSimulation makes, added up.
 */
import { largestCube, type BackendChoice } from "./backend.js";
import { solverBackend } from "./backends.js";
import { cpmlBytes } from "./cpml.js";
import { fluxShape, spansMirror } from "./flux.js";
import { planGrid, YeeLayout, type GridPlan } from "./grid.js";
import { listOf, sampleBox } from "./monitors.js";
import { SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import { findMaterial, permittivityAt } from "./materials.js";
import { permittivityPlaneOf } from "./permittivity-results.js";
import { AUX_PML_LAYERS, planeWaveGeometry } from "./sources/plane-wave.js";
import { pulseFor, sourceOffStep } from "./sources/pulse.js";
import { surfaceCells } from "./surface.js";
import type { MonitorSpec, RunEstimate, SimulationSpec, Vec3, WavelengthRange } from "./types.js";

/** Distinct coefficient-table entries are capped at 65 536 (Uint16 index); JS objects. */
const MEDIUM_TABLE_BYTES = 65536 * 120;

function fieldArrayBytes(paddedCells: number): number {
  return Math.ceil((paddedCells * 4) / 64) * 64;
}

/** Bytes a grid with `cells` per axis needs: fields, material indices, CPML ψ. */
function gridBytes(plan: GridPlan, cells: Vec3, complex: boolean): number {
  const padded = cells.map((n) => n + 2);
  const paddedCells = padded[0] * padded[1] * padded[2];
  const sets = complex ? 2 : 1;
  const fields = sets * 6 * fieldArrayBytes(paddedCells);
  // Three Uint16 index arrays; the medium builder may hold a second set while it retries a
  // coarser quantum.
  const indices = 2 * 3 * 2 * paddedCells;
  const cpml = sets * cpmlBytes(padded, plan.axes);
  return fields + indices + cpml;
}

/** What a run's monitors cost: samples, memory and result bytes, and the wavelengths named. */
interface MonitorCosts {
  samples: number;
  /** Values the running DFT sums hold on the grid (GridSize.dftValues). */
  dftValues: number;
  bytes: number;
  resultBytes: number;
  wavelengths: Set<number>;
}

/** One flux monitor's points: four streams per face (flux.ts), each over about (cells + 1)·cells. */
function fluxPoints(size: Vec3, n: number[]): number {
  const shape = fluxShape(size);
  const faceAxes = shape === null || shape < 0 ? [0, 1, 2, 0, 1, 2] : [shape];
  let points = 0;
  for (const a of faceAxes) {
    const [nb, nc] = [n[(a + 1) % 3]!, n[(a + 2) % 3]!];
    points += nb * (nc + 1) + (nb + 1) * nc;
  }
  return points;
}

/**
 * What a result file holds besides its monitors' values and permittivity planes: the request,
 * the grid's coordinates, the solver's report and the materials and HDF5's own structure
 * (the base), each monitor's group, coordinates and attributes, a ports job's S-matrix group.
 * Fitted to the examples' files (2026-11-29: 19–44 KiB beyond the values, 1 to 4 monitors;
 * 27–28 KiB for the two-port examples, which have no monitors).
 */
const RESULT_FILE_BASE_BYTES = 15 * 1024;
const RESULT_BYTES_PER_MONITOR = 7 * 1024;
const S_MATRIX_GROUP_BYTES = 13 * 1024;

/**
 * Bytes of the /permittivity plane a plane field monitor's result carries (ε real and
 * imaginary as float64, a byte of perfect-conductor count, the two axes' coordinates), over the
 * whole domain's nodes as permittivity-results.ts samples them; 0 for any other monitor.
 */
function permittivityPlaneBytes(plan: GridPlan, m: MonitorSpec): number {
  const samples = permittivityPlaneOf(plan, m);
  if (!samples) return 0;
  const [nu, nv] = samples.axes.map((b) => samples.along[b]!.length) as [number, number];
  return nu * nv * (8 + 8 + 1) + 8 * (nu + nv);
}

/** A ports job's /s_matrix: S (complex128) and n_eff over its port modes and wavelengths. */
function sMatrixBytes(spec: SimulationSpec): number {
  if (spec.source.source_type !== "ports") return 0;
  const modes = (spec.ports ?? []).reduce((n, p) => n + p.mode_spec.num_modes, 0);
  const ws = spec.source.wavelengths;
  const W = Array.isArray(ws) ? ws.length : ws.points;
  return S_MATRIX_GROUP_BYTES + W * (16 * modes * modes + 8 * modes);
}

function monitorCosts(spec: SimulationSpec, plan: GridPlan): MonitorCosts {
  const costs = {
    samples: 0,
    dftValues: 0,
    bytes: 0,
    resultBytes: RESULT_FILE_BASE_BYTES + sMatrixBytes(spec),
    wavelengths: new Set([spec.source.wavelength]),
  };
  for (const m of spec.monitors) {
    costs.resultBytes += RESULT_BYTES_PER_MONITOR;
    const box = sampleBox(plan, m.center, m.size);
    const n = [0, 1, 2].map((a) => Math.max(1, box.hi[a] - box.lo[a] + 1));
    // Across a mirror plane the grid holds half the monitor; the result holds its images too.
    const mirrored = [0, 1, 2].map((a) => spansMirror(plan, a, m.center, m.size));
    const coordinateBytes = 8 * n.reduce((s, v, a) => s + (mirrored[a] ? 2 : 1) * v, 0);
    const ws = m.wavelengths;
    const W = ws === undefined ? 1 : Array.isArray(ws) ? ws.length : ws.points;
    if (Array.isArray(ws)) for (const w of ws) costs.wavelengths.add(w);
    else if (ws) costs.wavelengths.add(ws.start).add(ws.stop);
    if (m.monitor_type === "flux" || m.monitor_type === "far_field" || m.monitor_type === "mode") {
      // The sums, the convergence snapshot and the two incident corrections are float64 complex;
      // a far-field pattern is 5 float64 per direction and wavelength.
      const directions =
        m.monitor_type === "far_field" ? listOf(m.theta_deg).length * listOf(m.phi_deg).length : 0;
      const points = fluxPoints(m.size, n);
      const samples = 2 * points * W;
      costs.samples += samples;
      // Four tangential components recorded (E and H, two each).
      costs.dftValues += 4 * points * W;
      costs.bytes += samples * (16 + 16 + 32) + points * 4;
      const modes = m.monitor_type === "mode" ? m.mode_spec.num_modes : 0;
      costs.resultBytes += W * 8 * (6 + 5 * directions + 6 * modes) + coordinateBytes;
      continue;
    }
    const points = n[0]! * n[1]! * n[2]!;
    const samples = points * m.components.length * W;
    const images = 2 ** mirrored.filter((f) => f).length;
    costs.samples += images * samples;
    costs.dftValues += samples;
    // Running sums + convergence snapshot (float64 complex), the float32 results, point
    // indices and gather buffers.
    costs.bytes += samples * (16 + 16 + 8 * images) + points * (4 + 16);
    costs.resultBytes += images * samples * 8 + coordinateBytes + permittivityPlaneBytes(plan, m);
  }
  return costs;
}

/**
 * The axis light crosses the grid along (a plane wave's propagation axis; for other sources
 * the longest axis), whether the fields are complex (oblique incidence), sin θ, and whether
 * the source steps an auxiliary line (the plane wave).
 */
function incidence(
  spec: SimulationSpec,
  plan: GridPlan,
): { axis: number; complex: boolean; sinTheta: number; auxLine: boolean } {
  const source = spec.source;
  if (source.source_type === "ports") {
    const first = spec.ports?.[0];
    const axis = first ? "xyz".indexOf(first.direction[1]!) : 2;
    return { axis, complex: false, sinTheta: 0, auxLine: false };
  }
  if (source.source_type === "mode") {
    return {
      axis: "xyz".indexOf(source.direction[1]!),
      complex: false,
      sinTheta: 0,
      auxLine: false,
    };
  }
  if (source.source_type === "gaussian_beam") {
    const d = source.direction;
    const axis = d.every(Number.isFinite)
      ? d.map(Math.abs).indexOf(Math.max(...d.map(Math.abs)))
      : 2;
    return { axis, complex: false, sinTheta: 0, auxLine: false };
  }
  if (source.source_type !== "plane_wave") {
    const extent = plan.axes.map((ax) => ax.nodesM[ax.cells]! - ax.nodesM[0]!);
    const axis = extent.indexOf(Math.max(...extent));
    return { axis, complex: false, sinTheta: 0, auxLine: false };
  }
  const d = source.direction;
  if (!(d.every(Number.isFinite) && Math.hypot(d[0], d[1], d[2]) > 0)) {
    return { axis: 2, complex: false, sinTheta: 0, auxLine: true };
  }
  const g = planeWaveGeometry(source);
  return {
    axis: g.axis,
    complex: g.cosTheta < 1,
    sinTheta: Math.sqrt(Math.max(0, 1 - g.cosTheta ** 2)),
    auxLine: true,
  };
}

/**
 * Grid, steps, monitor samples and memory of a run on the backend `backend` would choose,
 * with that backend's own bound (RunEstimate.backendBytes/backendLimitBytes). `plan` is the
 * request's grid when the checks have planned it (checkAndPlan).
 */
export function estimateRun(
  spec: SimulationSpec,
  backend: BackendChoice = "auto",
  plan: GridPlan = planGrid(spec.domain, spec.fdtd_settings.courant_factor),
): RunEstimate {
  const grid: Vec3 = [plan.axes[0].cells, plan.axes[1].cells, plan.axes[2].cells];
  const interiorGrid: Vec3 = [
    plan.axes[0].interiorCells,
    plan.axes[1].interiorCells,
    plan.axes[2].interiorCells,
  ];
  const { axis: propagationAxis, complex, sinTheta, auxLine } = incidence(spec, plan);
  const monitors = monitorCosts(spec, plan);
  const wavelengths = monitors.wavelengths;

  // The plane wave's auxiliary line: the region of interest plus its own thick absorber.
  const auxCells: Vec3 = [1, 1, 1];
  auxCells[propagationAxis] = interiorGrid[propagationAxis] + 2 * AUX_PML_LAYERS;

  // The backend's own bound (wasm: one WebAssembly memory of at most 4 GiB), and what it
  // keeps in ordinary memory besides the grid (wasm: a relabelled grid's map of its cells).
  const chosen = solverBackend(backend);
  const layout = YeeLayout.ofPlan(plan);
  const pml = plan.axes.map((a) => ({ lo: a.pmlLo, hi: a.pmlHi }));
  const backendMemory = chosen.memory({ layout, pml, complex, dftValues: monitors.dftValues });
  const memoryBytes =
    gridBytes(plan, grid, complex) +
    (backendMemory.hostBytes ?? 0) +
    (auxLine ? gridBytes(plan, auxCells, complex) : 0) +
    monitors.bytes +
    MEDIUM_TABLE_BYTES +
    // Result grid coordinates and the reference recorder.
    (grid[0] + grid[1] + grid[2]) * 8 +
    wavelengths.size * 3 * 48;

  // A ports job runs once per input port and mode (ports.ts): its steps are all of theirs.
  const runs = portRunCount(spec);
  return {
    grid,
    interiorGrid,
    totalCells: grid[0] * grid[1] * grid[2],
    surfaceCells: surfaceCells(spec, plan),
    absorberCells:
      grid[0] * grid[1] * grid[2] - interiorGrid[0] * interiorGrid[1] * interiorGrid[2],
    modeSolves: modeSolves(spec, plan),
    timeSteps: runs * spec.fdtd_settings.time_steps,
    expectedSteps: runs * expectedSteps(spec, plan, propagationAxis, [...wavelengths], sinTheta),
    dtSeconds: plan.dtSeconds,
    monitorSamples: monitors.samples,
    memoryBytes,
    resultBytes: monitors.resultBytes,
    backend: chosen.name,
    backendBytes: backendMemory.bytes,
    backendLimitBytes: backendMemory.limitBytes,
    backendMemoryWhat: backendMemory.what,
    ...(backendMemory.ofMonitors ? { backendMemoryOfMonitors: true as const } : {}),
    backendLargestCube: largestCube(chosen, complex),
  };
}

/** How many wavelengths a list or a range names. */
function wavelengthCount(w: number[] | WavelengthRange | undefined, fallback: number): number {
  if (Array.isArray(w)) return w.length;
  return w ? w.points : fallback;
}

/** Cells of a plane (center, size) on the grid: its two transverse axes' nodes within it. */
function planeCells(plan: GridPlan, center: readonly number[], size: readonly number[]): number {
  const box = sampleBox(plan, center, size);
  const normal = size.findIndex((v) => v === 0);
  return [0, 1, 2]
    .filter((a) => a !== (normal < 0 ? 2 : normal))
    .reduce((n, a) => n * Math.max(1, box.hi[a] - box.lo[a] + 1), 1);
}

/**
 * The mode solves of the set-up: a ports job's port planes (each solved once per wavelength
 * for all its runs: modes/mode-cache.ts), a mode source's plane and its mode monitors' planes.
 */
function modeSolves(spec: SimulationSpec, plan: GridPlan): { cells: number; count: number }[] {
  const source = spec.source;
  if (source.source_type === "ports") {
    const count = wavelengthCount(source.wavelengths, 1);
    return (spec.ports ?? []).map((p) => ({ cells: planeCells(plan, p.center, p.size), count }));
  }
  const solves = spec.monitors
    .filter((m) => m.monitor_type === "mode")
    .map((m) => ({
      cells: planeCells(plan, m.center, m.size),
      count: wavelengthCount(m.wavelengths, 1),
    }));
  if (source.source_type === "mode") {
    const count = Math.max(1, ...solves.map((m) => m.count));
    solves.push({ cells: planeCells(plan, source.center, source.size), count });
  }
  return solves;
}

/** The runs a request makes: one, or one per input port and mode of a ports request. */
function portRunCount(spec: SimulationSpec): number {
  const source = spec.source;
  if (source.source_type !== "ports") return 1;
  const ports = spec.ports ?? [];
  const runs = ports
    .filter((p) => source.run_ports.includes(p.name))
    .reduce((n, p) => n + p.mode_spec.num_modes, 0);
  return Math.max(1, runs);
}

/**
 * Light transits of the grid along the propagation axis, at the highest refractive index of
 * the structures, after the pulse's peak, until a run with a convergence threshold of about
 * 1e-5 stops: a rule of thumb fitted to the jobs of docs/benchmarks.md (the README's strip
 * waveguide converged after 3.8 transits, a periodic unit cell with a sphere after 2.6).
 * Resonant structures ring longer and will take more; a loose threshold fewer.
 */
const CONVERGENCE_TRANSITS = 3.2;

/**
 * The time steps a run is expected to take: `time_steps` without a convergence threshold;
 * with one, the first convergence check after the pulse's peak plus CONVERGENCE_TRANSITS
 * transits of the grid, and not before the pulse is fully injected, since the run cannot
 * converge earlier (sourceOffStep); at most `time_steps`.
 */
function expectedSteps(
  spec: SimulationSpec,
  plan: GridPlan,
  propagationAxis: number,
  wavelengthsM: number[],
  sinTheta: number,
): number {
  const settings = spec.fdtd_settings;
  const maxSteps = Math.max(0, Math.floor(settings.time_steps));
  if (!(settings.convergence_threshold > 0) || !(plan.dtSeconds > 0)) return maxSteps;
  const lambda0 = spec.source.wavelength;
  let index = 1;
  for (const s of spec.structures) {
    // No wave travels inside a perfect conductor, so it slows none down.
    if (findMaterial(s.material)?.perfectConductor) continue;
    try {
      index = Math.max(index, Math.sqrt(Math.max(1, permittivityAt(s.material, lambda0).re)));
    } catch {
      // An unknown material or a wavelength out of its range: validation reports it.
    }
  }
  const pulse = pulseFor(lambda0, wavelengthsM, Math.min(sinTheta, 0.99));
  const ax = plan.axes[propagationAxis];
  const transitSeconds = ((ax.nodesM[ax.cells] - ax.nodesM[0]) * index) / SPEED_OF_LIGHT_M_PER_S;
  const seconds = pulse.t0 + CONVERGENCE_TRANSITS * transitSeconds;
  const checkEvery = Math.max(1, Math.floor(settings.check_every_n));
  const first = Math.max(seconds / plan.dtSeconds, sourceOffStep(pulse, plan.dtSeconds));
  const steps = Math.ceil(first / checkEvery) * checkEvery;
  return Math.min(maxSteps, steps);
}
