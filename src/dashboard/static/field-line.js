// @ts-check
/**
 * The job page's line plot of a line monitor on the plots' canvas: curves, the structures the
 * line crosses as shaded bands, a hover marker and a legend.
 */
import { lineCrossings, nearestIndex, tickLabel } from "./plot-core.js";
import {
  AXES,
  FONT,
  SMALL_FONT,
  formatUm,
  formatValue,
  isMagnitude,
  niceTicks,
  quantityLabel,
  shapes,
  unitOf,
} from "./field-format.js";
import { axisTitles, bottomTicks } from "./field-axes.js";

/**
 * @typedef {import("./field-format.js").Monitor} Monitor
 * @typedef {import("./field-format.js").Field} Field
 * @typedef {import("./plot.js").FieldPlots} FieldPlots
 * @typedef {{ label: string, values: Float32Array, color: string, width: number }} Series
 * @typedef {ReturnType<FieldPlots["colors"]>} Colors
 * @typedef {{ x0: number, y0: number, w: number, h: number, te: number[], ymin: number,
 *   ymax: number, lo: number, hi: number, yt: { ticks: number[], step: number },
 *   toX: (v: number) => number, toY: (v: number) => number }} LineFrame the plot area (CSS
 *   pixels), the line's extent `te` (µm), the values' range and their axis
 */

/**
 * A line plot of |E| (or |H|) and the real part of a component, with the structures the line
 * crosses shaded.
 * @param {FieldPlots} plots @param {Monitor} monitor @param {Field[]} fields
 */
export function drawLine(plots, monitor, fields) {
  const c = plots.colors();
  const magnitudeField = fields.find((f) => isMagnitude(f.payload.quantity));
  const componentField = fields.find((f) => !isMagnitude(f.payload.quantity));
  const p = (componentField ?? magnitudeField)?.payload;
  if (!p) return;
  const t = p.coords_um[0] ?? [];
  const series = curvesOf(magnitudeField, componentField, c);

  const width = Math.max(240, plots.stage.clientWidth);
  const height = Math.round(Math.max(240, Math.min(420, width * 0.42)));
  const { ctx } = plots.context(height);
  const frame = lineFrame(t, series, width, height);
  const along = /** @type {0|1|2} */ (AXES.indexOf(p.axes[0] ?? "z"));
  shadeCrossedStructures(ctx, c, frame, plots.summary?.structures ?? [], along, monitor);
  drawValueAxes(ctx, c, frame, p);
  drawCurves(ctx, c, frame, t, series, plots.hoverX);
  drawLegend(ctx, c, frame, series);

  const { x0, y0, w, h, te, ymin, ymax, lo, hi } = frame;
  plots.frame = { x0, y0, w, h, u: t, v: [], ue: te, ve: [ymin, ymax] };
  plots.lineSeries = series;
  plots.setCaption(monitor, p, false);
  plots.canvas.setAttribute(
    "aria-label",
    `Line plot of ${series.map((s) => s.label).join(" and ")} along ${p.axes[0]} on monitor ${monitor.name}, from ${formatUm(te[0] ?? 0)} to ${formatUm(te[1] ?? 0)} µm; values between ${formatValue(lo)} and ${formatValue(hi)} ${unitOf(p.quantity)}.`,
  );
}

/**
 * The curves drawn: the magnitude bold, the component's real part thinner beside it.
 * @param {Field | undefined} magnitudeField @param {Field | undefined} componentField
 * @param {Colors} c
 * @returns {Series[]}
 */
function curvesOf(magnitudeField, componentField, c) {
  /** @type {Series[]} */
  const series = [];
  if (magnitudeField?.abs)
    series.push({
      label: quantityLabel(magnitudeField.payload.quantity),
      values: magnitudeField.abs,
      color: c.line1,
      width: 2.25,
    });
  if (componentField?.re)
    series.push({
      label: quantityLabel(componentField.payload.quantity),
      values: componentField.re,
      color: c.line2,
      width: 1.75,
    });
  return series;
}

/**
 * Where the plot area lies on a canvas of `width` × `height` and how values map onto it: the
 * value axis spans every curve and zero, padded above (and below when it goes negative).
 * @param {number[]} t the samples' coordinates (µm) @param {Series[]} series
 * @param {number} width @param {number} height
 * @returns {LineFrame}
 */
function lineFrame(t, series, width, height) {
  const margin = { left: 62, right: 18, top: 34, bottom: 48 };
  const x0 = margin.left;
  const y0 = margin.top;
  const w = width - margin.left - margin.right;
  const h = height - margin.top - margin.bottom;
  let lo = 0;
  let hi = 0;
  for (const s of series) {
    for (const value of s.values) {
      if (value < lo) lo = value;
      if (value > hi) hi = value;
    }
  }
  if (hi === lo) hi = lo + 1;
  const pad = (hi - lo) * 0.08;
  const yt = niceTicks(lo - (lo < 0 ? pad : 0), hi + pad, Math.max(3, Math.round(h / 55)));
  const ymin = Math.min(yt.ticks[0] ?? lo, lo);
  const ymax = Math.max(yt.ticks[yt.ticks.length - 1] ?? hi, hi);
  const te = [t[0] ?? 0, t[t.length - 1] ?? 1];
  const span = (te[1] ?? 1) - (te[0] ?? 0) || 1;
  const toX = (/** @type {number} */ v) => x0 + ((v - (te[0] ?? 0)) / span) * w;
  const toY = (/** @type {number} */ v) => y0 + h - ((v - ymin) / (ymax - ymin)) * h;
  return { x0, y0, w, h, te, ymin, ymax, lo, hi, yt, toX, toY };
}

