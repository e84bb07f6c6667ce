/**
 * The result file (DESIGN §6), written with h5wasm. Layout:
 *   /                      attrs format, format_version, job_id, solver_version, units, created_at
 *   /simulation            attr request_json (the request with defaults filled in)
 *   /grid                  datasets x, y, z (cell coordinates, m); attrs dt (s), grid_step (m),
 *                          min_grid_step (m; smaller than grid_step on a graded grid)
 *   /solver                attrs of the run report (steps_run, converged, …, mcells_per_second)
 *   /materials/<name>      attrs permittivity_real/imag, conductivity (none for PEC), time_domain,
 *                          model, reference, valid range
 *   /monitors/<name>       attrs type, center, size, wavelengths, frequencies; datasets x, y, z
 *                          and one complex64 dataset per component, compound {r, i} (what h5py
 *                          reads as complex), shaped (nx, ny, nz), or (nw, nx, ny, nz) when the
 *                          monitor records several wavelengths; datasets wavelength and
 *                          frequency, (nw,) then, scalars otherwise.
 *   /monitors/<name>       (flux monitors) attrs type="flux", quantity, normal, area, center,
 *                          size, wavelengths, frequencies; datasets wavelength (a scale) and
 *                          frequency (nw,), flux, incident_intensity, and for a box
 *                          scattering/absorption/extinction_cross_section (m²), all (nw,);
 *                          x, y, z: the cells the surface spans. A dipole's: flux and power (W).
 *   /monitors/<name>       (far-field monitors) attrs type="far_field", center, size,
 *                          wavelengths, frequencies, background_permittivity; scales
 *                          wavelength, theta, phi (degrees); radiant_intensity (W/sr) and the
 *                          complex128 E_theta, E_phi (V: r·E at r = 1 m, e^{ikr} removed),
 *                          all (nw, ntheta, nphi). In a 2-D cross-section also attr
 *                          cross_section_axis ("x", "y" or "z", the thin axis), and the
 *                          intensity in W/rad per period, E as √ρ·E at ρ = 1 m (V m-0.5).
 *   /monitors/<name>       (mode monitors) attrs type="mode", normal, center, size,
 *                          wavelengths, frequencies; scales direction (+1, -1), wavelength,
 *                          mode_index; n_eff, k_eff (nw, nmode); amps complex128
 *                          (2, nw, nmode), "+" first: sqrt(W) of the source's normalised fields
 *                          (with a mode source |amps|² is the power over its 1 W).
 *   /s_matrix              (a ports job) attr inputs; scales port_out, port_in (port@mode
 *                          names), wavelength; S complex128 (port_out, port_in, nw), NaN for
 *                          inputs not run; n_eff (port_out, nw).
 *   /permittivity/<name>   (each plane field monitor) attrs type="permittivity", normal,
 *                          position, wavelength; scales the two in-plane axes (node
 *                          coordinates, m); eps_real, eps_imag float64 and pec_components
 *                          uint8 (n_first, n_second): the ε the run stepped on the node plane
 *                          nearest the monitor's, as the set-up preview shows that plane.
 * Whole-number JS attributes would become int32 and overflow silently, so every numeric
 * attribute is written with an explicit dtype.
 *
 * Coordinates are HDF5 dimension scales (the HDF5 Dimension Scale specification, the way
 * netCDF-4 stores dimensions): x, y, z and, for several wavelengths, wavelength are made
 * scales and attached to the matching axis of every component dataset, so that xarray
 * (engine h5netcdf), netCDF tools and HDFView see named dimensions with coordinates. Units
 * and descriptions are CF attributes (`units`, `long_name`, `axis`, `standard_name`). With a
 * single wavelength the datasets keep their 3-D shape and name `wavelength` and `frequency` in
 * their CF `coordinates` attribute: scalar coordinates.
 */
