/**
 * The optical materials library: for each named material, a dispersion model from the
 * published literature, the wavelength range its source states it is valid for, and the
 * citation; and a multi-pole model of the same material (dispersion/model.ts) for the
 * time-domain update. Coefficients and tabulated values are those catalogued by the
 * refractiveindex.info database (CC0; https://refractiveindex.info), each traced to its
 * original paper below.
 *
 * Conventions:
 * - Wavelengths are vacuum wavelengths. The public functions take metres; the dispersion
 *   formulas are written in micrometres because that is how every source publishes them.
 * - Complex index n + i k and relative permittivity ε = (n + i k)² with Im ε ≥ 0 for loss
 *   (the exp(−iωt) convention).
 * - The dielectrics are lossless (k = 0) inside their valid ranges: each range is the
 *   transparent window of a lossless model. refractiveIndexAt evaluates their published
 *   formula or table; `dispersion` is a Lorentz-pole fit to it (dispersion/fit.ts), accurate to
 *   `maxFitErrorN` over `fitWindowM`, or the formula itself where it already is such a model.
 * - The metals (Au, Ag, Cu, Al, TiN) absorb (k > 0). For Au, Ag, Cu and Al the published model
 *   is a Lorentz–Drude pole model (Rakić et al. 1998), so `dispersion` is that model exactly.
 *   TiN is measured data (a table of n, k); `dispersion` is a Drude–Lorentz fit to it
 *   (dispersion/fit.ts), accurate to `maxFitErrorN` / `maxFitErrorK` at the points in
 *   `fitData`. For every metal refractiveIndexAt evaluates `dispersion`, so a run at one
 *   wavelength and a run over a band see the same ε.
 * - Outside the valid range the functions throw rather than extrapolate: a Sellmeier fit is
 *   silent nonsense across an absorption edge (Si below 1.1 µm, Ge below 1.9 µm).
 * - PEC, the perfect electric conductor (Tidy3D's PECMedium, Meep's `metal`), is in the library
 *   by name but is no optical material: it has no refractive index and no dispersion model, and
 *   is valid at every wavelength. The field update holds E at zero in it (medium.ts); asking it
 *   for an index throws PerfectConductorError.
 */
import { SPEED_OF_LIGHT_M_PER_S } from "./constants.js";
import { type MeasuredIndex, lorentzModel } from "./dispersion/fit.js";
import { type PoleModel, refractiveIndex } from "./dispersion/model.js";
import { TIN_BELIAEV_2023_SPUTTERED } from "./material-data/tin-beliaev-2023.js";

/** What every library entry has: its names, what it is, where it comes from, where it holds. */
interface LibraryEntry {
  /** Canonical display name, e.g. "Si", "SiO2", "vacuum", "PEC". */
  name: string;
  /** Other accepted names, matched case-insensitively, e.g. ["silicon"]. */
  aliases: string[];
  /** The dispersion model, e.g. "Sellmeier (3-term)"; for PEC, what a perfect conductor is. */
  model: string;
  /** Citation: authors, journal, year, and the refractiveindex.info page. */
  reference: string;
  /** Vacuum wavelength range in metres over which the model is valid, inclusive. */
  validRangeM: [number, number];
}

/** A material with a refractive index: a dielectric or a metal, with its dispersion models. */
export interface OpticalMaterialEntry extends LibraryEntry {
  perfectConductor?: false;
  /**
   * The multi-pole model (ε∞, σ, Lorentz and Drude poles in rad/s; exp(−iωt)) that stands for
   * this material in the time-domain update.
   */
  dispersion: PoleModel;
  /** How `dispersion` was obtained: fitted, exact conversion, or the published pole model. */
  dispersionSource: string;
  /** Vacuum wavelength window in metres over which `dispersion` is accurate as stated below. */
  fitWindowM: [number, number];
  /**
   * max |n_dispersion − n_model| over `fitWindowM` (0: `dispersion` is the model itself); for
   * a material fitted to measured points (`fitData`), max |n_dispersion − n| over those points.
   */
  maxFitErrorN: number;
  /** The same for k. */
  maxFitErrorK: number;
  /**
   * The measured points `dispersion` is fitted to, where the material is a table of data
   * rather than a formula (TiN); the material then is `dispersion` itself (refractiveIndexAt
   * evaluates it) and `maxFitErrorN` / `maxFitErrorK` are its errors at these points.
   */
  fitData?: readonly MeasuredIndex[];
}

/**
 * The perfect electric conductor: the σ → ∞ limit, where E vanishes inside the conductor and
 * its tangential part on the surface. It has no refractive index, no loss and no dispersion,
 * and holds at every wavelength; the time-domain update holds E at zero in its cells.
 */
export interface PerfectConductorEntry extends LibraryEntry {
  perfectConductor: true;
}

