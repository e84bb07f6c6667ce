import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  MATERIALS,
  UnknownMaterialError,
  WavelengthOutOfRangeError,
  findMaterial,
  materialNames,
  permittivityAt,
  refractiveIndexAt,
} from "./materials.js";

const UM = 1e-6;

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
  for (const entry of MATERIALS.values()) {
    if (entry.name === "vacuum") continue;
    const [lo, hi] = entry.validRangeM;
    for (const wavelengthM of [lo, hi, lo * (1 + 1e-12), hi * (1 - 1e-12)]) {
      const { n } = refractiveIndexAt(entry.name, wavelengthM);
      assert.ok(Number.isFinite(n) && n >= 1, `${entry.name} at ${wavelengthM}`);
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
  for (const entry of MATERIALS.values()) {
    if (entry.name === "vacuum") continue;
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

test("ε = (n + i k)² for every entry", () => {
  for (const entry of MATERIALS.values()) {
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

/** The docs table rows, cell by cell (Prettier pads cells; compare trimmed contents). */
function expectedDocsRows(): string[][] {
  return [...MATERIALS.values()].map((e) => {
    const [lo, hi] = e.validRangeM;
    const um = (m: number) => Number((m / UM).toPrecision(6));
    const range = e.name === "vacuum" ? "all" : `${um(lo)}–${um(hi)}`;
    let n155: string;
    try {
      n155 = refractiveIndexAt(e.name, 1.55e-6).n.toFixed(4);
    } catch {
      n155 = "— (out of range)";
    }
    const aliases = e.aliases.length > 0 ? e.aliases.join(", ") : "—";
    return [e.name, aliases, e.model, range, n155, e.reference];
  });
}

test("docs/materials.md table matches the library", () => {
  const docs = readFileSync(new URL("../../docs/materials.md", import.meta.url), "utf8");
  const rows = docs
    .split("\n")
    .filter((line) => line.startsWith("| ") && !/^\| (Name|:?-)/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(" | ")
        .map((cell) => cell.trim()),
    );
  const expected = expectedDocsRows();
  const asMarkdown = expected.map((r) => `| ${r.join(" | ")} |`).join("\n");
  assert.deepEqual(rows, expected, `regenerate the table in docs/materials.md:\n${asMarkdown}`);
});
