// Re-runs the least-squares pole fits behind the materials library and prints each
// material's `dispersion`, `maxFitErrorN` (and `maxFitErrorK` for the metals fitted to
// measured data) as they are written in src/solver/materials.ts.
// Usage: node --import tsx scripts/fit-materials.ts
import { LIBRARY_FITS, LIBRARY_MEASURED_FITS } from "../src/solver/dispersion/library.js";
import { fitDrudeLorentzModel, fitLorentzModel } from "../src/solver/dispersion/fit.js";
import {
  EV_TO_RAD_PER_S,
  findOpticalMaterial,
  refractiveIndexAt,
} from "../src/solver/materials.js";

// The library stores 8 significant digits (12 for air, whose ε − 1 is only 3×10⁻⁴).
const sig = (v: number, digits = 12) => Number(v.toPrecision(digits));
/** An error bound rounded up to 2 significant digits, so that the stored number holds. */
const roundUp = (v: number) => {
  const scale = 10 ** (Math.floor(Math.log10(v)) - 1);
  return Number((Math.ceil(v / scale) * scale).toPrecision(2));
};

for (const [name, counts] of Object.entries(LIBRARY_FITS)) {
  const entry = findOpticalMaterial(name);
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

// The metals fitted to measured n, k: parameters in eV, as drudeLorentzEv takes them.
const ev = (omega: number) => sig(omega / EV_TO_RAD_PER_S, 8);
for (const [name, options] of Object.entries(LIBRARY_MEASURED_FITS)) {
  const entry = findOpticalMaterial(name);
  if (entry?.fitData === undefined) throw new Error(name);
  const fit = fitDrudeLorentzModel(entry.fitData, options);
  const [drude, ...lorentz] = fit.model.poles;
  if (drude.kind !== "drude") throw new Error(name);
  const poles = lorentz
    .map((p) =>
      p.kind === "lorentz" ? `[${sig(p.deltaEps, 8)}, ${ev(p.omega0)}, ${ev(p.gamma)}]` : "",
    )
    .join(", ");
  console.log(`${name}:`);
  console.log(
    `  dispersion: drudeLorentzEv(${sig(fit.model.epsInf, 8)}, [${ev(drude.omegaP)}, ${ev(drude.gamma)}], [${poles}]),`,
  );
  console.log(`  maxFitErrorN: ${roundUp(fit.maxError.n)},  // ${fit.maxError.n.toExponential(3)}`);
  console.log(`  maxFitErrorK: ${roundUp(fit.maxError.k)},  // ${fit.maxError.k.toExponential(3)}`);
}
