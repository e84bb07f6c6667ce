// @ts-check
/* global atob */
/**
 * What the job page's field plots share: the shapes of the dashboard's plot payloads
 * (src/dashboard/plots.ts), labels, number formats, and the plotting core's ticks as the
 * canvases use them.
 */
import { fieldLabel, MINUS, niceTicks as coreTicks, ROUND_STEPS } from "./plot-core.js";

export { formatMicrons as formatUm, MINUS, unitOf } from "./plot-core.js";

/**
 * @typedef {{ name: string, kind: "point"|"line"|"plane"|"volume", axes: string[],
 *   shape: number[], components: string[], wavelengths_m: number[], center_m: number[],
 *   size_m: number[], quantities: string[], plottable: boolean,
 *   slice: { axis: string, count: number, coordinates_um: number[] } | null }} Monitor
 * @typedef {[number, number][][]} Rings
 * @typedef {{ type: string, material: string, center_m?: number[], size_m?: number[],
 *   radius_m?: number, height_m?: number, axis?: string, z_min_m?: number, z_max_m?: number,
 *   rings_m?: { bottom: Rings, top: Rings } }} Structure
 * @typedef {{ job_id: string, source_wavelength_m: number | null, monitors: Monitor[],
 *   structures: Structure[] }} Summary
 * @typedef {{ monitor: string, quantity: string, wavelength_m: number, kind: string,
 *   axes: string[], coords_um: number[][], shape: number[], full_shape: number[],
 *   slice: { axis: string, index: number, count: number, coordinate_um: number } | null,
 *   from_components: string[], scale: number, max_abs: number, abs?: string, re?: string,
 *   im?: string }} Payload
 * @typedef {{ payload: Payload, abs?: Float32Array, re?: Float32Array, im?: Float32Array }} Field
 */

export const AXES = ["x", "y", "z"];
export const FONT = "12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
export const SMALL_FONT = "11px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/** @param {string} q */
export const isMagnitude = (q) => q === "E" || q === "H";
/**
 * `|E|` for a magnitude, `Re Ex` for a component (the payload carries its real part).
 * @param {string} q
 */
export const quantityLabel = (q) => fieldLabel(q, isMagnitude(q) ? "abs" : "real");

/** @param {number} m */
export function nm(m) {
  return `${+(m * 1e9).toFixed(1)} nm`;
}

/**
 * Round numbers for axis ticks between min and max, about `count` of them.
 * @param {number} min @param {number} max @param {number} count
 */
export const niceTicks = (min, max, count) => coreTicks(min, max, count, ROUND_STEPS);
/** @param {number} v */
export function formatValue(v) {
  if (v === 0) return "0";
  const a = Math.abs(v);
  const text = a >= 1e4 || a < 1e-3 ? v.toExponential(3) : v.toPrecision(4);
  return text.replace("-", MINUS);
}

/**
 * The plane of a plane payload (or a volume's slice): the axes it spans, the axis normal to it
 * and where it cuts that axis, in µm.
 * @param {Monitor} monitor @param {Payload} p
 */
export function planeOf(monitor, p) {
  const u = /** @type {0|1|2} */ (AXES.indexOf(p.axes[0] ?? "x"));
  const v = /** @type {0|1|2} */ (AXES.indexOf(p.axes[1] ?? "y"));
  const normal = /** @type {0|1|2} */ ([0, 1, 2].find((a) => a !== u && a !== v) ?? 2);
  const cutUm = p.slice ? p.slice.coordinate_um : (monitor.center_m[normal] ?? 0) * 1e6;
  return { u, v, normal, cutUm };
}

/**
 * @param {string} b64 little-endian int16 samples
 * @param {number} scale
 */
export function decode(b64, scale) {
  const bin = atob(b64);
  const out = new Float32Array(bin.length / 2);
  for (let i = 0; i < out.length; i++) {
    let v = bin.charCodeAt(2 * i) | (bin.charCodeAt(2 * i + 1) << 8);
    if (v >= 32768) v -= 65536;
    out[i] = v * scale;
  }
  return out;
}

/**
 * The structures in the plotting core's terms (metres).
 * @param {Structure[]} structures
 */
export function shapes(structures) {
  return structures.map((s) => ({
    type: s.type,
    ...(s.center_m ? { center: s.center_m } : {}),
    ...(s.size_m ? { size: s.size_m } : {}),
    ...(s.radius_m !== undefined ? { radius: s.radius_m } : {}),
    ...(s.height_m !== undefined ? { height: s.height_m } : {}),
    ...(s.axis ? { axis: s.axis } : {}),
    ...(s.z_min_m !== undefined ? { z_min: s.z_min_m } : {}),
    ...(s.z_max_m !== undefined ? { z_max: s.z_max_m } : {}),
    ...(s.rings_m ? { ends: s.rings_m } : {}),
  }));
}
