/**
 * The batch page's sweep plot data, from job reports as the worker writes them: which variant
 * sits where on the chart (row-major over the dimensions), the wavelength chosen, failed
 * variants as gaps, wavelengths that differ between variants, |S_ji|² in dB, a third
 * dimension held at a chosen value, values listed out of order, and the query a page sends.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { SolverReport } from "../../schema/responses.js";
import {
  axisScale,
  MAX_CURVES,
  sweepChart,
  sweepChoice,
  sweepOfReports,
  sweepPlotParts,
  type Sweep,
  type VariantReport,
} from "./batch-plot.js";

const BAND = [1.5e-6, 1.55e-6, 1.6e-6];

/** A report with flux planes T and R: T = t at every wavelength k offset by k/100, R = 1 − T. */
function fluxReport(t: number, wavelengths = BAND): SolverReport {
  const T = wavelengths.map((_, k) => t + k / 100);
  return {
    flux: {
      T: { quantity: "transmittance", wavelengths_m: wavelengths, flux: T },
      R: { quantity: "reflectance", wavelengths_m: wavelengths, flux: T.map((v) => 1 - v) },
    },
  } as unknown as SolverReport;
}

const thickness = { name: "thickness", values: [0.3e-6, 0.5e-6, 0.7e-6] };
const material = { name: "material", values: ["SiO2", "Si"] };

/** Variant i = (thickness i0, material i1) at i = 2·i0 + i1; T = 0.1·i; variant 3 failed. */
function thicknessByMaterial(): Sweep {
  const variants: VariantReport[] = Array.from({ length: 6 }, (_, i) => ({
    index: i,
    report: i === 3 ? null : fluxReport(0.1 * i),
  }));
  return sweepOfReports([thickness, material], 6, variants);
}

test("flux quantities: T against the first dimension, a curve per value of the second", () => {
  const sweep = thicknessByMaterial();
  assert.deepEqual(
    sweep.quantities.map((q) => [q.key, q.label, q.kind, q.wavelengthCount]),
    [
      ["flux:T", "T (transmittance)", "fraction", 3],
      ["flux:R", "R (reflectance)", "fraction", 3],
    ],
  );
  assert.deepEqual(sweep.quantities[0]!.wavelengthsM, BAND);
  const chosen = sweepChoice(sweep, {})!;
  assert.equal(chosen.invalid, false);
  assert.equal(chosen.choice.quantity.key, "flux:T");
  assert.equal(chosen.choice.wavelengthIndex, 1, "the middle wavelength first");

  const chart = sweepChart(sweep, chosen.choice, "T of batch 1234");
  assert.equal(chart.options.xTitle, "thickness (× 1e-6)");
  assert.equal(chart.options.yTitle, "fraction of incident power");
  assert.deepEqual(chart.options.includeY, [0, 1]);
  assert.deepEqual(
    chart.series.map((s) => s.label),
    ["material = SiO2", "material = Si"],
  );
  const near = (a: readonly number[], b: readonly number[]) =>
    a.length === b.length &&
    a.every((v, i) => (Number.isNaN(b[i]!) ? Number.isNaN(v) : Math.abs(v - b[i]!) < 1e-12));
  for (const s of chart.series) assert.ok(near(s.x, [0.3, 0.5, 0.7]), String(s.x));
  // At wavelength 1, T = 0.1·i + 0.01: SiO2 is variants 0, 2, 4; Si 1, 3 (failed: a gap), 5.
  assert.ok(near(chart.series[0]!.y, [0.01, 0.21, 0.41]), String(chart.series[0]!.y));
  assert.ok(near(chart.series[1]!.y, [0.11, NaN, 0.51]), String(chart.series[1]!.y));
  assert.deepEqual(chart.table, [
    ["thickness (× 1e-6)", "material = SiO2", "material = Si"],
    ["0.3", "0.01000", "0.11000"],
    ["0.5", "0.21000", "-"],
    ["0.7", "0.41000", "0.51000"],
  ]);
  assert.equal(
    chart.caption,
    "T (transmittance) at 1.55 µm against thickness, one curve per value of material",
  );

  // R at the last wavelength, as the page's form asks for it.
  const r = sweepChoice(sweep, { quantity: "flux:R", wavelength: "2" })!;
  assert.equal(r.invalid, false);
  const rChart = sweepChart(sweep, r.choice, "R");
  assert.ok(near(rChart.series[0]!.y, [0.98, 0.78, 0.58]), String(rChart.series[0]!.y));
  assert.match(rChart.caption, /^R \(reflectance\) at 1\.6 µm/);
});