import h5wasm from "h5wasm/node";
import { statfs } from "node:fs/promises";
import { dirname } from "node:path";
import type {
  FarFieldMonitorResult,
  FluxMonitorResult,
  MaterialUsed,
  ModeMonitorResult,
  MonitorResult,
  SMatrixResult,
  RunReport,
  SolverResult,
} from "../solver/index.js";
import {
  bytesOf,
  compareDataset,
  lowLevelModule,
  rawReader,
  reopen,
  ResultFileError,
  syncToDisk,
  type RawReader,
} from "./read-back.js";
import { describe, f64, i64, str, type H5Group, type HasAttrs } from "./h5-attrs.js";
import { createDataset, createFile, createGroup } from "./h5-create.js";
import { permittivityDatasets, writePermittivity } from "./permittivity-group.js";

export { ResultFileError } from "./read-back.js";

export const RESULT_FORMAT = "emsim-result";
/** The `format` attribute of a batch's one merged file (batch-merge.ts). */
export const BATCH_RESULT_FORMAT = "emsim-batch-result";
/** 2: coordinates are HDF5 dimension scales with CF attributes (1 had the same datasets without). */
export const RESULT_FORMAT_VERSION = 2;

/** Splits interleaved (re, im) float32 into the two columns h5wasm interleaves again. */
function complexColumns<T extends Float32Array | Float64Array>(interleaved: T): Map<string, T> {
  const n = interleaved.length / 2;
  const make = () =>
    (interleaved instanceof Float32Array ? new Float32Array(n) : new Float64Array(n)) as T;
  const re = make();
  const im = make();
  for (let i = 0; i < n; i++) {
    re[i] = interleaved[2 * i]!;
    im[i] = interleaved[2 * i + 1]!;
  }
  return new Map([
    ["r", re],
    ["i", im],
  ]);
}

const COMPONENT_NAMES: Record<string, [string, string]> = {
  E: ["V/m", "electric field"],
  H: ["A/m", "magnetic field"],
};

/**
 * A monitor's group with what every monitor has: its type, centre, size, wavelengths and
 * frequencies as attributes, and its x, y, z sample coordinates as dimension scales.
 */
function monitorGroup(
  monitors: H5Group,
  m: MonitorResult | FluxMonitorResult,
  type: "field" | "flux",
): H5Group {
  const g = createGroup(monitors, m.name);
  str(g, "type", type);
  f64(g, "center", m.center);
  f64(g, "size", m.size);
  f64(g, "wavelengths", m.wavelengthsM);
  f64(g, "frequencies", m.frequenciesHz);
  for (const axis of ["x", "y", "z"] as const) {
    const scale = createDataset(g, { name: axis, data: m[axis] });
    scale.make_scale(axis);
    describe(scale, "m", axis, { axis: axis.toUpperCase() });
  }
  return g;
}

/**
 * The `wavelength` and `frequency` datasets: with `several`, shape (nw,) and wavelength a
 * dimension scale that frequency runs along; otherwise scalars. Returns the wavelength's path.
 */
function wavelengthAxis(
  g: H5Group,
  m: Pick<MonitorResult, "wavelengthsM" | "frequenciesHz">,
  several: boolean,
): string {
  const nw = m.wavelengthsM.length;
  const wavelength = createDataset(g, {
    name: "wavelength",
    data: new Float64Array(m.wavelengthsM),
    shape: several ? [nw] : [],
  });
  describe(wavelength, "m", "vacuum wavelength", { standard_name: "radiation_wavelength" });
  const frequency = createDataset(g, {
    name: "frequency",
    data: new Float64Array(m.frequenciesHz),
    shape: several ? [nw] : [],
  });
  describe(frequency, "Hz", "frequency", { standard_name: "radiation_frequency" });
  if (several) {
    wavelength.make_scale("wavelength");
    // frequency runs along the wavelength axis: an auxiliary coordinate of it.
    frequency.attach_scale(0, wavelength.path);
  }
  return wavelength.path;
}

/**
 * One monitor's group: coordinates as dimension scales, then one dataset per component with
 * the scales attached to its axes.
 */