/** An entry of the library: an optical material, or the perfect electric conductor. */
export type MaterialEntry = OpticalMaterialEntry | PerfectConductorEntry;

/** Thrown for a material name that is neither a canonical name nor an alias. */
export class UnknownMaterialError extends Error {
  override name = "UnknownMaterialError";
  constructor(readonly material: string) {
    super(`unknown material "${material}"; known materials: ${materialNames().join(", ")}`);
  }
}

/** Thrown for a wavelength outside the material model's valid range (HTTP 422 upstream). */
export class WavelengthOutOfRangeError extends RangeError {
  override name = "WavelengthOutOfRangeError";
  constructor(
    readonly material: string,
    readonly wavelengthM: number,
    readonly validRangeM: [number, number],
  ) {
    super(
      `${material}: wavelength ${formatUm(wavelengthM, 6)} µm is outside the valid range ` +
        `${formatUm(validRangeM[0], 4)}–${formatUm(validRangeM[1], 4)} µm of its dispersion model`,
    );
  }
}

/** Thrown when an index or a permittivity is asked of the perfect conductor, which has none. */
export class PerfectConductorError extends Error {
  override name = "PerfectConductorError";
  constructor(readonly material: string) {
    super(
      `${material} is a perfect electric conductor: it has no refractive index or ` +
        "permittivity (the field update holds E at zero in it)",
    );
  }
}

type ComplexIndex = { n: number; k: number };

interface MaterialDefinition {
  /** The entry; `fitWindowM` defaults to the valid range, the errors to 0. */
  entry: Omit<OpticalMaterialEntry, "fitWindowM" | "maxFitErrorN" | "maxFitErrorK"> &
    Partial<Pick<OpticalMaterialEntry, "fitWindowM" | "maxFitErrorN" | "maxFitErrorK">>;
  /** Complex refractive index at a vacuum wavelength in micrometres, inside the valid range. */
  indexAtUm: (wavelengthUm: number) => ComplexIndex;
}

const UM = 1e-6;

const FITTED = "least-squares fit (dispersion/fit.ts; scripts/fit-materials.ts re-runs it)";
const EXACT = "exact: the published formula's terms as Lorentz poles (γ = 0)";

/**
 * Angular frequency in rad/s of a photon energy in eV: ω = E e/ħ = 2π E e/h, from the exact
 * SI values of e and h (CODATA's 10-digit ħ would shift Rakić's sharpest Ag resonance by 10⁻⁸).
 */
export const EV_TO_RAD_PER_S = (2 * Math.PI * 1.602_176_634e-19) / 6.626_070_15e-34;

/**
 * The Lorentz–Drude model of Rakić et al. (1998), their eqs. (3)–(4), from the published eV
 * parameters:
 *   ε(ω) = 1 − f0 ωp² / (ω(ω + iΓ0)) + Σ_j f_j ωp² / (ω_j² − ω² − iωΓ_j),
 * written here in the exp(−iωt) convention (Rakić et al. print the complex conjugate, with
 * ω − iΓ). The free-electron term is a Drude pole of plasma frequency √f0 ωp; each bound
 * oscillator a Lorentz pole of strength Δε = f_j ωp²/ω_j².
 * @param oscillators [f_j, Γ_j eV, ω_j eV], in the paper's column order
 */
function rakicLorentzDrude(
  plasmaEv: number,
  f0: number,
  gamma0Ev: number,
  oscillators: ReadonlyArray<readonly [f: number, gammaEv: number, omegaEv: number]>,
): PoleModel {
  const wp = plasmaEv * EV_TO_RAD_PER_S;
  return {
    epsInf: 1,
    sigma: 0,
    poles: [
      { kind: "drude", omegaP: Math.sqrt(f0) * wp, gamma: gamma0Ev * EV_TO_RAD_PER_S },
      ...oscillators.map(([f, gammaEv, omegaEv]) => ({
        kind: "lorentz" as const,
        deltaEps: (f * plasmaEv * plasmaEv) / (omegaEv * omegaEv),
        omega0: omegaEv * EV_TO_RAD_PER_S,
        gamma: gammaEv * EV_TO_RAD_PER_S,
      })),
    ],
  };
}

/**
 * A Drude + Lorentz model from parameters in eV, as fitDrudeLorentzModel (dispersion/fit.ts)
 * fits it and scripts/fit-materials.ts prints it, exp(−iωt):
 *   ε(ω) = ε∞ − ωp²/(ω² + iγω) + Σ_j Δε_j ω_j²/(ω_j² − ω² − iγ_j ω).
 * @param lorentz [Δε_j, ω_j eV, γ_j eV] per pole
 */
