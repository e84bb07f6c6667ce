/**
 * The S-parameter curves and table (s-parameters.ts): dB of |S|², which pairs are drawn (every
 * output of each input run, by input; of an input not run, those port_symmetries filled), the
 * names past 9 ports, the
 * wavelengths sorted, and in the picture the −3 dB curve lying above the −20 dB one, at the
 * heights the axis gives them.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { SMatrixJson } from "../results/touchstone.js";
import {
  formatDb,
  powerDb,
  renderSParameters,
  sParameterCurves,
  sParameterName,
  sParameterTable,
  sParametersPng,
} from "./s-parameters.js";
import { PALETTE } from "./spectrum.js";
import { decodePng } from "./testing/decode-png.js";

const half = Math.SQRT1_2; // |S|² = ½: −3.0103 dB
/** Three ports, inputs a and c run; wavelengths given longest first. S[b][a] = ½, S[c][a] = 0.01. */
const M: SMatrixJson = {
  ports: ["a@0", "b@0", "c@0"],
  inputs: ["a@0", "c@0"],
  wavelengths_m: [1.6e-6, 1.5e-6],
  s: [
    [
      [
        [0, 0.1],
        [0.1, 0],
      ],
      [null, null],
      [
        [0, 0],
        [0, 0],
      ],
    ],
    [
      [
        [half, 0],
        [0, half],
      ],
      [null, null],
      [
        [0.5, 0],
        [0.5, 0],
      ],
    ],
    [
      [
        [0.1, 0],
        [0, -0.1],
      ],
      [null, null],
      [
        [1, 0],
        [null, 0],
      ],
    ],
  ],
  n_eff: [
    [2, 2.1],
    [2, 2.1],
    [2, 2.1],
  ],
};

test("powerDb: 10·log10 of |S|², −∞ for zero, NaN for a missing entry", () => {
  assert.ok(Math.abs(powerDb([half, 0]) + 3.0103) < 1e-4);
  assert.ok(Math.abs(powerDb([0, -0.1]) + 20) < 1e-12);
  assert.equal(powerDb([0, 0]), -Infinity);
  assert.ok(Number.isNaN(powerDb(null)));
  assert.ok(Number.isNaN(powerDb([null, 0])));
  assert.deepEqual([-3.01029, -Infinity, Number.NaN, -0.0002, 0.0003].map(formatDb), [
    "-3.010",
    "-inf",
    "-",
    "0.000",
    "0.000",
  ]);
});

test("curves: every output of each input run, by input; none for an input not run", () => {
  const curves = sParameterCurves(M);
  assert.deepEqual(
    curves.map((c) => `${c.name} ${c.in}->${c.out}`),
    ["S11 a@0->a@0", "S21 a@0->b@0", "S31 a@0->c@0"].concat([
      "S13 c@0->a@0",
      "S23 c@0->b@0",
      "S33 c@0->c@0",
    ]),
  );
  assert.deepEqual(curves[1]!.db.map(formatDb), ["-3.010", "-3.010"]);
  assert.equal(sParameterName(9, 1, 10), "S10,2");
  assert.equal(sParameterName(1, 0, 2), "S21");
});

test("curves: the entries port_symmetries filled for an input not run are drawn too", () => {
  // b@0 not run, but S[a][b] and S[b][b] filled (as from S21 and S11 of a reciprocal device).
  const filled: SMatrixJson = {
    ...M,
    s: M.s.map((row, o) => row.map((col, i) => (i === 1 && o < 2 ? M.s[1 - o]![0]! : col))),
  };
  const names = sParameterCurves(filled).map((c) => `${c.name} ${c.in}->${c.out}`);
  assert.deepEqual(names.slice(3, 5), ["S12 b@0->a@0", "S22 b@0->b@0"]);
  assert.ok(!names.includes("S32 b@0->c@0"), "an entry nothing filled has no curve");
});

test("table: λ ascending, one column per pair in dB", () => {
  const [header, ...rows] = sParameterTable(M);
  assert.deepEqual(header!.slice(0, 3), ["λ (µm)", "|S11|² (dB)", "|S21|² (dB)"]);
  assert.equal(header!.length, 7);
  assert.deepEqual(
    rows.map((r) => r[0]),
    ["1.5", "1.6"],
  );
  // At 1.5 µm (the record's second wavelength): S31 = −0.1i, S13 = 0, S23 = ½, S33 missing.
  assert.deepEqual(rows[0]!.slice(1), ["-20.000", "-3.010", "-20.000", "-inf", "-6.021", "-"]);
});

/** The mean row of the pixels of one colour in the middle of the plot's width (no legend). */
function meanRow(c: ReturnType<typeof renderSParameters>, color: readonly number[]): number {
  const rows: number[] = [];
  for (let y = 0; y < c.height; y++) {
    for (let x = Math.round(c.width * 0.3); x < c.width * 0.7; x++) {
      const [r, g, b] = c.getPixel(x, y);
      if (r === color[0] && g === color[1] && b === color[2]) rows.push(y);
    }
  }
  assert.ok(rows.length > 0, `no pixel of ${color}`);
  return rows.reduce((a, b) => a + b, 0) / rows.length;
}

test("the chart: the −3 dB curve above the −20 dB one, 17 dB apart on the axis", () => {
  const two: SMatrixJson = {
    ports: ["o1@0", "o2@0"],
    inputs: ["o1@0"],
    wavelengths_m: [1.5e-6, 1.55e-6, 1.6e-6],
    s: [
      [
        [
          [0.1, 0],
          [0.1, 0],
          [0.1, 0],
        ],
        [null, null, null],
      ],
      [
        [
          [half, 0],
          [half, 0],
          [half, 0],
        ],
        [null, null, null],
      ],
    ],
    n_eff: [
      [2, 2, 2],
      [2, 2, 2],
    ],
  };
  const c = renderSParameters(two, "S of a splitter");
  const s11 = meanRow(c, PALETTE[0]!);
  const s21 = meanRow(c, PALETTE[1]!);
  assert.ok(s21 < s11, `S21 at row ${s21}, S11 at ${s11}`);
  // The axis spans 0 to −20 dB plus 4 % each side (21.6 dB) over the plot's 325 rows (size
  // 520: 650 × 325), so 17 dB is 17 / 21.6 · 324 = 255 rows.
  const png = decodePng(sParametersPng(two, "S of a splitter"));
  assert.equal(png.text.Title, "S of a splitter");
  assert.equal(png.width, c.width);
  assert.ok(Math.abs(s11 - s21 - 255) < 3, `${s11 - s21} rows apart`);
  const nothing = {
    ...two,
    inputs: [],
    s: two.s.map((row) => row.map((col) => col.map(() => null))),
  };
  assert.throws(() => renderSParameters(nothing, "none"), /no curve/);
});