function writeMonitor(monitors: H5Group, m: MonitorResult): void {
  const g = monitorGroup(monitors, m, "field");
  const [nw, nx, ny, nz] = m.shape;
  const several = nw > 1;
  // Several wavelengths are an axis of the data; one is a scalar coordinate of it.
  wavelengthAxis(g, m, several);
  const axes = several ? ["wavelength", "x", "y", "z"] : ["x", "y", "z"];
  const shape = several ? [nw, nx, ny, nz] : [nx, ny, nz];
  for (const [component, data] of Object.entries(m.data)) {
    if (!data) continue;
    const dataset = createDataset(g, {
      name: component,
      data: complexColumns(data),
      shape,
      dtype: [
        ["r", "<f"],
        ["i", "<f"],
      ],
    });
    axes.forEach((axis, index) => dataset.attach_scale(index, `${g.path}/${axis}`));
    const [units, field] = COMPONENT_NAMES[component[0]!]!;
    describe(dataset, units, `${field} ${component}`, {
      description: `${component[1]} component of the ${field} phasor, normalised by the source spectrum`,
      coordinates: several ? "frequency" : "wavelength frequency",
    });
  }
}

/** The per-wavelength datasets of a flux monitor, with their units and meaning. */
function fluxSpectra(m: FluxMonitorResult): [string, Float64Array, string, string][] {
  if (m.powerW) {
    return [
      [
        "flux",
        m.flux,
        "1",
        "power (out of a box, or along the normal through a plane) over the power the same dipole radiates in vacuum",
      ],
      ["power", m.powerW, "W", "power out of a box, or along the normal through a plane"],
    ];
  }
  const out: [string, Float64Array, string, string][] = [
    [
      "flux",
      m.flux,
      m.quantity === "box" ? "m2" : "1",
      `net Poynting flux (${m.quantity}), normalised to the incident wave`,
    ],
  ];
  if (m.incidentIntensityWPerM2) {
    out.push([
      "incident_intensity",
      m.incidentIntensityWPerM2,
      "W m-2",
      "intensity of the incident plane wave",
    ]);
  }
  if (m.crossSections) {
    out.push(
      ["scattering_cross_section", m.crossSections.scattering, "m2", "scattering cross-section"],
      ["absorption_cross_section", m.crossSections.absorption, "m2", "absorption cross-section"],
      ["extinction_cross_section", m.crossSections.extinction, "m2", "extinction cross-section"],
    );
  }
  return out;
}

/**
 * A flux monitor's group: its spectra along a `wavelength` dimension scale (always an axis,
 * one value per wavelength), and the coordinates of the cells its surface spans.
 */
function writeFluxMonitor(monitors: H5Group, m: FluxMonitorResult): void {
  // x, y, z: the cells the surface spans, scales of their own (netCDF readers want every
  // dataset on named dimensions), not axes of the spectra.
  const g = monitorGroup(monitors, m, "flux");
  str(g, "quantity", m.quantity);
  if (m.normal) f64(g, "normal", m.normal);
  f64(g, "area", m.areaM2);
  const wavelength = wavelengthAxis(g, m, true);
  for (const [name, data, units, longName] of fluxSpectra(m)) {
    const dataset = createDataset(g, { name, data, shape: [data.length] });
    dataset.attach_scale(0, wavelength);
    describe(dataset, units, longName, { coordinates: "frequency" });
  }
}

/** A far-field monitor's datasets: name, data, shape, units, long name (complex: interleaved). */
function farFieldDatasets(
  m: FarFieldMonitorResult,
): { name: string; data: Float64Array; complex: boolean; units: string; longName: string }[] {
  const line = m.crossSectionAxis !== null;
  const [eUnits, times] = line ? ["V m-0.5", "sqrt(rho)"] : ["V", "r"];
  return [
    {
      name: "radiant_intensity",
      data: m.radiantIntensity,
      complex: false,
      units: line ? "W rad-1" : "W sr-1",
      longName: line ? "radiant intensity per radian over one period" : "radiant intensity",
    },
    {
      name: "E_theta",
      data: m.eTheta,
      complex: true,
      units: eUnits,
      longName: `far-field E_theta times ${times} (e^{ikr} removed)`,
    },
    {
      name: "E_phi",
      data: m.ePhi,
      complex: true,
      units: eUnits,
      longName: `far-field E_phi times ${times} (e^{ikr} removed)`,
    },
  ];
}

/**
 * A far-field monitor's group: the pattern along wavelength, theta and phi dimension scales;
 * E_theta and E_phi complex128 ({r, i} compounds).
 */
