import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  MATERIALS,
  PerfectConductorError,
  UnknownMaterialError,
  WavelengthOutOfRangeError,
  findMaterial,
  findOpticalMaterial,
  materialNames,
  opticalMaterials,
  permittivityAt,
  refractiveIndexAt,
} from "./materials.js";

const UM = 1e-6;
/** Rakić et al.'s Lorentz–Drude metals, and every metal (TiN: a fit to measured data). */
const RAKIC_METALS = ["Au", "Ag", "Cu", "Al"];
const METALS = [...RAKIC_METALS, "TiN"];
const isMetal = (name: string) => METALS.includes(name);

function assertClose(actual: number, expected: number, tolerance: number, what: string) {
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${what}: got ${actual}, expected ${expected} ± ${tolerance}`,
  );
}

/**
 * Reference indices from sources other than our own evaluation of the formula: values the
 * source papers print, or widely quoted handbook values. Tolerances are a few units in the
 * last printed digit, tight enough that a mistyped coefficient fails.
 */
const REFERENCE_INDICES: ReadonlyArray<{
  material: string;
  wavelengthUm: number;
  n: number;
  tolerance: number;
  source: string;
}> = [
  // Malitson 1965, Table: n = 1.45846 at the He d line (587.56 nm).
  { material: "SiO2", wavelengthUm: 0.5875618, n: 1.45846, tolerance: 3e-5, source: "Malitson" },
  // The standard telecom value for fused silica.
  { material: "SiO2", wavelengthUm: 1.55, n: 1.444, tolerance: 1e-4, source: "handbook" },
  { material: "SiO2", wavelengthUm: 1.064, n: 1.4496, tolerance: 1e-4, source: "handbook" },
  // Li 1980 table row at 1.55 µm (an interpolation node) and its value at 3 µm.
  { material: "Si", wavelengthUm: 1.55, n: 3.4757, tolerance: 1e-6, source: "Li 1980" },
  { material: "Si", wavelengthUm: 3.0, n: 3.4302, tolerance: 1e-6, source: "Li 1980" },
  // Luke et al. 2015 quote n ≈ 1.996 at 1.55 µm for their LPCVD nitride.
  { material: "Si3N4", wavelengthUm: 1.55, n: 1.996, tolerance: 5e-4, source: "Luke 2015" },
  // Sapphire ordinary index at the d line, n_o = 1.7682 (Malitson 1962 measured 1.76817).
  { material: "Al2O3", wavelengthUm: 0.5875618, n: 1.7682, tolerance: 2e-4, source: "handbook" },
  // Bond 1965 measured rutile n_o = 2.6034 at 0.6 µm, independently of DeVore; the two
  // agree to 2×10⁻³ there.
  { material: "TiO2", wavelengthUm: 0.6, n: 2.6034, tolerance: 3e-3, source: "Bond 1965" },
  // Congruent LiNbO3 at 632.8 nm: n_o = 2.2864, n_e = 2.2022; at 1.55 µm 2.211 and 2.138.
  { material: "LiNbO3", wavelengthUm: 0.6328, n: 2.2864, tolerance: 5e-4, source: "handbook" },
  { material: "LiNbO3_e", wavelengthUm: 0.6328, n: 2.2022, tolerance: 5e-4, source: "handbook" },
  { material: "LiNbO3", wavelengthUm: 1.55, n: 2.211, tolerance: 5e-4, source: "handbook" },
  { material: "LiNbO3_e", wavelengthUm: 1.55, n: 2.138, tolerance: 5e-4, source: "handbook" },
  { material: "InP", wavelengthUm: 1.55, n: 3.165, tolerance: 2e-3, source: "handbook" },
  { material: "GaAs", wavelengthUm: 1.55, n: 3.37, tolerance: 3e-3, source: "handbook" },
  // Ge: Li 1980 at 293 K gives 4.0442 (3 µm) and 4.0025 (10 µm); Burnett is at 295 K, where
  // dn/dT ≈ 4×10⁻⁴ /K raises n by ~1×10⁻³.
  { material: "Ge", wavelengthUm: 3.0, n: 4.0442, tolerance: 2e-3, source: "Li 1980" },
  { material: "Ge", wavelengthUm: 10.0, n: 4.0025, tolerance: 2.5e-3, source: "Li 1980" },
  // Standard air at 1.55 µm: n − 1 = 2.73×10⁻⁴.
  { material: "air", wavelengthUm: 1.55, n: 1.000273, tolerance: 1e-6, source: "Ciddor 1996" },
];

test("refractive indices match published reference values", () => {
  for (const r of REFERENCE_INDICES) {
    const { n, k } = refractiveIndexAt(r.material, r.wavelengthUm * UM);
    assertClose(n, r.n, r.tolerance, `${r.material} n(${r.wavelengthUm} µm) [${r.source}]`);
    assert.equal(k, 0, `${r.material} is lossless in its valid range`);
  }
});

test("Si interpolation stays within 4×10⁻³ of Salzberg & Villa's independent Sellmeier", () => {
  // Salzberg & Villa 1957 (26 °C) as fitted by Tatian 1984, valid 1.357–11.04 µm. Li's table is
  // at 20 °C; dn/dT ≈ 1.6×10⁻⁴ /K accounts for ~1×10⁻³ of the difference, the rest is the
  // spread between measurements. A mistyped table row or a bad interpolation exceeds it.
  const salzberg = (um: number) => {
    const l2 = um * um;
    const terms: Array<[number, number]> = [
      [10.6684293, 0.301516485],
      [0.0030434748, 1.13475115],
      [1.54133408, 1104],
    ];
    return Math.sqrt(1 + terms.reduce((s, [b, c]) => s + (b * l2) / (l2 - c * c), 0));
  };
  for (let um = 1.36; um <= 11; um *= 1.01) {
    assertClose(refractiveIndexAt("Si", um * UM).n, salzberg(um), 4e-3, `Si n(${um} µm)`);
  }
});

test("vacuum is exactly 1 at any wavelength", () => {
  for (const wavelengthM of [1e-9, 633e-9, 1.55e-6, 1, 1e3]) {
    assert.deepEqual(refractiveIndexAt("vacuum", wavelengthM), { n: 1, k: 0 });
    assert.deepEqual(permittivityAt("vacuum", wavelengthM), { re: 1, im: 0 });
  }
});

test("wavelengths outside the valid range throw a RangeError naming material and range", () => {
  const cases: Array<[string, number, RegExp]> = [
    ["Si", 1.0, /^Si: wavelength 1 µm is outside the valid range 1\.2–14 µm/],
    ["silicon", 15, /^Si: .*1\.2–14 µm/],
    ["Ge", 1.55, /^Ge: wavelength 1\.55 µm .* 2–14 µm/],
    ["TiO2", 1.55, /^TiO2: .* 0\.43–1\.53 µm/],
    ["SiO2", 0.2, /^SiO2: .* 0\.21–3\.71 µm/],
    ["GaAs", 0.85, /^GaAs: .* 0\.97–17 µm/],
    ["air", 2, /^air: .* 0\.23–1\.69 µm/],
  ];
  for (const [name, um, message] of cases) {
    assert.throws(
      () => permittivityAt(name, um * UM),
      (error: unknown) => {
        assert.ok(error instanceof RangeError);
        assert.ok(error instanceof WavelengthOutOfRangeError);
        assert.match(error.message, message);
        return true;
      },
    );
    assert.throws(() => refractiveIndexAt(name, um * UM), RangeError);
  }
  for (const bad of [0, -1e-6, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.throws(() => refractiveIndexAt("vacuum", bad), RangeError, `vacuum at ${bad}`);
  }
});

test("range edges are inside, including edges computed in floating point", () => {
  for (const entry of opticalMaterials()) {
    if (entry.name === "vacuum") continue;
    const [lo, hi] = entry.validRangeM;
    for (const wavelengthM of [lo, hi, lo * (1 + 1e-12), hi * (1 - 1e-12)]) {
      const { n, k } = refractiveIndexAt(entry.name, wavelengthM);
      const plausible = isMetal(entry.name) ? n > 0 && k > 0 : n >= 1 && k === 0;
      assert.ok(Number.isFinite(n) && plausible, `${entry.name} at ${wavelengthM}`);
    }
  }
  // 0.21 * 1e-6 is 2.1000000000000002e-7 in binary floating point, not the literal 2.1e-7.
  assert.doesNotThrow(() => refractiveIndexAt("SiO2", 0.21 * 1e-6));
  assert.doesNotThrow(() => refractiveIndexAt("Si", 14 * 1e-6));
});

test("unknown materials throw an Error listing the known names", () => {
  assert.throws(
    () => permittivityAt("unobtainium", 1.55e-6),
    (error: unknown) => {
      assert.ok(error instanceof UnknownMaterialError);
      assert.ok(!(error instanceof RangeError));
      assert.match(error.message, /unknown material "unobtainium"/);
      assert.match(error.message, /vacuum, air, Si, SiO2/);
      return true;
    },
  );
  assert.equal(findMaterial("unobtainium"), undefined);
});

test("lookup is case-insensitive and accepts aliases", () => {
  const expectations: Array<[string, string]> = [
    ["si", "Si"],
    ["SILICON", "Si"],
    ["Fused Silica", "SiO2"],
    ["silica", "SiO2"],
    ["oxide", "SiO2"],
    ["  sio2 ", "SiO2"],
    ["silicon nitride", "Si3N4"],
    ["SAPPHIRE", "Al2O3"],
    ["rutile", "TiO2"],
    ["Lithium Niobate", "LiNbO3"],
    ["linbo3_E", "LiNbO3_e"],
    ["indium phosphide", "InP"],
    ["gallium arsenide", "GaAs"],
    ["germanium", "Ge"],
    ["AIR", "air"],
    ["Vacuum", "vacuum"],
  ];
  for (const [query, canonical] of expectations) {
    assert.equal(findMaterial(query)?.name, canonical, query);
  }
  assert.equal(refractiveIndexAt("SILICON", 1.55e-6).n, refractiveIndexAt("Si", 1.55e-6).n);
});

test("PEC: found by its names, valid at every wavelength, listed last, and without an index", () => {
  for (const name of ["PEC", "pec", " Pec ", "perfect electric conductor", "PERFECT_CONDUCTOR"]) {
    const entry = findMaterial(name);
    assert.equal(entry?.name, "PEC", name);
    assert.equal(entry.perfectConductor, true, name);
    assert.equal(findOpticalMaterial(name), undefined, name);
  }
  assert.equal(materialNames().at(-1), "PEC");
  assert.ok(!opticalMaterials().some((e) => e.name === "PEC"));
  assert.deepEqual(JSON.parse(JSON.stringify(findMaterial("pec")!.validRangeM)), [
    0,
    Number.MAX_VALUE,
  ]);
  // It has no refractive index or permittivity at any wavelength, inside its range or not:
  // asking is an error that says why, not an out-of-range or an unknown name.
  for (const wavelengthM of [1e-9, 1.55e-6, 1]) {
    for (const ask of [refractiveIndexAt, permittivityAt]) {
      assert.throws(
        () => ask("pec", wavelengthM),
        (error: unknown) => {
          assert.ok(error instanceof PerfectConductorError);
          assert.ok(!(error instanceof RangeError) && !(error instanceof UnknownMaterialError));
          assert.match(error.message, /^PEC is a perfect electric conductor: it has no refractive/);
          return true;
        },
      );
    }
  }
});

test("MATERIALS is keyed by lower-case canonical name and holds every required entry", () => {
  const required = ["vacuum", "air", "Si", "SiO2", "Si3N4", "Al2O3", "TiO2", "LiNbO3", "InP"];
  for (const name of [...required, "GaAs", "Ge"]) {
    assert.equal(MATERIALS.get(name.toLowerCase())?.name, name);
  }
  assert.deepEqual(
    [...MATERIALS.values()].map((e) => e.name),
    materialNames(),
  );
  for (const [key, entry] of MATERIALS) {
    assert.equal(key, entry.name.toLowerCase());
    assert.ok(entry.model.length > 0 && entry.reference.length > 0, entry.name);
    const [lo, hi] = entry.validRangeM;
    assert.ok(lo >= 0 && hi > lo && Number.isFinite(hi), `${entry.name} range`);
    assert.ok(Object.isFrozen(entry), `${entry.name} is frozen`);
  }
  // JSON-safe, since ranges are written into results.
  assert.deepEqual(JSON.parse(JSON.stringify(MATERIALS.get("vacuum")!.validRangeM)), [
    0,
    Number.MAX_VALUE,
  ]);
});

test("every dielectric has normal dispersion (n falls as λ grows) over its valid range", () => {
  for (const entry of opticalMaterials()) {
    if (entry.name === "vacuum" || isMetal(entry.name)) continue;
    const [lo, hi] = entry.validRangeM;
    let previous = Number.POSITIVE_INFINITY;
    const samples = 400;
    for (let i = 0; i <= samples; i++) {
      const wavelengthM = lo * (hi / lo) ** (i / samples);
      const { n } = refractiveIndexAt(entry.name, wavelengthM);
      assert.ok(n < previous, `${entry.name}: n(${wavelengthM / UM} µm) = ${n} ≥ ${previous}`);
      assert.ok(n > 1, `${entry.name}: n > 1`);
      previous = n;
    }
  }
});

test("ε = (n + i k)² for every optical entry", () => {
  for (const entry of opticalMaterials()) {
    const [lo, hi] = entry.validRangeM;
    const wavelengthM = entry.name === "vacuum" ? 1.55e-6 : Math.sqrt(lo * hi);
    const { n, k } = refractiveIndexAt(entry.name, wavelengthM);
    const eps = permittivityAt(entry.name, wavelengthM);
    assertClose(eps.re, n * n - k * k, 1e-12 * n * n, `${entry.name} Re ε`);
    assertClose(eps.im, 2 * n * k, 1e-12 * n * n, `${entry.name} Im ε`);
    assert.ok(eps.im >= 0, `${entry.name} Im ε ≥ 0`);
  }
  // A number, not just a consistency check: Si at 1.55 µm, ε = 3.4757² = 12.0805.
  assertClose(permittivityAt("Si", 1.55e-6).re, 12.0805, 1e-4, "Si ε(1.55 µm)");
});

/** n (n + i k for an absorber) at a wavelength, as the docs table prints it. */
function indexCell(name: string, wavelengthM: number): string {
  try {
    const { n, k } = refractiveIndexAt(name, wavelengthM);
    return k > 0 ? `${n.toFixed(4)} + ${k.toFixed(3)}i` : n.toFixed(4);
  } catch {
    return "— (out of range)";
  }
}

/** The docs table rows, cell by cell (Prettier pads cells; compare trimmed contents). */
function expectedDocsRows(): string[][] {
  return [...MATERIALS.values()].map((e) => {
    const [lo, hi] = e.validRangeM;
    const um = (m: number) => Number((m / UM).toPrecision(6));
    const range = hi === Number.MAX_VALUE ? "all" : `${um(lo)}–${um(hi)}`;
    const n155 = e.perfectConductor ? "— (perfect conductor)" : indexCell(e.name, 1.55e-6);
    const aliases = e.aliases.length > 0 ? e.aliases.join(", ") : "—";
    return [e.name, aliases, e.model, range, n155, e.reference];
  });
}

test("docs/materials.md table matches the library", () => {
  const docs = readFileSync(new URL("../../docs/materials.md", import.meta.url), "utf8");
  const rows = docsTable(docs, "| Name ");
  const expected = expectedDocsRows();
  const asMarkdown = expected.map((r) => `| ${r.join(" | ")} |`).join("\n");
  assert.deepEqual(rows, expected, `regenerate the table in docs/materials.md:\n${asMarkdown}`);
});

/** The pole-model table rows of docs/materials.md. */
function expectedDispersionRows(): string[][] {
  const um = (m: number) => Number((m / UM).toPrecision(6));
  const err = (v: number) => (v === 0 ? "0 (exact)" : v.toExponential(1));
  return opticalMaterials().map((e) => {
    const [lo, hi] = e.fitWindowM;
    const window = e.name === "vacuum" ? "all" : `${um(lo)}–${um(hi)}`;
    const source = e.dispersionSource.split(" (")[0];
    return [
      e.name,
      source,
      window,
      String(e.dispersion.poles.length),
      err(e.maxFitErrorN),
      err(e.maxFitErrorK),
    ];
  });
}

function docsTable(docs: string, header: string): string[][] {
  const start = docs.indexOf(header);
  assert.ok(start >= 0, `docs/materials.md has a table headed "${header}"`);
  const lines = docs.slice(start).split("\n");
  const rows: string[][] = [];
  for (const line of lines.slice(2)) {
    if (!line.startsWith("| ")) break;
    rows.push(
      line
        .slice(1, -1)
        .split(" | ")
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

test("docs/materials.md pole-model table matches the library", () => {
  const docs = readFileSync(new URL("../../docs/materials.md", import.meta.url), "utf8");
  const expected = expectedDispersionRows();
  const asMarkdown = expected.map((r) => `| ${r.join(" | ")} |`).join("\n");
  assert.deepEqual(
    docsTable(docs, "| Material | Pole model"),
    expected,
    `regenerate the pole-model table in docs/materials.md:\n${asMarkdown}`,
  );
});

test("every pole model reproduces its material to the stated error over its window", async () => {
  const { refractiveIndex } = await import("./dispersion/model.js");
  const TWO_PI_C = 2 * Math.PI * 299_792_458;
  for (const e of opticalMaterials()) {
    const [lo, hi] = e.name === "vacuum" ? [0.1 * UM, 100 * UM] : e.fitWindowM;
    assert.ok(lo >= e.validRangeM[0] && hi <= e.validRangeM[1], `${e.name}: window in range`);
    let worstN = 0;
    let worstK = 0;
    for (let i = 0; i <= 3000; i++) {
      const wavelengthM = 1 / (1 / hi + ((1 / lo - 1 / hi) * i) / 3000);
      const model = refractiveIndex(e.dispersion, TWO_PI_C / wavelengthM);
      const ref = refractiveIndexAt(e.name, wavelengthM);
      worstN = Math.max(worstN, Math.abs(model.n - ref.n));
      worstK = Math.max(worstK, Math.abs(model.k - ref.k));
    }
    if (e.fitData !== undefined) {
      // A fit to measured points: the library's index is the pole model itself, and the
      // stated errors are against the points, which lie inside the window.
      assert.ok(worstN <= 1e-12 && worstK <= 1e-12, `${e.name}: refractiveIndexAt is the model`);
      assert.ok(e.fitData.length >= 20, e.name);
      for (const { wavelengthM, n, k } of e.fitData) {
        assert.ok(
          wavelengthM >= lo && wavelengthM <= hi,
          `${e.name}: point ${wavelengthM} in window`,
        );
        const model = refractiveIndex(e.dispersion, TWO_PI_C / wavelengthM);
        worstN = Math.max(worstN, Math.abs(model.n - n));
        worstK = Math.max(worstK, Math.abs(model.k - k));
      }
    }
    // Exact models agree to rounding; stated errors must hold and not be loose by over 25 %.
    assert.ok(worstN <= e.maxFitErrorN + 1e-12, `${e.name}: n error ${worstN} > ${e.maxFitErrorN}`);
    assert.ok(worstK <= e.maxFitErrorK + 1e-12, `${e.name}: k error ${worstK} > ${e.maxFitErrorK}`);
    if (e.maxFitErrorN > 0) {
      assert.ok(
        worstN >= 0.8 * e.maxFitErrorN,
        `${e.name}: stated ${e.maxFitErrorN}, is ${worstN}`,
      );
    }
    if (e.maxFitErrorK > 0) {
      assert.ok(
        worstK >= 0.8 * e.maxFitErrorK,
        `${e.name}: stated ${e.maxFitErrorK}, is ${worstK}`,
      );
    }
    // Passive, and fit for the time stepping: ε∞ ≥ 1 (no faster-than-light cells), Δε ≥ 0,
    // γ ≥ 0, and no resonance shorter than 0.1 µm for the dielectrics.
    assert.ok(e.dispersion.epsInf >= 1 && e.dispersion.sigma >= 0, e.name);
    for (const pole of e.dispersion.poles) {
      assert.ok(pole.gamma >= 0, `${e.name}: γ ≥ 0`);
      if (pole.kind === "lorentz") {
        assert.ok(pole.deltaEps >= 0, `${e.name}: Δε ≥ 0`);
        if (!isMetal(e.name)) assert.ok(pole.omega0 <= (TWO_PI_C / (0.1 * UM)) * (1 + 1e-6));
      }
    }
  }
  // The fits are worth having: no more than 2×10⁻³ anywhere, and 10⁻⁴ for SiO2 (the telecom
  // cladding, where waveguide phase accumulates over millimetres).
  for (const e of opticalMaterials()) {
    if (e.fitData === undefined) assert.ok(e.maxFitErrorN <= 2.5e-3, e.name);
  }
  assert.ok(findOpticalMaterial("SiO2")!.maxFitErrorN <= 1e-4);
  // A fit to a metal's measured points: within 2 % of |n + i k| at every point (a few times
  // less than the spread between TiN films; docs/materials.md).
  for (const e of opticalMaterials()) {
    for (const { wavelengthM, n, k } of e.fitData ?? []) {
      const model = refractiveIndex(e.dispersion, TWO_PI_C / wavelengthM);
      const relative = Math.hypot(model.n - n, model.k - k) / Math.hypot(n, k);
      assert.ok(relative <= 0.02, `${e.name} at ${wavelengthM}: ${relative}`);
    }
  }
});

/**
 * Rakić et al. (1998), Table 1, Lorentz–Drude parameters in eV: ωp, f0, Γ0, then (f_j, Γ_j, ω_j).
 * Evaluated here directly in eV in the paper's own form, ε = 1 − f0ωp²/(ω(ω − iΓ0)) +
 * Σ f_j ωp²/((ω_j² − ω²) + iωΓ_j) (exp(+iωt), Im ε ≤ 0), independently of the library's
 * conversion to rad/s and to the exp(−iωt) pole form.
 */
const RAKIC_TABLE: Record<string, [number, number, number, Array<[number, number, number]>]> = {
  Ag: [
    9.01,
    0.845,
    0.048,
    [
      [0.065, 3.886, 0.816],
      [0.124, 0.452, 4.481],
      [0.011, 0.065, 8.185],
      [0.84, 0.916, 9.083],
      [5.646, 2.419, 20.29],
    ],
  ],
  Au: [
    9.03,
    0.76,
    0.053,
    [
      [0.024, 0.241, 0.415],
      [0.01, 0.345, 0.83],
      [0.071, 0.87, 2.969],
      [0.601, 2.494, 4.304],
      [4.384, 2.214, 13.32],
    ],
  ],
  Cu: [
    10.83,
    0.575,
    0.03,
    [
      [0.061, 0.378, 0.291],
      [0.104, 1.056, 2.957],
      [0.723, 3.213, 5.3],
      [0.638, 4.305, 11.18],
    ],
  ],
  Al: [
    14.98,
    0.523,
    0.047,
    [
      [0.227, 0.333, 0.162],
      [0.05, 0.312, 1.544],
      [0.166, 1.351, 1.808],
      [0.03, 3.382, 3.473],
    ],
  ],
};

test("the metals are Rakić et al.'s Lorentz–Drude models, converted from eV exactly", () => {
  const HC_EV_UM = 1.239_841_984_332; // h c / e in eV·µm
  for (const [name, [wp, f0, g0, osc]] of Object.entries(RAKIC_TABLE)) {
    for (const um of [0.25, 0.4, 0.55, 0.8, 1.064, 1.55, 3, 10]) {
      const w = HC_EV_UM / um;
      // 1 − f0 wp² / (w (w − i g0)): real and imaginary parts written out.
      const d = w * w * w * w + w * w * g0 * g0;
      let re = 1 - (f0 * wp * wp * w * w) / d;
      let im = -(f0 * wp * wp * w * g0) / d;
      for (const [f, g, wj] of osc) {
        const a = wj * wj - w * w;
        const b = w * g;
        re += (f * wp * wp * a) / (a * a + b * b);
        im -= (f * wp * wp * b) / (a * a + b * b);
      }
      const eps = permittivityAt(name, um * UM);
      const scale = Math.hypot(re, im);
      assertClose(eps.re, re, 1e-9 * scale, `${name} Re ε(${um} µm)`);
      // The library uses exp(−iωt): the conjugate of the paper's value.
      assertClose(eps.im, -im, 1e-9 * scale, `${name} Im ε(${um} µm)`);
    }
  }
});

/**
 * P. B. Johnson & R. W. Christy, Phys. Rev. B 6, 4370 (1972), Table I: photon energy (eV),
 * n and k of Cu, Ag, Au (a subset of rows). Rakić et al. fitted other films too, and their
 * model departs from Johnson & Christy by up to ~22 % in ε for Ag and Au (k differs by ~10 %,
 * their Fig. 2–4 show the spread between data sets); the tolerances below are that spread, not
 * a model error. They still catch a conversion error (h for ħ moves ε by 2π²) or a sign slip.
 */
const JOHNSON_CHRISTY: ReadonlyArray<
  [number, [number, number], [number, number], [number, number]]
> = [
  [0.64, [1.09, 13.43], [0.24, 14.08], [0.92, 13.78]],
  [0.89, [0.6, 9.439], [0.13, 10.1], [0.43, 9.519]],
  [1.14, [0.36, 7.217], [0.04, 7.795], [0.27, 7.15]],
  [1.39, [0.3, 5.768], [0.04, 6.312], [0.17, 5.663]],
  [1.64, [0.24, 4.665], [0.03, 5.242], [0.14, 4.542]],
  [1.88, [0.22, 3.747], [0.05, 4.483], [0.14, 3.697]],
  [2.13, [0.7, 2.704], [0.05, 3.858], [0.29, 2.863]],
  [2.38, [1.18, 2.608], [0.05, 3.324], [0.62, 2.081]],
];

test("the metals agree with Johnson & Christy within the spread between data sets", () => {
  // Relative difference in ε = (n + ik)²; Cu only below its interband edge (2 eV), where
  // its model and the data part by 35 %.
  const tolerance: Record<string, [number, number]> = {
    Cu: [0.08, 1.9],
    Ag: [0.25, 9],
    Au: [0.25, 9],
  };
  for (const [ev, ...columns] of JOHNSON_CHRISTY) {
    ["Cu", "Ag", "Au"].forEach((name, i) => {
      const [tol, maxEv] = tolerance[name];
      if (ev > maxEv) return;
      const [n, k] = columns[i];
      const eps = permittivityAt(name, (1.239_841_984_332 / ev) * UM);
      const [re, im] = [n * n - k * k, 2 * n * k];
      const rel = Math.hypot(eps.re - re, eps.im - im) / Math.hypot(re, im);
      assert.ok(
        rel <= tol,
        `${name} at ${ev} eV: ε differs from J&C by ${(rel * 100).toFixed(1)} %`,
      );
    });
  }
});

test("the metals behave as metals: Re ε < 0, loss, and aluminium's 1.5 eV interband peak", () => {
  for (const name of RAKIC_METALS) {
    for (const um of [0.7, 1.55, 5]) {
      const eps = permittivityAt(name, um * UM);
      assert.ok(eps.re < -10 && eps.im > 0, `${name} at ${um} µm: ε = ${eps.re} + ${eps.im}i`);
    }
    // Drude: −Re ε grows about as λ² in the infrared.
    const ratio = permittivityAt(name, 10 * UM).re / permittivityAt(name, 5 * UM).re;
    assert.ok(ratio > 3 && ratio < 4.2, `${name}: ε(10 µm)/ε(5 µm) = ${ratio}`);
  }
  // Aluminium's parallel-band absorption at 1.5 eV (0.83 µm) makes n peak there.
  const alN = (um: number) => refractiveIndexAt("Al", um * UM).n;
  assert.ok(alN(0.83) > alN(0.6) + 1 && alN(0.83) > alN(1.1) + 0.5, `Al n(0.83 µm) = ${alN(0.83)}`);
  // And gold reflects red but absorbs blue: k(0.45 µm) < k(0.7 µm) / 2.
  assert.ok(refractiveIndexAt("Au", 0.45 * UM).k < refractiveIndexAt("Au", 0.7 * UM).k / 2);
  assert.equal(findMaterial("GOLD")?.name, "Au");
  assert.equal(findMaterial("aluminum")?.name, "Al");
  assert.equal(findMaterial("silver")?.name, "Ag");
  assert.equal(findMaterial("Copper")?.name, "Cu");
});

test("TiN: a metal from 0.49 µm up, its ε = 0 crossing where the measured film has it", () => {
  const entry = findOpticalMaterial("titanium nitride")!;
  assert.equal(entry.name, "TiN");
  const data = entry.fitData!;
  assert.ok(Object.isFrozen(data) && data.every((point) => Object.isFrozen(point)));
  // The measured ε crosses zero between two neighbouring points; the model between them too.
  const reEps = ({ n, k }: { n: number; k: number }) => n * n - k * k;
  const crossing = data.findIndex((d, i) => i > 0 && reEps(data[i - 1]) > 0 && reEps(d) <= 0);
  assert.ok(crossing > 0, "the measured Re ε changes sign in the range");
  const [below, above] = [data[crossing - 1].wavelengthM, data[crossing].wavelengthM];
  assert.ok(below > 0.46 * UM && above < 0.52 * UM, `measured crossing ${below}–${above}`);
  assert.ok(permittivityAt("TiN", below).re > 0 && permittivityAt("TiN", above).re < 0);
  // A plasmonic metal over the rest: Re ε < 0, growing in magnitude about as λ² (Drude), lossy.
  const at = (um: number) => permittivityAt("TiN", um * UM);
  assert.ok(at(0.4).re > 2 && at(0.4).im > 2, `ε(0.4 µm) = ${at(0.4).re} + ${at(0.4).im}i`);
  for (const um of [0.6, 1, 1.31, 1.55, 1.68]) assert.ok(at(um).re < -3 && at(um).im > 3);
  const ratio = at(1.6).re / at(0.8).re;
  assert.ok(ratio > 3 && ratio < 5, `ε(1.6 µm)/ε(0.8 µm) = ${ratio}`);
  // The range is the fitted one, and the library refuses outside it.
  assert.throws(
    () => refractiveIndexAt("TiN", 0.39 * UM),
    /TiN: wavelength 0\.39 µm .* 0\.4–1\.68 µm/,
  );
  assert.throws(() => refractiveIndexAt("TiN", 2 * UM), WavelengthOutOfRangeError);
});
