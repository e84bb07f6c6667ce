/**
 * Field plots of graded grids (mesh overrides): samples 50 nm apart far from the override and
 * 10 nm apart inside it, the steps growing by up to 1.2× between, as the solver plans them. A
 * plot must place each sample at its coordinate, so that the slice looks like the same slice
 * sampled uniformly; drawn by index, the finely sampled stretch would fill five times its
 * width. Each comparison is also made with the samples placed by index (the graded values at
 * equally spaced coordinates), which it must fail, so it cannot pass by being lax.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Colormap } from "./colormap.js";
import { sequential } from "./colormap.js";
import { renderFieldPlot } from "./field-plot.js";
import {
  cellEdges,
  gridImage,
  pixelSamples,
  pixelsPerAxis,
  sampleImage,
  smoothGridImage,
  type ColourScale,
} from "./heatmap.js";
import type { Canvas } from "./canvas.js";
import type { FieldMap } from "../results/read.js";
import { planAxisNodes } from "../solver/grid.js";

const BASE_STEP = 50e-9;
const FINE_STEP = 10e-9;

/** Cell centres (the monitors' sample coordinates) of [lo, hi] with an override [fineLo, fineHi]. */
function gradedAxis(lo: number, hi: number, fineLo: number, fineHi: number): Float64Array {
  const nodes = planAxisNodes(
    lo,
    hi,
    BASE_STEP,
    [{ loM: fineLo, hiM: fineHi, stepM: FINE_STEP }],
    1.2,
  );
  return Float64Array.from({ length: nodes.length - 1 }, (_, i) => (nodes[i]! + nodes[i + 1]!) / 2);
}

/** `n` equally spaced samples whose cells span exactly [lo, hi]. */
function uniformAxis(lo: number, hi: number, n: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => lo + ((i + 0.5) * (hi - lo)) / n);
}

/** `n` equally spaced samples from `first` to `last`. */
function evenly(first: number, last: number, n: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => first + (i * (last - first)) / (n - 1));
}

/** The same edges, the samples equally spaced: what a plot by index shows of `coords`. */
function byIndex(coords: Float64Array): Float64Array {
  const [lo, hi] = cellEdges(coords);
  return uniformAxis(lo, hi, coords.length);
}

/** x across [−1, 1] µm refined over [−0.2, 0.2] µm; z across [−0.5, 1] µm refined over [0.1, 0.3] µm. */
const X = gradedAxis(-1e-6, 1e-6, -0.2e-6, 0.2e-6);
const Z = gradedAxis(-0.5e-6, 1e-6, 0.1e-6, 0.3e-6);

const k = (2 * Math.PI) / 0.8e-6;
/** A field in [0, 1] with a plateau at 1 (so every sampling of it has the same maximum). */
const field = (x: number, z: number) =>
  Math.min(1, 0.55 + 0.55 * Math.cos(k * x) * Math.cos(0.7 * k * (z - 0.2e-6)));
/** Bounds of |∂f/∂x| and |∂f/∂z|. */
const SLOPE_X = 0.55 * k;
const SLOPE_Z = 0.55 * 0.7 * k;

function sampled(u: ArrayLike<number>, v: ArrayLike<number>, f = field): Float32Array {
  const out = new Float32Array(u.length * v.length);
  for (let a = 0; a < u.length; a++) {
    for (let b = 0; b < v.length; b++) out[a * v.length + b] = f(u[a]!, v[b]!);
  }
  return out;
}

function longestStep(coords: ArrayLike<number>): number {
  let longest = 0;
  for (let i = 1; i < coords.length; i++) longest = Math.max(longest, coords[i]! - coords[i - 1]!);
  return longest;
}

/** A grey ramp: a pixel's red channel reads back as round(t · 255). */
const GREY: Colormap = {
  name: "grey",
  lut: Uint8Array.from({ length: 768 }, (_, i) => Math.floor(i / 3)),
  diverging: false,
};
const GREY_SCALE: ColourScale = { map: GREY, lo: 0, hi: 1 };

