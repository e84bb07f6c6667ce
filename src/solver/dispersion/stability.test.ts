/**
 * The von Neumann analysis (stability.ts) against what it predicts: the vacuum and dielectric
 * Courant limits, and a real grid of a dispersive medium stepped just below and just above the
 * predicted limit (every mode seeded), which must stay bounded and blow up respectively.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import { planGrid, YeeLayout } from "../grid.js";
import { referenceKernel } from "../kernel.js";
import { buildMedium } from "../medium.js";
import { buildGridModel, YeeGrid } from "../yee.js";
import { findOpticalMaterial, opticalMaterials } from "../materials.js";
import type { PoleModel } from "./model.js";
import { courantLimit, polynomialRoots } from "./stability.js";

const DX = 20e-9;
const omegaOfUm = (um: number) => (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / (um * 1e-6);

/** Energy growth of a periodic 6³ grid of the medium over `steps`, every mode seeded. */
function growth(model: PoleModel, courant: number, steps: number): number {
  const n = 6;
  const plan = planGrid(
    {
      size: [n * DX, n * DX, n * DX],
      resolution: DX,
      boundary_conditions: ["periodic", "periodic", "periodic"],
      pml_layers: 0,
    },
    courant,
  );
  const layout = new YeeLayout([n, n, n], ["periodic", "periodic", "periodic"]);
  const medium = buildMedium(
    plan,
    layout,
    { epsRe: model.epsInf, sigma: model.sigma, poles: model.poles },
    [],
  );
  const grid = new YeeGrid(buildGridModel(plan, layout, medium, { omega0: 1e15 }));
  let seed = 987;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5;
  for (let c = 3; c < 6; c++) {
    for (let i = 0; i < grid.re.c[c].length; i++) grid.re.c[c][i] = rand() / 377;
  }
  const step = () => {
    grid.updateH(referenceKernel);
    grid.fillGhostsH();
    grid.updateE(referenceKernel);
    grid.updatePolarization();
    grid.fillGhostsE();
  };
  for (let s = 0; s < 20; s++) step();
  const start = grid.energy();
  let end = start;
  for (let s = 0; s < steps; s++) {
    step();
    end = grid.energy();
    if (!Number.isFinite(end) || end > 1e6 * start) break;
  }
  return end / start;
}

