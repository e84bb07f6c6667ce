/**
 * Plots of one field component from a result file (a `FieldMap` of src/results/read.ts): a
 * heat map with axes in micrometres and a colour bar for plane and volume monitors, a line
 * plot for line monitors. |E| uses the sequential map from zero; real and imaginary parts use
 * the diverging map, symmetric about zero so that white means zero (colormap.ts, the
 * dashboard's maps too).
 */
import type { FieldMap } from "../results/read.js";
import { Canvas } from "./canvas.js";
import {
  drawCurve,
  drawLineAxes,
  INK,
  lineFrame,
  MARGIN,
  MUTED,
  S,
  X_AXIS_HEIGHT,
} from "./line-chart.js";
import type { Rgb } from "./colormap.js";
import { LINE_HEIGHT } from "./font.js";
import {
  drawColourBar,
  drawHeatMapAxes,
  heatMapFrame,
  type HeatMapFrame,
} from "./heatmap-frame.js";
import { fieldLabel, formatMicrons, unitOf, type FieldPart } from "./labels.js";
import { cellEdges, colourScale, gridImage, maxAbsOf } from "./heatmap.js";
import { encodePng } from "./png.js";
import { structureLookup } from "./structures.js";
import type { StructureSpec } from "../solver/index.js";

export { FIELD_PARTS, type FieldPart } from "./labels.js";

export interface FieldPlotOptions {
  part: FieldPart;
  /** First title line; default e.g. "|Ey| at λ = 1.55 µm". */
  title?: string;
  /** Second title line; default names the monitor (and the slice of a volume). */
  subtitle?: string;
  /** Longest side of the plot area in pixels. Default 520. */
  size?: number;
  /**
   * The request's structures, outlined over a heat map (shaded behind a line plot), with the
   * coordinates (metres) of the axes the map does not span.
   */
  geometry?: {
    structures: readonly StructureSpec[];
    fixed: Partial<Record<"x" | "y" | "z", number>>;
  };
}

/** At most this many structures are drawn (each pixel tests each one). */
const MAX_DRAWN_STRUCTURES = 200;

const CURVE: Rgb = [31, 95, 168];
const SHADE: Rgb = [240, 236, 226];

/** The plotted quantity at every sample of the map. */
export function fieldValues(map: FieldMap, part: FieldPart): Float64Array {
  const out = new Float64Array(map.re.length);
  for (let i = 0; i < out.length; i++) {
    const re = map.re[i]!;
    const im = map.im[i]!;
    out[i] = part === "abs" ? Math.hypot(re, im) : part === "real" ? re : im;
  }
  return out;
}

const um = (m: number) => m * 1e6;
const formatUm = (m: number) => formatMicrons(um(m));

/** The colour scale of a part: [0, max] for magnitudes, [−max|v|, max|v|] for signed parts. */
const scaleOf = (values: Float64Array, part: FieldPart) =>
  colourScale(part !== "abs", maxAbsOf(values));

/**
 * A function from plot coordinates (metres along the map's first and second axis) to the
 * index of the structure there, or null when no geometry was given.
 */
function geometryLookup(
  map: FieldMap,
  options: FieldPlotOptions,
): ((u: number, v: number) => number) | null {
  const g = options.geometry;
  if (!g || g.structures.length === 0 || g.structures.length > MAX_DRAWN_STRUCTURES) return null;
  return structureLookup(g.structures, map.axes as ["x" | "y" | "z", "x" | "y" | "z"], g.fixed);
}

function defaultTitles(map: FieldMap, options: FieldPlotOptions): [string, string] {
  const title =
    options.title ??
    `${fieldLabel(map.component, options.part)} at λ = ${formatUm(map.wavelengthM)} µm`;
  let subtitle = `monitor '${map.monitor}'`;
  if (map.slice) subtitle += `, slice ${map.slice.axis} = ${formatUm(map.slice.coordinate)} µm`;
  return [title, options.subtitle ?? subtitle];
}

/** A heat map (2-D maps) or a line plot (line monitors) of the map. */
export function renderFieldPlot(map: FieldMap, options: FieldPlotOptions): Canvas {
  const nu = map.u.length;
  const nv = map.v.length;
  if (nu <= 1 && nv <= 1) {
    throw new Error(
      `monitor '${map.monitor}' records a single point; there is nothing to plot (use 'emsim inspect' or read the file)`,
    );
  }
  return nu === 1 || nv === 1 ? renderLine(map, options) : renderHeatMap(map, options);
}

/** The plot as PNG bytes. */
export function fieldPlotPng(map: FieldMap, options: FieldPlotOptions): Buffer {
  const canvas = renderFieldPlot(map, options);
  const [title, subtitle] = defaultTitles(map, options);
  return encodePng(canvas.width, canvas.height, canvas.data, {
    Title: `${title}, ${subtitle}`.replace(/[^\x20-\x7e]/g, "?"),
    Software: "emsim",
  });
}

