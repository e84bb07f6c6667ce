/**
 * The chain helper's warm-up plane is a guided port plane of full size: its solve finds the
 * wire's fundamental mode at every wavelength, so the warm-up runs the code a job's ports run.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { warmUpModeSolves } from "./helper-warm-up.js";

test("the warm-up plane's solve finds a guided mode at each of its five wavelengths", () => {
  const nEff = warmUpModeSolves();
  assert.equal(nEff.length, 5);
  // A 500 × 220 nm Si wire in SiO2 guides its TE0 mode at n_eff ≈ 2.4 (between 1.45 and 3.48).
  for (const n of nEff) assert.ok(n > 2.2 && n < 2.7, `n_eff ${n}`);
  // Wavelengths 1.55, 1.525, 1.5, 1.575, 1.6 µm: n_eff falls as the wavelength grows.
  const byWavelength = [nEff[2]!, nEff[1]!, nEff[0]!, nEff[3]!, nEff[4]!];
  for (let i = 1; i < 5; i++) assert.ok(byWavelength[i]! < byWavelength[i - 1]!);
});
