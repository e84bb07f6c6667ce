/**
 * Spectra of flux monitors (transmittance, reflectance, flux, or a box's cross-sections) against
 * wavelength, as a PNG: the CLI's `emsim plot` of a flux monitor and the dashboard's job page
 * draw the same picture from this one function (the CLI from the result file, the dashboard
 * from the job record's solver report). Its chart of curves against wavelength,
 * `renderLineChart`, also draws the S-parameters (s-parameters.ts).
 */
import type { Spectrum } from "../results/read.js";
import { Canvas } from "./canvas.js";
import type { Rgb } from "./colormap.js";
import { LINE_HEIGHT } from "./font.js";
import {
  CHAR_H,
  drawCurve,
  drawLineAxes,
  INK,
  lineFrame,
  MARGIN,
  S,
  X_AXIS_HEIGHT,
} from "./line-chart.js";
import { encodePng } from "./png.js";

/** Curve colours, in order. */
export const PALETTE: Rgb[] = [
  [31, 95, 168],
  [204, 85, 0],
  [46, 139, 87],
  [152, 60, 160],
  [178, 34, 52],
  [90, 90, 90],
];

/** The curves a set of spectra draws: one per flux plane, two per box (σ_sca, σ_abs in µm²). */
function seriesOf(spectra: readonly Spectrum[]): { series: LineSeries[]; yTitle: string } {
  const series: LineSeries[] = [];
  const boxesOnly = spectra.every((s) => s.quantity === "box");
  for (const s of spectra) {
    const x = s.wavelengthsM.map((w) => w * 1e6);
    if (s.quantity === "box" && s.crossSections) {
      series.push({
        label: `${s.name} scattering`,
        x,
        y: s.crossSections.scattering.map((v) => v * 1e12),
        color: PALETTE[series.length % PALETTE.length]!,
      });
      series.push({
        label: `${s.name} absorption`,
        x,
        y: s.crossSections.absorption.map((v) => v * 1e12),
        color: PALETTE[series.length % PALETTE.length]!,
      });
    } else if (s.quantity !== "box") {
      series.push({
        label: `${s.name} (${s.quantity})`,
        x,
        y: s.flux,
        color: PALETTE[series.length % PALETTE.length]!,
      });
    }
  }
  const powerOnly = spectra.every((s) => s.quantity === "power");
  const yTitle = boxesOnly
    ? "cross-section (µm²)"
    : powerOnly
      ? "power over the source's reference power"
      : "fraction of incident power";
  return { series, yTitle };
}

/** One curve of a line chart against wavelength: x in µm, y in any unit, its legend label. */
export interface LineSeries {
  label: string;
  x: readonly number[];
  y: readonly number[];
  color: Rgb;
}

export interface LineChartOptions {
  title: string;
  xTitle: string;
  yTitle: string;
  /** Values the y axis always spans (0 for a flux, 0 and 1 for a fraction, 0 dB). */
  includeY: readonly number[];
}

/**
 * Curves on one chart with a legend below, each point marked: the flux spectra and the
 * S-parameters (src/plot/s-parameters.ts) draw with this. Points that are not finite break
 * their curve.
 */
export function renderLineChart(
  series: readonly LineSeries[],
  options: LineChartOptions,
  size = 520,
): Canvas {
  if (series.length === 0) throw new RangeError("no curve to draw");
  const xs = series.flatMap((s) => s.x);
  const ys = series.flatMap((s) => s.y).filter(Number.isFinite);
  let xMin = Math.min(...xs);
  let xMax = Math.max(...xs);
  if (xMax === xMin) {
    xMin -= 0.01;
    xMax += 0.01;
  }
  let yMin = Math.min(...options.includeY, ...ys);
  let yMax = Math.max(...options.includeY, ...ys);
  if (yMax === yMin) yMax = yMin + 1;
  const pad = (yMax - yMin) * 0.04;
  yMax += pad;
  if (yMin < 0) yMin -= pad;

  const f = lineFrame([xMin, xMax], [yMin, yMax], size, 1);
  const { left, top, plotW, plotH } = f;
  const legendTop = top + plotH + X_AXIS_HEIGHT + 10;
  const c = new Canvas(
    left + plotW + MARGIN * 2,
    legendTop + series.length * (LINE_HEIGHT * S + 4) + MARGIN,
  );
  c.text(left + plotW / 2, MARGIN, options.title, INK, { scale: S, align: "center" });
  drawLineAxes(c, f, options.xTitle, options.yTitle);
  series.forEach((s, k) => {
    drawCurve(c, f, s.x, s.y, s.color, true);
    const y = legendTop + k * (LINE_HEIGHT * S + 4);
    c.fillRect(left, y + CHAR_H / 2 - 1, 24, 3, s.color);
    c.text(left + 32, y, s.label, INK, { scale: S });
  });
  return c;
}

/** A chart as PNG bytes, its title in the file's tEXt. */
export function lineChartPng(
  series: readonly LineSeries[],
  options: LineChartOptions,
  size?: number,
): Buffer {
  const c = renderLineChart(series, options, size);
  return encodePng(c.width, c.height, c.data, {
    Title: options.title.replace(/[^\x20-\x7e]/g, "?"),
    Software: "emsim",
  });
}

/** The spectra on one chart (wavelength in µm across, legend below). */
export function renderSpectra(spectra: readonly Spectrum[], title: string, size = 520): Canvas {
  const { series, yTitle } = seriesOf(spectra);
  if (series.length === 0) throw new RangeError("no spectrum to draw");
  return renderLineChart(series, spectraOptions(title, yTitle), size);
}

function spectraOptions(title: string, yTitle: string): LineChartOptions {
  const includeY = yTitle.startsWith("fraction") ? [0, 1] : [0];
  return { title, xTitle: "wavelength (µm)", yTitle, includeY };
}

/** renderSpectra as PNG bytes. */
export function spectraPng(spectra: readonly Spectrum[], title: string, size?: number): Buffer {
  const { series, yTitle } = seriesOf(spectra);
  if (series.length === 0) throw new RangeError("no spectrum to draw");
  return lineChartPng(series, spectraOptions(title, yTitle), size);
}
