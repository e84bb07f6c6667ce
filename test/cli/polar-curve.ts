/**
 * Reading a radiation pattern's polar plot (src/plot/polar.ts) back from its PNG: the pixels of
 * a curve, and a check that they follow an analytic polar curve r(θ). Shared by the CLI's
 * (far-field-plot.test.ts) and the dashboard's (test/dashboard/far-field.test.ts) tests.
 */
import assert from "node:assert/strict";
import type { DecodedPng } from "./helpers.js";

/** The curves' colours (src/plot/spectrum.ts PALETTE, in cut order). */
export const FIRST: [number, number, number] = [31, 95, 168];
export const SECOND: [number, number, number] = [204, 85, 0];

export const deg = (d: number) => (d * Math.PI) / 180;

/** The pixels of one colour above the legend (the curve; the legend's swatch lies below a gap). */
export function curvePixels(
  image: DecodedPng,
  [r, g, b]: [number, number, number],
): [number, number][] {
  const out: [number, number][] = [];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 3;
      if (image.rgb[i] === r && image.rgb[i + 1] === g && image.rgb[i + 2] === b) out.push([x, y]);
    }
  }
  const rows = [...new Set(out.map(([, y]) => y))].sort((a, b) => a - b);
  const gap = rows.findIndex((y, k) => k > 0 && y - rows[k - 1]! > 20);
  return gap < 0 ? out : out.filter(([, y]) => y < rows[gap]!);
}

/** Where a plot's polar area lies: its centre and radius in pixels. */
export interface PolarFrame {
  cx: number;
  cy: number;
  radius: number;
}

/**
 * The polar area a curve r(θ) (0 to 1 of the radius) is drawn in, from its pixels: the centre is
 * the middle of the curve's extent (each pattern here is symmetric about both axes), the radius
 * follows from its extent across, where r(90°) lies, less the line's width. A line of even
 * width sits half a pixel right of and below its points: so do this centre and the analytic
 * curves checkCurve compares with.
 */
export function frameOf(
  pixels: [number, number][],
  r: (thetaDeg: number) => number,
  lineWidth = 2,
): PolarFrame {
  const xs = pixels.map(([x]) => x);
  const ys = pixels.map(([, y]) => y);
  return {
    cx: (Math.min(...xs) + Math.max(...xs)) / 2,
    cy: (Math.min(...ys) + Math.max(...ys)) / 2,
    radius: (Math.max(...xs) - Math.min(...xs) + 1 - lineWidth) / 2 / r(90),
  };
}

/**
 * Checks a curve against the polar curve r(θ), θ from up, clockwise on the right half and
 * mirrored on the left, in `frame` (default: frameOf the pixels). Every pixel must be within
 * `tolerancePx` (default: by the line's width, 2.5 pixels for 2) of the analytic curve and, unless `partial` (a curve another one covers), the
 * curve must pass near every analytic point away from the centre.
 */
export function checkCurve(
  pixels: [number, number][],
  r: (thetaDeg: number) => number,
  what: string,
  options: { tolerancePx?: number; frame?: PolarFrame; partial?: boolean; lineWidth?: number } = {},
): PolarFrame {
  // A square brush's corners reach 0.7 of its width from the line on a diagonal.
  const tolerance = options.tolerancePx ?? 1 + 0.75 * (options.lineWidth ?? 2);
  if (!options.partial) assert.ok(pixels.length > 200, `${what}: ${pixels.length} pixels`);
  const frame = options.frame ?? frameOf(pixels, r, options.lineWidth);
  const { cx, cy, radius } = frame;
  const analytic: [number, number][] = [];
  for (let t = 0; t <= 180; t += 0.25) {
    const rr = radius * r(t);
    analytic.push([cx + rr * Math.sin(deg(t)), cy - rr * Math.cos(deg(t))]);
    analytic.push([cx - rr * Math.sin(deg(t)), cy - rr * Math.cos(deg(t))]);
  }
  const near = (p: [number, number], set: [number, number][]) =>
    Math.min(...set.map(([x, y]) => Math.hypot(x - p[0], y - p[1])));
  const far = pixels.filter((p) => near(p, analytic) > tolerance);
  assert.deepEqual(far.slice(0, 5), [], `${what}: ${far.length} pixels off the curve`);
  if (options.partial) return frame;
  for (let t = 10; t <= 170; t += 10) {
    const rr = radius * r(t);
    if (rr < 10) continue;
    for (const side of [1, -1]) {
      const p: [number, number] = [cx + side * rr * Math.sin(deg(t)), cy - rr * Math.cos(deg(t))];
      assert.ok(near(p, pixels) < tolerance, `${what}: nothing drawn at θ = ${t}°, side ${side}`);
    }
  }
  return frame;
}
