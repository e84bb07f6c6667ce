// @ts-check
/* global document, window, ImageData */
/**
 * The job page's heat map of a plane monitor (or a volume's slice) on the plots' canvas: the
 * samples as an image scaled up smoothly, each at its coordinate, structures outlined, axes and
 * a colour bar.
 */
import {
  cellEdges,
  colorAt,
  colourScale,
  pixelsPerAxis,
  planeSections,
  smoothGridImage,
  tickLabel,
} from "./plot-core.js";
import {
  FONT,
  SMALL_FONT,
  formatUm,
  formatValue,
  isMagnitude,
  niceTicks,
  planeOf,
  quantityLabel,
  shapes,
  unitOf,
} from "./field-format.js";
import { axisTitles, bottomTicks } from "./field-axes.js";

/**
 * @typedef {import("./field-format.js").Monitor} Monitor
 * @typedef {import("./field-format.js").Field} Field
 * @typedef {import("./plot.js").FieldPlots} FieldPlots
 * @typedef {ReturnType<FieldPlots["colors"]>} Colors
 * @typedef {ReturnType<typeof colourScale>} Scale
 * @typedef {{ x0: number, y0: number, w: number, h: number, toX: (u: number) => number,
 *   toY: (v: number) => number }} MapFrame the plot area (CSS pixels) and where a point of
 *   the plane (µm) lies on it
 * @typedef {{ shape: string, u0: number, u1: number, v0: number, v1: number,
 *   rings: number[][][], material: string }} Outline a structure's section by the plane (µm)
 * @typedef {{ sx0: number, sx1: number, sy0: number, sy1: number }} Box an outline's bounding
 *   box on the canvas (CSS pixels; sy0 its top)
 */

/**
 * A heat map of a plane (or a volume's slice) with axes in µm, a colour bar and the structures
 * the plane cuts outlined.
 * @param {FieldPlots} plots @param {Monitor} monitor @param {Field} field
 */
export function drawMap(plots, monitor, field) {
  const p = field.payload;
  const c = plots.colors();
  const u = p.coords_um[0] ?? [];
  const v = p.coords_um[1] ?? [];
  const ue = cellEdges(u);
  const ve = cellEdges(v);
  const magnitude = isMagnitude(p.quantity);
  const values = magnitude ? field.abs : field.re;
  if (!values) return;

  const width = Math.max(240, plots.stage.clientWidth);
  const narrow = width < 520;
  const size = mapSize(width, narrow, ue, ve);
  const { margin, h } = size;
  const { ctx } = plots.context(Math.round(h + margin.top + margin.bottom));
  const frame = mapFrame(size, ue, ve);
  const { x0, y0, w } = frame;
  const scale = colourScale(!magnitude, p.max_abs);
  paintSamples(ctx, frame, values, u, v, scale);
  outlineStructures(ctx, frame, planeOutlines(monitor, p, plots.summary?.structures ?? []));
  drawPlaneAxes(ctx, c, frame, ue, ve, p);
  const barX = x0 + w + (narrow ? 14 : 22);
  drawColourBar(ctx, c, frame, barX, scale, magnitude);
  colourBarTitle(ctx, c, p, Math.min(barX - 6, width - 100), y0 - 12);

  const max = scale.hi;
  plots.frame = { x0, y0, w, h, u, v, ue, ve };
  plots.setCaption(monitor, p, !size.toScale);
  plots.canvas.setAttribute(
    "aria-label",
    `Heat map of ${quantityLabel(p.quantity)} on monitor ${monitor.name}, ${p.axes[0]} from ${formatUm(u[0] ?? 0)} to ${formatUm(u[u.length - 1] ?? 0)} µm, ${p.axes[1]} from ${formatUm(v[0] ?? 0)} to ${formatUm(v[v.length - 1] ?? 0)} µm; values ${magnitude ? "from 0" : `from ${formatValue(-max)}`} to ${formatValue(max)} ${unitOf(p.quantity)}.`,
  );
}

/**
 * The plot area's size on a canvas `width` wide, to scale where it can be: `toScale` is false
 * when a slender or flat domain had to be widened or heightened to stay readable.
 * @param {number} width @param {boolean} narrow @param {number[]} ue @param {number[]} ve
 *   the plane's extent (µm)
 */
function mapSize(width, narrow, ue, ve) {
  const margin = { left: 58, right: narrow ? 74 : 92, top: 30, bottom: 48 };
  const available = width - margin.left - margin.right;
  const spanU = (ue[1] ?? 1) - (ue[0] ?? 0);
  const spanV = (ve[1] ?? 1) - (ve[0] ?? 0);
  const aspect = spanU / spanV;
  // Tall domains may take most of the window's height (phones included), wide ones the width.
  const maxH = Math.max(240, Math.min(window.innerHeight * 0.72, available * 2.5));
  let w = available;
  let h = w / aspect;
  let toScale = true;
  if (h > maxH) {
    h = maxH;
    w = h * aspect;
    // Very slender domains would become a sliver: widen them, and say so in the caption.
    const minW = Math.min(available, 140);
    if (w < minW) {
      w = minW;
      toScale = false;
    }
  }
  if (h < 160) {
    h = 160;
    toScale = false;
  }
  return { margin, available, spanU, spanV, w, h, toScale };
}

