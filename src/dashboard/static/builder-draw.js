// @ts-check
/* global document, window, getComputedStyle, ImageData */
/**
 * The New simulation page's plane previews: each plane of the preview's answer drawn on its
 * canvas as `emsim preview` draws it (src/plot/setup-plot.ts) — Re ε on one colour scale for
 * every plane, white for vacuum and darker for denser; metals and perfect conductors in flat
 * colours of their own, as their ε is off any dielectric scale; every object's outline in the
 * colour of its kind, labelled, with an arrow where a source injects or a port leads in.
 *
 * The pixels come from the plotting core's own mapping (`pixelSamples`: each pixel the sample
 * whose cell holds it), so a graded grid's fine cells sit where they lie.
 */
import { cellEdges, formatMicrons, pixelSamples } from "./plot-core.js";

/**
 * @typedef {{kind: string, name: string, outline: [number, number][][], material?: string,
 *   direction?: number[]}} PlaneObject
 * @typedef {{normal: string, position: number, axes: [string, string], cells: [number, number],
 *   extent: Record<string, [number, number]>, coords: Record<string, number[]>,
 *   eps_real: number[][], eps_imag: number[][], material: number[][], pec: number[][],
 *   objects: PlaneObject[]}} Plane
 * @typedef {{planes: Plane[], materials: {name: string, kind: string}[]}} Answer
 * @typedef {{lo: number, hi: number}} Scale
 * @typedef {[number, number, number]} Rgb
 */

/** The "glass" map's anchors (src/plot/colormap.ts), interpolated here in sRGB. */
const GLASS = /** @type {Rgb[]} */ ([
  [255, 255, 255],
  [220, 235, 245],
  [163, 201, 226],
  [95, 154, 200],
  [47, 98, 160],
  [18, 48, 95],
]);
const METAL = /** @type {Rgb} */ ([214, 176, 64]);
const PEC = /** @type {Rgb} */ ([70, 74, 82]);

/** Each kind's outline colour, width (CSS pixels), whether dashed, and its legend words. */
export const KIND_STYLE =
  /** @type {Record<string, {colour: string, width: number, dash: boolean, words: string}>} */ ({
    structure: { colour: "#1e222a", width: 1, dash: false, words: "structure" },
    pml: { colour: "#969696", width: 1, dash: true, words: "absorber (PML)" },
    mesh_override: { colour: "#e18200", width: 1, dash: true, words: "mesh override" },
    monitor: { colour: "#008c46", width: 2, dash: false, words: "monitor" },
    port: { colour: "#7d3caf", width: 2, dash: false, words: "port" },
    source: { colour: "#d72323", width: 2, dash: false, words: "source" },
    symmetry: { colour: "#c80096", width: 1, dash: true, words: "mirror plane" },
  });

/** Smallest and largest drawn height of a plane, as a share of its width. */
const MIN_ASPECT = 0.12;
const MAX_ASPECT = 1;

/** @param {number} t in [0, 1] @returns {Rgb} */
function glass(t) {
  const x = Math.min(1, Math.max(0, t)) * (GLASS.length - 1);
  const k = Math.min(GLASS.length - 2, Math.floor(x));
  const a = /** @type {Rgb} */ (GLASS[k]);
  const b = /** @type {Rgb} */ (GLASS[k + 1]);
  const f = x - k;
  return [
    Math.round(a[0] + (b[0] - a[0]) * f),
    Math.round(a[1] + (b[1] - a[1]) * f),
    Math.round(a[2] + (b[2] - a[2]) * f),
  ];
}

/**
 * A metal's or perfect conductor's flat colour at a sample, or null for a dielectric.
 * @param {Answer} answer @param {Plane} plane @param {number} i @param {number} j
 */
function flatColour(answer, plane, i, j) {
  const kind = answer.materials[plane.material[i]?.[j] ?? 0]?.kind;
  if (kind === "pec" || (plane.pec[i]?.[j] ?? 0) > 0) return PEC;
  if (kind === "metal" || (plane.eps_real[i]?.[j] ?? 0) < 0) return METAL;
  return null;
}

/**
 * One colour scale for every plane: the dielectric samples' Re ε, from at most 1 up.
 * @param {Answer} answer @returns {Scale}
 */
export function epsScale(answer) {
  let lo = 1;
  let hi = 1;
  for (const plane of answer.planes) {
    plane.eps_real.forEach((row, i) =>
      row.forEach((eps, j) => {
        if (flatColour(answer, plane, i, j)) return;
        lo = Math.min(lo, eps);
        hi = Math.max(hi, eps);
      }),
    );
  }
  return { lo, hi: hi > lo ? hi : lo + 1 };
}

/**
 * Sizes the canvas to its box: the plane's width as wide as the box, its height to scale unless
 * that is thinner than MIN_ASPECT or taller than MAX_ASPECT of it (a 25 nm periodic slice of a
 * 3 µm domain would be one pixel high): then stretched, and said so in the caption.
 * @param {HTMLCanvasElement} canvas @param {Plane} plane
 */
