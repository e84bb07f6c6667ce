/**
 * The result file (DESIGN §6), written with h5wasm. Layout:
 *   /                      attrs format, format_version, job_id, solver_version, units, created_at
 *   /simulation            attr request_json (the request with defaults filled in)
 *   /grid                  datasets x, y, z (cell coordinates, m); attrs dt (s), grid_step (m)
 *   /solver                attrs of the run report (steps_run, converged, …, mcells_per_second)
 *   /materials/<name>      attrs permittivity_real/imag, conductivity, model, reference, valid range
 *   /monitors/<name>       attrs type, center, size, wavelengths, frequencies; datasets x, y, z
 *                          and one complex64 dataset per component, compound {r, i} (what h5py
 *                          reads as complex), shaped (nx, ny, nz), or (nw, nx, ny, nz) when the
 *                          monitor records several wavelengths.
 *   /monitors/<name>       (flux monitors) attrs type="flux", quantity, normal, area, center,
 *                          size, wavelengths, frequencies; datasets wavelengths, flux,
 *                          incident_intensity, and for a box scattering/absorption/extinction
 *                          cross-sections (m²); x, y, z: the cells the surface spans.
 * Whole-number JS attributes would become int32 and overflow silently, so every numeric
 * attribute is written with an explicit dtype.
 */
import h5wasm from "h5wasm/node";
import type { SolverResult } from "../solver/types.js";

export const RESULT_FORMAT = "emsim-result";
export const RESULT_FORMAT_VERSION = 1;

type H5Group = InstanceType<typeof h5wasm.Group>;

function f64(group: H5Group, name: string, value: number | number[]): void {
  const data = Array.isArray(value) ? new Float64Array(value) : new Float64Array([value]);
  group.create_attribute(name, data, Array.isArray(value) ? [value.length] : null, "<d");
}

function i64(group: H5Group, name: string, value: number): void {
  group.create_attribute(name, BigInt64Array.from([BigInt(Math.round(value))]), null, "<q");
}

function str(group: H5Group, name: string, value: string): void {
  group.create_attribute(name, value);
}

/** Splits interleaved (re, im) float32 into the two columns h5wasm interleaves again. */
function complexColumns(interleaved: Float32Array): Map<string, Float32Array> {
  const n = interleaved.length / 2;
  const re = new Float32Array(n);
  const im = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    re[i] = interleaved[2 * i]!;
    im[i] = interleaved[2 * i + 1]!;
  }
  return new Map([
    ["r", re],
    ["i", im],
  ]);
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
  const file = new h5wasm.File(path, "w");
  try {
    str(file, "format", RESULT_FORMAT);
    i64(file, "format_version", RESULT_FORMAT_VERSION);
    str(file, "job_id", input.jobId);
    str(file, "solver_version", input.solverVersion);
    str(file, "units", "SI");
    str(file, "created_at", new Date().toISOString());

    const sim = file.create_group("simulation");
    str(sim, "request_json", input.specJson);

    const grid = file.create_group("grid");
    grid.create_dataset({ name: "x", data: result.grid.x });
    grid.create_dataset({ name: "y", data: result.grid.y });
    grid.create_dataset({ name: "z", data: result.grid.z });
    f64(grid, "dt", result.grid.dtSeconds);
    f64(grid, "grid_step", result.report.gridStepM);

    const r = result.report;
    const solver = file.create_group("solver");
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
    i64(solver, "threads", r.threads);
    i64(solver, "steps_per_sweep", r.stepsPerSweep);
    str(solver, "notes", r.notes.join("\n"));

    const materials = file.create_group("materials");
    for (const m of result.materials) {
      const g = materials.create_group(m.name);
      f64(g, "permittivity_real", m.permittivity[0]);
      f64(g, "permittivity_imag", m.permittivity[1]);
      f64(g, "conductivity", m.conductivitySPerM);
      str(g, "model", m.model);
      str(g, "reference", m.reference);
      f64(g, "valid_range", m.validRangeM);
    }

    const monitors = file.create_group("monitors");
    for (const m of result.monitors) {
      const g = monitors.create_group(m.name);
      str(g, "type", "field");
      f64(g, "center", m.center);
      f64(g, "size", m.size);
      f64(g, "wavelengths", m.wavelengthsM);
      f64(g, "frequencies", m.frequenciesHz);
      g.create_dataset({ name: "x", data: m.x });
      g.create_dataset({ name: "y", data: m.y });
      g.create_dataset({ name: "z", data: m.z });
      const [nw, nx, ny, nz] = m.shape;
      const shape = nw === 1 ? [nx, ny, nz] : [nw, nx, ny, nz];
      for (const [component, data] of Object.entries(m.data)) {
        if (!data) continue;
        g.create_dataset({
          name: component,
          data: complexColumns(data),
          shape,
          dtype: [
            ["r", "<f"],
            ["i", "<f"],
          ],
        });
      }
    }
    for (const m of result.fluxMonitors) {
      const g = monitors.create_group(m.name);
      str(g, "type", "flux");
      str(g, "quantity", m.quantity);
      if (m.normal) f64(g, "normal", m.normal);
      f64(g, "area", m.areaM2);
      f64(g, "center", m.center);
      f64(g, "size", m.size);
      f64(g, "wavelengths", m.wavelengthsM);
      f64(g, "frequencies", m.frequenciesHz);
      g.create_dataset({ name: "x", data: m.x });
      g.create_dataset({ name: "y", data: m.y });
      g.create_dataset({ name: "z", data: m.z });
      g.create_dataset({ name: "wavelengths", data: Float64Array.from(m.wavelengthsM) });
      g.create_dataset({ name: "flux", data: m.flux });
      g.create_dataset({ name: "incident_intensity", data: m.incidentIntensityWPerM2 });
      if (m.crossSections) {
        g.create_dataset({ name: "scattering_cross_section", data: m.crossSections.scattering });
        g.create_dataset({ name: "absorption_cross_section", data: m.crossSections.absorption });
        g.create_dataset({ name: "extinction_cross_section", data: m.crossSections.extinction });
      }
    }
  } finally {
    file.close();
  }
}
