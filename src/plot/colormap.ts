/**
 * The colour maps of every field plot: the CLI's PNGs (field-plot.ts) and the dashboard's
 * canvases, which load this module compiled (part of the plotting core the dashboard serves,
 * browser.ts). So: plain TypeScript, no Node or DOM.
 *
 * Anchors are interpolated in OKLab (Ottosson 2020, https://bottosson.github.io/posts/oklab/),
 * a perceptual space where straight lines give even steps in perceived colour; plain sRGB
 * interpolation makes muddy, uneven midpoints. Each map is precomputed as a 256-entry table.
 */

export type Rgb = [number, number, number];

export interface Colormap {
  name: string;
  /** 256 colours × (r, g, b), 0–255. */
  lut: Uint8Array;
  /** Whether the map is meant for data symmetric about zero. */
  diverging: boolean;
}

function hexToRgb(hex: string): Rgb {
  const v = parseInt(hex.replace("#", ""), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

const toLinear = (c: number) => {
  const x = c / 255;
  return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
};
const fromLinear = (x: number) => {
  const c = x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055;
  return Math.round(Math.min(1, Math.max(0, c)) * 255);
};

/** sRGB (0–255) → OKLab [L, a, b]. */
export function rgbToOklab([r8, g8, b8]: Rgb): [number, number, number] {
  const r = toLinear(r8);
  const g = toLinear(g8);
  const b = toLinear(b8);
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

/** OKLab [L, a, b] → sRGB (0–255), clipped to the gamut. */
export function oklabToRgb([L, A, B]: [number, number, number]): Rgb {
  const l = (L + 0.3963377774 * A + 0.2158037573 * B) ** 3;
  const m = (L - 0.1055613458 * A - 0.0638541728 * B) ** 3;
  const s = (L - 0.0894841775 * A - 1.291485548 * B) ** 3;
  return [
    fromLinear(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    fromLinear(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    fromLinear(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  ];
}

/** A 256-entry table through evenly spaced anchor colours, interpolated in OKLab. */
export function buildColormap(name: string, anchors: string[], diverging = false): Colormap {
  const labs = anchors.map((h) => rgbToOklab(hexToRgb(h)));
  const lut = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (labs.length - 1);
    const k = Math.min(labs.length - 2, Math.floor(t));
    const f = t - k;
    const a = labs[k]!;
    const b = labs[k + 1]!;
    const rgb = oklabToRgb([
      a[0] + (b[0] - a[0]) * f,
      a[1] + (b[1] - a[1]) * f,
      a[2] + (b[2] - a[2]) * f,
    ]);
    lut.set(rgb, i * 3);
  }
  return { name, lut, diverging };
}

/**
 * `sequential` ("ember") for magnitudes: near-black → violet → crimson → orange → pale yellow,
 * lightness rising monotonically, so brighter always means stronger and the map survives
 * greyscale printing and the common colour-vision deficiencies.
 */
export const sequential = buildColormap("ember", [
  "#0a0c24",
  "#2a1a63",
  "#6f1f78",
  "#b8325e",
  "#ea6f3a",
  "#f9c86a",
  "#fdf3c4",
]);

/**
 * `diverging` ("tide") for signed quantities: blue (negative) → near-white (zero) → red
 * (positive), with matching lightness on both sides so neither sign looks stronger.
 */
export const diverging = buildColormap(
  "tide",
  ["#0c2a67", "#3a78cf", "#b7d3ef", "#f6f5f2", "#f2b8a2", "#d4503c", "#6e0c1c"],
  true,
);

/**
 * `permittivity` ("glass") for a set-up's ε (setup-plot.ts): white (vacuum) → pale blue → deep
 * navy for the highest index, so that empty space stays light under the objects drawn over it
 * and a denser material reads darker, as in a drawing of the device.
 */
export const permittivity = buildColormap("glass", [
  "#ffffff",
  "#dcebf5",
  "#a3c9e2",
  "#5f9ac8",
  "#2f62a0",
  "#12305f",
]);

export const COLORMAPS: Record<string, Colormap> = { sequential, diverging, permittivity };

/** Index into a map's table of t in [0, 1] (clamped); -1 for NaN. */
function lutIndex(t: number): number {
  return Number.isNaN(t) ? -1 : Math.round(Math.min(1, Math.max(0, t)) * 255) * 3;
}

/** Colour for t in [0, 1] (clamped); NaN gives mid grey. */
export function colorAt(map: Colormap, t: number): Rgb {
  const i = lutIndex(t);
  return i < 0 ? [128, 128, 128] : [map.lut[i]!, map.lut[i + 1]!, map.lut[i + 2]!];
}

/**
 * Writes colorAt(map, t) into RGBA pixel data at `offset`, opaque: what a canvas ImageData
 * takes (heat.ts's sample images).
 */
export function paint(map: Colormap, t: number, out: Uint8ClampedArray, offset: number): void {
  const i = lutIndex(t);
  out[offset] = i < 0 ? 128 : map.lut[i]!;
  out[offset + 1] = i < 0 ? 128 : map.lut[i + 1]!;
  out[offset + 2] = i < 0 ? 128 : map.lut[i + 2]!;
  out[offset + 3] = 255;
}

export function toHex([r, g, b]: Rgb): string {
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/** A CSS gradient of the map (for colour bars in HTML), from `steps` evenly spaced colours. */
export function cssGradient(map: Colormap, direction = "to right", steps = 16): string {
  const stops = Array.from({ length: steps }, (_, i) => {
    const t = i / (steps - 1);
    return `${toHex(colorAt(map, t))} ${(t * 100).toFixed(1)}%`;
  });
  return `linear-gradient(${direction}, ${stops.join(", ")})`;
}
