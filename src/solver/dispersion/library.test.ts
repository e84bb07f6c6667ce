/**
 * The library's stored pole models are reproducible: re-running each least-squares fit gives
 * the same ε(λ) and error; and a fit recovers a model it can represent exactly.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import { MATERIALS, UnknownMaterialError, findMaterial, refractiveIndexAt } from "../materials.js";
import { fitLorentzModel, lorentzModel, maxIndexError } from "./fit.js";
import { LIBRARY_FITS, poleModelOf } from "./library.js";
import { permittivity, refractiveIndex } from "./model.js";

const TWO_PI_C = 2 * Math.PI * SPEED_OF_LIGHT_M_PER_S;

describe("library pole models", () => {
  it("re-running each fit reproduces the stored model", () => {
    for (const [name, counts] of Object.entries(LIBRARY_FITS)) {
      const entry = findMaterial(name)!;
      assert.ok(entry.dispersionSource.startsWith("least-squares fit"), name);
      const fit = fitLorentzModel((l) => refractiveIndexAt(name, l).n, {
        windowM: entry.fitWindowM,
        ...counts,
      });
      assert.equal(fit.model.poles.length, entry.dispersion.poles.length, name);
      assert.ok(fit.maxErrorN <= entry.maxFitErrorN, `${name}: refit error ${fit.maxErrorN}`);
      const [lo, hi] = entry.fitWindowM;
      for (const wavelengthM of [lo, Math.sqrt(lo * hi), hi]) {
        const a = permittivity(fit.model, TWO_PI_C / wavelengthM).re;
        const b = permittivity(entry.dispersion, TWO_PI_C / wavelengthM).re;
        assert.ok(Math.abs(a - b) < 1e-6 * b, `${name} ε(${wavelengthM}): refit ${a}, stored ${b}`);
      }
    }
  });

  it("every fitted or exact dielectric is listed or exact", () => {
    for (const e of MATERIALS.values()) {
      const fitted = e.dispersionSource.startsWith("least-squares fit");
      assert.equal(fitted, e.name in LIBRARY_FITS, e.name);
    }
  });

  it("poleModelOf looks a material up by any of its names", () => {
    assert.equal(poleModelOf("gold"), findMaterial("Au")!.dispersion);
    assert.equal(poleModelOf(" SiO2 "), findMaterial("silica")!.dispersion);
    assert.deepEqual(poleModelOf("vacuum"), { epsInf: 1, sigma: 0, poles: [] });
    assert.throws(() => poleModelOf("unobtainium"), UnknownMaterialError);
    // Au at 1 µm from its pole model is the library's index there.
    const au = refractiveIndex(poleModelOf("Au"), TWO_PI_C / 1e-6);
    const lib = refractiveIndexAt("Au", 1e-6);
    assert.ok(Math.abs(au.n - lib.n) < 1e-12 && Math.abs(au.k - lib.k) < 1e-12);
  });
});

describe("Lorentz fit", () => {
  it("recovers a two-pole Sellmeier model it can represent exactly", () => {
    const truth = lorentzModel(2.1, [
      { deltaEps: 1.7, wavelengthM: 0.18e-6 },
      { deltaEps: 3.2, wavelengthM: 25e-6 },
    ]);
    const n = (l: number) => refractiveIndex(truth, TWO_PI_C / l).n;
    const fit = fitLorentzModel(n, { windowM: [0.4e-6, 5e-6], uvPoles: 1, irPoles: 1 });
    assert.ok(fit.maxErrorN < 1e-9, `max error ${fit.maxErrorN}`);
    assert.ok(Math.abs(fit.model.epsInf - 2.1) < 1e-6);
    assert.ok(Math.abs(fit.resonances[0].wavelengthM / 0.18e-6 - 1) < 1e-5);
    assert.ok(Math.abs(fit.resonances[1].deltaEps / 3.2 - 1) < 1e-5);
    // With one pole too few it cannot, and says how far off it is.
    const poor = fitLorentzModel(n, { windowM: [0.4e-6, 5e-6], uvPoles: 1, irPoles: 0 });
    assert.ok(poor.maxErrorN > 1e-3);
    const measured = maxIndexError(poor.model, (l) => ({ n: n(l), k: 0 }), [0.4e-6, 5e-6]);
    assert.ok(Math.abs(measured.n - poor.maxErrorN) < 1e-12);
  });

  it("keeps resonances inside their bounds and refuses a window with no room", () => {
    const fit = fitLorentzModel((l) => 1.5 + 0.004e-12 / (l * l), {
      windowM: [0.3e-6, 2e-6],
      uvPoles: 1,
      irPoles: 0,
      minResonanceM: 0.12e-6,
    });
    const resonance = fit.resonances[0].wavelengthM;
    assert.ok(resonance >= 0.12e-6 * (1 - 1e-9) && resonance <= 0.27e-6, `λ_p = ${resonance}`);
    assert.throws(() =>
      fitLorentzModel(() => 1.5, { windowM: [0.1e-6, 2e-6], uvPoles: 1, irPoles: 0 }),
    );
  });
});
