/**
 * Screenshots compared with reference images: a PNG reader (8-bit RGB/RGBA, non-interlaced, the
 * kind Chromium's screenshots and src/plot/png.ts write) and a per-pixel comparison that
 * tolerates antialiasing noise but not a changed colour, layout or tick.
 */
import { inflateSync } from "node:zlib";

export interface RgbaImage {
  width: number;
  height: number;
  /** width × height × (r, g, b, a). */
  data: Uint8Array;
}

/** Decodes a PNG (colour type 2 or 6, bit depth 8, no interlacing; PNG spec §§ 11–12). */
export function decodePng(png: Uint8Array): RgbaImage {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  while (offset < png.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) {
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}`);
      }
      channels = colour === 6 ? 4 : 3;
    } else if (type === "IDAT") idat.push(body);
    else if (type === "IEND") break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = rows.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? rows.subarray((y - 1) * stride, y * stride) : new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? row[i - channels]! : 0;
      const b = up[i]!;
      const c = i >= channels ? up[i - channels]! : 0;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      row[i] = (src[i]! + predictor) & 255;
    }
  }
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    data.set(rows.subarray(p * channels, p * channels + 3), p * 4);
    data[p * 4 + 3] = channels === 4 ? rows[p * channels + 3]! : 255;
  }
  return { width, height, data };
}

export interface ImageDifference {
  /** Pixels whose largest channel difference exceeds the tolerance. */
  differing: number;
  total: number;
  /** The largest channel difference anywhere. */
  maxDelta: number;
}

/** Per-pixel difference of two images of the same size (null when the sizes differ). */
export function compareImages(
  actual: RgbaImage,
  expected: RgbaImage,
  channelTolerance: number,
): ImageDifference | null {
  if (actual.width !== expected.width || actual.height !== expected.height) return null;
  let differing = 0;
  let maxDelta = 0;
  for (let i = 0; i < actual.data.length; i += 4) {
    let delta = 0;
    for (let c = 0; c < 4; c++) {
      delta = Math.max(delta, Math.abs(actual.data[i + c]! - expected.data[i + c]!));
    }
    if (delta > channelTolerance) differing++;
    maxDelta = Math.max(maxDelta, delta);
  }
  return { differing, total: actual.data.length / 4, maxDelta };
}