test("the test grids are graded as the solver grades them", () => {
  for (const axis of [X, Z]) {
    let shortest = Infinity;
    for (let i = 1; i < axis.length; i++) {
      const step = axis[i]! - axis[i - 1]!;
      shortest = Math.min(shortest, step);
      if (i > 1) {
        const ratio = step / (axis[i - 1]! - axis[i - 2]!);
        assert.ok(ratio <= 1.2 + 1e-9 && ratio >= 1 / 1.2 - 1e-9, `ratio ${ratio} at ${i}`);
      }
    }
    assert.ok(Math.abs(shortest - FINE_STEP) < 1e-12, `shortest step ${shortest}`);
    assert.ok(longestStep(axis) > 0.95 * BASE_STEP, `longest step ${longestStep(axis)}`);
  }
  // The plots span the cells, so their axes run from the domain's edges.
  const [xLo, xHi] = cellEdges(X);
  const [zLo, zHi] = cellEdges(Z);
  for (const [edge, expected] of [
    [xLo, -1e-6],
    [xHi, 1e-6],
    [zLo, -0.5e-6],
    [zHi, 1e-6],
  ] as const) {
    assert.ok(Math.abs(edge - expected) < 1e-12, `edge ${edge}, not ${expected}`);
  }
});

test("an equally spaced axis keeps one pixel per sample, coordinates rounded to the picometre too", () => {
  // The dashboard's coordinates arrive in µm rounded to the picometre, so their steps differ in
  // the last digits; the CLI's are the file's metres.
  const um = (m: number) => Math.round(m * 1e12) / 1e6;
  for (const [n, step] of [
    [2, 25e-9],
    [3, 40e-9],
    [48, 40e-9],
    [37, 1e-6 / 3],
    [320, 7.3e-9],
    [320, 1e-6 / 7],
  ] as const) {
    const metres = Float64Array.from({ length: n }, (_, i) => -0.5e-6 + (i + 0.5) * step);
    const micrometres = Array.from(metres, um);
    for (const coords of [metres, micrometres]) {
      assert.equal(pixelsPerAxis(coords), n, `${n} samples ${step} m apart`);
      assert.equal(pixelsPerAxis(coords, 10), n, "a limit never drops samples");
      const [lo, hi] = cellEdges(coords);
      assert.deepEqual(
        Array.from(pixelSamples(coords, lo, hi, n)),
        Array.from({ length: n }, (_, i) => i),
      );
    }
  }
  // So the image is the one sample per pixel image the dashboard has always scaled up.
  const u = Array.from({ length: 48 }, (_, i) => um(-1e-6 + (i + 0.5) * 40e-9));
  const v = Array.from({ length: 37 }, (_, j) => um(-0.5e-6 + (j + 0.5) * (1e-6 / 3)));
  const values = sampled(
    u.map((x) => x * 1e-6),
    v.map((z) => z * 1e-6),
  );
  values[5] = Number.NaN;
  const scale: ColourScale = { map: sequential, lo: 0, hi: 1 };
  const image = sampleImage(values, 48, 37, scale);
  assert.deepEqual(gridImage(values, u, v, scale), image);
  assert.deepEqual(smoothGridImage(values, u, v, scale), image);
});

test("a graded axis gets a pixel for every sample, and as many as its cell is wide", () => {
  const n = pixelsPerAxis(X);
  const [lo, hi] = cellEdges(X);
  // 2 µm over the 10 nm step: one pixel per finest cell (and one more, as the finest step is
  // 10 nm less a little round-off).
  assert.ok(n >= 200 && n <= 201, `${n} pixels`);
  const pixelWidth = (hi - lo) / n;
  const counts = new Array<number>(X.length).fill(0);
  const samples = pixelSamples(X, lo, hi, n);
  samples.forEach((i, px) => {
    if (px > 0) assert.ok(i >= samples[px - 1]!, "samples run left to right");
    counts[i]!++;
  });
  counts.forEach((count, i) => {
    // The cell of sample i reaches halfway to each neighbour (cellEdges at the ends).
    const left = i === 0 ? lo : (X[i - 1]! + X[i]!) / 2;
    const right = i === X.length - 1 ? hi : (X[i]! + X[i + 1]!) / 2;
    const cellPixels = (right - left) / pixelWidth;
    assert.ok(count >= 1, `sample ${i} shown`);
    assert.ok(Math.abs(count - cellPixels) <= 1, `sample ${i}: ${count} pixels for ${cellPixels}`);
  });
  // A limit keeps the image small, but never below one pixel per sample.
  assert.equal(pixelsPerAxis(X, 100), 100);
  assert.equal(pixelsPerAxis(X, 10), X.length);
});

