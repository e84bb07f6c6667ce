/**
 * The frame of a line chart — its layout from the data's ranges, grid lines, ticks, tick labels,
 * axis titles — and its curves: shared by the field plots' line monitors (field-plot.ts) and
 * the flux spectra (spectrum.ts).
 */
import type { Canvas } from "./canvas.js";
import type { Rgb } from "./colormap.js";
import { LINE_HEIGHT, textWidth } from "./font.js";
import { axisLabels, niceTicks } from "./ticks.js";

/** Font scale (10 × 14 pixel characters) and the colours and spacing every plot uses. */
export const S = 2;
export const CHAR_H = 7 * S;
export const INK: Rgb = [30, 34, 42];
export const MUTED: Rgb = [96, 102, 112];
export const GRID: Rgb = [226, 229, 234];
export const MARGIN = 16;
export const TICK = 6;
/** Height below the plot area for the x tick labels and the x axis title. */
export const X_AXIS_HEIGHT = TICK + 6 + CHAR_H + 12 + CHAR_H;

export interface LineFrame {
  left: number;
  top: number;
  plotW: number;
  plotH: number;
  /** Canvas x of a data x, canvas y of a data y. */
  px(x: number): number;
  py(y: number): number;
  x: [number, number];
  y: [number, number];
}

/**
 * The layout of a chart of `size` (plot width / 1.25) over data ranges x and y, with
 * `titleLines` lines of title above.
 */
export function lineFrame(
  x: [number, number],
  y: [number, number],
  size: number,
  titleLines: number,
): LineFrame & {
  xTicks: ReturnType<typeof niceTicks>;
  yTicks: ReturnType<typeof niceTicks>;
  yLabels: string[];
} {
  const plotW = Math.round(size * 1.25);
  const plotH = Math.round(plotW * 0.5);
  const xTicks = niceTicks(x[0], x[1], Math.max(2, Math.round(plotW / 110)));
  const yTicks = niceTicks(y[0], y[1], 5);
  const yLabels = axisLabels(yTicks);
  const yLabelW = Math.max(0, ...yLabels.map((l) => textWidth(l, S)));
  const left = MARGIN + CHAR_H + 10 + yLabelW + TICK + 4;
  const top = MARGIN + titleLines * LINE_HEIGHT * S + 12;
  return {
    left,
    top,
    plotW,
    plotH,
    x,
    y,
    xTicks,
    yTicks,
    yLabels,
    px: (v) => left + ((v - x[0]) / (x[1] - x[0])) * (plotW - 1),
    py: (v) => top + plotH - 1 - ((v - y[0]) / (y[1] - y[0])) * (plotH - 1),
  };
}

/** Grid lines, ticks and their labels, the frame, and the two axis titles. */
export function drawLineAxes(
  c: Canvas,
  f: ReturnType<typeof lineFrame>,
  xTitle: string,
  yTitle: string,
): void {
  const { left, top, plotW, plotH } = f;
  f.yTicks.ticks.forEach((t, k) => {
    const y = f.py(t);
    c.fillRect(left, y, plotW, 1, t === 0 ? MUTED : GRID);
    c.fillRect(left - 1 - TICK, y, TICK, 1, INK);
    c.text(left - TICK - 6, y - CHAR_H / 2, f.yLabels[k]!, INK, { scale: S, align: "right" });
  });
  const xLabels = axisLabels(f.xTicks);
  f.xTicks.ticks.forEach((t, k) => {
    const x = f.px(t);
    c.fillRect(x, top, 1, plotH, GRID);
    c.fillRect(x, top + plotH + 1, 1, TICK, INK);
    c.text(x, top + plotH + TICK + 4, xLabels[k]!, INK, {
      scale: S,
      align: "center",
    });
  });
  c.strokeRect(left, top, plotW, plotH, INK);
  c.text(left + plotW / 2, top + plotH + TICK + 6 + CHAR_H + 10, xTitle, INK, {
    scale: S,
    align: "center",
  });
  // A title longer than the axis is drawn at half size rather than cut off at the image's edge.
  const titleScale = textWidth(yTitle, S) <= plotH ? S : 1;
  c.text(MARGIN, top + plotH / 2, yTitle, INK, {
    scale: titleScale,
    align: "center",
    vertical: true,
  });
}

/** A curve through (xs[i], ys[i]), broken where y is not finite; `markers` dots each point. */
export function drawCurve(
  c: Canvas,
  f: LineFrame,
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  color: Rgb,
  markers = false,
): void {
  let prev: [number, number] | null = null;
  for (let i = 0; i < ys.length; i++) {
    const v = ys[i]!;
    if (!Number.isFinite(v)) {
      prev = null;
      continue;
    }
    const point: [number, number] = [f.px(xs[i]!), f.py(v)];
    if (prev) c.line(prev[0], prev[1], point[0], point[1], color, 2);
    if (markers) c.fillRect(point[0] - 2, point[1] - 2, 5, 5, color);
    else if (!prev) c.fillRect(point[0] - 1, point[1] - 1, 2, 2, color);
    prev = point;
  }
}
