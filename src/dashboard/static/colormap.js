// @ts-check
/**
 * Colour maps for the field plots, built here from a few anchor colours interpolated in OKLab
 * (Ottosson 2020), where equal steps look like equal changes, into 256-entry tables.
 *
 * - `sequential` for magnitudes |E|, |H|: near-black → violet → crimson → orange → pale
 *   yellow; lightness rises monotonically, so brighter always means stronger and the map
 *   survives greyscale printing and the common colour-vision deficiencies.
 * - `diverging` for real parts: blue (negative) → near-white (zero) → red (positive), with
 *   matching lightness on both sides so neither sign looks stronger.
 */

/** @typedef {{ table: Uint8ClampedArray, name: string }} Colormap */

/** @param {string} hex "#rrggbb" @returns {[number, number, number]} sRGB in 0–1 */
function parseHex(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

/** @param {number} c */
const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
/** @param {number} c */
const toGamma = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

/** @param {[number, number, number]} rgb @returns {[number, number, number]} */
function rgbToOklab([r, g, b]) {
  const lr = toLinear(r);
  const lg = toLinear(g);
  const lb = toLinear(b);
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

/** @param {[number, number, number]} lab @returns {[number, number, number]} */
function oklabToRgb([L, a, b]) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    toGamma(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    toGamma(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    toGamma(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  ];
}

/**
 * @param {string} name
 * @param {string[]} anchors evenly spaced along the map
 * @returns {Colormap}
 */
function build(name, anchors) {
  const labs = anchors.map((hex) => rgbToOklab(parseHex(hex)));
  const table = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (labs.length - 1);
    const k = Math.min(labs.length - 2, Math.floor(t));
    const f = t - k;
    const lo = labs[k];
    const hi = labs[k + 1];
    if (!lo || !hi) continue;
    const rgb = oklabToRgb([
      lo[0] + (hi[0] - lo[0]) * f,
      lo[1] + (hi[1] - lo[1]) * f,
      lo[2] + (hi[2] - lo[2]) * f,
    ]);
    table[i * 3] = Math.round(Math.min(1, Math.max(0, rgb[0])) * 255);
    table[i * 3 + 1] = Math.round(Math.min(1, Math.max(0, rgb[1])) * 255);
    table[i * 3 + 2] = Math.round(Math.min(1, Math.max(0, rgb[2])) * 255);
  }
  return { name, table };
}

export const sequential = build("ember", [
  "#0a0c24",
  "#2a1a63",
  "#6f1f78",
  "#b8325e",
  "#ea6f3a",
  "#f9c86a",
  "#fdf3c4",
]);

export const diverging = build("tide", [
  "#0c2a67",
  "#3a78cf",
  "#b7d3ef",
  "#f6f5f2",
  "#f2b8a2",
  "#d4503c",
  "#6e0c1c",
]);

/**
 * Writes the colour of `t` (0–1, clamped) into `out` at `offset` (RGBA).
 * @param {Colormap} map
 * @param {number} t
 * @param {Uint8ClampedArray} out
 * @param {number} offset
 */
export function paint(map, t, out, offset) {
  const i = Number.isFinite(t) ? Math.round(Math.min(1, Math.max(0, t)) * 255) * 3 : 0;
  out[offset] = map.table[i] ?? 0;
  out[offset + 1] = map.table[i + 1] ?? 0;
  out[offset + 2] = map.table[i + 2] ?? 0;
  out[offset + 3] = 255;
}
