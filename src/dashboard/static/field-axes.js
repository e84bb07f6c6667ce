// @ts-check
/**
 * What the heat map and the line plot draw alike around their plot area: the tick marks and
 * labels under it, and the titles of the two axes.
 */
import { tickLabel } from "./plot-core.js";
import { FONT } from "./field-format.js";

/**
 * @typedef {{ text: string, muted: string }} Ink the plots' colours that axes use
 * @typedef {{ ticks: number[], step: number }} Ticks
 */

/**
 * Tick marks and their labels hanging from the plot area's bottom edge at `bottom`.
 * @param {CanvasRenderingContext2D} ctx @param {Ink} c @param {Ticks} ticks
 * @param {(v: number) => number} toX @param {number} bottom
 */
export function bottomTicks(ctx, c, ticks, toX, bottom) {
  ctx.fillStyle = c.muted;
  ctx.strokeStyle = c.muted;
  ctx.font = FONT;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const t of ticks.ticks) {
    const x = toX(t);
    ctx.beginPath();
    ctx.moveTo(x, bottom);
    ctx.lineTo(x, bottom + 5);
    ctx.stroke();
    ctx.fillText(tickLabel(t, ticks.step), x, bottom + 8);
  }
}

/**
 * The axes' titles in bold: the horizontal one centred at `x`, the vertical one turned a
 * quarter anticlockwise and centred at `y`.
 * @param {CanvasRenderingContext2D} ctx @param {Ink} c
 * @param {{ text: string, at: [number, number] }} x
 * @param {{ text: string, at: [number, number] }} y
 */
export function axisTitles(ctx, c, x, y) {
  ctx.fillStyle = c.text;
  ctx.font = `600 ${FONT}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "alphabetic";
  ctx.fillText(x.text, x.at[0], x.at[1]);
  ctx.save();
  ctx.translate(y.at[0], y.at[1]);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(y.text, 0, 0);
  ctx.restore();
}