function drudeLorentzEv(
  epsInf: number,
  drude: readonly [plasmaEv: number, gammaEv: number],
  lorentz: ReadonlyArray<readonly [deltaEps: number, omegaEv: number, gammaEv: number]>,
): PoleModel {
  return {
    epsInf,
    sigma: 0,
    poles: [
      { kind: "drude", omegaP: drude[0] * EV_TO_RAD_PER_S, gamma: drude[1] * EV_TO_RAD_PER_S },
      ...lorentz.map(([deltaEps, omegaEv, gammaEv]) => ({
        kind: "lorentz" as const,
        deltaEps,
        omega0: omegaEv * EV_TO_RAD_PER_S,
        gamma: gammaEv * EV_TO_RAD_PER_S,
      })),
    ],
  };
}

/** n + i k of a pole model at a vacuum wavelength in µm. */
function poleIndex(model: PoleModel) {
  return (wavelengthUm: number): ComplexIndex =>
    refractiveIndex(model, (2 * Math.PI * SPEED_OF_LIGHT_M_PER_S) / (wavelengthUm * UM));
}

const RAKIC =
  "A. D. Rakić, A. B. Djurišić, J. M. Elazar, M. L. Majewski, Appl. Opt. 37, 5271–5283 (1998), " +
  "Lorentz–Drude parameters of Table 1";
/** The spectral range, 0.1–6.2 eV, of Rakić et al.'s fits. */
const RAKIC_RANGE_M: [number, number] = [0.2 * UM, 12.4 * UM];
const RAKIC_MODEL = "Lorentz–Drude (1 Drude + Lorentz poles), fitted to measured films";

/**
 * n² = 1 + A + Σ Bᵢ λ² / (λ² − Cᵢ), λ in µm, Cᵢ in µm² (refractiveindex.info "formula 2").
 * Sources that publish resonance wavelengths λᵢ rather than Cᵢ are entered as λᵢ², so that each
 * coefficient is visibly the published number.
 */
function sellmeier(a: number, terms: ReadonlyArray<readonly [b: number, cUm2: number]>) {
  return (wavelengthUm: number): ComplexIndex => {
    const l2 = wavelengthUm * wavelengthUm;
    let n2 = 1 + a;
    for (const [b, c] of terms) n2 += (b * l2) / (l2 - c);
    return { n: Math.sqrt(n2), k: 0 };
  };
}

/**
 * Interpolation of a table of (λ µm, n) rows. ε = n² is interpolated linearly in 1/λ²: far
 * from resonances ε(λ) ≈ A + B/λ² (the Cauchy limit of Sellmeier), so this is nearly exact
 * between rows. On Li's Si table, predicting each row from its neighbours two rows apart errs
 * by at most 7×10⁻⁵ this way, against 2×10⁻³ for linear interpolation of n in λ.
 */
function tabulatedIndex(rows: ReadonlyArray<readonly [wavelengthUm: number, n: number]>) {
  for (let i = 1; i < rows.length; i++) {
    if (!(rows[i][0] > rows[i - 1][0])) throw new Error("table rows must increase in λ");
  }
  return (wavelengthUm: number): ComplexIndex => {
    // The bracketing pair; the range check's 1e-9 slack can put λ a hair outside the table,
    // where the end pair extrapolates by a negligible amount.
    const found = rows.findIndex(([l]) => l >= wavelengthUm);
    const hi = found === -1 ? rows.length - 1 : Math.max(found, 1);
    const [l0, n0] = rows[hi - 1];
    const [l1, n1] = rows[hi];
    const t = (1 / wavelengthUm ** 2 - 1 / l0 ** 2) / (1 / l1 ** 2 - 1 / l0 ** 2);
    return { n: Math.sqrt(n0 * n0 + t * (n1 * n1 - n0 * n0)), k: 0 };
  };
}

/**
 * H. H. Li (1980), recommended values for Si at 293 K as catalogued by refractiveindex.info
 * (main/Si/Li-293K). Columns: vacuum wavelength in µm, n.
 */
const SI_LI_1980_293K: ReadonlyArray<readonly [number, number]> = [
  [1.2, 3.5167],
  [1.22, 3.5133],
  [1.24, 3.5102],
  [1.26, 3.5072],
  [1.28, 3.5043],
  [1.3, 3.5016],
  [1.32, 3.499],
  [1.34, 3.4965],
  [1.36, 3.4941],
  [1.38, 3.4918],
  [1.4, 3.4896],
  [1.45, 3.4845],
  [1.5, 3.4799],
  [1.55, 3.4757],
  [1.6, 3.4719],
  [1.65, 3.4684],
  [1.7, 3.4653],
  [1.8, 3.4597],
  [1.9, 3.455],
  [2.0, 3.451],
  [2.25, 3.4431],
  [2.5, 3.4375],
  [2.75, 3.4334],
  [3.0, 3.4302],
  [4.0, 3.4229],
  [5.0, 3.4195],
  [6.0, 3.4177],
  [7.0, 3.4165],
  [8.0, 3.4158],
  [9.0, 3.4153],
  [10.0, 3.415],
  [11.0, 3.4147],
  [12.0, 3.4145],
  [13.0, 3.4144],
  [14.0, 3.4142],
];