/**
 * The largest difference between `image` (grey, `width` × `height` over the cells of `u`, `v`)
 * and `field` at each pixel's centre; also checks that every pixel shows the sample whose cell
 * holds its centre, found here by walking the midpoints.
 */
function imageError(
  image: Uint8ClampedArray,
  width: number,
  height: number,
  u: ArrayLike<number>,
  v: ArrayLike<number>,
  values: Float32Array,
): number {
  const [uLo, uHi] = cellEdges(u);
  const [vLo, vHi] = cellEdges(v);
  const cellOf = (coords: ArrayLike<number>, x: number) => {
    let i = 0;
    while (i + 1 < coords.length && x > (coords[i]! + coords[i + 1]!) / 2) i++;
    return i;
  };
  let worst = 0;
  for (let py = 0; py < height; py++) {
    const z = vHi - ((py + 0.5) / height) * (vHi - vLo);
    const b = cellOf(v, z);
    for (let px = 0; px < width; px++) {
      const x = uLo + ((px + 0.5) / width) * (uHi - uLo);
      const shown = image[(py * width + px) * 4]! / 255;
      const a = cellOf(u, x);
      assert.equal(shown, Math.round(values[a * v.length + b]! * 255) / 255, `pixel ${px}, ${py}`);
      worst = Math.max(worst, Math.abs(shown - field(x, z)));
    }
  }
  return worst;
}

test("a graded slice's image is the same slice sampled uniformly, pixel by pixel", () => {
  const values = sampled(X, Z);
  const width = pixelsPerAxis(X);
  const height = pixelsPerAxis(Z);
  // Each pixel shows a sample at most half a step away along each axis (the longest step, away
  // from the override), and the grey levels are 1/255 apart.
  const tolerance =
    (SLOPE_X * longestStep(X)) / 2 + (SLOPE_Z * longestStep(Z)) / 2 + 0.5 / 255 + 1e-6;
  const graded = gridImage(values, X, Z, GREY_SCALE, width, height);
  const error = imageError(graded, width, height, X, Z, values);
  assert.ok(error <= tolerance, `off by ${error}, tolerance ${tolerance}`);
  // At any other size too (the CLI's plot area).
  for (const [w, h] of [
    [173, 129],
    [520, 390],
  ] as const) {
    const image = gridImage(values, X, Z, GREY_SCALE, w, h);
    const e = imageError(image, w, h, X, Z, values);
    assert.ok(e <= tolerance, `${w} × ${h}: off by ${e}`);
  }
  // Placed by index, the override's 40 samples would fill 40 of 82 columns instead of 0.4 µm.
  const u = byIndex(X);
  const v = byIndex(Z);
  const misplaced = gridImage(values, u, v, GREY_SCALE, width, height);
  let worst = 0;
  const [uLo, uHi] = cellEdges(u);
  const [vLo, vHi] = cellEdges(v);
  for (let py = 0; py < height; py++) {
    const z = vHi - ((py + 0.5) / height) * (vHi - vLo);
    for (let px = 0; px < width; px++) {
      const x = uLo + ((px + 0.5) / width) * (uHi - uLo);
      worst = Math.max(worst, Math.abs(misplaced[(py * width + px) * 4]! / 255 - field(x, z)));
    }
  }
  assert.ok(worst > 4 * tolerance, `by index: off by ${worst} only`);
});

