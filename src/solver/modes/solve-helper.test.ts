/**
 * The mode-solve helper thread (solve-helper.ts): a plane's wavelengths split between the
 * calling thread and the helper give the modes one thread gives (same n_eff to 1e-10, the same
 * fields up to round-off, tracked into the same order, group index included), and a helper
 * that cannot answer costs no answer: the caller gets null and solves those itself.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planeWeights } from "./fields.js";
import { stripCase } from "./slab-case.js";
import { chainTask, solveOnHelper } from "./solve-helper.js";
import { GROUP_DL, HELPER_MIN_WORK, modeOverlap, solveModes } from "./solve.js";

// 40 × 30 cells × 17 wavelengths: enough work for the split (solve.ts HELPER_MIN_WORK).
const plane = stripCase({
  core: 3.4757 ** 2,
  clad: 1.444 ** 2,
  widthM: 0.5e-6,
  heightM: 0.22e-6,
  nu: 40,
  nv: 30,
  stepM: 40e-9,
});
const wavelengths = Array.from({ length: 17 }, (_, i) => 1.5e-6 + i * 0.00625e-6);

function solve(threads: number) {
  return solveModes(
    {
      axes: plane.axes,
      planeEps: plane.eps,
      wavelengths_m: wavelengths,
      mode_spec: { num_modes: 2 },
      groupIndex: true,
      threads,
    },
    null,
  ).modes;
}

describe("mode solves on a helper thread", () => {
  it("give the modes one thread gives, in the same order, at every wavelength", () => {
    assert.ok(40 * 30 * wavelengths.length >= HELPER_MIN_WORK, "the case must be split");
    const one = solve(1);
    const two = solve(2);
    const weights = planeWeights(plane.axes);
    for (let w = 0; w < wavelengths.length; w++) {
      for (let m = 0; m < 2; m++) {
        const [a, b] = [one[w]![m]!, two[w]![m]!];
        assert.ok(Math.abs(a.n_eff - b.n_eff) < 1e-10, `λ ${w} mode ${m}: ${a.n_eff} ${b.n_eff}`);
        assert.ok(Math.abs(a.group_index! - b.group_index!) < 1e-8, `group index at λ ${w}`);
        assert.equal(b.mode_index, m);
        const overlap = modeOverlap(a.fields, b.fields, weights);
        assert.ok(Math.abs(overlap - 1) < 1e-8, `λ ${w} mode ${m}: overlap ${overlap}`);
      }
    }
    // The two modes differ (TE0 and TM0), so the order was tracked, not luck.
    assert.ok(Math.abs(one[8]![0]!.te_fraction - one[8]![1]!.te_fraction) > 0.5);
  });

  it("answers null when it cannot solve a task, so that the caller solves it", () => {
    const input = { axes: plane.axes, planeEps: plane.eps, wavelengths_m: [1.55e-6] };
    const task = chainTask(input, [1.55e-6], () => plane.eps, GROUP_DL);
    task.eps = []; // the helper finds no permittivity and answers with an error
    assert.equal(solveOnHelper(task).wait(), null);
    const good = chainTask(input, [1.55e-6], () => plane.eps, GROUP_DL);
    const planes = solveOnHelper(good).wait();
    assert.ok(planes && planes.length === 1 && planes[0]!.modes[0]!.n_eff > 2);
  });

  it("answers null when it does not answer in time", () => {
    const input = { axes: plane.axes, planeEps: plane.eps, wavelengths_m: wavelengths };
    const task = chainTask(input, wavelengths, () => plane.eps, GROUP_DL);
    assert.equal(solveOnHelper(task, 0).wait(), null);
  });
});