const MEASURED_FIT =
  "least-squares fit to measured n, k (dispersion/fit.ts; scripts/fit-materials.ts re-runs it)";

/**
 * TiN's range: the visible and near-infrared part of Beliaev et al.'s table, whose rows run
 * without a gap from 0.21 to 1.69 µm (none from 1.69 to 2 µm, and the infrared rows above
 * do not continue them smoothly: the Drude plasma energy they imply dips by 1–2 % at 2 µm).
 * Below 0.4 µm the interband absorption at 3.5–5 eV would need more poles.
 */
const TIN_RANGE_M: [number, number] = [0.4 * UM, 1.68 * UM];

/** The table's rows inside TiN's range (every ~20 nm), which its pole model is fitted to. */
const TIN_DATA: readonly MeasuredIndex[] = TIN_BELIAEV_2023_SPUTTERED.map(
  ([wavelengthUm, n, k]) => ({ wavelengthM: wavelengthUm * UM, n, k }),
).filter(({ wavelengthM }) => wavelengthM >= TIN_RANGE_M[0] && wavelengthM <= TIN_RANGE_M[1]);

/**
 * TiN's Drude + 2 Lorentz model, fitted to TIN_DATA (scripts/fit-materials.ts prints it). The
 * Lorentz pole at 0.73 eV (1.7 µm), broad (γ = 1 eV), takes up how the measured ε departs from
 * a Drude term across the near infrared; the one at 4.5 eV is the tail of the ultraviolet
 * interband absorption. Re ε crosses zero at 0.49 µm: TiN is a dielectric-like absorber below.
 */
const TIN_MODEL = drudeLorentzEv(
  4.3447876,
  [6.6409549, 0.19927345],
  [
    [28.631829, 0.7270139, 1.0157857],
    [3.6481981, 4.5060148, 1.9848318],
  ],
);