/**
 * The structures the line passes through, as shaded bands named by their material.
 * @param {CanvasRenderingContext2D} ctx @param {Colors} c @param {LineFrame} frame
 * @param {import("./field-format.js").Structure[]} structures
 * @param {0|1|2} along the line's axis @param {Monitor} monitor
 */
function shadeCrossedStructures(ctx, c, frame, structures, along, monitor) {
  const { x0, y0, w, h, toX } = frame;
  ctx.font = SMALL_FONT;
  for (const band of lineCrossings(shapes(structures), along, monitor.center_m)) {
    const bx0 = Math.max(x0, toX(band.t0 * 1e6));
    const bx1 = Math.min(x0 + w, toX(band.t1 * 1e6));
    if (bx1 <= bx0) continue;
    ctx.fillStyle = c.band;
    ctx.fillRect(bx0, y0, bx1 - bx0, h);
    ctx.fillStyle = c.muted;
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    const material = structures[band.index]?.material ?? "";
    if (bx1 - bx0 > 30) ctx.fillText(material, (bx0 + bx1) / 2, y0 + 4);
  }
}

/**
 * The values' grid lines with their labels (zero's line stronger), the ticks along the line,
 * the plot area's border and the axes' titles.
 * @param {CanvasRenderingContext2D} ctx @param {Colors} c @param {LineFrame} frame
 * @param {import("./field-format.js").Payload} p
 */
function drawValueAxes(ctx, c, frame, p) {
  const { x0, y0, w, h, te, yt, toX, toY } = frame;
  ctx.font = FONT;
  ctx.lineWidth = 1;
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const v of yt.ticks) {
    const y = Math.round(toY(v)) + 0.5;
    ctx.strokeStyle = v === 0 ? c.border : c.grid;
    ctx.beginPath();
    ctx.moveTo(x0, y);
    ctx.lineTo(x0 + w, y);
    ctx.stroke();
    ctx.fillStyle = c.muted;
    ctx.fillText(tickLabel(v, yt.step), x0 - 8, y);
  }
  const xt = niceTicks(te[0] ?? 0, te[1] ?? 1, Math.max(2, Math.round(w / 80)));
  bottomTicks(ctx, c, xt, toX, y0 + h);
  ctx.strokeStyle = c.border;
  ctx.strokeRect(x0 + 0.5, y0 + 0.5, w - 1, h - 1);
  axisTitles(
    ctx,
    c,
    { text: `${p.axes[0]} (µm)`, at: [x0 + w / 2, y0 + h + 42] },
    { text: unitOf(p.quantity), at: [14, y0 + h / 2] },
  );
}

/**
 * The curves, clipped to the plot area, and where the pointer hovers a dashed line with a dot
 * on each curve at the nearest sample.
 * @param {CanvasRenderingContext2D} ctx @param {Colors} c @param {LineFrame} frame
 * @param {number[]} t @param {Series[]} series @param {number | null} hoverX µm
 */
function drawCurves(ctx, c, frame, t, series, hoverX) {
  const { x0, y0, w, h, toX, toY } = frame;
  ctx.save();
  ctx.beginPath();
  ctx.rect(x0, y0, w, h);
  ctx.clip();
  ctx.lineJoin = "round";
  for (const s of series) {
    ctx.beginPath();
    for (let i = 0; i < t.length; i++) {
      const x = toX(t[i] ?? 0);
      const y = toY(s.values[i] ?? 0);
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.strokeStyle = s.color;
    ctx.lineWidth = s.width;
    ctx.stroke();
  }
  if (hoverX !== null) {
    const i = nearestIndex(t, hoverX);
    const x = toX(t[i] ?? 0);
    ctx.strokeStyle = c.muted;
    ctx.lineWidth = 1;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(x, y0);
    ctx.lineTo(x, y0 + h);
    ctx.stroke();
    ctx.setLineDash([]);
    for (const s of series) {
      ctx.fillStyle = s.color;
      ctx.beginPath();
      ctx.arc(x, toY(s.values[i] ?? 0), 3.5, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  ctx.restore();
}

/**
 * A sample of each curve's stroke and its label, right-aligned above the plot area.
 * @param {CanvasRenderingContext2D} ctx @param {Colors} c @param {LineFrame} frame
 * @param {Series[]} series
 */
function drawLegend(ctx, c, frame, series) {
  const { x0, y0, w } = frame;
  ctx.font = FONT;
  ctx.textBaseline = "middle";
  ctx.textAlign = "left";
  let lx = x0 + w;
  for (const s of [...series].reverse()) {
    const textWidth = ctx.measureText(s.label).width;
    lx -= textWidth + 34;
    ctx.strokeStyle = s.color;
    ctx.lineWidth = s.width;
    ctx.beginPath();
    ctx.moveTo(lx, y0 - 14);
    ctx.lineTo(lx + 20, y0 - 14);
    ctx.stroke();
    ctx.fillStyle = c.text;
    ctx.fillText(s.label, lx + 26, y0 - 14);
  }
}