describe("ADE stability analysis", () => {
  it("finds polynomial roots (z² − 3z + 2 and a complex pair)", () => {
    const roots = polynomialRoots([2, -3, 1])
      .map(([re]) => re)
      .sort();
    assert.ok(Math.abs(roots[0] - 1) < 1e-9 && Math.abs(roots[1] - 2) < 1e-9);
    const pair = polynomialRoots([5, -2, 1]); // z = 1 ± 2i
    for (const [re, im] of pair)
      assert.ok(Math.abs(re - 1) < 1e-9 && Math.abs(Math.abs(im) - 2) < 1e-9);
  });

  it("gives the Courant limit 1 in vacuum and n in a dielectric of index n", () => {
    const vacuum = courantLimit({ epsInf: 1, sigma: 0, poles: [] }, DX, 1.3);
    assert.equal(vacuum.stable, false);
    assert.ok(Math.abs(vacuum.largestStable - 1) <= 0.002, `${vacuum.largestStable}`);
    assert.equal(courantLimit({ epsInf: 1, sigma: 0, poles: [] }, DX, 0.99).stable, true);
    const glass = courantLimit({ epsInf: 4, sigma: 0, poles: [] }, DX, 2.5);
    assert.ok(Math.abs(glass.largestStable - 2) <= 0.002, `${glass.largestStable}`);
  });

  // Kept answers (courantLimit's cache) must be found by the model's values, not its object,
  // and a model differing in one pole, the step or the factor must get its own answer.
  it("keeps its answers per model, step and factor", () => {
    const lorentz = (deltaEps: number): PoleModel => ({
      epsInf: 1,
      sigma: 0,
      poles: [{ kind: "lorentz", deltaEps, omega0: omegaOfUm(0.3), gamma: 1e13 }],
    });
    const first = courantLimit(lorentz(1), DX, 0.99);
    assert.deepEqual(courantLimit(lorentz(1), DX, 0.99), first);
    // A gain pole (Δε < 0) is unstable at any factor: a cached answer for Δε = 1 would say stable.
    assert.deepEqual(courantLimit(lorentz(-1), DX, 0.99), { stable: false, largestStable: 0 });
    const glass = { epsInf: 4, sigma: 0, poles: [] };
    assert.equal(courantLimit(glass, DX, 1.9).stable, true);
    assert.equal(courantLimit(glass, DX, 2.1).stable, false);
    // The returned answer is the caller's: changing it does not change the kept one.
    const mine = courantLimit(glass, DX, 1.9);
    mine.stable = false;
    assert.equal(courantLimit(glass, DX, 1.9).stable, true);
  });

  it("the bilinear pole update keeps the Courant limit 1: a far-UV Lorentz pole and a Drude metal, on the grid too", () => {
    // ω0Δt ≈ 2.2 and ωpΔt ≈ 0.5 at S = 0.99: the explicit update would be unstable for both.
    const ev = 1.519267447e15;
    const models: PoleModel[] = [
      {
        epsInf: 1,
        sigma: 0,
        poles: [{ kind: "lorentz", deltaEps: 0.8, omega0: omegaOfUm(0.025), gamma: 0 }],
      },
      { epsInf: 1, sigma: 0, poles: [{ kind: "drude", omegaP: 9 * ev, gamma: 0.07 * ev }] },
    ];
    for (const model of models) {
      assert.equal(courantLimit(model, DX, 0.99).stable, true);
      assert.ok(growth(model, 0.99, 3000) < 10);
    }
  });

  it("every library material is stable up to courant_factor 1 (docs/materials.md), on the grid too", () => {
    // At exactly 1 a medium with ε∞ = 1 (every Rakić metal) has the grid's fastest mode as a
    // double root on the unit circle, which a root finder splits by about 1e-8: that was
    // taken for growth, and Au, Ag, Cu and Al were refused at courant_factor 1.
    for (const e of opticalMaterials()) {
      for (const dx of [1e-9, DX]) {
        for (const s of [0.99, 1]) {
          assert.equal(
            courantLimit(e.dispersion, dx, s).stable,
            true,
            `${e.name} at ${dx} m, S ${s}`,
          );
        }
      }
    }
    // On the grid: at exactly 1 the grid's fastest (corner) mode is marginal — a double root at
    // z = −1, whose seeded amplitude grows linearly — in vacuum as in these media; just below 1
    // nothing grows.
    const vacuum = growth({ epsInf: 1, sigma: 0, poles: [] }, 1, 3000);
    assert.ok(vacuum > 100, `the seeded corner mode grows in vacuum at S = 1 (${vacuum})`);
    for (const name of ["Au", "TiN"]) {
      const model = findOpticalMaterial(name)!.dispersion;
      assert.ok(growth(model, 1, 3000) < 1.5 * vacuum, name);
      assert.ok(growth(model, 0.999, 3000) < 10, name);
    }
  });

  it("ε∞ below 1 lowers the limit, and the grid agrees just below and above it", () => {
    const model: PoleModel = {
      epsInf: 0.6,
      sigma: 0,
      poles: [{ kind: "lorentz", deltaEps: 1, omega0: omegaOfUm(0.3), gamma: 1e14 }],
    };
    const limit = courantLimit(model, DX, 0.99);
    assert.equal(limit.stable, false);
    // About √ε∞, the limit of the instantaneous part.
    assert.ok(Math.abs(limit.largestStable - Math.sqrt(0.6)) < 0.03, `${limit.largestStable}`);
    assert.ok(growth(model, limit.largestStable - 0.01, 3000) < 10);
    assert.ok(growth(model, Math.min(0.99, limit.largestStable + 0.03), 3000) > 1e3);
  });

  it("a gain pole (Δε < 0) is unstable at any Courant factor", () => {
    const model: PoleModel = {
      epsInf: 2,
      sigma: 0,
      poles: [{ kind: "lorentz", deltaEps: -0.5, omega0: omegaOfUm(1), gamma: 1e14 }],
    };
    assert.deepEqual(courantLimit(model, DX, 0.99), { stable: false, largestStable: 0 });
  });
});