const DEFINITIONS: readonly MaterialDefinition[] = [
  {
    entry: {
      name: "vacuum",
      aliases: [],
      model: "constant, n = 1 exactly",
      reference: "definition (no dispersion)",
      // Valid at every wavelength; Number.MAX_VALUE rather than Infinity so that the range
      // survives JSON serialisation (JSON.stringify turns Infinity into null).
      validRangeM: [0, Number.MAX_VALUE],
      dispersion: { epsInf: 1, sigma: 0, poles: [] },
      dispersionSource: "exact: ε = 1",
    },
    indexAtUm: () => ({ n: 1, k: 0 }),
  },
  {
    entry: {
      name: "air",
      aliases: ["standard air"],
      model:
        "Ciddor two-term dispersion of n − 1, standard dry air (15 °C, 101.325 kPa, 450 ppm CO2)",
      reference:
        "P. E. Ciddor, Appl. Opt. 35, 1566–1573 (1996); refractiveindex.info other/air/Ciddor",
      validRangeM: [0.23 * UM, 1.69 * UM],
      dispersion: lorentzModel(1.00024240694, [
        { deltaEps: 0.000302965487415, wavelengthM: 0.100000050406 * UM },
      ]),
      dispersionSource: FITTED,
      maxFitErrorN: 5.4e-8,
    },
    // n − 1 = k1/(k0 − σ²) + k3/(k2 − σ²), σ = 1/λ in µm⁻¹ (Ciddor 1996, eq. 1).
    indexAtUm: (wavelengthUm) => {
      const s2 = 1 / (wavelengthUm * wavelengthUm);
      return { n: 1 + 0.05792105 / (238.0185 - s2) + 0.00167917 / (57.362 - s2), k: 0 };
    },
  },
  {
    entry: {
      name: "Si",
      aliases: ["silicon", "c-Si", "crystalline silicon"],
      model: "tabulated n at 293 K, ε = n² interpolated linearly in 1/λ²",
      reference:
        "H. H. Li, J. Phys. Chem. Ref. Data 9, 561–658 (1980); refractiveindex.info main/Si/Li-293K",
      // Li tabulates from 1.2 µm: below that the indirect-gap absorption (1.1 µm) makes k
      // matter and a lossless model would be wrong.
      validRangeM: [1.2 * UM, 14 * UM],
      dispersion: lorentzModel(1, [{ deltaEps: 10.656726, wavelengthM: 0.3019345 * UM }]),
      dispersionSource: FITTED,
      // Largest at 1.2 µm, where the approaching absorption edge steepens n(λ) beyond what a
      // single pole at ≥ 0.1 µm with ε∞ ≥ 1 follows.
      maxFitErrorN: 0.0014,
    },
    indexAtUm: tabulatedIndex(SI_LI_1980_293K),
  },
  {
    entry: {
      name: "SiO2",
      aliases: ["silica", "fused silica", "silicon dioxide", "oxide"],
      model: "Sellmeier (3-term), fused silica at 20 °C",
      reference:
        "I. H. Malitson, J. Opt. Soc. Am. 55, 1205–1208 (1965); refractiveindex.info main/SiO2/Malitson",
      // The range Malitson measured and fitted; refractiveindex.info extends it to 6.7 µm on
      // the strength of Tan (1998), but silica absorbs strongly beyond ~4 µm.
      validRangeM: [0.21 * UM, 3.71 * UM],
      dispersion: lorentzModel(1.3097893, [
        { deltaEps: 0.79449455, wavelengthM: 0.10464436 * UM },
        { deltaEps: 0.93323235, wavelengthM: 10.061855 * UM },
      ]),
      dispersionSource: FITTED,
      maxFitErrorN: 0.000071,
    },
    indexAtUm: sellmeier(0, [
      [0.6961663, 0.0684043 ** 2],
      [0.4079426, 0.1162414 ** 2],
      [0.8974794, 9.896161 ** 2],
    ]),
  },
  {
    entry: {
      name: "Si3N4",
      aliases: ["silicon nitride", "SiN", "nitride"],
      model: "Sellmeier (2-term), stoichiometric LPCVD film",
      reference:
        "K. Luke, Y. Okawachi, M. R. E. Lamont, A. L. Gaeta, M. Lipson, Opt. Lett. 40, " +
        "4823–4826 (2015); refractiveindex.info main/Si3N4/Luke",
      validRangeM: [0.31 * UM, 5.504 * UM],
      dispersion: lorentzModel(1, [
        { deltaEps: 3.0249, wavelengthM: 0.1353406 * UM },
        { deltaEps: 40314, wavelengthM: 1239.842 * UM },
      ]),
      dispersionSource: EXACT,
    },
    indexAtUm: sellmeier(0, [
      [3.0249, 0.1353406 ** 2],
      [40314, 1239.842 ** 2],
    ]),
  },
  {
    entry: {
      name: "Al2O3",
      aliases: ["sapphire", "alumina", "aluminium oxide", "aluminum oxide"],
      model: "Sellmeier (3-term), synthetic sapphire, ordinary ray, 20 °C",
      reference:
        "I. H. Malitson, M. J. Dodge, J. Opt. Soc. Am. 62, 1405 (1972), formula in M. J. Dodge, " +
        "Handbook of Laser Science and Technology IV, CRC (1986); " +
        "refractiveindex.info main/Al2O3/Malitson-o",
      validRangeM: [0.2 * UM, 5.0 * UM],
      dispersion: lorentzModel(1.5855607, [
        { deltaEps: 1.4967848, wavelengthM: 0.10542894 * UM },
        { deltaEps: 5.720849, wavelengthM: 18.606206 * UM },
      ]),
      dispersionSource: FITTED,
      maxFitErrorN: 0.00021,
    },
    indexAtUm: sellmeier(0, [
      [1.4313493, 0.0726631 ** 2],
      [0.65054713, 0.1193242 ** 2],
      [5.3414021, 18.028251 ** 2],
    ]),
  },
  {
    entry: {
      name: "TiO2",
      aliases: ["titania", "titanium dioxide", "rutile"],
      model: "n² = A + B/(λ² − C), rutile crystal, ordinary ray, room temperature",
      reference:
        "J. R. DeVore, J. Opt. Soc. Am. 41, 416–419 (1951); refractiveindex.info main/TiO2/Devore-o",
      // DeVore's stated range; it stops just short of 1.55 µm.
      validRangeM: [0.43 * UM, 1.53 * UM],
      // A + B/(λ² − C) = (A − B/C) + (B/C) λ²/(λ² − C): one Lorentz pole at √C = 0.2834 µm.
      dispersion: lorentzModel(5.913 - 0.2441 / 0.0803, [
        { deltaEps: 0.2441 / 0.0803, wavelengthM: Math.sqrt(0.0803) * UM },
      ]),
      dispersionSource: EXACT,
    },
    indexAtUm: (wavelengthUm) => ({
      n: Math.sqrt(5.913 + 0.2441 / (wavelengthUm * wavelengthUm - 0.0803)),
      k: 0,
    }),
  },
  {
    entry: {
      name: "LiNbO3",
      aliases: ["lithium niobate", "LiNbO3_o"],
      model: "Sellmeier (3-term), congruent LiNbO3, ordinary index (n_o), 21 °C",
      reference:
        "D. E. Zelmon, D. L. Small, D. Jundt, J. Opt. Soc. Am. B 14, 3319–3322 (1997); " +
        "refractiveindex.info main/LiNbO3/Zelmon-o",
      validRangeM: [0.4 * UM, 5.0 * UM],
      dispersion: lorentzModel(2.4246295, [
        { deltaEps: 2.479462, wavelengthM: 0.21808074 * UM },
        { deltaEps: 15.065342, wavelengthM: 23.690929 * UM },
      ]),
      dispersionSource: FITTED,
      maxFitErrorN: 0.00031,
    },
    indexAtUm: sellmeier(0, [
      [2.6734, 0.01764],
      [1.229, 0.05914],
      [12.614, 474.6],
    ]),
  },
  {
    entry: {
      name: "LiNbO3_e",
      aliases: ["lithium niobate (extraordinary)"],
      model: "Sellmeier (3-term), congruent LiNbO3, extraordinary index (n_e), 21 °C",
      reference:
        "D. E. Zelmon, D. L. Small, D. Jundt, J. Opt. Soc. Am. B 14, 3319–3322 (1997); " +
        "refractiveindex.info main/LiNbO3/Zelmon-e",
      validRangeM: [0.4 * UM, 5.0 * UM],
      dispersion: lorentzModel(2.4147973, [
        { deltaEps: 2.1658182, wavelengthM: 0.21322041 * UM },
        { deltaEps: 11.482787, wavelengthM: 22.923918 * UM },
      ]),
      dispersionSource: FITTED,
      maxFitErrorN: 0.00043,
    },
    indexAtUm: sellmeier(0, [
      [2.9804, 0.02047],
      [0.5981, 0.0666],
      [8.9543, 416.08],
    ]),
  },
  {
    entry: {
      name: "InP",
      aliases: ["indium phosphide"],
      model: "Sellmeier (2-term + constant), room temperature",
      reference:
        "G. D. Pettit, W. J. Turner, J. Appl. Phys. 36, 2081 (1965), formula in Handbook of " +
        "Optics, 2nd ed., Vol. 2, McGraw-Hill (1994); refractiveindex.info main/InP/Pettit",
      // Starts above the band edge (0.92 µm at room temperature).
      validRangeM: [0.95 * UM, 10 * UM],
      dispersion: lorentzModel(1 + 6.255, [
        { deltaEps: 2.316, wavelengthM: 0.6263 * UM },
        { deltaEps: 2.765, wavelengthM: 32.935 * UM },
      ]),
      dispersionSource: EXACT,
    },
    indexAtUm: sellmeier(6.255, [
      [2.316, 0.6263 ** 2],
      [2.765, 32.935 ** 2],
    ]),
  },
  {
    entry: {
      name: "GaAs",
      aliases: ["gallium arsenide"],
      model: "Sellmeier (3-term + constant), 22 °C",
      reference:
        "T. Skauli et al., J. Appl. Phys. 94, 6447–6455 (2003); refractiveindex.info main/GaAs/Skauli",
      // Starts above the band edge (0.87 µm).
      validRangeM: [0.97 * UM, 17 * UM],
      dispersion: lorentzModel(6.6263571, [
        { deltaEps: 4.2420388, wavelengthM: 0.49922202 * UM },
        { deltaEps: 2.4690392, wavelengthM: 40.481175 * UM },
      ]),
      dispersionSource: FITTED,
      // The published third pole at 0.875 µm, just below the range, is left out: undamped, it
      // would ring in any pulse reaching 0.9 µm. Largest error at the 0.97 µm edge.
      maxFitErrorN: 0.0021,
    },
    indexAtUm: sellmeier(4.372514, [
      [5.466742, 0.4431307 ** 2],
      [0.0242996, 0.8746453 ** 2],
      [1.957522, 36.9166 ** 2],
    ]),
  },
  {
    entry: {
      name: "Ge",
      aliases: ["germanium"],
      model: "Sellmeier (3-term), 295 K",
      reference:
        "J. H. Burnett, S. G. Kaplan, E. Stover, A. Phenis, Proc. SPIE 9974, 99740X (2016); " +
        "refractiveindex.info main/Ge/Burnett",
      // Germanium absorbs below its indirect gap (0.66 eV, 1.88 µm), so 1.55 µm is outside.
      validRangeM: [2.0 * UM, 14 * UM],
      dispersion: lorentzModel(10.570339, [{ deltaEps: 5.4322019, wavelengthM: 0.74480261 * UM }]),
      dispersionSource: FITTED,
      maxFitErrorN: 0.00035,
    },
    indexAtUm: sellmeier(0, [
      [0.4886331, 1.393959],
      [14.5142535, 0.1626427],
      [0.0091224, 752.19],
    ]),
  },
  ...metal(
    "Au",
    ["gold"],
    rakicLorentzDrude(9.03, 0.76, 0.053, [
      [0.024, 0.241, 0.415],
      [0.01, 0.345, 0.83],
      [0.071, 0.87, 2.969],
      [0.601, 2.494, 4.304],
      [4.384, 2.214, 13.32],
    ]),
  ),
  ...metal(
    "Ag",
    ["silver"],
    rakicLorentzDrude(9.01, 0.845, 0.048, [
      [0.065, 3.886, 0.816],
      [0.124, 0.452, 4.481],
      [0.011, 0.065, 8.185],
      [0.84, 0.916, 9.083],
      [5.646, 2.419, 20.29],
    ]),
  ),
  ...metal(
    "Cu",
    ["copper"],
    rakicLorentzDrude(10.83, 0.575, 0.03, [
      [0.061, 0.378, 0.291],
      [0.104, 1.056, 2.957],
      [0.723, 3.213, 5.3],
      [0.638, 4.305, 11.18],
    ]),
  ),
  ...metal(
    "Al",
    ["aluminium", "aluminum"],
    rakicLorentzDrude(14.98, 0.523, 0.047, [
      [0.227, 0.333, 0.162],
      [0.05, 0.312, 1.544],
      [0.166, 1.351, 1.808],
      [0.03, 3.382, 3.473],
    ]),
  ),
  {
    entry: {
      name: "TiN",
      aliases: ["titanium nitride"],
      model:
        "Drude + 2 Lorentz poles, least-squares fit to the ellipsometric n, k of a 50 nm " +
        "pulsed-DC sputtered film",
      reference:
        "L. Yu. Beliaev, E. Shkondin, A. V. Lavrinenko, O. Takayama, Opt. Mater. 143, 114237 " +
        "(2023); refractiveindex.info main/TiN/Beliaev-sputtering",
      validRangeM: [...TIN_RANGE_M],
      dispersion: TIN_MODEL,
      dispersionSource: MEASURED_FIT,
      maxFitErrorN: 0.034,
      maxFitErrorK: 0.016,
      fitData: TIN_DATA,
    },
    indexAtUm: poleIndex(TIN_MODEL),
  },
];