test("a choice the sweep does not have is flagged and replaced by the defaults", () => {
  const sweep = thicknessByMaterial();
  for (const query of [
    { quantity: "flux:nope" },
    { wavelength: "3" },
    { wavelength: "-1" },
    { wavelength: "1e0" },
  ]) {
    const chosen = sweepChoice(sweep, query)!;
    assert.equal(chosen.invalid, true, JSON.stringify(query));
    assert.equal(chosen.choice.quantity.key, "flux:T");
    assert.equal(chosen.choice.wavelengthIndex, 1);
  }
  // Changing quantity, the page's script asks for the wavelength nearest the one shown.
  const near = sweepChoice(sweep, { quantity: "flux:R", near_m: "1.61e-6" })!;
  assert.equal(near.invalid, false);
  assert.equal(near.choice.wavelengthIndex, 2);
  // Nothing completed: nothing to plot.
  assert.equal(sweepChoice(sweepOfReports([thickness], 3, []), {}), null);
});

test("values listed out of order are drawn in increasing order", () => {
  const sweep = sweepOfReports(
    [{ name: "gap", values: [0.7, 0.3, 0.5] }],
    3,
    [0, 1, 2].map((i) => ({ index: i, report: fluxReport(0.1 * (i + 1), [1.55e-6]) })),
  );
  const chosen = sweepChoice(sweep, {})!;
  const chart = sweepChart(sweep, chosen.choice, "t");
  assert.deepEqual(chart.series[0]!.x, [0.3, 0.5, 0.7]);
  assert.deepEqual(
    chart.series[0]!.y.map((v) => Number(v.toFixed(6))),
    [0.2, 0.3, 0.1],
  );
  assert.equal(chart.options.xTitle, "gap", "no scale for values that read well");
  assert.equal(chart.series[0]!.label, "T (transmittance)", "one curve: the quantity");
  assert.deepEqual(
    sweepPlotParts("b", sweep, chosen.choice, chart).wavelengths.map((w) => w.text),
    ["1.55 µm"],
  );
});

