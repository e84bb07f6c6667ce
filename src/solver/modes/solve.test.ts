/**
 * Physics of the mode solver against analytic results:
 * - symmetric slab (ε 12, 0.3 µm, vacuum, 1.55 µm): TE0 3.018902, TM0 2.463427 from the
 *   dispersion relations (slab-dispersion.ts); within 1e-4 at 2.5 nm, errors falling 4× per
 *   halving of the step (second order);
 * - the TE slab mode's power: for E_u only, P = β/(2ωμ0)·∫|E_u|² dA, so 1 W fixes ∫|E_u|²;
 * - te_fraction 1 for TE, 0 for TM;
 * - a lossy core: Im(n_eff²) = Im ε·Γ (first order), Γ the core's share of ∫|E_u|²;
 * - group index from the energy velocity against a finite difference of n_eff in λ;
 * - a bent slab: radiation loss k_eff > 0, falling with radius; none when straight;
 * - a strip: TE/TM filter, a PEC mirror giving the same TE0, tracking across wavelengths.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MU0, SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import { modePower, planeWeights } from "./fields.js";
import { slabCase, stripCase } from "./slab-case.js";
import { slabModeIndex } from "./slab-dispersion.js";
import { modeOverlap, solveModes } from "./solve.js";

const LAMBDA = 1.55e-6;
const THICK = 0.3e-6;

function slabModes(stepM: number) {
  const c = slabCase({ core: { re: 12 }, clad: 1, thicknessM: THICK, halfM: 1.2e-6, stepM });
  const r = solveModes({
    axes: c.axes,
    planeEps: c.eps,
    wavelengths_m: [LAMBDA],
    mode_spec: { num_modes: 2 },
  });
  return { c, modes: r.modes[0] };
}

describe("mode solver physics", () => {
  it("matches the slab's TE0 and TM0 dispersion relations at second order", () => {
    const te = slabModeIndex("te", 0, Math.sqrt(12), 1, THICK, LAMBDA)!;
    const tm = slabModeIndex("tm", 0, Math.sqrt(12), 1, THICK, LAMBDA)!;
    assert.ok(Math.abs(te - 3.018902) < 1e-6 && Math.abs(tm - 2.463427) < 1e-6);
    const errors = [10e-9, 5e-9, 2.5e-9].map((h) => {
      const { modes } = slabModes(h);
      assert.ok(modes[0].te_fraction > 1 - 1e-9, "TE0 first, E along u");
      assert.ok(modes[1].te_fraction < 1e-9, "TM0 second, E along v");
      return [modes[0].n_eff - te, modes[1].n_eff - tm];
    });
    for (const e of errors[2]) assert.ok(Math.abs(e) < 1e-4, `error at 2.5 nm: ${e}`);
    for (const k of [0, 1]) {
      for (const r of [errors[0][k] / errors[1][k], errors[1][k] / errors[2][k]]) {
        assert.ok(r > 3.8 && r < 4.2, `convergence ratio ${r} (mode ${k})`);
      }
    }
  });

  it("normalises the TE slab mode to 1 W: ∫|E_u|² dA = 2ωμ0/β", () => {
    const { c, modes } = slabModes(5e-9);
    const w = planeWeights(c.axes);
    const f = modes[0].fields;
    assert.ok(Math.abs(modePower(f, w) - 1) < 1e-12);
    let e2 = 0;
    for (let k = 0; k < w.eu.length; k++) e2 += (f.Eu.re[k] ** 2 + f.Eu.im[k] ** 2) * w.eu[k];
    const omega = (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / LAMBDA;
    const beta = (2 * Math.PI * modes[0].n_eff) / LAMBDA;
    const expected = (2 * omega * MU0) / beta;
    assert.ok(Math.abs(e2 / expected - 1) < 1e-3, `∫|E|² ${e2} vs ${expected}`);
  });

  it("gives a lossy core k_eff > 0 as first-order perturbation predicts", () => {
    const c = slabCase({
      core: { re: 12, im: 0.05 },
      clad: 1,
      thicknessM: THICK,
      halfM: 1.2e-6,
      stepM: 5e-9,
    });
    const mode = solveModes({ axes: c.axes, planeEps: c.eps, wavelengths_m: [LAMBDA] }).modes[0][0];
    assert.ok(mode.k_eff > 0);
    const w = planeWeights(c.axes);
    let core = 0;
    let all = 0;
    for (let k = 0; k < w.eu.length; k++) {
      const e2 = (mode.fields.Eu.re[k] ** 2 + mode.fields.Eu.im[k] ** 2) * w.eu[k];
      all += e2;
      core += e2 * (c.eps.uu.im![k] / 0.05);
    }
    const predicted = (0.05 * core) / all;
    const imN2 = 2 * mode.n_eff * mode.k_eff;
    assert.ok(Math.abs(imN2 / predicted - 1) < 2e-3, `Im n² ${imN2} vs ${predicted}`);
  });

  it("gives the group index of the energy velocity, equal to −λ² d(n/λ)/dλ", () => {
    const c = slabCase({
      core: { re: 12 },
      clad: 1,
      thicknessM: THICK,
      halfM: 1.2e-6,
      stepM: 5e-9,
    });
    const dl = LAMBDA * 1e-3;
    const r = solveModes({
      axes: c.axes,
      planeEps: c.eps,
      wavelengths_m: [LAMBDA - dl, LAMBDA, LAMBDA + dl],
      mode_spec: { num_modes: 2 },
      groupIndex: true,
    });
    for (const k of [0, 1]) {
      const [lo, mid, hi] = r.modes.map((m) => m[k]);
      const fd = mid.n_eff - (LAMBDA * (hi.n_eff - lo.n_eff)) / (2 * dl);
      assert.ok(Math.abs(mid.group_index! - fd) < 1e-4, `n_g ${mid.group_index} vs ${fd}`);
      assert.ok(mid.group_index! > mid.n_eff, "normal waveguide dispersion");
    }
  });

  it("gives a bent slab radiation loss that falls with the radius", () => {
    const c = slabCase({
      core: { re: 1.8 ** 2 },
      clad: 1.45 ** 2,
      thicknessM: 0.4e-6,
      halfM: 3e-6,
      stepM: 10e-9,
      boundary: "pml",
      pmlCells: 40,
    });
    const loss = [0, 5e-6, 10e-6, 20e-6].map((radiusM) => {
      const modes = solveModes({
        axes: c.axes,
        planeEps: c.eps,
        wavelengths_m: [LAMBDA],
        mode_spec: { num_modes: 6, target_neff: 1.6 },
        bend: radiusM ? { radiusM, radialAxis: 1 } : undefined,
      }).modes[0];
      // The bend's TE mode: the TE-polarised one that loses least (the others are
      // radiation modes of the outer cladding, whose loss is of order 0.1).
      const te = modes.filter((m) => m.te_fraction > 0.5).sort((a, b) => a.k_eff - b.k_eff)[0];
      return te.k_eff;
    });
    assert.ok(Math.abs(loss[0]) < 1e-7, `straight guide loses ${loss[0]}`);
    assert.ok(loss[3] > 1e-6, `R = 20 µm: ${loss[3]}`);
    assert.ok(loss[1] > 3 * loss[2] && loss[2] > 10 * loss[3], `k_eff ${loss.slice(1)}`);
  });

  it("filters polarisation, keeps TE0 under a PEC mirror and tracks modes across λ", () => {
    const common = { core: 12, clad: 2.1, widthM: 0.5e-6, heightM: 0.22e-6, stepM: 20e-9 };
    const full = stripCase({ ...common, nu: 60, nv: 40 });
    const half = stripCase({ ...common, nu: 30, nv: 40, mirrorU: "pec" });
    const solve = (c: typeof full, filter: "te" | "tm" | null, wavelengths = [LAMBDA]) =>
      solveModes({
        axes: c.axes,
        planeEps: c.eps,
        wavelengths_m: wavelengths,
        mode_spec: { num_modes: 2, filter_pol: filter },
      }).modes;
    const te = solve(full, "te")[0][0];
    const tm = solve(full, "tm")[0][0];
    assert.ok(te.te_fraction > 0.8 && tm.te_fraction < 0.2, `${te.te_fraction} ${tm.te_fraction}`);
    assert.ok(te.n_eff > tm.n_eff);
    const mirrored = solve(half, "te")[0][0];
    assert.ok(Math.abs(mirrored.n_eff - te.n_eff) < 1e-9, `${mirrored.n_eff} vs ${te.n_eff}`);
    assert.ok(Math.abs(modePower(mirrored.fields, planeWeights(half.axes)) - 1) < 1e-12);
    const swept = solve(full, null, [1.5e-6, 1.55e-6, 1.6e-6]);
    const w = planeWeights(full.axes);
    for (let k = 1; k < swept.length; k++) {
      for (let m = 0; m < 2; m++) {
        const o = modeOverlap(swept[k - 1][m].fields, swept[k][m].fields, w);
        assert.ok(o > 0.9, `mode ${m} at λ${k}: overlap ${o}`);
        assert.ok(Math.abs(swept[k][m].te_fraction - swept[0][m].te_fraction) < 0.1);
      }
    }
  });
});