/** A metal of Rakić et al.: its Lorentz–Drude model is both the published model and `dispersion`. */
function metal(name: string, aliases: string[], model: PoleModel): MaterialDefinition[] {
  return [
    {
      entry: {
        name,
        aliases,
        model: `${RAKIC_MODEL}, ${model.poles.length} poles`,
        reference: `${RAKIC}; refractiveindex.info main/${name}/Rakic-LD`,
        validRangeM: [...RAKIC_RANGE_M],
        dispersion: model,
        dispersionSource: "exact: the published Lorentz–Drude model",
      },
      indexAtUm: poleIndex(model),
    },
  ];
}

/**
 * The perfect electric conductor, after the optical materials. Names match ignoring case, so
 * "pec" is PEC too. Meep's name for it, `metal`, is no alias: here it would be taken for the
 * real metals.
 */
const PERFECT_CONDUCTOR: PerfectConductorEntry = {
  name: "PEC",
  aliases: ["perfect electric conductor", "perfect conductor", "perfect_conductor"],
  model:
    "perfect electric conductor: E = 0 inside and tangential E = 0 on the surface " +
    "(no refractive index, no loss, no dispersion)",
  reference: "definition (the σ → ∞ limit of a conductor; Tidy3D's PECMedium, Meep's metal)",
  // Valid at every wavelength, as vacuum is (Number.MAX_VALUE: JSON has no Infinity).
  validRangeM: [0, Number.MAX_VALUE],
  perfectConductor: true,
};