function writeFarFieldMonitor(monitors: H5Group, m: FarFieldMonitorResult): void {
  const g = createGroup(monitors, m.name);
  str(g, "type", "far_field");
  f64(g, "center", m.center);
  f64(g, "size", m.size);
  f64(g, "wavelengths", m.wavelengthsM);
  f64(g, "frequencies", m.frequenciesHz);
  f64(g, "background_permittivity", m.backgroundEps);
  if (m.crossSectionAxis !== null) str(g, "cross_section_axis", "xyz"[m.crossSectionAxis]!);
  const wavelength = wavelengthAxis(g, m, true);
  const scales = [wavelength];
  for (const [axis, values, longName] of [
    ["theta", m.thetaDeg, "polar angle from +z"],
    ["phi", m.phiDeg, "azimuth from +x about +z"],
  ] as const) {
    const scale = createDataset(g, { name: axis, data: new Float64Array(values) });
    scale.make_scale(axis);
    describe(scale, "degree", longName);
    scales.push(scale.path);
  }
  const shape = [m.wavelengthsM.length, m.thetaDeg.length, m.phiDeg.length];
  for (const d of farFieldDatasets(m)) {
    const dataset = d.complex
      ? createDataset(g, {
          name: d.name,
          data: complexColumns(d.data),
          shape,
          dtype: [
            ["r", "<d"],
            ["i", "<d"],
          ],
        })
      : createDataset(g, { name: d.name, data: d.data, shape });
    scales.forEach((path, index) => dataset.attach_scale(index, path));
    describe(dataset, d.units, d.longName, { coordinates: "frequency" });
  }
}

/** A mode monitor's datasets: n_eff and k_eff (nw, nmode), amps complex128 (2, nw, nmode). */
function modeDatasets(m: ModeMonitorResult) {
  const amps = new Float64Array(m.forward.length + m.backward.length);
  amps.set(m.forward, 0);
  amps.set(m.backward, m.forward.length);
  const [nw, nm] = [m.wavelengthsM.length, m.modes];
  return [
    { name: "n_eff", data: m.nEff, shape: [nw, nm], complex: false, longName: "effective index" },
    { name: "k_eff", data: m.kEff, shape: [nw, nm], complex: false, longName: "Im n_eff" },
    {
      name: "amps",
      data: amps,
      shape: [2, nw, nm],
      complex: true,
      longName: "mode amplitude along +normal (direction +1) and -normal (-1), sqrt(W)",
    },
  ];
}

/**
 * A mode monitor's group: scales direction (+1, −1), wavelength and mode_index; n_eff, k_eff
 * (nw, nmode) and the complex128 amps (2, nw, nmode), "+" first (DESIGN §10).
 */
function writeModeMonitor(monitors: H5Group, m: ModeMonitorResult): void {
  const g = createGroup(monitors, m.name);
  str(g, "type", "mode");
  str(g, "normal", "xyz"[m.normal]!);
  f64(g, "center", m.center);
  f64(g, "size", m.size);
  f64(g, "wavelengths", m.wavelengthsM);
  f64(g, "frequencies", m.frequenciesHz);
  const wavelength = wavelengthAxis(g, m, true);
  const direction = createDataset(g, { name: "direction", data: new Float64Array([1, -1]) });
  direction.make_scale("direction");
  describe(direction, "1", "+1 along the plane's normal, -1 against it");
  const index = Float64Array.from({ length: m.modes }, (_, k) => k);
  const mode = createDataset(g, { name: "mode_index", data: index });
  mode.make_scale("mode_index");
  describe(mode, "1", "mode index (by n_eff, highest first)");
  for (const d of modeDatasets(m)) {
    const scales = d.complex ? [direction.path, wavelength, mode.path] : [wavelength, mode.path];
    writeScaled(g, d, scales, d.complex ? "W0.5" : "1", d.longName);
  }
}

/**
 * A float64 dataset, or a complex128 one ({r, i} compound) from interleaved values, with a
 * scale attached to each axis and its CF attributes.
 */
