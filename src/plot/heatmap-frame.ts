/**
 * The frame of a field plot's heat map — its layout from the cells' extent, the border, the
 * axes' ticks, tick labels and titles in micrometres, and the colour bar with its ticks and
 * unit — around the image field-plot.ts draws into it. The heat map's counterpart of the line
 * chart's frame (line-chart.ts), in the same font, colours and spacing.
 */
import type { Canvas } from "./canvas.js";
import { colorAt } from "./colormap.js";
import { LINE_HEIGHT, textWidth } from "./font.js";
import type { ColourScale } from "./heatmap.js";
import { CHAR_H, INK, MARGIN, MUTED, S, TICK, X_AXIS_HEIGHT } from "./line-chart.js";
import { axisLabels, niceTicks } from "./ticks.js";

type Ticks = ReturnType<typeof niceTicks>;

/** Width of the colour bar and its gap from the plot area, in pixels. */
const BAR_W = 22;
const BAR_GAP = 24;

const um = (m: number) => m * 1e6;

export interface HeatMapFrame {
  /** The plot area: its top-left corner and size on the canvas. */
  left: number;
  top: number;
  plotW: number;
  plotH: number;
  /** The outer edges of the cells along the map's first (u) and second (v) axis, in metres. */
  u: [number, number];
  v: [number, number];
  /** Canvas x of the colour bar's left side. */
  barX: number;
  /** Canvas x of the vertical axis title (a frame moved across the canvas moves it too). */
  yTitleX: number;
  /** The whole canvas. */
  width: number;
  height: number;
  /** The axes' ticks in µm; the colour bar's in the field's unit. */
  xTicks: Ticks;
  yTicks: Ticks;
  cTicks: Ticks;
  yLabels: string[];
  cLabels: string[];
}

/**
 * The layout of a heat map whose longest side is `size` pixels, over cells spanning u × v
 * (metres), with two title lines above and a colour bar of `colours`, labelled `unit`, on the
 * right.
 */
export function heatMapFrame(
  u: [number, number],
  v: [number, number],
  colours: ColourScale,
  unit: string,
  size: number,
): HeatMapFrame {
  const [uLo, uHi] = u;
  const [vLo, vHi] = v;
  // Square pixels in physical units, unless that makes one side unreadably thin.
  const scale = size / Math.max(uHi - uLo, vHi - vLo);
  const plotW = Math.max(160, Math.round((uHi - uLo) * scale));
  const plotH = Math.max(160, Math.round((vHi - vLo) * scale));

  const xTicks = niceTicks(um(uLo), um(uHi), Math.max(2, Math.round(plotW / 110)));
  const yTicks = niceTicks(um(vLo), um(vHi), Math.max(2, Math.round(plotH / 70)));
  const cTicks = niceTicks(colours.lo, colours.hi, 5);
  const yLabels = axisLabels(yTicks);
  const cLabels = axisLabels(cTicks);
  const yLabelW = Math.max(0, ...yLabels.map((l) => textWidth(l, S)));
  const cLabelW = Math.max(textWidth(unit, S), ...cLabels.map((l) => textWidth(l, S)));

  const left = MARGIN + CHAR_H + 10 + yLabelW + TICK + 4;
  const top = MARGIN + 2 * LINE_HEIGHT * S + 12;
  const barX = left + plotW + BAR_GAP;
  return {
    left,
    top,
    plotW,
    plotH,
    u,
    v,
    barX,
    yTitleX: MARGIN,
    width: barX + BAR_W + TICK + 4 + cLabelW + MARGIN,
    height: top + plotH + X_AXIS_HEIGHT + MARGIN,
    xTicks,
    yTicks,
    cTicks,
    yLabels,
    cLabels,
  };
}

/** The plot area's border, the ticks and their labels, and the two axis titles. */
export function drawHeatMapAxes(c: Canvas, f: HeatMapFrame, axes: [string, string]): void {
  const { left, top, plotW, plotH } = f;
  const [uLo, uHi] = f.u;
  const [vLo, vHi] = f.v;
  c.strokeRect(left, top, plotW, plotH, INK);

  const xLabels = axisLabels(f.xTicks);
  for (let k = 0; k < f.xTicks.ticks.length; k++) {
    const t = f.xTicks.ticks[k]!;
    const x = left + ((t - um(uLo)) / (um(uHi) - um(uLo))) * (plotW - 1);
    c.fillRect(x, top + plotH + 1, 1, TICK, INK);
    c.text(x, top + plotH + TICK + 4, xLabels[k]!, INK, {
      scale: S,
      align: "center",
    });
  }
  c.text(left + plotW / 2, top + plotH + TICK + 6 + CHAR_H + 10, `${axes[0]} (µm)`, INK, {
    scale: S,
    align: "center",
  });

  for (let k = 0; k < f.yTicks.ticks.length; k++) {
    const t = f.yTicks.ticks[k]!;
    const y = top + plotH - 1 - ((t - um(vLo)) / (um(vHi) - um(vLo))) * (plotH - 1);
    c.fillRect(left - 1 - TICK, y, TICK, 1, INK);
    c.text(left - TICK - 6, y - CHAR_H / 2, f.yLabels[k]!, INK, { scale: S, align: "right" });
  }
  c.text(f.yTitleX, top + plotH / 2, `${axes[1]} (µm)`, INK, {
    scale: S,
    align: "center",
    vertical: true,
  });
}

/** The colour bar beside the plot area: the map from `lo` (bottom) to `hi`, ticks, unit. */
export function drawColourBar(c: Canvas, f: HeatMapFrame, colours: ColourScale, unit: string) {
  const { top, plotH, barX } = f;
  const { lo, hi } = colours;
  for (let py = 0; py < plotH; py++) {
    const color = colorAt(colours.map, 1 - (py + 0.5) / plotH);
    c.fillRect(barX, top + py, BAR_W, 1, color);
  }
  c.strokeRect(barX, top, BAR_W, plotH, INK);
  for (let k = 0; k < f.cTicks.ticks.length; k++) {
    const t = f.cTicks.ticks[k]!;
    const y = top + plotH - 1 - ((t - lo) / (hi - lo)) * (plotH - 1);
    c.fillRect(barX + BAR_W + 1, y, TICK, 1, INK);
    c.text(barX + BAR_W + TICK + 4, y - CHAR_H / 2, f.cLabels[k]!, INK, { scale: S });
  }
  c.text(barX, top - CHAR_H - 8, unit, MUTED, { scale: S });
}
