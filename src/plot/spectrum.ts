/**
 * Spectra of flux monitors (transmittance, reflectance, flux, or a box's cross-sections) against
 * wavelength, as a PNG: the CLI's `emsim plot` of a flux monitor and the dashboard's job page
 * draw the same picture from this one function (the CLI from the result file, the dashboard
 * from the job record's solver report).
 */
import type { Spectrum } from "../results/read.js";
import { Canvas } from "./canvas.js";
import type { Rgb } from "./colormap.js";
import { LINE_HEIGHT, textWidth } from "./font.js";
import { encodePng } from "./png.js";
import { niceTicks, tickLabel } from "./ticks.js";

interface Series {
  label: string;
  x: readonly number[];
  y: readonly number[];
  color: Rgb;
}

const S = 2;
const CHAR_H = 7 * S;
const INK: Rgb = [30, 34, 42];
const MUTED: Rgb = [96, 102, 112];
const GRID: Rgb = [226, 229, 234];
const PALETTE: Rgb[] = [
  [31, 95, 168],
  [204, 85, 0],
  [46, 139, 87],
  [152, 60, 160],
  [178, 34, 52],
  [90, 90, 90],
];
const MARGIN = 16;
const TICK = 6;

/** The curves a set of spectra draws: one per flux plane, two per box (σ_sca, σ_abs in µm²). */
function seriesOf(spectra: readonly Spectrum[]): { series: Series[]; yTitle: string } {
  const series: Series[] = [];
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
  return { series, yTitle: boxesOnly ? "cross-section (µm²)" : "fraction of incident power" };
}

/** The spectra on one chart (wavelength in µm across, legend below). */
export function renderSpectra(spectra: readonly Spectrum[], title: string, size = 520): Canvas {
  const { series, yTitle } = seriesOf(spectra);
  if (series.length === 0) throw new RangeError("no spectrum to draw");
  const xs = series.flatMap((s) => s.x);
  const ys = series.flatMap((s) => s.y).filter(Number.isFinite);
  let xMin = Math.min(...xs);
  let xMax = Math.max(...xs);
  if (xMax === xMin) {
    xMin -= 0.01;
    xMax += 0.01;
  }
  let yMin = Math.min(0, ...ys);
  let yMax = Math.max(...ys);
  if (yTitle.startsWith("fraction")) yMax = Math.max(yMax, 1);
  if (yMax === yMin) yMax = yMin + 1;
  const pad = (yMax - yMin) * 0.04;
  yMax += pad;
  if (yMin < 0) yMin -= pad;

  const plotW = Math.round(size * 1.25);
  const plotH = Math.round(plotW * 0.5);
  const xTicks = niceTicks(xMin, xMax, Math.max(2, Math.round(plotW / 110)));
  const yTicks = niceTicks(yMin, yMax, 5);
  const yLabels = yTicks.ticks.map((t) => tickLabel(t, yTicks.step));
  const yLabelW = Math.max(0, ...yLabels.map((l) => textWidth(l, S)));
  const left = MARGIN + CHAR_H + 10 + yLabelW + TICK + 4;
  const top = MARGIN + LINE_HEIGHT * S + 12;
  const legendTop = top + plotH + TICK + 6 + CHAR_H + 12 + CHAR_H + 10;
  const width = left + plotW + MARGIN * 2;
  const height = legendTop + series.length * (LINE_HEIGHT * S + 4) + MARGIN;
  const c = new Canvas(width, height);
  c.text(left + plotW / 2, MARGIN, title, INK, { scale: S, align: "center" });

  const px = (x: number) => left + ((x - xMin) / (xMax - xMin)) * (plotW - 1);
  const py = (v: number) => top + plotH - 1 - ((v - yMin) / (yMax - yMin)) * (plotH - 1);
  for (let k = 0; k < yTicks.ticks.length; k++) {
    const t = yTicks.ticks[k]!;
    const y = py(t);
    if (y < top || y > top + plotH) continue;
    c.fillRect(left, y, plotW, 1, t === 0 ? MUTED : GRID);
    c.fillRect(left - 1 - TICK, y, TICK, 1, INK);
    c.text(left - TICK - 6, y - CHAR_H / 2, yLabels[k]!, INK, { scale: S, align: "right" });
  }
  for (const t of xTicks.ticks) {
    const x = px(t);
    if (x < left || x > left + plotW) continue;
    c.fillRect(x, top, 1, plotH, GRID);
    c.fillRect(x, top + plotH + 1, 1, TICK, INK);
    c.text(x, top + plotH + TICK + 4, tickLabel(t, xTicks.step), INK, {
      scale: S,
      align: "center",
    });
  }
  c.strokeRect(left, top, plotW, plotH, INK);
  c.text(left + plotW / 2, top + plotH + TICK + 6 + CHAR_H + 10, "wavelength (µm)", INK, {
    scale: S,
    align: "center",
  });
  c.text(MARGIN, top + plotH / 2, yTitle, INK, { scale: S, align: "center", vertical: true });

  series.forEach((s, k) => {
    let prev: [number, number] | null = null;
    for (let i = 0; i < s.x.length; i++) {
      const v = s.y[i]!;
      if (!Number.isFinite(v)) {
        prev = null;
        continue;
      }
      const point: [number, number] = [px(s.x[i]!), py(v)];
      if (prev) c.line(prev[0], prev[1], point[0], point[1], s.color, 2);
      c.fillRect(point[0] - 2, point[1] - 2, 5, 5, s.color);
      prev = point;
    }
    const y = legendTop + k * (LINE_HEIGHT * S + 4);
    c.fillRect(left, y + CHAR_H / 2 - 1, 24, 3, s.color);
    c.text(left + 32, y, s.label, INK, { scale: S });
  });
  return c;
}

/** renderSpectra as PNG bytes. */
export function spectraPng(spectra: readonly Spectrum[], title: string, size?: number): Buffer {
  const c = renderSpectra(spectra, title, size);
  return encodePng(c.width, c.height, c.data, {
    Title: title.replace(/[^\x20-\x7e]/g, "?"),
    Software: "emsim",
  });
}
