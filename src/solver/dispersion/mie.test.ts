/**
 * Spheres in 3-D against the Mie series (testing/mie-case.ts; the validation script
 * scripts/validation/mie.ts runs the same cases on finer grids, docs/validation.md): one run
 * over a band each, efficiencies from a flux box around the sphere.
 *  - A dielectric sphere (n = 2, size parameter 1–2.5) at 20 nm cells: Q_ext within 4 % at
 *    every wavelength, and within 2 % (the goal) when a mesh override refines the grid to
 *    10 nm over the sphere (a graded grid).
 *  - A 100 nm gold sphere (the library's Au, stepped with its poles) at 5 nm cells, a 10 nm
 *    grid refined over it: the plasmon peak's wavelength and height, and within 30 % of Mie
 *    off the resonance. Metals are painted as a staircase (medium.ts, isMetal): a sphere of 10
 *    cells' radius, whose resonance's red flank is where it errs most (docs/validation.md has
 *    finer grids).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { forEachBackend } from "../testing/backends.js";
import { mieCase, type MieRow } from "../testing/mie-case.js";

/**
 * 3-D runs of half a million cells and more for thousands of steps: minutes each on the
 * single-threaded reference backend and on a software GPU adapter (docs/validation.md). The 3-D
 * sphere in flux.test.ts runs on every backend instead.
 */
const MIE_TOO_SLOW = {
  reference:
    "3-D Mie spheres: the 20 nm dielectric case alone takes 138 s on the reference backend " +
    "here (docs/validation.md)",
  webgpu:
    "3-D Mie spheres: the 20 nm dielectric case alone takes 381 s on the software adapter " +
    "here (docs/validation.md)",
};

const worst = (rows: MieRow[], pick: (r: MieRow) => [number, number]) =>
  Math.max(...rows.map((r) => Math.abs(pick(r)[0] / pick(r)[1] - 1)));
const table = (rows: MieRow[]) =>
  rows
    .map(
      (r) =>
        `${(r.wavelengthM * 1e6).toFixed(3)} µm: Qext ${r.qExt.toFixed(4)} (${r.mie.qExt.toFixed(4)}) ` +
        `Qabs ${r.qAbs.toFixed(4)} (${r.mie.qAbs.toFixed(4)})`,
    )
    .join("\n");

describe("spheres against the Mie series", () => {
  forEachBackend((backend) => {
    it("dielectric sphere, n = 2, x = 1–2.5: Q_ext within 4 % at 20 nm cells, within 2 % refined to 10 nm over the sphere", async (t) => {
      const coarse = await mieCase("dielectric-small", 20e-9, backend);
      const coarseError = worst(coarse, (r) => [r.qExt, r.mie.qExt]);
      assert.ok(coarseError <= 0.04, `worst ${coarseError}\n${table(coarse)}`);
      for (const r of coarse)
        assert.ok(Math.abs(r.qAbs) < 1e-3 * r.qSca, "a lossless sphere absorbs");
      // Refined to 10 nm over the sphere by a mesh override (graded between), which gives the
      // uniform 10 nm grid's answer within 0.2 % at about half its cells (npm run
      // bench:graded compares the two; running both here would cost the suite 45 s more).
      const fine = await mieCase("dielectric-small", 10e-9, backend, 20e-9);
      const fineError = worst(fine, (r) => [r.qExt, r.mie.qExt]);
      t.diagnostic(
        `worst Q_ext error: ${(100 * coarseError).toFixed(2)} % at 20 nm, ` +
          `${(100 * fineError).toFixed(2)} % refined to 10 nm over the sphere`,
      );
      assert.ok(fineError < 0.7 * coarseError, `10 nm: ${fineError}, 20 nm: ${coarseError}`);
      assert.ok(fineError <= 0.02, `10 nm over the sphere: ${fineError}\n${table(fine)}`);
    });

    it("100 nm gold sphere, 0.45–1.0 µm at 5 nm cells (a 10 nm grid refined over the sphere): the plasmon peak where Mie has it, and within 30 % of Mie away from it", async (t) => {
      const rows = await mieCase("gold", 5e-9, backend, 10e-9);
      const peak = rows.reduce((a, b) => (b.qExt > a.qExt ? b : a));
      const miePeak = rows.reduce((a, b) => (b.mie.qExt > a.mie.qExt ? b : a));
      assert.ok(
        Math.abs(peak.wavelengthM - miePeak.wavelengthM) <= 0.05e-6,
        `peak at ${peak.wavelengthM}, Mie's at ${miePeak.wavelengthM}\n${table(rows)}`,
      );
      t.diagnostic(
        `peak Q_ext ${peak.qExt.toFixed(3)} at ${(peak.wavelengthM * 1e6).toFixed(2)} µm; ` +
          `Mie ${miePeak.mie.qExt.toFixed(3)} at ${(miePeak.wavelengthM * 1e6).toFixed(2)} µm`,
      );
      assert.ok(Math.abs(peak.qExt / miePeak.mie.qExt - 1) <= 0.15, table(rows));
      // Off the resonance (its red flank moves with the staircase sphere's shape).
      const off = rows.filter((r) => r.wavelengthM >= 0.7e-6 - 1e-12);
      for (const [name, pick] of [
        ["Q_ext", (r: MieRow) => [r.qExt, r.mie.qExt]],
        ["Q_sca", (r: MieRow) => [r.qSca, r.mie.qSca]],
        ["Q_abs", (r: MieRow) => [r.qAbs, r.mie.qAbs]],
      ] as const) {
        const error = worst(off, pick as (r: MieRow) => [number, number]);
        t.diagnostic(`${name} worst error from 0.7 µm: ${(100 * error).toFixed(1)} %`);
        assert.ok(error <= 0.3, `${name} worst ${error}\n${table(rows)}`);
      }
    });
  }, MIE_TOO_SLOW);
});
