/**
 * The kernel's flush of tiny values (flush.ts): a dipole's front spreading through a small
 * grid with an absorber on every face, and a plane wave's front crossing a glass cube (whose
 * leading values fall fastest), step by step. After a step that flushes, no stored field is at
 * or below the threshold except zero; between flushes values below it do appear (the kernel
 * really skips the flush there); and at no step is a float32 denormal stored.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FdtdSimulation } from "../simulation.js";
import { constantMaterials, glassCubeSpec } from "../testing/index.js";
import type { SimulationSpec } from "../types.js";
import { FLUSH_EVERY, flushBelow, flushesAt } from "./flush.js";

const STEP = 50e-9;
const SMALLEST_NORMAL = 1.1754943508222875e-38;

function dipole(): SimulationSpec {
  return {
    solver: "fdtd",
    domain: {
      size: [1.2e-6, 1.2e-6, 1.2e-6],
      resolution: STEP,
      boundary_conditions: ["pml", "pml", "pml"],
      pml_layers: 6,
    },
    source: {
      source_type: "point_dipole",
      wavelength: 1e-6,
      center: [0, 0, STEP / 2],
      polarization: "Ez",
      amplitude: 1e-12,
    },
    structures: [],
    monitors: [],
    fdtd_settings: {
      time_steps: 100,
      courant_factor: 0.99,
      convergence_threshold: 0,
      check_every_n: 100,
    },
  };
}

/** Per step: whether any stored value was denormal, and any nonzero value at or below `tiny`. */
async function survey(spec: SimulationSpec, stepsPerSweep: number, steps: number) {
  const sim = new FdtdSimulation(spec, constantMaterials({ glass: 2.25 }), {
    backend: "wasm",
    threads: 1,
    stepsPerSweep,
  });
  await sim.prepare();
  const tiny = Math.fround(flushBelow(sim.source.fieldScaleVPerM));
  const seen: { level: number; denormal: boolean; belowTiny: boolean }[] = [];
  try {
    while (sim.stepIndex < steps) {
      sim.step(steps);
      const level = sim.stepIndex;
      let denormal = false;
      let belowTiny = false;
      for (const set of await sim.fields()) {
        for (const c of set.c) {
          for (const v of c) {
            const a = Math.abs(v);
            if (a === 0) continue;
            if (a < SMALLEST_NORMAL) denormal = true;
            if (a <= tiny) belowTiny = true;
          }
        }
      }
      seen.push({ level, denormal, belowTiny });
    }
  } finally {
    sim.dispose();
  }
  return seen;
}

describe("flush of tiny values", () => {
  for (const stepsPerSweep of [1, FLUSH_EVERY]) {
    it(`flushes once every ${FLUSH_EVERY} steps and never stores a denormal (${stepsPerSweep} steps a sweep)`, async () => {
      const seen = await survey(dipole(), stepsPerSweep, 48);
      const flushed = seen.filter((s) => flushesAt(s.level) === 1);
      assert.ok(
        flushed.length >= 48 / FLUSH_EVERY / stepsPerSweep,
        "flushing steps were looked at",
      );
      for (const s of flushed)
        assert.equal(s.belowTiny, false, `tiny values left after step ${s.level}`);
      if (stepsPerSweep === 1) {
        assert.ok(
          seen.some((s) => flushesAt(s.level) === 0 && s.belowTiny),
          "between flushes the kernel keeps tiny values (it skips the flush there)",
        );
      }
      for (const s of seen) assert.equal(s.denormal, false, `a denormal stored at step ${s.level}`);
    });
  }

  it("stores no denormal while a plane wave's front crosses a grid (2 steps a sweep)", async () => {
    const seen = await survey(glassCubeSpec(40, STEP, 100), 2, 100);
    for (const s of seen) assert.equal(s.denormal, false, `a denormal stored at step ${s.level}`);
  });
});
