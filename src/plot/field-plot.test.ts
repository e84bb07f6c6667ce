/**
 * The plotting pieces without a server: the PNG encoder read back by an independent decoder,
 * the colormaps, tick placement, and heat-map and line plots of synthetic field maps.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  colorAt,
  cssGradient,
  diverging,
  rgbToOklab,
  toHex,
  paint,
  sequential,
} from "./colormap.js";
import { encodePng } from "./png.js";
import { fieldPlotPng, renderFieldPlot } from "./field-plot.js";
import { axisLabels, niceTicks, tickLabel } from "./ticks.js";
import { glyph, hasGlyph, textWidth } from "./font.js";
import type { FieldMap } from "../results/read.js";
import { contains, structureAt } from "./structures.js";
import type { StructureSpec } from "../solver/types.js";
import { coloursIn, decodePng } from "./testing/decode-png.js";

test("PNG encoder: an independent decoder reads back the exact pixels and text", () => {
  const width = 7;
  const height = 5;
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 37 + (i >> 3) * 11) & 0xff;
  const png = encodePng(width, height, rgb, { Software: "emsim" });
  const back = decodePng(png);
  assert.equal(back.width, width);
  assert.equal(back.height, height);
  assert.deepEqual(Array.from(back.rgb), Array.from(rgb));
  assert.equal(back.text.Software, "emsim");
  assert.throws(() => encodePng(2, 2, new Uint8Array(5)), RangeError);
});

test("the sequential map runs dark to light from its anchor colours; diverging is white at zero", () => {
  assert.equal(toHex(colorAt(sequential, 0)), "#0a0c24");
  assert.equal(toHex(colorAt(sequential, 1)), "#fdf3c4");
  let last = -1;
  for (let i = 0; i <= 64; i++) {
    const [L] = rgbToOklab(colorAt(sequential, i / 64));
    assert.ok(L > last, `sequential lightness must increase (t = ${i / 64})`);
    last = L;
  }
  const mid = colorAt(diverging, 0.5);
  assert.ok(
    mid.every((c) => c > 235),
    `centre ${toHex(mid)} is near white`,
  );
  for (const t of [0, 0.1, 0.25, 0.4]) {
    const [l1] = rgbToOklab(colorAt(diverging, t));
    const [l2] = rgbToOklab(colorAt(diverging, 1 - t));
    // Within 0.05 in OKLab lightness (the dashboard's map; 0.04 at its darkest ends).
    assert.ok(Math.abs(l1 - l2) < 0.05, `diverging lightness symmetric at ±${0.5 - t}`);
  }
  const [, , bNeg] = rgbToOklab(colorAt(diverging, 0));
  const [, aPos] = rgbToOklab(colorAt(diverging, 1));
  assert.ok(bNeg < 0 && aPos > 0, "negative is blue, positive is red");
  assert.match(
    cssGradient(sequential),
    /^linear-gradient\(to right, #0a0c24 0\.0%, .*#fdf3c4 100\.0%\)$/,
  );
  assert.deepEqual(colorAt(sequential, Number.NaN), [128, 128, 128]);
  // The dashboard's canvases take RGBA from the same table.
  const rgba = new Uint8ClampedArray(8);
  paint(diverging, 0.5, rgba, 4);
  assert.deepEqual(Array.from(rgba.subarray(4)), [...colorAt(diverging, 0.5), 255]);
});

test("ticks land on nice values with labels that tell them apart", () => {
  assert.deepEqual(niceTicks(0, 1, 5).ticks, [0, 0.2, 0.4, 0.6000000000000001, 0.8, 1]);
  const sym = niceTicks(-1.4, 1.4, 5);
  assert.equal(sym.step, 0.5);
  assert.deepEqual(sym.ticks, [-1, -0.5, 0, 0.5, 1]);
  assert.deepEqual(
    sym.ticks.map((t) => tickLabel(t, sym.step)),
    ["−1.0", "−0.5", "0", "0.5", "1.0"],
  );
  const quarter = niceTicks(0, 1.05, 4);
  assert.equal(quarter.step, 0.25);
  assert.equal(tickLabel(0.75, 0.25), "0.75");
  assert.equal(tickLabel(2e-4, 1e-4), "2e-4");
  assert.equal(tickLabel(150000, 50000), "1.5e5");
  // Quarter steps in exponent notation keep their digit (−2.5e-4, not −3e-4), and one axis
  // keeps one notation (not 7.5e-4 beside 0.00100).
  assert.equal(tickLabel(-2.5e-4, 2.5e-4), "−2.5e-4");
  const small = niceTicks(-1.25e-3, 0, 5);
  assert.equal(small.step, 2.5e-4);
  assert.deepEqual(axisLabels(small), [
    "−0.00125",
    "−0.00100",
    "−0.00075",
    "−0.00050",
    "−0.00025",
    "0",
  ]);
  assert.deepEqual(axisLabels(niceTicks(1e-4, 9e-4, 4)), ["2e-4", "4e-4", "6e-4", "8e-4"]);
  assert.deepEqual(niceTicks(1, 1).ticks, [1]);
});

test("the font covers the labels plots use", () => {
  for (const ch of "0123456789.−-+e|()µλ xyzEHRIm=,'/VAabcdefghijklmnopqrstuvw") {
    assert.ok(hasGlyph(ch), `glyph for '${ch}'`);
    assert.equal(glyph(ch).length, 7);
    assert.ok(glyph(ch).every((row) => row.length === 5));
  }
  assert.equal(textWidth("abc", 2), (3 * 6 - 1) * 2);
});

function syntheticMap(
  nu: number,
  nv: number,
  f: (x: number, z: number) => [number, number],
): FieldMap {
  const u = Float64Array.from({ length: nu }, (_, i) => -1e-6 + (2e-6 * i) / Math.max(1, nu - 1));
  const v = Float64Array.from(
    { length: nv },
    (_, j) => -0.5e-6 + (1.5e-6 * j) / Math.max(1, nv - 1),
  );
  const re = new Float32Array(nu * nv);
  const im = new Float32Array(nu * nv);
  for (let i = 0; i < nu; i++) {
    for (let j = 0; j < nv; j++) {
      [re[i * nv + j], im[i * nv + j]] = f(u[i]!, v[j]!);
    }
  }
  return {
    monitor: "xz",
    component: "Ey",
    wavelengthM: 1.55e-6,
    axes: nu > 1 && nv > 1 ? ["x", "z"] : ["x", "z"],
    u,
    v,
    re,
    im,
    fullShape: [nu, nv],
    slice: null,
  };
}

test("a plane map becomes a heat map with axes and a colour bar", () => {
  const k = (2 * Math.PI) / 1.55e-6;
  const map = syntheticMap(60, 45, (x, z) => [
    Math.cos(k * z) * Math.exp(-((x / 0.6e-6) ** 2)),
    Math.sin(k * z) * (0.5 + x / 2e-6),
  ]);
  for (const part of ["abs", "real", "imag"] as const) {
    const canvas = renderFieldPlot(map, { part });
    const png = decodePng(fieldPlotPng(map, { part }));
    assert.equal(png.width, canvas.width);
    assert.equal(png.height, canvas.height);
    // Physical aspect 2 µm × 1.5 µm: the plot is wider than tall.
    assert.ok(png.width > png.height, `${png.width} × ${png.height}`);
    const centre = coloursIn(
      png,
      Math.floor(png.width * 0.3),
      Math.floor(png.height * 0.35),
      Math.floor(png.width * 0.6),
      Math.floor(png.height * 0.65),
    );
    assert.ok(centre.size > 40, `${part}: the plot area shows the field (${centre.size} colours)`);
    assert.match(png.text.Title!, /Ey.*1\.55/);
  }
});

test("a line monitor becomes a line plot; a point cannot be plotted", () => {
  const map = syntheticMap(1, 200, (_x, z) => [Math.cos(z * 4e6), 0]);
  const png = decodePng(fieldPlotPng(map, { part: "real" }));
  const colours = coloursIn(png, 0, 0, png.width, png.height);
  // The curve colour is present, and the image is more than background and text.
  assert.ok(colours.has((31 << 16) | (95 << 8) | 168));
  assert.ok(colours.size >= 4);
  assert.throws(
    () =>
      renderFieldPlot(
        syntheticMap(1, 1, () => [1, 0]),
        { part: "abs" },
      ),
    /single point/,
  );
});

test("an all-zero field still plots (a flat map, not a division by zero)", () => {
  const png = decodePng(
    fieldPlotPng(
      syntheticMap(10, 10, () => [0, 0]),
      { part: "abs" },
    ),
  );
  assert.ok(png.width > 100 && png.height > 100);
});

test("structures are found at a point like the solver does (the last one wins)", () => {
  const box: StructureSpec = { type: "box", center: [0, 0, 0], size: [2, 2, 2], material: "SiO2" };
  const sphere: StructureSpec = { type: "sphere", center: [0, 0, 1], radius: 0.5, material: "Si" };
  const rod: StructureSpec = {
    type: "cylinder",
    center: [0, 0, 0],
    radius: 0.25,
    height: 4,
    axis: "x",
    material: "Si3N4",
  };
  assert.ok(contains(box, { x: 1, y: -1, z: 0.5 }));
  assert.ok(!contains(box, { x: 1.01, y: 0, z: 0 }));
  assert.ok(contains(sphere, { x: 0.3, y: 0, z: 1.3 }));
  assert.ok(!contains(sphere, { x: 0.4, y: 0, z: 1.4 }));
  assert.ok(contains(rod, { x: 1.9, y: 0.1, z: -0.2 }));
  assert.ok(!contains(rod, { x: 2.1, y: 0, z: 0 }));
  assert.ok(!contains(rod, { x: 0, y: 0.2, z: 0.2 }));
  const all = [box, sphere, rod];
  assert.equal(structureAt(all, { x: 0, y: 0, z: 0 }), 2);
  assert.equal(structureAt(all, { x: 0, y: 0, z: 1.2 }), 1);
  assert.equal(structureAt(all, { x: 0.9, y: 0.9, z: 0 }), 0);
  assert.equal(structureAt(all, { x: 3, y: 0, z: 0 }), -1);
});

test("a heat map outlines the structures the monitor cuts", () => {
  const map = syntheticMap(40, 30, (x, z) => [Math.cos(x * 3e6) * 0.5 + 0.5, z * 0]);
  const geometry = {
    structures: [
      {
        type: "box" as const,
        center: [0, 0, 0.25e-6] as [number, number, number],
        size: [1e-6, 1, 0.5e-6] as [number, number, number],
        material: "Si",
      },
    ],
    fixed: { y: 0 },
  };
  const white = (255 << 16) | (255 << 8) | 255;
  const plain = decodePng(fieldPlotPng(map, { part: "abs" }));
  const outlined = decodePng(fieldPlotPng(map, { part: "abs", geometry }));
  assert.equal(outlined.width, plain.width);
  // White appears inside the plot area only with the outline (the background is white too,
  // so look in the middle of the image, inside the map).
  const region = [
    Math.floor(plain.width * 0.3),
    Math.floor(plain.height * 0.3),
    Math.floor(plain.width * 0.6),
    Math.floor(plain.height * 0.6),
  ] as const;
  assert.ok(!coloursIn(plain, ...region).has(white));
  assert.ok(coloursIn(outlined, ...region).has(white));
});

test("a polyslab is outlined like the solid it is: a square one with straight walls as a box", () => {
  const map = syntheticMap(40, 30, (x, z) => [Math.cos(x * 3e6) * 0.5 + 0.5, z * 0]);
  const square = (sidewallDeg: number): StructureSpec => ({
    type: "polyslab",
    vertices: [
      [-0.5e-6, -0.5e-6],
      [0.5e-6, -0.5e-6],
      [0.5e-6, 0.5e-6],
      [-0.5e-6, 0.5e-6],
    ],
    z_min: 0,
    z_max: 0.5e-6,
    sidewall_angle_deg: sidewallDeg,
    material: "Si",
  });
  const box: StructureSpec = {
    type: "box",
    center: [0, 0, 0.25e-6],
    size: [1e-6, 1e-6, 0.5e-6],
    material: "Si",
  };
  const png = (s: StructureSpec) =>
    fieldPlotPng(map, { part: "abs", geometry: { structures: [s], fixed: { y: 0 } } });
  assert.deepEqual(png(square(0)), png(box));
  // Walls sloping in by 30° narrow the top by 2 · 0.5 µm · tan 30° = 0.58 µm: another outline.
  const sloped = decodePng(png(square(30))).rgb;
  const straight = decodePng(png(box)).rgb;
  let differing = 0;
  for (let i = 0; i < sloped.length; i += 3) {
    if (sloped[i] !== straight[i] || sloped[i + 1] !== straight[i + 1]) differing++;
  }
  assert.ok(differing > 50, `${differing} pixels differ`);
});