function renderHeatMap(map: FieldMap, options: FieldPlotOptions): Canvas {
  const values = fieldValues(map, options.part);
  const colours = scaleOf(values, options.part);
  const unit = unitOf(map.component);
  const f = heatMapFrame(cellEdges(map.u), cellEdges(map.v), colours, unit, options.size ?? 520);
  const c = new Canvas(f.width, f.height);
  drawTitles(c, f.left + f.plotW / 2, map, options);
  // The map: every plot pixel shows the sample nearest it by coordinate (no smoothing that
  // would invent data), so a graded grid's finely sampled part keeps its physical size.
  drawImage(c, f, gridImage(values, map.u, map.v, colours, f.plotW, f.plotH));
  const at = geometryLookup(map, options);
  if (at) drawOutlines(c, f, at, colours.map.diverging ? [40, 40, 40] : [255, 255, 255]);
  drawHeatMapAxes(c, f, map.axes);
  drawColourBar(c, f, colours, unit);
  return c;
}

/** The two title lines, centred on `centreX` above the plot area. */
function drawTitles(c: Canvas, centreX: number, map: FieldMap, options: FieldPlotOptions): void {
  const [title, subtitle] = defaultTitles(map, options);
  c.text(centreX, MARGIN, title, INK, { scale: S, align: "center" });
  c.text(centreX, MARGIN + LINE_HEIGHT * S + 4, subtitle, MUTED, {
    scale: S,
    align: "center",
  });
}

/** An RGBA image of the plot area's size, into the plot area. */
function drawImage(c: Canvas, f: HeatMapFrame, image: Uint8ClampedArray): void {
  const { left, top, plotW, plotH } = f;
  for (let py = 0; py < plotH; py++) {
    for (let px = 0; px < plotW; px++) {
      const k = (py * plotW + px) * 4;
      c.setPixel(left + px, top + py, [image[k]!, image[k + 1]!, image[k + 2]!]);
    }
  }
}

/**
 * Structure outlines in `edge`: the pixels whose structure (`at` the pixel's centre) differs
 * from that of the pixel to their right or below.
 */
function drawOutlines(
  c: Canvas,
  f: HeatMapFrame,
  at: (u: number, v: number) => number,
  edge: Rgb,
): void {
  const { left, top, plotW, plotH } = f;
  const [uLo, uHi] = f.u;
  const [vLo, vHi] = f.v;
  const ids = new Int32Array(plotW * plotH);
  for (let py = 0; py < plotH; py++) {
    const v = vHi - ((py + 0.5) / plotH) * (vHi - vLo);
    for (let px = 0; px < plotW; px++) {
      ids[py * plotW + px] = at(uLo + ((px + 0.5) / plotW) * (uHi - uLo), v);
    }
  }
  for (let py = 0; py < plotH; py++) {
    for (let px = 0; px < plotW; px++) {
      const id = ids[py * plotW + px]!;
      const right = px + 1 < plotW && ids[py * plotW + px + 1] !== id;
      const below = py + 1 < plotH && ids[(py + 1) * plotW + px] !== id;
      if (right || below) c.setPixel(left + px, top + py, edge);
    }
  }
}

function renderLine(map: FieldMap, options: FieldPlotOptions): Canvas {
  const values = fieldValues(map, options.part);
  const alongU = map.u.length > 1;
  const coords = alongU ? map.u : map.v;
  const axis = alongU ? map.axes[0] : map.axes[1];
  const { lo, hi } = scaleOf(values, options.part);
  const pad = (hi - lo) * 0.05;
  const xMin = coords[0]!;
  const xMax = coords[coords.length - 1]!;
  const f = lineFrame(
    [um(xMin), um(xMax)],
    [options.part === "abs" ? 0 : lo - pad, hi + pad],
    options.size ?? 520,
    2,
  );
  const { left, top, plotW, plotH } = f;
  const c = new Canvas(left + plotW + MARGIN * 2, top + plotH + X_AXIS_HEIGHT + MARGIN);
  drawTitles(c, left + plotW / 2, map, options);

  // Structures along the line: shaded behind the curve.
  const at = geometryLookup(map, options);
  if (at) {
    const dummy = alongU ? map.v[0]! : map.u[0]!;
    for (let x = 0; x < plotW; x++) {
      const pos = xMin + ((x + 0.5) / plotW) * (xMax - xMin);
      if ((alongU ? at(pos, dummy) : at(dummy, pos)) >= 0)
        c.fillRect(left + x, top, 1, plotH, SHADE);
    }
  }
  const yTitle = `${fieldLabel(map.component, options.part)} (${unitOf(map.component)})`;
  drawLineAxes(c, f, `${axis} (µm)`, yTitle);
  drawCurve(c, f, Array.from(coords, um), values, CURVE);
  return c;
}
