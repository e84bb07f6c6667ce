/**
 * The run-time model for estimates: its prior gives small and large grids the rates measured
 * here, it learns a machine's per-step and per-cell costs from completed runs, and it ignores
 * runs it cannot learn from.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { RunTimeModel } from "./timing.js";

test("before any run: a thin cross-section steps at tens of Mcell/s, a 256³ grid at hundreds", () => {
  const model = new RunTimeModel();
  const small = model.mcellsPerSecond(2e4);
  const large = model.mcellsPerSecond(256 ** 3);
  assert.ok(small > 30 && small < 80, `small ${small}`);
  assert.ok(large > 500 && large < 800, `large ${large}`);
  // Set-up plus steps: a 4 500-step cross-section takes seconds, not a fraction of one.
  const seconds = model.seconds(2e4, 4500);
  assert.ok(seconds > 1.5 && seconds < 3, `${seconds}`);
});

test("learns another machine's costs from completed runs of several sizes", () => {
  // A machine three times slower per step and twice as slow per cell, with 1 s of set-up.
  const perStep = 1.2e-3;
  const perCell = 3e-9;
  const model = new RunTimeModel();
  for (let round = 0; round < 4; round++) {
    for (const cells of [1e4, 5e4, 3e5, 2e6, 1e7]) {
      const steps = 2000;
      model.observe({
        cells,
        steps,
        steppingSeconds: steps * (perStep + perCell * cells),
        setupSeconds: 1,
      });
    }
  }
  for (const cells of [2e4, 1e6, 3.4e6]) {
    const truth = 1 + 5000 * (perStep + perCell * cells);
    const predicted = model.seconds(cells, 5000);
    assert.ok(Math.abs(predicted / truth - 1) < 0.1, `${cells} cells: ${predicted} vs ${truth}`);
  }
});

test("ignores runs with no steps, no time or non-finite figures", () => {
  const model = new RunTimeModel();
  const before = model.seconds(1e5, 1000);
  model.observe({ cells: 1e5, steps: 0, steppingSeconds: 1, setupSeconds: 0 });
  model.observe({ cells: 1e5, steps: 100, steppingSeconds: 0, setupSeconds: 0 });
  model.observe({ cells: 1e5, steps: 100, steppingSeconds: Number.NaN, setupSeconds: 0 });
  assert.equal(model.seconds(1e5, 1000), before);
});