function writeScaled(
  g: H5Group,
  d: { name: string; data: Float64Array; shape: number[]; complex: boolean },
  scales: string[],
  units: string,
  longName: string,
): void {
  const dataset = d.complex
    ? createDataset(g, {
        name: d.name,
        data: complexColumns(d.data),
        shape: d.shape,
        dtype: [
          ["r", "<d"],
          ["i", "<d"],
        ],
      })
    : createDataset(g, { name: d.name, data: d.data, shape: d.shape });
  scales.forEach((path, axis) => dataset.attach_scale(axis, path));
  describe(dataset, units, longName, { coordinates: "frequency" });
}

/** The S-matrix's datasets: S complex128 (port_out, port_in, nw), n_eff (port, nw). */
function sMatrixDatasets(m: SMatrixResult) {
  const [P, W] = [m.ports.length, m.wavelengthsM.length];
  return [
    { name: "S", data: m.s, shape: [P, P, W], complex: true },
    { name: "n_eff", data: m.nEff, shape: [P, W], complex: false },
  ];
}

/**
 * /s_matrix of a ports job: scales port_out, port_in (the port@mode names, as strings, once
 * each so that xarray sees two dimensions), wavelength; S (port_out, port_in, wavelength)
 * complex128, NaN in the columns of inputs not run; n_eff (port_out, wavelength); attr inputs.
 */
function writeSMatrix(file: InstanceType<typeof h5wasm.File>, m: SMatrixResult): void {
  const g = createGroup(file, "s_matrix");
  str(g, "inputs", m.inputs.join(","));
  const wavelength = wavelengthAxis(g, m, true);
  const scales = (["port_out", "port_in"] as const).map((name) => {
    const d = createDataset(g, { name, data: m.ports });
    d.make_scale(name);
    describe(d, "1", name === "port_out" ? "port@mode the power goes into" : "port@mode launched");
    return d.path;
  });
  for (const d of sMatrixDatasets(m)) {
    const attached = d.complex ? [scales[0]!, scales[1]!, wavelength] : [scales[0]!, wavelength];
    const longName = d.complex
      ? "scattering matrix S[out][in]"
      : "effective index of each port mode";
    writeScaled(g, d, attached, "1", longName);
  }
}

export interface ResultFileInput {
  jobId: string;
  solverVersion: string;
  /** The request with defaults filled in, as JSON text. */
  specJson: string;
  result: SolverResult;
}

export async function writeResultFile(path: string, input: ResultFileInput): Promise<void> {
  await h5wasm.ready;
  const { result } = input;
  await checkRoom(path, result);
  const file = createFile(path);
  try {
    writeFileAttributes(file, input);
    str(createGroup(file, "simulation"), "request_json", input.specJson);
    writeGrid(createGroup(file, "grid"), result);
    writeRunReport(createGroup(file, "solver"), result.report);
    writeMaterials(createGroup(file, "materials"), result.materials);
    const monitors = createGroup(file, "monitors");
    for (const m of result.monitors) writeMonitor(monitors, m);
    for (const m of result.fluxMonitors) writeFluxMonitor(monitors, m);
    for (const m of result.farFieldMonitors) writeFarFieldMonitor(monitors, m);
    for (const m of result.modeMonitors ?? []) writeModeMonitor(monitors, m);
    if (result.sMatrix) writeSMatrix(file, result.sMatrix);
    if (result.permittivity?.length) writePermittivity(file, result.permittivity);
  } finally {
    file.close();
  }
}

/**
 * Refuses a result that the disk of `path` has no room for, before a byte is written. Such a
 * write fails anyway (verifyResultFile finds it), but only after taking the disk's last byte,
 * on every attempt, from everything else on that disk: the database, other jobs' results
 * (audit F8). Free space is a hint, as others write too: verifyResultFile still decides.
 */
async function checkRoom(path: string, result: SolverResult): Promise<void> {
  let free: number;
  try {
    const disk = await statfs(dirname(path));
    free = disk.bavail * disk.bsize;
  } catch {
    return; // no answer (a folder that is gone): the write itself will say
  }
  const needed = resultArrayBytes(result);
  if (needed > free) {
    throw new ResultFileError(
      `the result needs at least ${needed} bytes; its disk has ${free} free`,
    );
  }
}

