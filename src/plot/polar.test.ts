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
