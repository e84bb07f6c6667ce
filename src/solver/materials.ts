/**
 * The optical materials library: for each named material, a dispersion model from the
 * published literature, the wavelength range its source states it is valid for, and the
 * citation. Coefficients and tabulated values are those catalogued by the refractiveindex.info
 * database (CC0; https://refractiveindex.info), each traced to its original paper below.
 *
 * Conventions:
 * - Wavelengths are vacuum wavelengths. The public functions take metres; the dispersion
 *   formulas are written in micrometres because that is how every source publishes them.
 * - Complex index n + i k and relative permittivity ε = (n + i k)² with Im ε ≥ 0 for loss
 *   (the exp(−iωt) convention). Absorption enters the time-domain update as a conductivity
 *   σ = ω ε0 Im ε at the source wavelength (see docs/materials.md).
 * - Every entry is lossless (k = 0) inside its valid range: each range is the transparent
 *   window of a lossless model, so no absorption data are needed yet. Dispersive metals
 *   (DESIGN.md §3) will need tabulated or Drude–Lorentz k.
 * - Outside the valid range the functions throw rather than extrapolate: a Sellmeier fit is
 *   silent nonsense across an absorption edge (Si below 1.1 µm, Ge below 1.9 µm).
 */

export interface MaterialEntry {
  /** Canonical display name, e.g. "Si", "SiO2", "vacuum". */
  name: string;
  /** Other accepted names, matched case-insensitively, e.g. ["silicon"]. */
  aliases: string[];
  /** The dispersion model, e.g. "Sellmeier (3-term)". */
  model: string;
  /** Citation: authors, journal, year, and the refractiveindex.info page. */
  reference: string;
  /** Vacuum wavelength range in metres over which the model is valid, inclusive. */
  validRangeM: [number, number];
}

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

type ComplexIndex = { n: number; k: number };

interface MaterialDefinition {
  entry: MaterialEntry;
  /** Complex refractive index at a vacuum wavelength in micrometres, inside the valid range. */
  indexAtUm: (wavelengthUm: number) => ComplexIndex;
}

const UM = 1e-6;

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
    },
    indexAtUm: sellmeier(0, [
      [0.4886331, 1.393959],
      [14.5142535, 0.1626427],
      [0.0091224, 752.19],
    ]),
  },
];

function normalise(name: string): string {
  return name.trim().toLowerCase();
}

/** Every canonical name and alias, lower-cased, to its definition. */
const BY_ANY_NAME: ReadonlyMap<string, MaterialDefinition> = (() => {
  const map = new Map<string, MaterialDefinition>();
  for (const def of DEFINITIONS) {
    for (const key of [def.entry.name, ...def.entry.aliases].map(normalise)) {
      if (map.has(key)) throw new Error(`material name "${key}" is defined twice`);
      map.set(key, def);
    }
  }
  return map;
})();

/** The library, keyed by lower-case canonical name. Entries are frozen. */
export const MATERIALS: ReadonlyMap<string, MaterialEntry> = new Map(
  DEFINITIONS.map((def) => {
    Object.freeze(def.entry.aliases);
    Object.freeze(def.entry.validRangeM);
    return [normalise(def.entry.name), Object.freeze(def.entry)] as const;
  }),
);

/** Looks a material up by canonical name or alias, ignoring case and surrounding spaces. */
export function findMaterial(name: string): MaterialEntry | undefined {
  return BY_ANY_NAME.get(normalise(name))?.entry;
}

/** Canonical names in library order, for error messages and docs. */
export function materialNames(): string[] {
  return DEFINITIONS.map((def) => def.entry.name);
}

/**
 * Complex refractive index n + i k (k ≥ 0 for loss) of a material at a vacuum wavelength.
 * @param name canonical name or alias, case-insensitive
 * @param wavelengthM vacuum wavelength in metres
 * @throws UnknownMaterialError (an Error) for an unknown name
 * @throws WavelengthOutOfRangeError (a RangeError) outside the model's valid range
 */
export function refractiveIndexAt(name: string, wavelengthM: number): { n: number; k: number } {
  const def = BY_ANY_NAME.get(normalise(name));
  if (def === undefined) throw new UnknownMaterialError(name);
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
 * wavelength; Im ε ≥ 0 means loss. Same arguments and errors as {@link refractiveIndexAt}.
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
