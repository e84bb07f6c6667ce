// @ts-check
/* global document */
/**
 * The Fabrication panel's drawing (fabrication.js): an exported layout's merged polygons as
 * SVG, one colour per layer, y up, in nanometres, with a legend; and the design-rule check's
 * violations marked on it, each by its two edges and a ring at its location.
 */

const SVG_NS = "http://www.w3.org/2000/svg";
/** Fill colours by layer, in order of the layers in the file (readable on light and dark). */
const LAYER_COLOURS = ["#3a56d4", "#0d9488", "#c2410c", "#7c3aed", "#b45309", "#0e7490"];

/**
 * @typedef {{outline: number[], holes: number[][]}} Polygon
 * @typedef {{layers: Record<string, Polygon[]>, bbox_nm: number[] | null, polygon_count: number,
 *   too_large: boolean}} Layout
 * @typedef {{rule: string, severity: string, location: number[], actual_nm: number,
 *   required_nm: number, layer: string, edges_nm: number[][]}} Violation
 */

/**
 * Micrometres as the panel writes them: at most four decimals, no trailing zeros.
 * @param {number} v µm
 */
export const um = (v) => `${Number(v.toFixed(4))}`;

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function svg(tag, attrs = {}) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * @param {string} text
 * @param {string} className
 */
function legendItem(text, className) {
  const node = document.createElement("span");
  node.textContent = text;
  node.className = className;
  return node;
}

/** A flat ring [x0, y0, x1, y1, …] (nm) as an SVG path, y flipped so that up is up. */
/** @param {number[]} ring */
function ringPath(ring) {
  let d = "";
  for (let i = 0; i < ring.length; i += 2) {
    d += `${i === 0 ? "M" : "L"}${ring[i]},${-(ring[i + 1] ?? 0)}`;
  }
  return `${d}Z`;
}

/**
 * Draws `layout` in `drawing` and lists its layers in `legend`; an empty layout, or one too
 * large to draw, only says so in the legend.
 * @param {SVGElement} drawing @param {HTMLElement} legend @param {Layout} layout
 * @returns {number | undefined} the drawing's larger side (nm), when drawn
 */
export function drawLayout(drawing, legend, layout) {
  drawing.replaceChildren();
  legend.replaceChildren();
  const box = layout.bbox_nm;
  if (!box || layout.too_large) {
    drawing.setAttribute("hidden", "");
    legend.textContent = layout.too_large
      ? `${layout.polygon_count} polygons: too many to draw here; download the file.`
      : "The layout is empty.";
    return;
  }
  drawing.removeAttribute("hidden");
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = box;
  const w = Math.max(x1 - x0, 1);
  const h = Math.max(y1 - y0, 1);
  const pad = 0.06 * Math.max(w, h);
  drawing.setAttribute("viewBox", `${x0 - pad} ${-y1 - pad} ${w + 2 * pad} ${h + 2 * pad}`);
  const keys = Object.keys(layout.layers).sort();
  for (const [i, key] of keys.entries()) {
    const colour = LAYER_COLOURS[i % LAYER_COLOURS.length] ?? "#3a56d4";
    const polygons = layout.layers[key] ?? [];
    drawing.append(layerGroup(key, polygons, colour));
    legend.append(layerLegend(key, polygons.length, colour));
  }
  legend.append(legendItem(`${um(w / 1000)} × ${um(h / 1000)} µm, y up`, "fab-legend-item muted"));
  return Math.max(w, h);
}

/**
 * A layer's polygons (holes cut out by the even-odd rule), outlined and filled in its colour.
 * @param {string} key @param {Polygon[]} polygons @param {string} colour
 */
function layerGroup(key, polygons, colour) {
  const group = svg("g", { "data-layer": key, fill: colour, "fill-opacity": 0.55 });
  for (const polygon of polygons) {
    const d = [polygon.outline, ...polygon.holes].map(ringPath).join("");
    group.append(
      svg("path", {
        d,
        class: "fab-poly",
        "fill-rule": "evenodd",
        stroke: colour,
        "stroke-width": 1.5,
        "vector-effect": "non-scaling-stroke",
      }),
    );
  }
  return group;
}

/**
 * A layer in the legend: a swatch of its colour, its name and its number of polygons.
 * @param {string} key @param {number} count @param {string} colour
 */
function layerLegend(key, count, colour) {
  const item = legendItem("", "fab-legend-item");
  const sw = svg("svg", { width: 12, height: 12, "aria-hidden": "true" });
  sw.append(svg("rect", { width: 12, height: 12, fill: colour, "fill-opacity": 0.7 }));
  item.append(sw, ` ${key} (${count})`);
  return item;
}

/** @param {SVGElement} drawing */
export function removeViolationMarks(drawing) {
  for (const mark of drawing.querySelectorAll(".fab-violation")) mark.remove();
}

/**
 * Marks violation `v` (number `index`) on the drawing: its two edges, and a ring of radius `r`
 * (nm) around its location; red for an error, amber otherwise.
 * @param {SVGElement} drawing @param {Violation} v @param {number} index @param {number} r
 * @returns {SVGElement} the mark
 */
export function markViolation(drawing, v, index, r) {
  const mark = svg("g", {
    class: "fab-violation",
    "data-index": index,
    "data-rule": v.rule,
    stroke: v.severity === "error" ? "#c42a3d" : "#8f5b00",
    fill: "none",
  });
  const title = svg("title");
  title.textContent = `${v.rule} on ${v.layer}: ${v.actual_nm} nm < ${v.required_nm} nm`;
  mark.append(title);
  for (const e of v.edges_nm) {
    mark.append(
      svg("line", {
        x1: e[0] ?? 0,
        y1: -(e[1] ?? 0),
        x2: e[2] ?? 0,
        y2: -(e[3] ?? 0),
        "stroke-width": 3,
        "vector-effect": "non-scaling-stroke",
      }),
    );
  }
  mark.append(
    svg("circle", {
      class: "fab-violation-ring",
      cx: (v.location[0] ?? 0) * 1000,
      cy: -(v.location[1] ?? 0) * 1000,
      r,
      "stroke-width": 2,
      "vector-effect": "non-scaling-stroke",
    }),
  );
  drawing.append(mark);
  return mark;
}