function fitCanvas(canvas, plane) {
  const [a, b] = plane.axes;
  const [u0, u1] = plane.extent[a] ?? [0, 1];
  const [v0, v1] = plane.extent[b] ?? [0, 1];
  const aspect = (v1 - v0) / (u1 - u0);
  const shown = Math.min(MAX_ASPECT, Math.max(MIN_ASPECT, aspect));
  const width = Math.max(120, canvas.parentElement?.clientWidth ?? 300);
  const height = Math.round(width * shown);
  const dpr = window.devicePixelRatio || 1;
  canvas.style.height = `${height}px`;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  return { dpr, stretched: Math.abs(shown - aspect) > 1e-6 * aspect };
}

/**
 * Each sample's colour, (r, g, b) row-major as the planes hold them: worked out once per sample,
 * not per pixel (a plane of 150 × 150 samples fills some 300 000 pixels).
 * @param {Answer} answer @param {Plane} plane @param {Scale} scale
 */
function sampleColours(answer, plane, scale) {
  const nu = plane.eps_real.length;
  const nv = plane.eps_real[0]?.length ?? 0;
  const out = new Uint8Array(nu * nv * 3);
  const span = scale.hi - scale.lo;
  for (let i = 0; i < nu; i++) {
    for (let j = 0; j < nv; j++) {
      const rgb =
        flatColour(answer, plane, i, j) ?? glass(((plane.eps_real[i]?.[j] ?? 1) - scale.lo) / span);
      out.set(rgb, (i * nv + j) * 3);
    }
  }
  return { colours: out, nv };
}

