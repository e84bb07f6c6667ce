/**
 * The run-time model for estimates: its prior gives small and large grids the rates measured
 * here, it learns a machine's per-step and per-cell costs from completed runs, and it ignores
 * runs it cannot learn from.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { RunTimeModel } from "./timing.js";

test("before any run: a thin cross-section steps at about 300 Mcell/s, a 256³ grid at 700", () => {
  const model = new RunTimeModel();
  const small = model.mcellsPerSecond(2e4);
  const large = model.mcellsPerSecond(256 ** 3);
  assert.ok(small > 200 && small < 500, `small ${small}`);
  assert.ok(large > 500 && large < 900, `large ${large}`);
  // Set-up plus steps: a 4 500-step cross-section takes about half a second.
  const seconds = model.seconds(2e4, 4500);
  assert.ok(seconds > 0.3 && seconds < 0.8, `${seconds}`);
  // Set-up grows with the grid: a 250³ grid's is several times a small one's.
  assert.ok(model.setupSeconds(250 ** 3) > 3 * model.setupSeconds(2e4));
});

test("set-up is learned apart from its part that grows with the grid", () => {
  const model = new RunTimeModel();
  for (let i = 0; i < 20; i++) {
    model.observe({ cells: 1e5, steps: 1000, steppingSeconds: 0.5, setupSeconds: 2 });
  }
  // Mostly the fixed part now: about 2 s for a small grid, more for a large one.
  assert.ok(Math.abs(model.setupSeconds(1e5) - 2) < 0.05, String(model.setupSeconds(1e5)));
  assert.ok(model.setupSeconds(1e7) > model.setupSeconds(1e5) + 0.2);
});

test("learns another machine's costs from completed runs of several sizes", () => {
  // A machine three times slower per step and twice as slow per cell, with 1 s more set-up.
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
        setupSeconds: 1 + 4e-8 * cells,
      });
    }
  }
  for (const cells of [2e4, 1e6, 3.4e6]) {
    const truth = 1 + 4e-8 * cells + 5000 * (perStep + perCell * cells);
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

test("surface cells slow the step as measured here, and runs with them teach the same cell cost", () => {
  const model = new RunTimeModel();
  // 160³ with a lattice of 1 000 spheres (9.4e5 surface cells): 1.19–1.27 times the empty
  // grid's kernel time, two threads (docs/benchmarks.md, "Grids full of interfaces").
  const cells = 160 ** 3;
  const ratio = model.mcellsPerSecond(cells) / model.mcellsPerSecond(cells, 9.4e5);
  assert.ok(ratio > 1.15 && ratio < 1.35, `empty ÷ spheres rate ${ratio}`);
  // Painting them is part of set-up: about a second more.
  const extra = model.setupSeconds(cells, 9.4e5) - model.setupSeconds(cells);
  assert.ok(extra > 0.3 && extra < 1.5, `painting ${extra} s`);
  // A machine learned from lattices predicts plain grids, and the other way round.
  const perCell = 4e-9;
  const truth = (c: number, s: number) => 2000 * 1e-4 + 2000 * perCell * (c + 1.2 * s);
  for (let round = 0; round < 3; round++) {
    for (const [c, s] of [
      [1e5, 5e4],
      [1e6, 4e5],
      [8e6, 2e6],
    ]) {
      model.observe({
        cells: c,
        surfaceCells: s,
        steps: 2000,
        steppingSeconds: truth(c, s),
        setupSeconds: 0.3,
      });
    }
  }
  for (const c of [3e5, 4e6]) {
    const predicted = model.seconds(c, 2000) - model.setupSeconds(c);
    assert.ok(Math.abs(predicted / truth(c, 0) - 1) < 0.1, `${c}: ${predicted} vs ${truth(c, 0)}`);
  }
});

test("absorber cells slow the step, and a run's mode solves add to its set-up", () => {
  const model = new RunTimeModel();
  // The S-parameter benchmark's grid: 80 × 60 × 50, 70 % of it absorber.
  const cells = 80 * 60 * 50;
  const absorberCells = cells - 60 * 40 * 30;
  const plain = model.seconds(cells, 2500);
  const withAbsorber = model.seconds(cells, 2500, 0, { absorberCells });
  // 1 + 2.3 · 0.7 ≈ 2.6 times the stepping (measured 3×; the fixed per-step part is not).
  assert.ok(withAbsorber > 2 * plain, `${withAbsorber} against ${plain}`);
  // Eleven solves of a 60 × 50 port plane: about 0.07 s each on this host.
  const modeSolves = [{ cells: 3000, count: 11 }];
  const setup = model.setupSeconds(cells, 0, { modeSolves }) - model.setupSeconds(cells);
  assert.ok(setup > 0.5 && setup < 1.2, `${setup} s of mode solves`);
  // A run's mode solves are not taken for fixed set-up: the same runs teach the same fixed part.
  const a = new RunTimeModel();
  const b = new RunTimeModel();
  for (let i = 0; i < 10; i++) {
    const run = { cells, steps: 2500, steppingSeconds: 5, absorberCells };
    a.observe({ ...run, setupSeconds: 0.3 + setup, modeSolves });
    b.observe({ ...run, setupSeconds: 0.3 });
  }
  assert.ok(Math.abs(a.setupSeconds(cells) - b.setupSeconds(cells)) < 0.02);
  // Runs with absorbers teach a per-cell cost that predicts them back.
  const predicted = a.seconds(cells, 2500, 0, { absorberCells }) - a.setupSeconds(cells);
  assert.ok(Math.abs(predicted - 5) < 0.3, `${predicted} s of stepping predicted, 5 observed`);
});
