/**
 * A minimal PNG encoder (ISO/IEC 15948, https://www.w3.org/TR/png/): 8-bit RGB, no
 * interlacing, every scanline with the Up filter (plots repeat a lot vertically, which Up
 * turns into zeros that deflate well), zlib from Node, optional tEXt chunks.
 */
import { deflateSync } from "node:zlib";

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as PNG uses it (over chunk type and data). */
export function crc32(...parts: Uint8Array[]): number {
  let c = 0xffffffff;
  for (const bytes of parts) {
    for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  const typeBytes = Buffer.from(type, "latin1");
  typeBytes.copy(out, 4);
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(out, 8);
  out.writeUInt32BE(crc32(typeBytes, data), 8 + data.length);
  return out;
}

/**
 * Encodes `rgb` (width × height × 3 bytes, rows top to bottom) as a PNG. `text` becomes tEXt
 * chunks (Latin-1 keywords and values, e.g. Software, Title).
 */
export function encodePng(
  width: number,
  height: number,
  rgb: Uint8Array,
  text: Record<string, string> = {},
): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`invalid image size ${width} × ${height}`);
  }
  if (rgb.length !== width * height * 3) {
    throw new RangeError(`expected ${width * height * 3} bytes of RGB, got ${rgb.length}`);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0; // deflate
  ihdr[11] = 0; // adaptive filtering
  ihdr[12] = 0; // no interlace

  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1);
    raw[row] = 2; // Up: each byte minus the byte above
    for (let i = 0; i < stride; i++) {
      const above = y > 0 ? rgb[(y - 1) * stride + i]! : 0;
      raw[row + 1 + i] = (rgb[y * stride + i]! - above) & 0xff;
    }
  }

  const chunks = [PNG_SIGNATURE, chunk("IHDR", ihdr)];
  for (const [key, value] of Object.entries(text)) {
    chunks.push(chunk("tEXt", Buffer.from(`${key}\0${value}`, "latin1")));
  }
  chunks.push(chunk("IDAT", deflateSync(raw, { level: 9 })), chunk("IEND", new Uint8Array(0)));
  return Buffer.concat(chunks);
}
