/**
 * The library's stored pole models are reproducible: re-running each least-squares fit gives
 * the same ε(λ) and error; and a fit recovers a model it can represent exactly.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SPEED_OF_LIGHT_M_PER_S } from "../constants.js";
import {
  PerfectConductorError,
  UnknownMaterialError,
  findOpticalMaterial,
  opticalMaterials,
  refractiveIndexAt,
} from "../materials.js";
import {
  fitDrudeLorentzModel,
  fitLorentzModel,
  lorentzModel,
  maxIndexError,
  measuredIndexError,
} from "./fit.js";
import { LIBRARY_FITS, LIBRARY_MEASURED_FITS, poleModelOf } from "./library.js";
import { type PoleModel, permittivity, refractiveIndex } from "./model.js";

const TWO_PI_C = 2 * Math.PI * SPEED_OF_LIGHT_M_PER_S;

describe("library pole models", () => {
  it("re-running each fit reproduces the stored model", () => {
    for (const [name, counts] of Object.entries(LIBRARY_FITS)) {
      const entry = findOpticalMaterial(name)!;
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

  it("re-running each fit to measured data reproduces the stored model and errors", () => {
    for (const [name, options] of Object.entries(LIBRARY_MEASURED_FITS)) {
      const entry = findOpticalMaterial(name)!;
      assert.ok(entry.dispersionSource.startsWith("least-squares fit to measured"), name);
      const fit = fitDrudeLorentzModel(entry.fitData!, options);
      assert.equal(fit.model.poles.length, entry.dispersion.poles.length, name);
      assert.ok(fit.maxError.n <= entry.maxFitErrorN, `${name}: refit n error ${fit.maxError.n}`);
      assert.ok(fit.maxError.k <= entry.maxFitErrorK, `${name}: refit k error ${fit.maxError.k}`);
      // The stored eV parameters carry 8 digits.
      for (const { wavelengthM } of entry.fitData!) {
        const a = permittivity(fit.model, TWO_PI_C / wavelengthM);
        const b = permittivity(entry.dispersion, TWO_PI_C / wavelengthM);
        const size = Math.hypot(b.re, b.im);
        assert.ok(
          Math.hypot(a.re - b.re, a.im - b.im) < 1e-6 * size,
          `${name} ε(${wavelengthM}): refit ${a.re} + ${a.im}i, stored ${b.re} + ${b.im}i`,
        );
      }
    }
  });

  it("every fitted material is listed, and only those", () => {
    for (const e of opticalMaterials()) {
      const measured = e.dispersionSource.startsWith("least-squares fit to measured");
      const fitted = !measured && e.dispersionSource.startsWith("least-squares fit");
      assert.equal(fitted, e.name in LIBRARY_FITS, e.name);
      assert.equal(measured, e.name in LIBRARY_MEASURED_FITS, e.name);
      assert.equal(measured, e.fitData !== undefined, e.name);
    }
  });

  it("poleModelOf looks a material up by any of its names", () => {
    assert.equal(poleModelOf("gold"), findOpticalMaterial("Au")!.dispersion);
    assert.equal(poleModelOf(" SiO2 "), findOpticalMaterial("silica")!.dispersion);
    assert.deepEqual(poleModelOf("vacuum"), { epsInf: 1, sigma: 0, poles: [] });
    assert.throws(() => poleModelOf("unobtainium"), UnknownMaterialError);
    // The perfect conductor has no pole model: the update holds E at zero in it instead.
    assert.throws(() => poleModelOf("pec"), PerfectConductorError);
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

describe("Drude–Lorentz fit", () => {
  /** n + i k of a model at the given wavelengths, as measured points. */
  const sampled = (model: PoleModel, wavelengthsM: number[]) =>
    wavelengthsM.map((wavelengthM) => ({
      wavelengthM,
      ...refractiveIndex(model, TWO_PI_C / wavelengthM),
    }));
  const ev = 1.519267447e15; // rad/s per eV
  const truth: PoleModel = {
    epsInf: 2.5,
    sigma: 0,
    poles: [
      { kind: "drude", omegaP: 7 * ev, gamma: 0.15 * ev },
      { kind: "lorentz", deltaEps: 1.8, omega0: 3.5 * ev, gamma: 1.2 * ev },
    ],
  };
  const wavelengths = Array.from({ length: 40 }, (_, i) => (0.35 + i * 0.04) * 1e-6);

  it("recovers a Drude + Lorentz metal it can represent exactly", () => {
    const fit = fitDrudeLorentzModel(sampled(truth, wavelengths), { lorentzPoles: 1 });
    assert.ok(fit.maxError.n < 1e-7 && fit.maxError.k < 1e-7, JSON.stringify(fit.maxError));
    assert.ok(Math.abs(fit.model.epsInf - 2.5) < 1e-6, `ε∞ ${fit.model.epsInf}`);
    const [drude, lorentz] = fit.model.poles;
    assert.equal(drude.kind, "drude");
    assert.ok(drude.kind === "drude" && Math.abs(drude.omegaP / (7 * ev) - 1) < 1e-6);
    assert.ok(drude.kind === "drude" && Math.abs(drude.gamma / (0.15 * ev) - 1) < 1e-5);
    assert.ok(lorentz.kind === "lorentz" && Math.abs(lorentz.omega0 / (3.5 * ev) - 1) < 1e-5);
    // Without the Lorentz pole it cannot, and its stated error is the real one.
    const drudeOnly = fitDrudeLorentzModel(sampled(truth, wavelengths), { lorentzPoles: 0 });
    assert.ok(drudeOnly.maxError.n > 0.01, `${drudeOnly.maxError.n}`);
    assert.deepEqual(
      measuredIndexError(drudeOnly.model, sampled(truth, wavelengths)),
      drudeOnly.maxError,
    );
  });

  it("keeps the model passive: ε∞ ≥ 1, strengths and dampings ≥ 0", () => {
    // A dielectric-like target with n < 1 and no loss would want ε∞ < 1 or gain.
    const data = wavelengths.map((wavelengthM) => ({ wavelengthM, n: 0.9, k: 0.01 }));
    const fit = fitDrudeLorentzModel(data, { lorentzPoles: 1 });
    assert.ok(fit.model.epsInf >= 1);
    for (const pole of fit.model.poles) {
      assert.ok(pole.gamma > 0);
      if (pole.kind === "lorentz") assert.ok(pole.deltaEps > 0);
    }
  });

  it("refuses too few points and bad data", () => {
    const data = sampled(truth, wavelengths);
    assert.throws(() => fitDrudeLorentzModel(data.slice(0, 5), { lorentzPoles: 1 }), /points/);
    assert.throws(() =>
      fitDrudeLorentzModel([...data, { wavelengthM: 1e-6, n: -1, k: 0 }], {
        lorentzPoles: 1,
      }),
    );
    assert.throws(() => fitDrudeLorentzModel(data, { lorentzPoles: 1.5 }), /whole number/);
  });
});
