/**
 * The radiation pattern's cuts (polar.ts): which recorded azimuths a cut takes, its opposite
 * half, the normalisation to the peak over every direction, and the words of the title. The
 * drawing itself is checked from the PNG in test/cli/far-field-plot.test.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { FarFieldPattern } from "../results/read.js";
import {
  azimuthIndex,
  defaultCuts,
  formatIntensity,
  patternCuts,
  patternPeak,
  renderPolarPattern,
} from "./polar.js";
import { PALETTE } from "./spectrum.js";

/** U = 2·sin²θ at φ = 0°, sin²θ elsewhere; θ 0–180° in 45° steps, φ 0–270° in 90° steps. */
const PATTERN: FarFieldPattern = {
  name: "p",
  wavelengthsM: [1e-6],
  unit: "W/sr",
  thetaDeg: [0, 45, 90, 135, 180],
  phiDeg: [0, 90, 180, 270],
  radiantIntensity: [
    [0, 45, 90, 135, 180].map((t) =>
      [0, 90, 180, 270].map((p) => (p === 0 ? 2 : 1) * Math.sin((t * Math.PI) / 180) ** 2),
    ),
  ],
};

test("a cut takes the recorded azimuth within half a degree, modulo 360°", () => {
  assert.equal(azimuthIndex([0, 90, 180, 270], 90.4), 1);
  assert.equal(azimuthIndex([0, 90, 180, 270], 89), -1);
  assert.equal(azimuthIndex([0, 90, 180, 270], 359.7), 0);
  assert.equal(azimuthIndex([0, 90, 180, 270], -90), 3);
  assert.equal(azimuthIndex([5, 355], 0), -1);
});

test("the default cuts are φ = 0° and 90° where recorded, else the first azimuth", () => {
  assert.deepEqual(defaultCuts([0, 45, 90, 135]), [0, 90]);
  assert.deepEqual(defaultCuts([90, 180]), [90]);
  assert.deepEqual(defaultCuts([30, 60]), [30]);
});

test("a cut is normalised to the peak over every direction, with its opposite half", () => {
  const peak = patternPeak(PATTERN, 0);
  assert.equal(peak, 2);
  const [zero, ninety] = patternCuts(PATTERN, 0, [0, 90], peak);
  assert.equal(zero!.oppositeDeg, 180);
  assert.deepEqual(
    zero!.right.map((v) => +v.toFixed(6)),
    [0, 0.5, 1, 0.5, 0],
  );
  assert.deepEqual(
    zero!.left!.map((v) => +v.toFixed(6)),
    [0, 0.25, 0.5, 0.25, 0],
  );
  assert.equal(ninety!.oppositeDeg, 270);
  const [lone] = patternCuts({ ...PATTERN, phiDeg: [0, 90, 200, 270] }, 0, [0], peak);
  assert.equal(lone!.oppositeDeg, null);
  assert.equal(lone!.left, null);
  assert.throws(() => patternCuts(PATTERN, 0, [45], peak), /did not record φ = 45°/);
});

test("intensities in the title: plain between 0.01 and 10⁴ W/sr, else with an exponent", () => {
  assert.equal(formatIntensity(0.0125), "0.0125 W/sr");
  assert.equal(formatIntensity(1234.5), "1235 W/sr");
  assert.equal(formatIntensity(4.7123e13), "4.71e+13 W/sr");
  assert.equal(formatIntensity(0), "0 W/sr");
});

test("a pattern without power draws its frame and no curve", () => {
  const dark = { ...PATTERN, radiantIntensity: [PATTERN.thetaDeg.map(() => [0, 0, 0, 0])] };
  const c = renderPolarPattern(dark);
  assert.ok(c.width > 400 && c.height > 400);
});

test("the x–y plane is drawn with φ = 0° to the right and 90° up (counter-clockwise)", () => {
  // One narrow lobe at φ = 0° in one picture and at 90° in another: the same layout, so the
  // polar centre is where each curve starts; the first lobe runs right of it, the second up.
  const phiDeg = Array.from({ length: 72 }, (_, i) => 5 * i);
  const lobe = (at: number): FarFieldPattern => ({
    name: "line",
    wavelengthsM: [1e-6],
    unit: "W/rad",
    thetaDeg: [90],
    phiDeg,
    radiantIntensity: [
      [phiDeg.map((p) => Math.max(0, Math.cos(((p - at) * Math.PI) / 180)) ** 40)],
    ],
  });
  const extent = (pattern: FarFieldPattern) => {
    const c = renderPolarPattern(pattern);
    const [r, g, b] = PALETTE[0]!;
    const points: [number, number][] = [];
    for (let y = 0; y < c.height; y++) {
      for (let x = 0; x < c.width; x++) {
        const [pr, pg, pb] = c.getPixel(x, y);
        if (pr === r && pg === g && pb === b) points.push([x, y]);
      }
    }
    // The legend's swatch lies below the plot, past a gap of rows.
    const rows = [...new Set(points.map(([, y]) => y))].sort((p, q) => p - q);
    const gap = rows.findIndex((y, k) => k > 0 && y - rows[k - 1]! > 20);
    const curve = gap < 0 ? points : points.filter(([, y]) => y < rows[gap]!);
    const xs = curve.map(([x]) => x);
    const ys = curve.map(([, y]) => y);
    return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
  };
  const [east, north] = [extent(lobe(0)), extent(lobe(90))];
  // The east lobe starts at the centre's x and reaches 200 px right; the north one starts at
  // the centre's y and reaches 200 px up.
  assert.ok(Math.abs(east.x0 - (north.x0 + north.x1) / 2) < 4, JSON.stringify({ east, north }));
  assert.ok(east.x1 - east.x0 > 190, JSON.stringify(east));
  assert.ok(Math.abs(north.y1 - (east.y0 + east.y1) / 2) < 4, JSON.stringify({ east, north }));
  assert.ok(north.y1 - north.y0 > 190, JSON.stringify(north));
});