/** @param {CanvasRenderingContext2D} ctx @param {Answer} answer @param {Plane} plane @param {Scale} scale */
function paintEps(ctx, answer, plane, scale) {
  const [a, b] = plane.axes;
  const us = plane.coords[a] ?? [];
  const vs = plane.coords[b] ?? [];
  const { width, height } = ctx.canvas;
  // The grid's extent, as `emsim preview` frames a plane: a sample is its cell's low corner.
  const [uLo, uHi] = plane.extent[a] ?? cellEdges(us);
  const [vLo, vHi] = plane.extent[b] ?? cellEdges(vs);
  const cols = pixelSamples(us, uLo, uHi, width);
  const rows = pixelSamples(vs, vHi, vLo, height);
  const { colours, nv } = sampleColours(answer, plane, scale);
  const image = new ImageData(width, height);
  const data = image.data;
  for (let y = 0; y < height; y++) {
    const j = rows[y] ?? 0;
    for (let x = 0; x < width; x++) {
      const from = ((cols[x] ?? 0) * nv + j) * 3;
      const to = (y * width + x) * 4;
      data[to] = colours[from] ?? 0;
      data[to + 1] = colours[from + 1] ?? 0;
      data[to + 2] = colours[from + 2] ?? 0;
      data[to + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
  return { u: [uLo, uHi], v: [vLo, vHi] };
}

/**
 * Plane coordinates (metres) to canvas pixels, kept within a few widths of the canvas: a
 * substrate metres wide would otherwise reach millions of pixels, which paths do not like.
 * @param {{u: number[], v: number[]}} edges @param {number} width @param {number} height
 */
function toPixels(edges, width, height) {
  const [u0 = 0, u1 = 1] = edges.u;
  const [v0 = 0, v1 = 1] = edges.v;
  const clamp = (/** @type {number} */ p, /** @type {number} */ size) =>
    Math.min(3 * size, Math.max(-2 * size, p));
  return (/** @type {number} */ u, /** @type {number} */ v) =>
    /** @type {[number, number]} */ ([
      clamp(((u - u0) / (u1 - u0)) * width, width),
      clamp(height - ((v - v0) / (v1 - v0)) * height, height),
    ]);
}

/**
 * Draws one plane: ε, the outlines and their labels. Returns whether it was stretched.
 * @param {HTMLCanvasElement} canvas @param {Answer} answer @param {Plane} plane @param {Scale} scale
 */
export function drawPlane(canvas, answer, plane, scale) {
  const { dpr, stretched } = fitCanvas(canvas, plane);
  const ctx = canvas.getContext("2d");
  if (!ctx) return stretched;
  const edges = paintEps(ctx, answer, plane, scale);
  const at = toPixels(edges, canvas.width, canvas.height);
  const labels = new Labels(ctx, dpr);
  for (const o of plane.objects) drawObject(ctx, o, at, dpr, labels, plane.axes);
  return stretched;
}

/**
 * @param {CanvasRenderingContext2D} ctx @param {PlaneObject} o
 * @param {(u: number, v: number) => [number, number]} at @param {number} dpr
 * @param {Labels} labels @param {[string, string]} axes
 */
function drawObject(ctx, o, at, dpr, labels, axes) {
  const style = KIND_STYLE[o.kind] ?? KIND_STYLE.structure;
  if (!style) return;
  ctx.save();
  ctx.strokeStyle = style.colour;
  ctx.lineWidth = style.width * dpr;
  ctx.setLineDash(style.dash ? [4 * dpr, 3 * dpr] : []);
  let anchor = /** @type {[number, number] | null} */ (null);
  for (const ring of o.outline) {
    ctx.beginPath();
    ring.forEach(([u, v], k) => {
      const [x, y] = at(u, v);
      if (k === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
      if (!anchor || y < anchor[1] || (y === anchor[1] && x < anchor[0])) anchor = [x, y];
    });
    if (ring.length === 1) {
      const [x, y] = at(ring[0]?.[0] ?? 0, ring[0]?.[1] ?? 0);
      ctx.arc(x, y, 2.5 * dpr, 0, 2 * Math.PI);
    } else if (ring.length > 2) ctx.closePath();
    ctx.stroke();
  }
  ctx.restore();
  if (o.direction && anchor) drawArrow(ctx, o, at, dpr, axes, style.colour);
  if (anchor && o.kind !== "pml") labels.place(o.name, anchor, style.colour);
}

/**
 * The direction a source injects or a port leads in, projected on the plane, from the middle
 * of the outline.
 * @param {CanvasRenderingContext2D} ctx @param {PlaneObject} o
 * @param {(u: number, v: number) => [number, number]} at @param {number} dpr
 * @param {[string, string]} axes @param {string} colour
 */
function drawArrow(ctx, o, at, dpr, axes, colour) {
  const index = { x: 0, y: 1, z: 2 };
  const du = o.direction?.[index[/** @type {"x"} */ (axes[0])]] ?? 0;
  const dv = o.direction?.[index[/** @type {"x"} */ (axes[1])]] ?? 0;
  const points = o.outline.flat();
  if (Math.hypot(du, dv) < 1e-6 || points.length === 0) return;
  const mid = points
    .map(([u, v]) => at(u, v))
    .reduce((s, [x, y]) => [s[0] + x / points.length, s[1] + y / points.length], [0, 0]);
  const length = 22 * dpr;
  const n = Math.hypot(du, dv);
  const [ex, ey] = [mid[0] + (du / n) * length, mid[1] - (dv / n) * length];
  const angle = Math.atan2(ey - mid[1], ex - mid[0]);
  ctx.save();
  ctx.strokeStyle = ctx.fillStyle = colour;
  ctx.lineWidth = 2 * dpr;
  ctx.beginPath();
  ctx.moveTo(mid[0], mid[1]);
  ctx.lineTo(ex, ey);
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(ex, ey);
  for (const turn of [2.6, -2.6]) {
    ctx.lineTo(ex + 7 * dpr * Math.cos(angle + turn), ey + 7 * dpr * Math.sin(angle + turn));
  }
  ctx.closePath();
  ctx.fill();
  ctx.restore();
}

/** Labels placed where they do not cover one another (a later one moves down, or is left out). */
class Labels {
  /** @param {CanvasRenderingContext2D} ctx @param {number} dpr */
  constructor(ctx, dpr) {
    this.ctx = ctx;
    this.dpr = dpr;
    /** @type {[number, number, number, number][]} */
    this.taken = [];
    const font = getComputedStyle(document.body).fontFamily || "sans-serif";
    ctx.font = `${11 * dpr}px ${font}`;
    ctx.textBaseline = "top";
  }

  /** @param {string} text @param {[number, number]} anchor @param {string} colour */
  place(text, anchor, colour) {
    const { ctx, dpr } = this;
    const w = ctx.measureText(text).width + 4 * dpr;
    const h = 14 * dpr;
    const x = Math.min(ctx.canvas.width - w, Math.max(0, anchor[0] + 3 * dpr));
    for (let tries = 0, y = Math.max(0, anchor[1] + 2 * dpr); tries < 4; tries++, y += h) {
      if (y + h > ctx.canvas.height) break;
      const overlaps = this.taken.some(
        ([tx, ty, tw, th]) => x < tx + tw && tx < x + w && y < ty + th && ty < y + h,
      );
      if (overlaps) continue;
      this.taken.push([x, y, w, h]);
      ctx.save();
      ctx.lineWidth = 3 * dpr;
      ctx.strokeStyle = "rgba(255, 255, 255, 0.85)";
      ctx.fillStyle = colour;
      ctx.strokeText(text, x + 2 * dpr, y);
      ctx.fillText(text, x + 2 * dpr, y);
      ctx.restore();
      return;
    }
  }
}

/**
 * The words of a plane for its caption and its canvas's accessible name.
 * @param {Plane} plane @param {boolean} stretched
 */
export function planeWords(plane, stretched) {
  const [a, b] = plane.axes;
  const range = (/** @type {string} */ axis) => {
    const [lo = 0, hi = 0] = plane.extent[axis] ?? [];
    return `${axis} ${formatMicrons(lo * 1e6)} to ${formatMicrons(hi * 1e6)} µm`;
  };
  const names = plane.objects.filter((o) => o.kind !== "pml").map((o) => o.name);
  return {
    caption: `${plane.normal} = ${formatMicrons(plane.position * 1e6)} µm · ${range(a)} → · ${range(b)} ↑${stretched ? " · not to scale" : ""}`,
    label: `Re ε on the plane ${plane.normal} = ${formatMicrons(plane.position * 1e6)} µm, ${plane.cells[0]} × ${plane.cells[1]} cells${names.length ? `; it cuts ${names.join(", ")}` : ""}`,
  };
}