test("a graded slice's smooth image blends its samples by coordinate, like a uniform grid's", () => {
  // The dashboard's image: linear between samples, so a smooth field without the plateau's
  // kink, whose error is bounded by its second derivatives.
  const smooth = (x: number, z: number) =>
    0.5 + 0.45 * Math.cos(k * x) * Math.cos(0.7 * k * (z - 0.2e-6));
  const values = sampled(X, Z, smooth);
  const width = pixelsPerAxis(X);
  const height = pixelsPerAxis(Z);
  /** Where x lies among the samples: the one at or before it and the way to the next. */
  const between = (coords: ArrayLike<number>, x: number): [number, number] => {
    if (x <= coords[0]!) return [0, 0];
    let i = 0;
    while (i + 1 < coords.length && coords[i + 1]! <= x) i++;
    return i + 1 < coords.length ? [i, (x - coords[i]!) / (coords[i + 1]! - coords[i]!)] : [i, 0];
  };
  const at = (a: number, b: number) => values[a * Z.length + b]!;
  const lerp = (p: number, q: number, t: number) => p + (q - p) * t;
  // Linear interpolation's error: h² / 8 times the second derivative along each axis, at the
  // longest steps; and the grey levels are 1/255 apart.
  const tolerance =
    (0.45 * k * k * longestStep(X) ** 2) / 8 +
    (0.45 * (0.7 * k) ** 2 * longestStep(Z) ** 2) / 8 +
    0.5 / 255 +
    1e-6;
  const check = (u: Float64Array, v: Float64Array) => {
    const image = smoothGridImage(values, u, v, GREY_SCALE, width, height);
    const [uLo, uHi] = cellEdges(u);
    const [vLo, vHi] = cellEdges(v);
    let worst = 0;
    for (let py = 0; py < height; py++) {
      const z = vHi - ((py + 0.5) / height) * (vHi - vLo);
      const [b, tb] = between(v, z);
      for (let px = 0; px < width; px++) {
        const x = uLo + ((px + 0.5) / width) * (uHi - uLo);
        const [a, ta] = between(u, x);
        const row = (r: number) => (ta > 0 ? lerp(at(a, r), at(a + 1, r), ta) : at(a, r));
        const blend = tb > 0 ? lerp(row(b), row(b + 1), tb) : row(b);
        const shown = image[(py * width + px) * 4]!;
        if (u === X) {
          assert.ok(Math.abs(shown - blend * 255) <= 0.5 + 1e-9, `pixel ${px}, ${py}`);
        }
        // Beyond the outermost samples the edge is held, as a canvas holds it: compare inside.
        if (x < u[0]! || x > u[u.length - 1]! || z < v[0]! || z > v[v.length - 1]!) continue;
        worst = Math.max(worst, Math.abs(shown / 255 - smooth(x, z)));
      }
    }
    return worst;
  };
  const error = check(X, Z);
  assert.ok(error <= tolerance, `off by ${error}, tolerance ${tolerance}`);
  const misplaced = check(byIndex(X), byIndex(Z));
  assert.ok(misplaced > 10 * tolerance, `by index: off by ${misplaced} only`);
});

function fieldMap(u: Float64Array, v: Float64Array, values: Float32Array): FieldMap {
  return {
    monitor: "xz",
    component: "Ey",
    wavelengthM: 1.55e-6,
    axes: ["x", "z"],
    u,
    v,
    re: values,
    im: new Float32Array(values.length),
    fullShape: [u.length, v.length],
    slice: null,
  };
}

/** Index of each colour of the sequential map (the first, where neighbours coincide). */
const SEQUENTIAL_INDEX = new Map<number, number>();
for (let i = 255; i >= 0; i--) {
  const [r, g, b] = sequential.lut.subarray(3 * i, 3 * i + 3);
  SEQUENTIAL_INDEX.set((r! << 16) | (g! << 8) | b!, i);
}

/**
 * How two heat maps drawn alike but for their samples differ: the largest difference in value
 * (a fraction of the colour scale) where both pixels are colours of the map, how many pixels
 * differ there, and how many differ elsewhere (axes, labels).
 */
function heatMapDifference(
  a: Canvas,
  b: Canvas,
): { worst: number; differing: number; outside: number } {
  assert.equal(a.width, b.width);
  assert.equal(a.height, b.height);
  let worst = 0;
  let differing = 0;
  let outside = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const [r1, g1, b1] = a.getPixel(x, y);
      const [r2, g2, b2] = b.getPixel(x, y);
      if (r1 === r2 && g1 === g2 && b1 === b2) continue;
      const i1 = SEQUENTIAL_INDEX.get((r1 << 16) | (g1 << 8) | b1);
      const i2 = SEQUENTIAL_INDEX.get((r2 << 16) | (g2 << 8) | b2);
      if (i1 === undefined || i2 === undefined) {
        outside++;
        continue;
      }
      differing++;
      worst = Math.max(worst, Math.abs(i1 - i2) / 255);
    }
  }
  return { worst, differing, outside };
}

