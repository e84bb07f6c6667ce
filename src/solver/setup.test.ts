/**
 * Set-up of a run with many structures on a large grid: painting reports progress and can be
 * cancelled between its slices (run.ts, medium.ts buildMediumSliced), and the sliced painting
 * gives the same medium as the straight one.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyDefaults } from "../schema/validate.js";
import type { SimulationRequest } from "../schema/simulation.js";
import { domainFaces, shapeOf } from "./geometry.js";
import { YeeLayout, planGrid } from "./grid.js";
import { runSimulation } from "./index.js";
import { buildMedium, buildMediumSliced } from "./medium.js";
import type { SolverProgress } from "./types.js";

/** An n³ grid (PML included) with a 10 × 10 × 10 lattice of Si3N4 spheres. */
function sphereLattice(n: number, radiusOfPitch: number): SimulationRequest {
  const h = 20e-9;
  const pml = 12;
  const L = (n - 2 * pml) * h;
  const pitch = L / 10;
  const structures: SimulationRequest["structures"] = [];
  for (let i = 0; i < 10; i++) {
    for (let j = 0; j < 10; j++) {
      for (let k = 0; k < 10; k++) {
        const at = (m: number) => -L / 2 + (m + 0.5) * pitch;
        structures.push({
          type: "sphere",
          center: [at(i), at(j), at(k)],
          radius: radiusOfPitch * pitch,
          material: "Si3N4",
        });
      }
    }
  }
  return {
    solver: "fdtd",
    domain: {
      size: [L, L, L],
      resolution: h,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: pml,
    },
    source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [0, 0, 1] },
    structures,
    monitors: [],
    fdtd_settings: { time_steps: 100 },
  };
}

test("a run cancelled while it paints 1 000 structures stops within a slice, with set-up progress", async () => {
  const spec = applyDefaults(sphereLattice(200, 0.45));
  const abort = new AbortController();
  const seen: SolverProgress[] = [];
  let abortedAt = 0;
  const run = runSimulation(spec, {
    signal: abort.signal,
    threads: 1,
    onProgress: (p) => {
      seen.push(p);
      // Cancel once painting has visibly started.
      if (p.phase === "setup" && p.setupFraction > 0 && !abortedAt) {
        abortedAt = performance.now();
        abort.abort();
      }
    },
  });
  await assert.rejects(run, (err: Error) => err.name === "AbortError");
  const stoppedAfterMs = performance.now() - abortedAt;
  assert.ok(abortedAt > 0, "no set-up progress with a fraction above 0 was reported");
  // Slices are 50 ms; allow for a loaded machine, but not for the rest of the painting.
  assert.ok(stoppedAfterMs < 400, `stopped ${stoppedAfterMs.toFixed(0)} ms after the abort`);
  assert.equal(seen[0]?.phase, "setup");
  assert.equal(seen[0]?.setupFraction, 0);
  assert.ok(seen.every((p) => p.phase === "setup" && p.step === 0));
  const fractions = seen.map((p) => p.setupFraction);
  assert.deepEqual(
    fractions,
    [...fractions].sort((a, b) => a - b),
  );
  assert.ok(fractions.at(-1)! < 1, `painting finished (${fractions.at(-1)}) before the abort`);
  // What was left of the painting at the abort would have taken far longer than stopping did.
  const plan = planGrid(spec.domain, spec.fdtd_settings.courant_factor);
  const layout = new YeeLayout(
    [plan.axes[0].cells, plan.axes[1].cells, plan.axes[2].cells],
    [plan.axes[0].boundary, plan.axes[1].boundary, plan.axes[2].boundary],
  );
  const faces = domainFaces(plan);
  const structures = spec.structures.map((s) => ({
    shape: shapeOf(s, faces),
    material: { epsRe: 4, sigma: 0 },
  }));
  const paintStart = performance.now();
  buildMedium(plan, layout, { epsRe: 1, sigma: 0 }, structures);
  const remainingMs = (performance.now() - paintStart) * (1 - fractions.at(-1)!);
  assert.ok(
    stoppedAfterMs < remainingMs / 2,
    `stopping took ${stoppedAfterMs.toFixed(0)} ms; the rest of the painting ${remainingMs.toFixed(0)} ms`,
  );
});

test("sliced painting gives the straight painting's medium and reports rising fractions", async () => {
  const spec = applyDefaults(sphereLattice(60, 0.4));
  const plan = planGrid(spec.domain, spec.fdtd_settings.courant_factor);
  const layout = new YeeLayout(
    [plan.axes[0].cells, plan.axes[1].cells, plan.axes[2].cells],
    [plan.axes[0].boundary, plan.axes[1].boundary, plan.axes[2].boundary],
  );
  const faces = domainFaces(plan);
  const structures = spec.structures.map((s, i) => ({
    shape: shapeOf(s, faces),
    material: { epsRe: 2 + (i % 3), sigma: 0 },
  }));
  const background = { epsRe: 1, sigma: 0 };
  const straight = buildMedium(plan, layout, background, structures);
  const fractions: number[] = [];
  const sliced = await buildMediumSliced(plan, layout, background, structures, true, {
    sliceMs: 0,
    checkpoint: (f) => {
      fractions.push(f);
      return Promise.resolve();
    },
  });
  assert.deepEqual(sliced.index, straight.index);
  assert.deepEqual(sliced.ca, straight.ca);
  assert.deepEqual(sliced.cb, straight.cb);
  assert.ok(fractions.length > 100);
  assert.ok(fractions.every((f, i) => f > 0 && f <= 1 && (i === 0 || f >= fractions[i - 1])));
  // Some interface cells were tabulated (not only pure materials).
  assert.ok(straight.ca.length > 4);
});