/**
 * The plot area centred in the space the margins leave, and the plane's coordinates on it.
 * @param {ReturnType<typeof mapSize>} size @param {number[]} ue @param {number[]} ve
 * @returns {MapFrame}
 */
function mapFrame(size, ue, ve) {
  const { margin, available, spanU, spanV, w, h } = size;
  const x0 = margin.left + (available - w) / 2;
  const y0 = margin.top;
  const toX = (/** @type {number} */ uu) => x0 + ((uu - (ue[0] ?? 0)) / spanU) * w;
  const toY = (/** @type {number} */ vv) => y0 + h - ((vv - (ve[0] ?? 0)) / spanV) * h;
  return { x0, y0, w, h, toX, toY };
}

/**
 * The samples as an image of equally wide pixels, scaled up smoothly onto the plot area: one
 * pixel per sample on an equally spaced grid; on a graded one (mesh overrides) as many as its
 * finest cells need, blended between the samples by coordinate, so that the closely spaced
 * samples keep their physical place instead of being stretched like the coarse ones, and the
 * coarse ones blend as smoothly as a uniform grid's. Pixels finer than the screen's would be
 * averaged away, so no more than those.
 * @param {CanvasRenderingContext2D} ctx @param {MapFrame} frame @param {Float32Array} values
 * @param {number[]} u @param {number[]} v the samples' coordinates (µm) @param {Scale} scale
 */
function paintSamples(ctx, frame, values, u, v, scale) {
  const { x0, y0, w, h } = frame;
  const dpr = Math.min(3, window.devicePixelRatio || 1);
  const iw = pixelsPerAxis(u, Math.ceil(w * dpr));
  const ih = pixelsPerAxis(v, Math.ceil(h * dpr));
  const image = document.createElement("canvas");
  image.width = iw;
  image.height = ih;
  const ictx = /** @type {CanvasRenderingContext2D} */ (image.getContext("2d"));
  ictx.putImageData(new ImageData(smoothGridImage(values, u, v, scale, iw, ih), iw, ih), 0, 0);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(image, x0, y0, w, h);
}

/**
 * The sections of the structures by this plane, in µm.
 * @param {Monitor} monitor @param {import("./field-format.js").Payload} p
 * @param {import("./field-format.js").Structure[]} structures
 * @returns {Outline[]}
 */
function planeOutlines(monitor, p, structures) {
  const { u: ua, v: va, cutUm } = planeOf(monitor, p);
  const plane = { u: ua, v: va, cut: cutUm * 1e-6 };
  return planeSections(shapes(structures), plane).map((s) => ({
    shape: s.shape,
    u0: s.u0 * 1e6,
    u1: s.u1 * 1e6,
    v0: s.v0 * 1e6,
    v1: s.v1 * 1e6,
    rings: (s.rings ?? []).map((ring) => ring.map(([ru, rv]) => [ru * 1e6, rv * 1e6])),
    material: structures[s.index]?.material ?? "",
  }));
}

/**
 * Structures cut by this plane, outlined (dark halo under a light dash: visible on any colour)
 * and named by their material where there is room.
 * @param {CanvasRenderingContext2D} ctx @param {MapFrame} frame @param {Outline[]} outlines
 */
function outlineStructures(ctx, frame, outlines) {
  const { x0, y0, w, h, toX, toY } = frame;
  ctx.save();
  ctx.beginPath();
  ctx.rect(x0, y0, w, h);
  ctx.clip();
  for (const s of outlines) {
    /** @type {Box} */
    const box = { sx0: toX(s.u0), sx1: toX(s.u1), sy0: toY(s.v1), sy1: toY(s.v0) };
    tracePath(ctx, frame, s, box);
    ctx.setLineDash([]);
    ctx.lineWidth = 3;
    ctx.strokeStyle = "rgba(0,0,0,0.35)";
    ctx.stroke();
    tracePath(ctx, frame, s, box);
    ctx.setLineDash([6, 4]);
    ctx.lineWidth = 1.4;
    ctx.strokeStyle = "rgba(255,255,255,0.9)";
    ctx.stroke();
    nameOutline(ctx, frame, s.material, box);
  }
  ctx.restore();
}

/**
 * A new path along a section's outline: a rectangle, a polygon's rings, or an ellipse in its
 * bounding box.
 * @param {CanvasRenderingContext2D} ctx @param {MapFrame} frame @param {Outline} s
 * @param {Box} box
 */
