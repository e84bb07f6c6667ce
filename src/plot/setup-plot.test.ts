/**
 * The set-up picture (setup-plot.ts) from a hand-made answer: Re ε on the glass scale, a
 * perfect conductor's and a metal's cells in their flat colours, the grid's cell edges only
 * where a cell is wide enough, an object metres wide (a substrate through the absorber) drawn
 * clipped to the plot in good time, and the warnings below the plot.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { PreviewPlaneResult, PreviewResponse } from "../schema/preview.js";
import { colorAt, permittivity } from "./colormap.js";
import { renderSetupPlot } from "./setup-plot.js";

type Answer = Pick<PreviewResponse, "planes" | "materials" | "warnings">;

/** An n × n z-plane over ±1 µm: vacuum, a 3 × 3 block of ε = 4 in the middle, one PEC cell,
 * one gold cell. */
function answer(n: number, objects: PreviewPlaneResult["objects"] = []): Answer {
  const coords = Array.from({ length: n }, (_, i) => -1e-6 + (2e-6 * i) / n);
  const grid = (at: (i: number, j: number) => number) =>
    coords.map((_, i) => coords.map((__, j) => at(i, j)));
  const middle = (i: number) => Math.abs(i - n / 2) < 2;
  const eps = grid((i, j) => (middle(i) && middle(j) ? 4 : 1));
  const material = grid((i, j) =>
    i === 1 && j === 1 ? 2 : i === n - 2 && j === 1 ? 3 : middle(i) && middle(j) ? 1 : 0,
  );
  return {
    planes: [
      {
        normal: "z",
        position: 0,
        axes: ["x", "y"],
        cells: [n, n],
        extent: { x: [-1e-6, 1e-6], y: [-1e-6, 1e-6] },
        coords: { x: coords, y: coords },
        eps_real: eps.map((row, i) => row.map((e, j) => (material[i]![j] === 3 ? -100 : e))),
        eps_imag: grid(() => 0),
        material,
        pec: grid((i, j) => (material[i]![j] === 2 ? 3 : 0)),
        objects,
      },
    ],
    materials: [
      { name: "vacuum", kind: "dielectric" },
      { name: "glass", kind: "dielectric" },
      { name: "PEC", kind: "pec" },
      { name: "Au", kind: "metal" },
    ],
    warnings: [{ code: "thin_film", path: "simulation.structures[0]", message: "a warning" }],
  };
}

const count = (c: ReturnType<typeof renderSetupPlot>, [r, g, b]: number[]) => {
  let n = 0;
  for (let k = 0; k < c.data.length; k += 3) {
    if (c.data[k] === r && c.data[k + 1] === g && c.data[k + 2] === b) n++;
  }
  return n;
};

test("ε on the glass scale, PEC and metal in their flat colours, warnings below", () => {
  const c = renderSetupPlot(answer(20), { size: 400 });
  // 20 cells over 400 px: 20 px a cell; the block is 3 × 3 cells of ε = 4, the top of the scale.
  const top = colorAt(permittivity, 1);
  assert.ok(count(c, top) > 3 * 3 * 15 * 15, "the block at the scale's top");
  assert.ok(count(c, [70, 74, 82]) > 15 * 15, "the PEC cell");
  assert.ok(count(c, [214, 176, 64]) > 15 * 15, "the gold cell");
  assert.ok(count(c, [224, 224, 224]) > 1000, "cell edges over the vacuum at 20 px a cell");
  assert.ok(count(c, [176, 72, 0]) > 20, "the warning's words");
});

test("no cell edges where cells are narrower than 6 px", () => {
  const c = renderSetupPlot(answer(100), { size: 400 });
  assert.equal(count(c, [224, 224, 224]), 0);
});

test("an outline metres wide is clipped to the plot, not walked pixel by pixel", () => {
  const wide: PreviewPlaneResult["objects"] = [
    {
      kind: "structure",
      name: "structures[0]",
      material: "glass",
      outline: [
        [
          [-5, -5],
          [5, -5],
          [5, 0],
          [-5, 0],
        ],
      ],
    },
  ];
  const t0 = performance.now();
  const c = renderSetupPlot(answer(20, wide), { size: 400 });
  assert.ok(performance.now() - t0 < 2000, "a 10 m outline over a 2 µm plot");
  assert.ok(count(c, [30, 34, 42]) > 300, "its edge at y = 0 crosses the plot");
});