test("a swept source wavelength: each variant's own wavelength, said so", () => {
  const wavelengths = [1.5e-6, 1.55e-6, 1.6e-6];
  const sweep = sweepOfReports(
    [{ name: "wl", values: wavelengths }],
    3,
    wavelengths.map((w, i) => ({ index: i, report: fluxReport(0.5 + i / 10, [w]) })),
  );
  const t = sweep.quantities[0]!;
  assert.equal(t.wavelengthsM, null);
  assert.equal(t.wavelengthCount, 1);
  const chart = sweepChart(sweep, sweepChoice(sweep, {})!.choice, "t");
  assert.deepEqual(
    chart.series[0]!.y.map((v) => Number(v.toFixed(6))),
    [0.5, 0.6, 0.7],
  );
  assert.match(chart.caption, /at each variant's wavelength against wl/);
  assert.equal(chart.options.xTitle, "wl (× 1e-6)");
});

test("a swept length (its path sets metres) is plotted and labelled in µm", () => {
  const t = { ...thickness, path: "/structures/0/size/2" };
  const w = { name: "width", path: "/structures/1/size/0", values: [0.45e-6, 0.5e-6] };
  const variants: VariantReport[] = Array.from({ length: 6 }, (_, i) => ({
    index: i,
    report: fluxReport(0.1 * i),
  }));
  const sweep = sweepOfReports([t, w], 6, variants);
  const chart = sweepChart(sweep, sweepChoice(sweep, {})!.choice, "T");
  assert.equal(chart.options.xTitle, "thickness (µm)");
  assert.deepEqual(
    chart.series.map((s) => s.label),
    ["width = 0.45 µm", "width = 0.5 µm"],
  );
  assert.deepEqual(
    chart.table.map((row) => row[0]),
    ["thickness (µm)", "0.3", "0.5", "0.7"],
  );
  // A material's name has no unit.
  const named = sweepOfReports([t, { ...material, path: "/structures/0/material" }], 6, variants);
  const byMaterial = sweepChart(named, sweepChoice(named, {})!.choice, "T");
  assert.deepEqual(
    byMaterial.series.map((s) => s.label),
    ["material = SiO2", "material = Si"],
  );
});

test("S-parameters: |S_ji|² in dB of each pair run, ports named", () => {
  // Two ports, input o1 run: S11 = 0.1 (−20 dB), S21 = 0.5 + 0.5i (−3.01 dB) at both wavelengths,
  // scaled by the variant's width index.
  const report = (scale: number) =>
    ({
      s_matrix: {
        ports: ["o1@0", "o2@0"],
        inputs: ["o1@0"],
        wavelengths_m: [1.5e-6, 1.6e-6],
        s: [
          [
            [
              [0.1 * scale, 0],
              [0.1 * scale, 0],
            ],
            null,
          ],
          [
            [
              [0.5 * scale, 0.5 * scale],
              [0.5 * scale, 0.5 * scale],
            ],
            null,
          ],
        ],
      },
    }) as unknown as SolverReport;
  const sweep = sweepOfReports([{ name: "width", values: [4e-7, 5e-7] }], 2, [
    { index: 0, report: report(1) },
    { index: 1, report: report(0.5) },
  ]);
  assert.deepEqual(
    sweep.quantities.map((q) => [q.key, q.label, q.kind]),
    [
      ["s:S11", "|S11|² o1@0 → o1@0", "db"],
      ["s:S21", "|S21|² o1@0 → o2@0", "db"],
    ],
  );
  const chosen = sweepChoice(sweep, { quantity: "s:S21", wavelength: "1" })!;
  const chart = sweepChart(sweep, chosen.choice, "|S21|² o1@0 → o2@0 of batch x");
  const db = 10 * Math.log10(0.5);
  assert.ok(Math.abs(chart.series[0]!.y[0]! - db) < 1e-9);
  assert.ok(Math.abs(chart.series[0]!.y[1]! - (db + 20 * Math.log10(0.5))) < 1e-9);
  assert.equal(chart.options.yTitle, "|S|² (dB)");
  // The plot's bitmap font has no arrow.
  assert.equal(chart.options.title, "|S21|² o1@0 -> o2@0 of batch x");
  assert.equal(chart.series[0]!.label, "|S21|² o1@0 -> o2@0");
  assert.deepEqual(chart.table[1], ["0.4", "-3.010"]);
});

test("a third dimension is held at a chosen value", () => {
  // 2 × 2 × 3: variant i = 6·a + 3·b + c, T = i / 100 at the one wavelength.
  const dims = [
    { name: "a", values: [1, 2] },
    { name: "b", values: [true, false] },
    { name: "c", values: ["x", "y", "z"] },
  ];
  const sweep = sweepOfReports(
    dims,
    12,
    Array.from({ length: 12 }, (_, i) => ({ index: i, report: fluxReport(i / 100, [1e-6]) })),
  );
  const chosen = sweepChoice(sweep, { at_c: "2" })!;
  assert.equal(chosen.invalid, false);
  assert.deepEqual(chosen.choice.at, [2]);
  const chart = sweepChart(sweep, chosen.choice, "t");
  assert.deepEqual(
    chart.series.map((s) => [s.label, s.y.map((v) => Math.round(v * 100))]),
    [
      ["b = true", [2, 8]],
      ["b = false", [5, 11]],
    ],
  );
  assert.match(chart.caption, /; c = z$/);
  assert.equal(sweepChoice(sweep, { at_c: "3" })!.invalid, true);
  assert.match(
    sweepPlotParts("id", sweep, chosen.choice, chart).image_url,
    /^\/dashboard\/batches\/id\/plot\.png\?quantity=flux%3AT&wavelength=0&at_c=2$/,
  );
});

test("text values along x are placed by position; many curves are thinned evenly", () => {
  const many = Array.from({ length: 30 }, (_, i) => i);
  const sweep = sweepOfReports(
    [
      { name: "kind", values: ["ring", "disk"] },
      { name: "n", values: many },
    ],
    60,
    Array.from({ length: 60 }, (_, i) => ({ index: i, report: fluxReport(i / 100, [1e-6]) })),
  );
  const chart = sweepChart(sweep, sweepChoice(sweep, {})!.choice, "t");
  assert.equal(chart.options.xTitle, "kind (position in its values)");
  assert.deepEqual(chart.series[0]!.x, [0, 1]);
  assert.deepEqual(
    chart.table.slice(1).map((r) => r[0]),
    ["ring", "disk"],
  );
  assert.equal(chart.series.length, MAX_CURVES);
  assert.equal(chart.series[0]!.label, "n = 0");
  assert.equal(chart.series[MAX_CURVES - 1]!.label, "n = 29");
  assert.match(chart.caption, /one curve for each of 12 of the 30 values of n/);
});

test("a box's cross-sections in µm²; scales read as powers of a thousand", () => {
  const box = {
    flux: {
      box: {
        quantity: "box",
        wavelengths_m: [1e-6],
        flux: [0],
        scattering_cross_section_m2: [2e-13],
        absorption_cross_section_m2: [1e-13],
      },
    },
  } as unknown as SolverReport;
  const sweep = sweepOfReports([{ name: "r", values: [1e-7] }], 1, [{ index: 0, report: box }]);
  assert.deepEqual(
    sweep.quantities.map((q) => [q.key, q.kind, q.byVariant[0]!.values]),
    [
      ["flux:box:scattering", "cross-section", [0.2]],
      ["flux:box:absorption", "cross-section", [0.1]],
    ],
  );
  assert.deepEqual(axisScale([3e-7, 7e-7]), { factor: 1e6, suffix: " (× 1e-6)" });
  assert.deepEqual(axisScale([2e-8]), { factor: 1e9, suffix: " (× 1e-9)" });
  assert.deepEqual(axisScale([1, 250]), { factor: 1, suffix: "" });
  assert.deepEqual(axisScale([0]), { factor: 1, suffix: "" });
});