test("emsim plot draws a graded slice like the same slice on a fine uniform grid", () => {
  const [uLo, uHi] = cellEdges(X);
  const [vLo, vHi] = cellEdges(Z);
  // The reference: 5 nm samples, finer than any pixel of the plot, over the same cells.
  const u = uniformAxis(uLo, uHi, 400);
  const v = uniformAxis(vLo, vHi, 300);
  const reference = renderFieldPlot(fieldMap(u, v, sampled(u, v)), { part: "abs" });
  const graded = renderFieldPlot(fieldMap(X, Z, sampled(X, Z)), { part: "abs" });
  // The same layout, axes and colour bar (both maxima are the plateau's 1): only the map's
  // pixels may differ, by what sampling 50 nm apart instead of 5 nm apart changes, and the
  // nearest of the map's 256 colours.
  const tolerance =
    (SLOPE_X * (longestStep(X) + longestStep(u))) / 2 +
    (SLOPE_Z * (longestStep(Z) + longestStep(v))) / 2 +
    2 / 255;
  const { worst, differing, outside } = heatMapDifference(graded, reference);
  assert.ok(differing > 1000, `the samples differ (${differing} pixels)`);
  assert.ok(worst <= tolerance, `off by ${worst}, tolerance ${tolerance}`);
  // The axes are the same but for a tick mark and its label that may land a pixel over, where
  // the two grids' cell edges differ in their last digits.
  assert.ok(outside <= 100, `${outside} pixels of the axes differ`);
  const byIndexPlot = renderFieldPlot(fieldMap(byIndex(X), byIndex(Z), sampled(X, Z)), {
    part: "abs",
  });
  const misplaced = heatMapDifference(byIndexPlot, reference);
  assert.ok(misplaced.worst > 4 * tolerance, `by index: off by ${misplaced.worst} only`);
});

const CURVE = [31, 95, 168] as const;

/** The curve's mean row in each column of a line plot (NaN where the column has none). */
function curveRows(c: Canvas): number[] {
  const rows: number[] = [];
  for (let x = 0; x < c.width; x++) {
    let sum = 0;
    let count = 0;
    for (let y = 0; y < c.height; y++) {
      const [r, g, b] = c.getPixel(x, y);
      if (r === CURVE[0] && g === CURVE[1] && b === CURVE[2]) {
        sum += y;
        count++;
      }
    }
    rows.push(count > 0 ? sum / count : Number.NaN);
  }
  return rows;
}

function largestShift(a: number[], b: number[]): number {
  let worst = 0;
  let compared = 0;
  a.forEach((row, x) => {
    if (Number.isNaN(row) || Number.isNaN(b[x]!)) return;
    worst = Math.max(worst, Math.abs(row - b[x]!));
    compared++;
  });
  assert.ok(compared > 300, `the curves share ${compared} columns`);
  return worst;
}

test("emsim plot draws a graded line like the same line on a fine uniform grid", () => {
  // A signed wave that levels off at ±1 (with a continuous slope: a kink would make the
  // graded line's chords cut its corners), so that both samplings reach the same range.
  const kLine = (2 * Math.PI) / 3e-6;
  const level = (s: number) => {
    const a = Math.abs(s);
    return Math.sign(s) * (a <= 0.7 ? a : a >= 1.3 ? 1 : a - (a - 0.7) ** 2 / 1.2);
  };
  const wave = (_x: number, z: number) => level(1.6 * Math.sin(kLine * z));
  const lineMap = (z: Float64Array, values: Float32Array): FieldMap =>
    fieldMap(new Float64Array([0]), z, values);
  // A line runs from its first sample to its last: the reference's are the graded line's.
  const fine = evenly(Z[0]!, Z[Z.length - 1]!, 1000);
  const reference = curveRows(
    renderFieldPlot(lineMap(fine, sampled([0], fine, wave)), { part: "real" }),
  );
  const graded = curveRows(renderFieldPlot(lineMap(Z, sampled([0], Z, wave)), { part: "real" }));
  // Straight segments between the graded samples stray from the wave by at most
  // h² · max|f''| / 8, with |f''| ≤ (1.6 k)² / 0.6 + 1.6 k² ≈ 5.9 k²: 0.008 at h = 50 nm, of
  // a ±1.05 range over 325 rows, about 1.2 rows; plus the rasterising of the 2-pixel line.
  const shift = largestShift(graded, reference);
  assert.ok(shift <= 4, `the curves are ${shift} pixels apart`);
  const misplaced = curveRows(
    renderFieldPlot(lineMap(evenly(Z[0]!, Z[Z.length - 1]!, Z.length), sampled([0], Z, wave)), {
      part: "real",
    }),
  );
  assert.ok(largestShift(misplaced, reference) > 20, "by index the curve would be elsewhere");
});