function normalise(name: string): string {
  return name.trim().toLowerCase();
}

/** Every canonical name and alias, lower-cased, to its definition (PEC to its entry). */
const BY_ANY_NAME: ReadonlyMap<string, MaterialDefinition | PerfectConductorEntry> = (() => {
  const map = new Map<string, MaterialDefinition | PerfectConductorEntry>();
  const named: [LibraryEntry, MaterialDefinition | PerfectConductorEntry][] = [
    ...DEFINITIONS.map((def): [LibraryEntry, MaterialDefinition] => [def.entry, def]),
    [PERFECT_CONDUCTOR, PERFECT_CONDUCTOR],
  ];
  for (const [entry, item] of named) {
    for (const key of [entry.name, ...entry.aliases].map(normalise)) {
      if (map.has(key)) throw new Error(`material name "${key}" is defined twice`);
      map.set(key, item);
    }
  }
  return map;
})();

/** An optical entry with its defaults filled in, frozen. */
function opticalEntry(def: MaterialDefinition): OpticalMaterialEntry {
  const entry: OpticalMaterialEntry = {
    ...def.entry,
    fitWindowM: def.entry.fitWindowM ?? [...def.entry.validRangeM],
    maxFitErrorN: def.entry.maxFitErrorN ?? 0,
    maxFitErrorK: def.entry.maxFitErrorK ?? 0,
  };
  Object.freeze(entry.aliases);
  Object.freeze(entry.validRangeM);
  Object.freeze(entry.fitWindowM);
  entry.dispersion.poles.forEach((pole) => Object.freeze(pole));
  Object.freeze(entry.dispersion.poles);
  Object.freeze(entry.dispersion);
  entry.fitData?.forEach((point) => Object.freeze(point));
  if (entry.fitData) Object.freeze(entry.fitData);
  return Object.freeze(entry);
}

