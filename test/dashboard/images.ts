/**
 * Screenshots compared with reference images: a per-pixel comparison that tolerates
 * antialiasing noise but not a changed colour, layout or tick. (PNGs are read with the tests'
 * independent reader, test/cli/helpers.ts; Chromium's screenshots are 8-bit RGB.)
 */
import type { DecodedPng } from "../cli/helpers.js";

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
