/** A job's set-up in words (job-setup.ts), as the dashboard and `emsim inspect` show it. */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { SimulationSpec } from "../solver/types.js";
import { gridStepText, jobSetupRows } from "./job-setup.js";

function spec(): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size: [0.05e-6, 0.05e-6, 3e-6],
      resolution: 5e-8,
      boundary_conditions: ["periodic", "periodic", "pml"],
      pml_layers: 12,
      mesh_overrides: [
        { center: [0, 0, 5e-7], size: [0, 0, 6e-7], resolution: [5e-8, 5e-8, 1e-8] },
        { center: [0, 0, 1e-6], size: [0, 0, 1e-7], resolution: 2e-8 },
      ],
    },
    source: {
      source_type: "plane_wave",
      wavelength: 1.55e-6,
      polarization: "te",
      direction: [0, 0, 1],
      amplitude: 1,
    },
    structures: [
      { type: "box", center: [0, 0, 5e-7], size: [5e-8, 5e-8, 5e-7], material: "SiO2" },
      { type: "sphere", center: [0, 0, 0], radius: 1e-8, material: "Au" },
      { type: "sphere", center: [0, 0, 1e-7], radius: 1e-8, material: "Au" },
    ],
    monitors: [
      {
        name: "line",
        monitor_type: "field",
        center: [0, 0, 0],
        size: [0, 0, 2e-6],
        components: ["Ex", "Ey"],
      },
      { name: "T", monitor_type: "flux", center: [0, 0, 1.2e-6], size: [5e-8, 5e-8, 0] },
      { name: "box", monitor_type: "flux", center: [0, 0, 0], size: [1e-7, 1e-7, 1e-7] },
    ],
    fdtd_settings: {
      time_steps: 3000,
      courant_factor: 0.99,
      convergence_threshold: 1e-4,
      check_every_n: 200,
    },
  };
}

test("the set-up's rows: sizes in µm, steps in nm, alike structures counted", () => {
  assert.deepEqual(
    jobSetupRows(spec()).map((r) => [r.label, r.value]),
    [
      ["Domain", "0.05 × 0.05 × 3 µm"],
      ["Grid step", "50 nm, refined to 10 nm by 2 mesh overrides"],
      ["Boundaries (x, y, z)", "periodic, periodic, pml, 12 PML layers"],
      ["Source", "plane wave, λ = 1.55 µm, TE, direction (0, 0, 1), amplitude 1 V/m"],
      ["Structures", "box (SiO2), 2 × sphere (Au)"],
      ["Monitors", "line (line; Ex Ey), T (flux plane), box (flux box)"],
      [
        "Time steps",
        "at most 3,000, until the monitors change by less than 1e-4 (checked every 200 steps)",
      ],
    ],
  );
});

test("a uniform grid is one step; mirror symmetry and no convergence check are said", () => {
  const s = spec();
  s.domain.mesh_overrides = [];
  s.domain.symmetry = ["pec", "none", "none"];
  s.fdtd_settings.convergence_threshold = 0;
  const rows = Object.fromEntries(jobSetupRows(s).map((r) => [r.key, r.value]));
  assert.equal(rows.grid_step, "50 nm");
  assert.equal(rows.symmetry, "pec, none, none");
  assert.equal(rows.time_steps, "at most 3,000, no convergence check");
  assert.equal(gridStepText({ ...s.domain, mesh_overrides: undefined }), "50 nm");
});