Object.freeze(PERFECT_CONDUCTOR.aliases);
Object.freeze(PERFECT_CONDUCTOR.validRangeM);
Object.freeze(PERFECT_CONDUCTOR);

/**
 * The library, keyed by lower-case canonical name, in library order: the optical materials,
 * then PEC. Entries are frozen.
 */
export const MATERIALS: ReadonlyMap<string, MaterialEntry> = new Map<string, MaterialEntry>([
  ...DEFINITIONS.map((def) => [normalise(def.entry.name), opticalEntry(def)] as const),
  [normalise(PERFECT_CONDUCTOR.name), PERFECT_CONDUCTOR],
]);

/** Looks a material up by canonical name or alias, ignoring case and surrounding spaces. */
export function findMaterial(name: string): MaterialEntry | undefined {
  const item = BY_ANY_NAME.get(normalise(name));
  return item === undefined ? undefined : MATERIALS.get(normalise(entryOf(item).name));
}

/** findMaterial for an optical material: undefined for an unknown name and for PEC. */
export function findOpticalMaterial(name: string): OpticalMaterialEntry | undefined {
  const entry = findMaterial(name);
  return entry?.perfectConductor ? undefined : entry;
}

/** The optical materials (every entry but PEC), in library order. */
export function opticalMaterials(): OpticalMaterialEntry[] {
  return [...MATERIALS.values()].filter(
    (entry): entry is OpticalMaterialEntry => !entry.perfectConductor,
  );
}

/**
 * What an entry is, as the materials listing says it: a metal has a Drude pole (free
 * electrons, Re ε < 0 below its plasma frequency; the solver always steps its poles), PEC is the
 * perfect conductor, and everything else (vacuum and air included) is a dielectric.
 */
export function materialKind(entry: MaterialEntry): "dielectric" | "metal" | "perfect_conductor" {
  if (entry.perfectConductor) return "perfect_conductor";
  return entry.dispersion.poles.some((pole) => pole.kind === "drude") ? "metal" : "dielectric";
}

/** Canonical names in library order, for error messages and docs. */
export function materialNames(): string[] {
  return [...MATERIALS.values()].map((entry) => entry.name);
}

function entryOf(item: MaterialDefinition | PerfectConductorEntry): LibraryEntry {
  return "entry" in item ? item.entry : item;
}

/**
 * Complex refractive index n + i k (k ≥ 0 for loss) of a material at a vacuum wavelength.
 * @param name canonical name or alias, case-insensitive
 * @param wavelengthM vacuum wavelength in metres
 * @throws UnknownMaterialError (an Error) for an unknown name
 * @throws PerfectConductorError (an Error) for PEC, which has no index
 * @throws WavelengthOutOfRangeError (a RangeError) outside the model's valid range
 */
export function refractiveIndexAt(name: string, wavelengthM: number): { n: number; k: number } {
  const def = BY_ANY_NAME.get(normalise(name));
  if (def === undefined) throw new UnknownMaterialError(name);
  if (!("entry" in def)) throw new PerfectConductorError(def.name);
  const [lo, hi] = def.entry.validRangeM;
  // A relative slack of 1e-9 so that a range edge computed another way (0.21 * 1e-6 versus
  // 2.1e-7) still counts as inside.
  const inside =
    Number.isFinite(wavelengthM) &&
    wavelengthM > 0 &&
    wavelengthM >= lo * (1 - 1e-9) &&
    wavelengthM <= hi * (1 + 1e-9);
  if (!inside) throw new WavelengthOutOfRangeError(def.entry.name, wavelengthM, [lo, hi]);
  const { n, k } = def.indexAtUm(wavelengthM / UM);
  return { n, k };
}

/**
 * Relative permittivity ε = (n + i k)² = (n² − k²) + i 2nk of a material at a vacuum
 * wavelength; Im ε ≥ 0 means loss. Same arguments and errors as {@link refractiveIndexAt}
 * (PerfectConductorError for PEC).
 */
export function permittivityAt(name: string, wavelengthM: number): { re: number; im: number } {
  const { n, k } = refractiveIndexAt(name, wavelengthM);
  return { re: n * n - k * k, im: 2 * n * k };
}

/** Micrometres to the given significant digits, without trailing zeros. */
function formatUm(lengthM: number, digits: number): string {
  if (lengthM >= Number.MAX_VALUE) return "∞";
  if (!Number.isFinite(lengthM)) return String(lengthM);
  return String(Number((lengthM / UM).toPrecision(digits)));
}
