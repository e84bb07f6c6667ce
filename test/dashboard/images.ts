/**
 * Screenshots compared with reference images: a per-pixel comparison that tolerates
 * antialiasing noise but not a changed colour, layout or tick. (PNGs are read with the tests'
 * independent reader, test/cli/helpers.ts; Chromium's screenshots are 8-bit RGB.)
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { decodePng, type DecodedPng } from "../cli/helpers.js";

export interface ImageDifference {
  /** Pixels whose largest channel difference exceeds the tolerance. */
  differing: number;
  total: number;
  /** The largest channel difference anywhere. */
  maxDelta: number;
}

/** Per-pixel difference of two images of the same size (null when the sizes differ). */
export function compareImages(
  actual: DecodedPng,
  expected: DecodedPng,
  channelTolerance: number,
): ImageDifference | null {
  if (actual.width !== expected.width || actual.height !== expected.height) return null;
  let differing = 0;
  let maxDelta = 0;
  for (let i = 0; i < actual.rgb.length; i += 3) {
    let delta = 0;
    for (let c = 0; c < 3; c++) {
      delta = Math.max(delta, Math.abs(actual.rgb[i + c]! - expected.rgb[i + c]!));
    }
    if (delta > channelTolerance) differing++;
    maxDelta = Math.max(maxDelta, delta);
  }
  return { differing, total: actual.rgb.length / 3, maxDelta };
}

/** The dashboard tests' reference images (test/dashboard/fixtures/). */
export const FIXTURES = new URL("./fixtures/", import.meta.url);

/**
 * With EMSIM_UPDATE_PLOT_REFERENCES=1 the screenshot tests save new references instead of
 * comparing (after a deliberate change of a picture's look; look at them before committing).
 */
export const UPDATE_REFERENCES = process.env.EMSIM_UPDATE_PLOT_REFERENCES === "1";

/**
 * Asserts that a screenshot matches the reference `name` in FIXTURES: no pixel's largest channel
 * difference above `channelTolerance`, but for a share `maxDiffering` of them (text
 * rasterisation at a few edges). A failing screenshot is kept as /tmp/emsim-actual-<name>.
 */
export function assertMatchesReference(
  name: string,
  png: Buffer,
  { channelTolerance = 24, maxDiffering = 0.002 } = {},
): void {
  const reference = new URL(name, FIXTURES);
  if (UPDATE_REFERENCES) {
    mkdirSync(FIXTURES, { recursive: true });
    writeFileSync(reference, png);
    return;
  }
  const diff = compareImages(decodePng(png), decodePng(readFileSync(reference)), channelTolerance);
  if (!diff || diff.differing > maxDiffering * diff.total) {
    writeFileSync(`/tmp/emsim-actual-${name}`, png);
    assert.fail(
      `${name}: the picture differs from the reference (${
        diff ? `${diff.differing} of ${diff.total} pixels, up to ${diff.maxDelta}` : "another size"
      }); the screenshot is /tmp/emsim-actual-${name}`,
    );
  }
}
