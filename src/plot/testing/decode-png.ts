/**
 * An independent PNG reader for the tests of the plotting core and of the CLI's and the
 * dashboard's images: it shares no code with the encoder (src/plot/png.ts) it checks.
 */
import { inflateSync } from "node:zlib";

export interface DecodedPng {
  width: number;
  height: number;
  /** RGB, 3 bytes per pixel, rows top to bottom. */
  rgb: Uint8Array;
  text: Record<string, string>;
}

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/**
 * An independent PNG reader for the tests (8-bit RGB, all five filter types): checks the
 * signature, every chunk's CRC and the data length, and returns the pixels.
 */
export function decodePng(buf: Buffer): DecodedPng {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((b, i) => buf[i] === b)) throw new Error("not a PNG signature");
  let pos = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  const text: Record<string, string> = {};
  let ended = false;
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString("latin1", pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    const crc = buf.readUInt32BE(pos + 8 + len);
    if (crc32(buf.subarray(pos + 4, pos + 8 + len)) !== crc) throw new Error(`bad CRC in ${type}`);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[9] !== 2 || data[12] !== 0) throw new Error("expected 8-bit RGB");
    } else if (type === "IDAT") idat.push(data);
    else if (type === "tEXt") {
      const zero = data.indexOf(0);
      text[data.toString("latin1", 0, zero)] = data.toString("latin1", zero + 1);
    } else if (type === "IEND") ended = true;
    pos += 12 + len;
  }
  if (!ended) throw new Error("no IEND chunk");
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 3;
  if (raw.length !== (stride + 1) * height) throw new Error("wrong amount of image data");
  const rgb = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= 3 ? rgb[y * stride + i - 3]! : 0;
      const b = y > 0 ? rgb[(y - 1) * stride + i]! : 0;
      const c = i >= 3 && y > 0 ? rgb[(y - 1) * stride + i - 3]! : 0;
      let pred = 0;
      if (filter === 1) pred = a;
      else if (filter === 2) pred = b;
      else if (filter === 3) pred = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error(`bad filter ${filter}`);
      rgb[y * stride + i] = (x + pred) & 0xff;
    }
  }
  return { width, height, rgb, text };
}

/** Distinct colours inside a rectangle of a decoded image. */
export function coloursIn(
  png: DecodedPng,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): Set<number> {
  const out = new Set<number>();
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * png.width + x) * 3;
      out.add((png.rgb[i]! << 16) | (png.rgb[i + 1]! << 8) | png.rgb[i + 2]!);
    }
  }
  return out;
}