function tracePath(ctx, frame, s, box) {
  const { toX, toY } = frame;
  const { sx0, sx1, sy0, sy1 } = box;
  ctx.beginPath();
  if (s.shape === "rect") ctx.rect(sx0, sy0, sx1 - sx0, sy1 - sy0);
  else if (s.shape === "polygon") {
    for (const ring of s.rings) {
      ring.forEach(([ru, rv], i) => {
        if (i === 0) ctx.moveTo(toX(ru ?? 0), toY(rv ?? 0));
        else ctx.lineTo(toX(ru ?? 0), toY(rv ?? 0));
      });
      ctx.closePath();
    }
  } else
    ctx.ellipse(
      (sx0 + sx1) / 2,
      (sy0 + sy1) / 2,
      (sx1 - sx0) / 2,
      (sy1 - sy0) / 2,
      0,
      0,
      2 * Math.PI,
    );
}

/**
 * The material in the top left corner of a section's box (or of its part in the plot area),
 * if the box has room for it: white on a dark halo.
 * @param {CanvasRenderingContext2D} ctx @param {MapFrame} frame @param {string} material
 * @param {Box} box
 */
function nameOutline(ctx, frame, material, box) {
  const { sx0, sx1, sy0, sy1 } = box;
  const lx = Math.max(sx0, frame.x0) + 5;
  const ly = Math.max(sy0, frame.y0) + 14;
  if (sx1 - sx0 > 36 && sy1 - sy0 > 20) {
    ctx.font = SMALL_FONT;
    ctx.textAlign = "left";
    ctx.lineWidth = 3;
    ctx.setLineDash([]);
    ctx.strokeStyle = "rgba(0,0,0,0.55)";
    ctx.strokeText(material, lx, ly);
    ctx.fillStyle = "#fff";
    ctx.fillText(material, lx, ly);
  }
}

/**
 * The plot area's border, and its axes in µm: ticks below and to the left, and their titles.
 * @param {CanvasRenderingContext2D} ctx @param {Colors} c @param {MapFrame} frame
 * @param {number[]} ue @param {number[]} ve the plane's extent (µm)
 * @param {import("./field-format.js").Payload} p
 */
function drawPlaneAxes(ctx, c, frame, ue, ve, p) {
  const { x0, y0, w, h, toX, toY } = frame;
  ctx.strokeStyle = c.border;
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  ctx.strokeRect(x0 + 0.5, y0 + 0.5, w - 1, h - 1);

  const xt = niceTicks(ue[0] ?? 0, ue[1] ?? 1, Math.max(2, Math.round(w / 80)));
  bottomTicks(ctx, c, xt, toX, y0 + h);
  const yt = niceTicks(ve[0] ?? 0, ve[1] ?? 1, Math.max(2, Math.round(h / 60)));
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const t of yt.ticks) {
    const y = toY(t);
    ctx.beginPath();
    ctx.moveTo(x0, y);
    ctx.lineTo(x0 - 5, y);
    ctx.stroke();
    ctx.fillText(tickLabel(t, yt.step), x0 - 8, y);
  }
  axisTitles(
    ctx,
    c,
    { text: `${p.axes[0]} (µm)`, at: [x0 + w / 2, y0 + h + 42] },
    { text: `${p.axes[1]} (µm)`, at: [x0 - 44, y0 + h / 2] },
  );
}

/**
 * The colour bar at `bx`, as tall as the plot area, with its ticks: from 0 for a magnitude,
 * symmetric about 0 for a component.
 * @param {CanvasRenderingContext2D} ctx @param {Colors} c @param {MapFrame} frame
 * @param {number} bx @param {Scale} scale @param {boolean} magnitude
 */
function drawColourBar(ctx, c, frame, bx, scale, magnitude) {
  const { y0, h } = frame;
  const max = scale.hi;
  const bw = 14;
  const bar = ctx.createLinearGradient(0, y0 + h, 0, y0);
  for (let i = 0; i <= 16; i++) {
    bar.addColorStop(i / 16, `rgb(${colorAt(scale.map, i / 16).join(",")})`);
  }
  ctx.fillStyle = bar;
  ctx.fillRect(bx, y0, bw, h);
  ctx.strokeStyle = c.border;
  ctx.strokeRect(bx + 0.5, y0 + 0.5, bw - 1, h - 1);
  const lo = magnitude ? 0 : -max;
  const ct = niceTicks(lo, max, Math.max(2, Math.round(h / 50)));
  ctx.fillStyle = c.muted;
  ctx.strokeStyle = c.muted;
  ctx.font = FONT;
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  for (const t of ct.ticks) {
    const y = y0 + h - ((t - lo) / (max - lo)) * h;
    ctx.beginPath();
    ctx.moveTo(bx + bw, y);
    ctx.lineTo(bx + bw + 4, y);
    ctx.stroke();
    ctx.fillText(tickLabel(t, ct.step), bx + bw + 7, y);
  }
}

/**
 * The quantity and its unit, in bold, above the colour bar.
 * @param {CanvasRenderingContext2D} ctx @param {Colors} c
 * @param {import("./field-format.js").Payload} p @param {number} x @param {number} y
 */
function colourBarTitle(ctx, c, p, x, y) {
  ctx.fillStyle = c.text;
  ctx.font = `600 ${FONT}`;
  ctx.textAlign = "left";
  ctx.textBaseline = "alphabetic";
  ctx.fillText(`${quantityLabel(p.quantity)} (${unitOf(p.quantity)})`, x, y);
}
