/**
 * The plotting core against what the CLI's PNGs were before the dashboard's plots moved onto it
 * (fixtures/, written from cases.ts by the code of that time): the colour tables byte for
 * byte, the ticks and their labels, and whole heat-map and line PNGs pixel for pixel.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { diverging, sequential } from "../../src/plot/colormap.js";
import { fieldPlotPng } from "../../src/plot/field-plot.js";
import { niceTicks, tickLabel } from "../../src/plot/ticks.js";
import { decodePng } from "../cli/helpers.js";
import { PLOT_CASES, TICK_CASES } from "./cases.js";

const FIXTURES = new URL("./fixtures/", import.meta.url);

interface Scales {
  ticks: { range: [number, number, number]; step: number; ticks: number[]; labels: string[] }[];
  luts: { sequential: string; diverging: string };
}
const before = JSON.parse(readFileSync(new URL("cli-scales.json", FIXTURES), "utf8")) as Scales;

test("the colour tables are the ones the CLI's PNGs used", () => {
  assert.equal(Buffer.from(sequential.lut).toString("hex"), before.luts.sequential);
  assert.equal(Buffer.from(diverging.lut).toString("hex"), before.luts.diverging);
});

test("ticks and their labels are the ones the CLI's PNGs used", () => {
  assert.equal(before.ticks.length, TICK_CASES.length);
  for (const [k, [min, max, target]] of TICK_CASES.entries()) {
    const { step, ticks } = niceTicks(min, max, target);
    const expected = before.ticks[k]!;
    assert.deepEqual(expected.range, [min, max, target]);
    assert.equal(step, expected.step, `step for ${min}…${max}`);
    assert.deepEqual(ticks, expected.ticks, `ticks for ${min}…${max}`);
    assert.deepEqual(
      ticks.map((t) => tickLabel(t, step)),
      expected.labels,
      `labels for ${min}…${max}`,
    );
  }
});

for (const c of PLOT_CASES) {
  test(`the CLI's ${c.name} PNG is pixel for pixel what it was`, () => {
    const actual = decodePng(fieldPlotPng(c.map(), c.options));
    const expected = decodePng(readFileSync(new URL(`${c.name}.png`, FIXTURES)));
    assert.equal(actual.width, expected.width);
    assert.equal(actual.height, expected.height);
    let differing = 0;
    for (let i = 0; i < actual.rgb.length; i++) if (actual.rgb[i] !== expected.rgb[i]) differing++;
    assert.equal(differing, 0, `${differing} channel values differ`);
  });
}
