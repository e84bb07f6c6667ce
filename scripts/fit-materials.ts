// Re-runs the least-squares pole fits behind the materials library and prints each
// material's `dispersion`, `fitWindowM` and `maxFitErrorN` as they are written in
// src/solver/materials.ts. Usage: node --import tsx scripts/fit-materials.ts
import { LIBRARY_FITS } from "../src/solver/dispersion/library.js";
import { fitLorentzModel } from "../src/solver/dispersion/fit.js";
import { findMaterial, refractiveIndexAt } from "../src/solver/materials.js";

// The library stores 8 significant digits (12 for air, whose ε − 1 is only 3×10⁻⁴).
const sig = (v: number, digits = 12) => Number(v.toPrecision(digits));
/** An error bound rounded up to 2 significant digits, so that the stored number holds. */
const roundUp = (v: number) => {
  const scale = 10 ** (Math.floor(Math.log10(v)) - 1);
  return Number((Math.ceil(v / scale) * scale).toPrecision(2));
};

for (const [name, counts] of Object.entries(LIBRARY_FITS)) {
  const entry = findMaterial(name);
  if (entry === undefined) throw new Error(name);
  const windowM = entry.validRangeM;
  const fit = fitLorentzModel((l) => refractiveIndexAt(name, l).n, { windowM, ...counts });
  const poles = fit.resonances
    .map((r) => `{ deltaEps: ${sig(r.deltaEps)}, wavelengthM: ${sig(r.wavelengthM / 1e-6)} * UM }`)
    .join(", ");
  console.log(`${name}:`);
  console.log(`  dispersion: lorentzModel(${sig(fit.model.epsInf)}, [${poles}]),`);
  console.log(`  maxFitErrorN: ${roundUp(fit.maxErrorN)},  // ${fit.maxErrorN.toExponential(3)}`);
}
