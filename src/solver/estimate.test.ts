/**
 * The expected number of time steps of a run (estimate.ts expectedSteps): all of them without a
 * convergence threshold; with one, a rule of thumb checked here against a real run of the
 * README's strip waveguide, which must converge within a factor 1.5 of the expectation.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { applyDefaults } from "../schema/validate.js";
import type { SimulationRequest } from "../schema/simulation.js";
import { estimateRun } from "./estimate.js";
import { runSimulation } from "./index.js";
import { vacuumColumnRequest } from "./testing/index.js";

const strip = JSON.parse(
  readFileSync(new URL("../../examples/si-strip-waveguide.json", import.meta.url), "utf8"),
) as SimulationRequest;

test("without a convergence threshold every time step is expected", () => {
  const spec = applyDefaults({
    ...strip,
    fdtd_settings: { ...strip.fdtd_settings, convergence_threshold: 0 },
  });
  assert.equal(estimateRun(spec).expectedSteps, 20000);
});

test("with one: whole checks, at most time_steps, longer for longer grids and denser structures", () => {
  const spec = applyDefaults(strip);
  const e = estimateRun(spec);
  assert.equal(e.expectedSteps % 500, 0);
  assert.ok(e.expectedSteps > 0 && e.expectedSteps < 20000, String(e.expectedSteps));
  const longer = applyDefaults({
    ...strip,
    domain: { ...strip.domain, size: [3e-6, 0.025e-6, 6e-6] },
  });
  assert.ok(estimateRun(longer).expectedSteps > e.expectedSteps);
  const vacuum = applyDefaults({ ...strip, structures: [] });
  assert.ok(estimateRun(vacuum).expectedSteps < e.expectedSteps);
  const short = applyDefaults({
    ...strip,
    fdtd_settings: { ...strip.fdtd_settings, time_steps: 1000 },
  });
  assert.equal(estimateRun(short).expectedSteps, 1000);
});

test("the README's strip waveguide converges within a factor 1.5 of the expected step", async () => {
  const spec = applyDefaults(strip);
  const expected = estimateRun(spec).expectedSteps;
  const result = await runSimulation(spec, { threads: 1 });
  const converged = result.report.convergedAtStep;
  assert.ok(converged !== null, "the example did not converge");
  const ratio = converged / expected;
  assert.ok(ratio > 1 / 1.5 && ratio < 1.5, `converged at ${converged}, expected ${expected}`);
});

test("a short column is expected to run until its pulse is in, where it converges (issue #26)", async () => {
  const spec = applyDefaults(vacuumColumnRequest(200000) as SimulationRequest);
  const expected = estimateRun(spec).expectedSteps;
  const result = await runSimulation(spec, { threads: 1 });
  assert.equal(result.report.convergedAtStep, expected);
});

test("a grid the wasm backend stores relabelled counts its cell map, 4 B a padded cell", () => {
  const dipoleIn = (size: [number, number, number]) =>
    applyDefaults({
      solver: "fdtd",
      domain: { size, resolution: 40e-9, boundary_conditions: ["pml", "pml", "pml"] },
      source: {
        source_type: "point_dipole",
        wavelength: 1.55e-6,
        center: [0, 0, 0],
        polarization: "Ez",
      },
      structures: [],
      monitors: [],
    });
  // The same grid longest along x (stored with x as rows: wasm/relabel.ts) and along z (not).
  const alongX = dipoleIn([2e-6, 1.2e-6, 0.8e-6]);
  const alongZ = dipoleIn([0.8e-6, 1.2e-6, 2e-6]);
  const x = estimateRun(alongX, "wasm");
  const z = estimateRun(alongZ, "wasm");
  assert.deepEqual(x.grid, [...z.grid].reverse());
  const padded = x.grid.reduce((n, c) => n * (c + 2), 1);
  assert.equal(x.memoryBytes - z.memoryBytes, 4 * padded);
  // The reference backend keeps the grid as it is.
  assert.equal(
    estimateRun(alongX, "reference").memoryBytes,
    estimateRun(alongZ, "reference").memoryBytes,
  );
});
