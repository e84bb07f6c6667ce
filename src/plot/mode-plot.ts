/**
 * A waveguide mode of `POST /v1/modes` (its fields at the plane's cell centres) as a heat map
 * over the plane, drawn by the same code as a field monitor's plot (field-plot.ts): axes in
 * micrometres, a colour bar, and the structures' outlines where the plane cuts them. The
 * mode's |E| (or |H|) is the default: it shows where the mode's energy is, whatever its
 * polarisation; a single component can be drawn as its magnitude or its real or imaginary
 * part (the solver makes the largest transverse E sample real, so `real` shows its sign).
 */
import type { Static } from "typebox";
import type { FieldMap } from "../results/read.js";
import type { ModeResultSchema, ModesResponseSchema } from "../schema/modes.js";
import type { StructureSpec } from "../solver/index.js";
import { fieldPlotPng, type FieldPart } from "./field-plot.js";
import { formatMicrons } from "./labels.js";

type ModesAnswer = Static<typeof ModesResponseSchema>;
type Mode = Static<typeof ModeResultSchema>;

/**
 * |k_eff| below this is the eigensolver's round-off on a lossless guide (1e-13 to 1e-17 on
 * the strip of docs/api.md), not a loss: 1e-10 is 4·10⁻⁴ dB/m at 1.55 µm. Shown as none.
 */
export const NEGLIGIBLE_K_EFF = 1e-10;

/** What a mode plot can show: a field's magnitude (`E`, `H`) or one of the six components. */
export const MODE_COMPONENTS = ["E", "H", "Ex", "Ey", "Ez", "Hx", "Hy", "Hz"] as const;
export type ModeComponent = (typeof MODE_COMPONENTS)[number];

export interface ModePlotOptions {
  /** Default `E`: |E| = √(|Ex|² + |Ey|² + |Ez|²). */
  component?: ModeComponent;
  /** Default `abs`; `real` and `imag` only for a single component. */
  part?: FieldPart;
  /** The request's structures, outlined where the plane cuts them. */
  structures?: readonly StructureSpec[];
  /** Longest side of the plot area in pixels. Default 520. */
  size?: number;
}

/**
 * The mode's chosen component as a field map over the plane (`u` and `v` the cell centres, in
 * metres; index i·n_v + j as the answer's). Throws when the answer carries no fields.
 */
export function modeFieldMap(
  answer: ModesAnswer,
  mode: Mode,
  component: ModeComponent = "E",
): FieldMap {
  const [ua, va] = answer.plane.axes;
  const u = answer.grid?.[`${ua}_m`];
  const v = answer.grid?.[`${va}_m`];
  if (!mode.fields || !u || !v) {
    throw new Error("the modes were solved without their fields (include_fields: true)");
  }
  const fields = mode.fields;
  const n = u.length * v.length;
  const re = new Float32Array(n);
  const im = new Float32Array(n);
  if (component === "E" || component === "H") {
    // The magnitude of the whole vector: a real map (its imaginary part zero).
    for (const axis of ["x", "y", "z"]) {
      const c = fields[`${component}${axis}`]!;
      for (let k = 0; k < n; k++) re[k] = re[k]! + c.re[k]! ** 2 + c.im[k]! ** 2;
    }
    for (let k = 0; k < n; k++) re[k] = Math.sqrt(re[k]!);
  } else {
    const c = fields[component]!;
    re.set(c.re);
    im.set(c.im);
  }
  return {
    monitor: `mode ${mode.mode_index}`,
    component,
    wavelengthM: mode.wavelength_m,
    axes: [ua, va],
    u: Float64Array.from(u),
    v: Float64Array.from(v),
    re,
    im,
    fullShape: [u.length, v.length],
    slice: null,
  };
}

/** The heat map of one mode as PNG bytes: its index, n_eff and TE fraction in the titles. */
export function modePlotPng(
  answer: ModesAnswer,
  mode: Mode,
  options: ModePlotOptions = {},
): Buffer {
  const component = options.component ?? "E";
  const part = options.part ?? "abs";
  if (part !== "abs" && (component === "E" || component === "H")) {
    throw new RangeError(
      `|${component}| has no ${part} part: name a component, e.g. ${component}x`,
    );
  }
  const map = modeFieldMap(answer, mode, component);
  const { normal, position_m: positionM } = answer.plane;
  const loss =
    Math.abs(mode.k_eff) >= NEGLIGIBLE_K_EFF ? `, k_eff ${mode.k_eff.toExponential(2)}` : "";
  const label = part === "abs" ? `|${component}|` : `${part === "real" ? "Re" : "Im"} ${component}`;
  return fieldPlotPng(map, {
    part,
    title: `${label} of mode ${mode.mode_index} at λ = ${formatMicrons(mode.wavelength_m * 1e6)} µm`,
    subtitle: `n_eff ${mode.n_eff.toFixed(4)}${loss}, TE ${mode.te_fraction.toFixed(2)}, ${normal} = ${formatMicrons(positionM * 1e6)} µm`,
    ...(options.size !== undefined ? { size: options.size } : {}),
    geometry: { structures: options.structures ?? [], fixed: { [normal]: positionM } },
  });
}