/** The root's attributes: what the file is and which job and solver wrote it. */
function writeFileAttributes(file: HasAttrs, input: ResultFileInput): void {
  str(file, "format", RESULT_FORMAT);
  i64(file, "format_version", RESULT_FORMAT_VERSION);
  str(file, "job_id", input.jobId);
  str(file, "solver_version", input.solverVersion);
  str(file, "units", "SI");
  str(file, "created_at", new Date().toISOString());
}

/** /grid: the cell coordinates, the time step and the grid steps. */
function writeGrid(grid: H5Group, result: SolverResult): void {
  createDataset(grid, { name: "x", data: result.grid.x });
  createDataset(grid, { name: "y", data: result.grid.y });
  createDataset(grid, { name: "z", data: result.grid.z });
  f64(grid, "dt", result.grid.dtSeconds);
  f64(grid, "grid_step", result.report.gridStepM);
  f64(grid, "min_grid_step", result.report.minGridStepM);
}

/** /solver: the run report, one attribute per fact, its times split by phase. */
function writeRunReport(solver: HasAttrs, r: RunReport): void {
  i64(solver, "steps_run", r.stepsRun);
  i64(solver, "time_steps_limit", r.timeStepsLimit);
  i64(solver, "converged", r.converged ? 1 : 0);
  i64(solver, "converged_at_step", r.convergedAtStep ?? -1);
  f64(solver, "last_relative_change", r.lastRelativeChange ?? Number.NaN);
  i64(solver, "cells", r.cells);
  f64(solver, "grid_shape", r.grid);
  f64(solver, "dt", r.dtSeconds);
  f64(solver, "wall_seconds", r.wallSeconds);
  f64(solver, "mcells_per_second", r.mcellsPerSecond);
  str(solver, "kernel", r.kernel);
  if (r.adapter) {
    // The GPU adapter of a webgpu run (absent on the CPU backends).
    str(solver, "adapter_vendor", r.adapter.vendor);
    str(solver, "adapter_architecture", r.adapter.architecture);
    str(solver, "adapter_device", r.adapter.device);
    str(solver, "adapter_description", r.adapter.description);
    i64(solver, "adapter_software", r.adapter.software ? 1 : 0);
  }
  i64(solver, "threads", r.threads);
  i64(solver, "steps_per_sweep", r.stepsPerSweep);
  f64(solver, "setup_seconds", r.setupSeconds);
  f64(solver, "stepping_seconds", r.steppingSeconds);
  f64(solver, "setup_grid_seconds", r.setup.gridSeconds);
  f64(solver, "setup_painting_seconds", r.setup.paintingSeconds);
  f64(solver, "setup_fields_seconds", r.setup.fieldsSeconds);
  f64(solver, "setup_compile_seconds", r.setup.compileSeconds);
  f64(solver, "setup_thread_start_seconds", r.setup.threadStartSeconds);
  f64(solver, "stepping_kernel_seconds", r.stepping.kernelSeconds);
  f64(solver, "stepping_source_seconds", r.stepping.sourceSeconds);
  f64(solver, "stepping_monitor_seconds", r.stepping.monitorSeconds);
  f64(solver, "stepping_checks_seconds", r.stepping.checksSeconds);
  f64(solver, "stepping_yield_seconds", r.stepping.yieldSeconds);
  f64(solver, "stepping_other_seconds", r.stepping.otherSeconds);
  i64(solver, "machine_cores", r.machine.cores);
  str(solver, "machine_cpu", r.machine.cpu);
  f64(solver, "machine_memory_bytes", r.machine.memoryBytes);
  str(solver, "notes", r.notes.join("\n"));
}

/**
 * /materials/<name>: each material used, as the run saw it, and where its data comes from. A
 * perfect conductor (time_domain "perfect_conductor") has no permittivity or conductivity.
 */
function writeMaterials(materials: H5Group, used: MaterialUsed[]): void {
  for (const m of used) {
    const g = createGroup(materials, m.name);
    const optical = m.timeDomain === "perfect_conductor" ? null : m;
    if (optical) {
      f64(g, "permittivity_real", optical.permittivity[0]);
      f64(g, "permittivity_imag", optical.permittivity[1]);
      f64(g, "conductivity", optical.conductivitySPerM);
    }
    str(g, "time_domain", m.timeDomain);
    if (optical?.poleModel) {
      f64(g, "eps_inf", optical.poleModel.epsInf);
      // Lorentz {deltaEps, omega0, gamma} and Drude {omegaP, gamma} poles, rad/s.
      str(g, "poles", JSON.stringify(optical.poleModel.poles));
    }
    str(g, "model", m.model);
    str(g, "reference", m.reference);
    f64(g, "valid_range", m.validRangeM);
  }
}

/**
 * Reads a freshly written result file back and throws ResultFileError unless it holds what
 * `writeResultFile` was given. h5wasm reports failed writes (ENOSPC, EIO) only on stderr, and
 * a file written to a full disk opens and reads with holes of zeros where data should be —
 * its checksum is then the checksum of a corrupt file. So the file is synced, reopened, and
 * every dataset's bytes are compared with the arrays that were written (read-back.ts).
 */
export async function verifyResultFile(path: string, input: ResultFileInput): Promise<void> {
  const module = await lowLevelModule();
  syncToDisk(path);
  const file = reopen(path);
  const read = rawReader(module, file);
  try {
    if (file.attrs.format?.value !== RESULT_FORMAT) {
      throw new ResultFileError("the result file's format attribute is missing");
    }
    compareDatasets(read, input.result);
  } catch (err) {
    if (err instanceof ResultFileError) throw err;
    throw new ResultFileError(`the result file does not read back: ${(err as Error).message}`);
  } finally {
    file.close();
  }
}

/** Compares every dataset `writeResultFile` wrote, where it wrote it, with its array. */
function compareDatasets(read: RawReader, result: SolverResult): void {
  for (const d of arrayDatasets(result)) compareDataset(read, d.path, d.shape, d.bytes);
}

/**
 * Bytes of the result's arrays: the least room its file needs (HDF5 adds its headers and the
 * attributes), known before a byte is written.
 */
export function resultArrayBytes(result: SolverResult): number {
  return arrayDatasets(result).reduce((sum, d) => sum + d.bytes.byteLength, 0);
}

/** Every dataset of the result's arrays: where `writeResultFile` puts it, its shape, its bytes. */
function arrayDatasets(
  result: SolverResult,
): { path: string; shape: number[]; bytes: Uint8Array }[] {
  const out: { path: string; shape: number[]; bytes: Uint8Array }[] = [];
  const add = (path: string, shape: number[], data: Float64Array | Float32Array | Uint8Array) =>
    out.push({ path, shape, bytes: bytesOf(data) });
  for (const axis of ["x", "y", "z"] as const) {
    add(`/grid/${axis}`, [result.grid[axis].length], result.grid[axis]);
  }
  for (const m of result.monitors) {
    for (const axis of ["x", "y", "z"] as const) {
      add(`/monitors/${m.name}/${axis}`, [m[axis].length], m[axis]);
    }
    const [nw, nx, ny, nz] = m.shape;
    const shape = nw === 1 ? [nx, ny, nz] : [nw, nx, ny, nz];
    for (const [component, data] of Object.entries(m.data)) {
      if (data) add(`/monitors/${m.name}/${component}`, shape, data);
    }
  }
  for (const m of result.fluxMonitors) {
    for (const [name, data] of fluxSpectra(m))
      add(`/monitors/${m.name}/${name}`, [data.length], data);
  }
  for (const m of result.farFieldMonitors) {
    const shape = [m.wavelengthsM.length, m.thetaDeg.length, m.phiDeg.length];
    for (const d of farFieldDatasets(m)) add(`/monitors/${m.name}/${d.name}`, shape, d.data);
  }
  for (const m of result.modeMonitors ?? []) {
    for (const d of modeDatasets(m)) add(`/monitors/${m.name}/${d.name}`, d.shape, d.data);
  }
  for (const d of result.sMatrix ? sMatrixDatasets(result.sMatrix) : []) {
    add(`/s_matrix/${d.name}`, d.shape, d.data);
  }
  for (const p of result.permittivity ?? []) {
    for (const d of permittivityDatasets(p))
      add(`/permittivity/${p.name}/${d.name}`, d.shape, d.data);
  }
  return out;
}
