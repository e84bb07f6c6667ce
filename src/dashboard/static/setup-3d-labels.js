// @ts-check
/* global document */
/**
 * The set-up view's words (setup-3d.js): the names of the sources, monitors, ports, mesh
 * overrides and mirror planes as small labels over the canvas, kept where their objects are
 * drawn as the view turns; the materials' legend; and the sentence the canvas gives a screen
 * reader. Labels are page text rather than sprites: crisp at any zoom, in the page's font,
 * and no texture to make per name.
 *
 * The styles are set through the CSSOM (element.style), which the dashboard's CSP allows (it
 * refuses style attributes written into markup); the classes let the stylesheet restyle them.
 */
import { Vector3 } from "./three.module.js";

/**
 * @typedef {import("../../preview/scene-types.js").SetupScene} SetupScene
 * @typedef {import("./setup-3d-shapes.js").Label} Label
 * @typedef {import("./setup-3d-shapes.js").Frame} Frame
 * @typedef {import("./setup-3d-shapes.js").Palette} Palette
 * @typedef {import("./three.module.js").Camera} Camera
 */

const COLORS = {
  source: "#c2410c",
  monitor: "#2b8a3e",
  port: "#7048e8",
  mesh: "#0c8599",
  pec: "#1c7ed6",
  pmc: "#d6336c",
};

/** A length in metres as the dashboard writes it: µm, or nm below a tenth of one. */
export function formatLength(/** @type {number} */ m) {
  const um = m * 1e6;
  if (Math.abs(um) >= 0.1) return `${Number(um.toPrecision(3))} µm`;
  return `${Number((m * 1e9).toPrecision(3))} nm`;
}

/** The nearest 1, 2 or 5 × 10ⁿ at or below `m` (a scale bar's length). */
export function niceLength(/** @type {number} */ m) {
  const p = 10 ** Math.floor(Math.log10(m));
  const f = m / p;
  return (f >= 5 ? 5 : f >= 2 ? 2 : 1) * p;
}

/**
 * The labels of what is not a structure: each source at its arrow's tip or its point, each
 * monitor, port and mesh override at its high corner (centres crowd: a flux plane and a far
 * field plane often share one), each mirror plane at its corner.
 * @param {SetupScene} scene @param {Frame} frame
 * @returns {Label[]}
 */
export function sceneLabels(scene, frame) {
  /** @type {Label[]} */
  const out = [];
  const middle = (/** @type {{ min: number[], max: number[] }} */ o) =>
    frame.at(o.min).add(frame.at(o.max)).multiplyScalar(0.5);
  for (const s of scene.sources) {
    const at = middle(s);
    if (s.direction) {
      const d = new Vector3(
        ...[0, 1, 2].map((a) => (s.direction?.[a] ?? 0) * (frame.stretch[a] ?? 1)),
      );
      at.addScaledVector(d.normalize(), 0.24);
    }
    out.push({ text: s.name, at, kind: "source", color: COLORS.source });
  }
  for (const m of scene.monitors) {
    out.push({ text: m.name, at: frame.at(m.max), kind: "monitor", color: COLORS.monitor });
  }
  for (const p of scene.ports) {
    out.push({ text: `port ${p.name}`, at: middle(p), kind: "port", color: COLORS.port });
  }
  for (const o of scene.meshOverrides) {
    out.push({ text: "finer mesh", at: frame.at(o.max), kind: "mesh", color: COLORS.mesh });
  }
  for (const m of scene.symmetry) {
    const a = "xyz".indexOf(m.axis);
    const corner = [...scene.domain.gridMax];
    corner[a] = 0;
    out.push({
      text: `${m.axis} = 0 (${m.kind})`,
      at: frame.at(corner),
      kind: "symmetry",
      color: COLORS[m.kind],
    });
  }
  return out;
}

/**
 * The labels' layer over the canvas, and the legend in its corner.
 * @param {HTMLElement} container
 */
export function labelLayer(container) {
  const layer = document.createElement("div");
  layer.className = "setup-3d-labels";
  layer.setAttribute("aria-hidden", "true");
  Object.assign(layer.style, {
    position: "absolute",
    inset: "0",
    overflow: "hidden",
    pointerEvents: "none",
    font: "12px/1.3 system-ui, sans-serif",
  });
  container.append(layer);
  return layer;
}

/**
 * Fills the layer with the scene's labels and legend.
 * @param {HTMLElement} layer @param {Label[]} labels @param {SetupScene} scene
 * @param {Palette} palette
 * @returns {HTMLElement[]} the labels' elements, in the order of `labels`
 */
export function fillLabels(layer, labels, scene, palette) {
  layer.replaceChildren();
  const tags = labels.map((label) => {
    const tag = document.createElement("span");
    tag.className = `setup-3d-label setup-3d-${label.kind}`;
    tag.textContent = label.text;
    Object.assign(tag.style, {
      position: "absolute",
      left: "0",
      top: "0",
      whiteSpace: "nowrap",
      padding: "0 3px",
      borderRadius: "3px",
      color: label.color,
      background: palette.background,
      opacity: "0.88",
    });
    layer.append(tag);
    return tag;
  });
  layer.append(legend(scene, palette), hint(palette));
  return tags;
}

/** How to turn the view, in the corner: nothing on the canvas says it can be turned. */
function hint(/** @type {Palette} */ palette) {
  const note = document.createElement("p");
  note.className = "setup-3d-hint";
  note.textContent = "Drag or arrow keys to turn · wheel or + − to zoom · 0 to reset";
  Object.assign(note.style, {
    position: "absolute",
    right: "8px",
    bottom: "4px",
    margin: "0",
    fontSize: "11px",
    color: palette.line,
  });
  return note;
}

/**
 * The materials with their colours and ε at the source wavelength.
 * @param {SetupScene} scene @param {Palette} palette
 */
function legend(scene, palette) {
  const list = document.createElement("ul");
  list.className = "setup-3d-legend";
  Object.assign(list.style, {
    position: "absolute",
    left: "8px",
    top: "8px",
    margin: "0",
    padding: "4px 6px",
    listStyle: "none",
    color: palette.text,
    background: palette.background,
    opacity: "0.9",
    borderRadius: "4px",
  });
  for (const m of scene.materials) {
    const item = document.createElement("li");
    const swatch = document.createElement("span");
    Object.assign(swatch.style, {
      display: "inline-block",
      width: "10px",
      height: "10px",
      marginRight: "5px",
      background: m.color,
      border: `1px solid ${palette.line}`,
    });
    const eps = m.kind === "pec" ? "perfect conductor" : m.eps ? `ε ${formatEps(m.eps)}` : m.kind;
    item.append(swatch, `${m.name} (${eps})`);
    list.append(item);
  }
  return list;
}

/** @param {[number, number]} eps */
function formatEps([re, im]) {
  const r = Number(re.toPrecision(4));
  if (Math.abs(im) < 1e-3 * Math.max(1, Math.abs(re))) return String(r);
  return `${r} ${im < 0 ? "−" : "+"} ${Number(Math.abs(im).toPrecision(3))}i`;
}

/**
 * Moves each label onto its point as `camera` sees it (CSS pixels of a `width` × `height`
 * canvas), hides those behind the camera, and nudges one down while it overlaps one placed
 * before it, so names at one point stay readable.
 * @param {HTMLElement[]} tags @param {Label[]} labels @param {Camera} camera
 * @param {number} width @param {number} height
 */
export function placeLabels(tags, labels, camera, width, height) {
  /** @type {{ x: number, y: number, w: number, h: number }[]} */
  const placed = [];
  const p = new Vector3();
  labels.forEach((label, k) => {
    const tag = tags[k];
    if (!tag) return;
    p.copy(label.at).project(camera);
    if (p.z > 1 || p.z < -1) {
      tag.style.visibility = "hidden";
      return;
    }
    const w = tag.offsetWidth;
    const h = tag.offsetHeight;
    const x = ((p.x + 1) / 2) * width + 4;
    let y = ((1 - p.y) / 2) * height - h / 2;
    for (let tries = 0; tries < 8; tries++) {
      const hit = placed.find((r) => x < r.x + r.w && r.x < x + w && y < r.y + r.h && r.y < y + h);
      if (!hit) break;
      y = hit.y + hit.h + 1;
    }
    placed.push({ x, y, w, h });
    tag.style.visibility = "visible";
    tag.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  });
}

/**
 * What the canvas shows, for a screen reader (its aria-label), with how to turn it.
 * @param {SetupScene} scene
 */
export function describeScene(scene) {
  const { min, max } = scene.domain;
  const size = [0, 1, 2].map((a) => formatLength((max[a] ?? 0) - (min[a] ?? 0))).join(" × ");
  const count = (/** @type {number} */ n, /** @type {string} */ what) =>
    `${n} ${what}${n === 1 ? "" : "s"}`;
  const materials = [...new Set(scene.structures.map((s) => s.material))].join(", ");
  const parts = [
    `3-D view of the set-up: a domain of ${size}`,
    count(scene.structures.length, "structure") + (materials ? ` (${materials})` : ""),
    scene.sources.map((s) => s.name).join(", ") || "no source",
    count(scene.monitors.length, "monitor"),
  ];
  if (scene.ports.length > 0) parts.push(count(scene.ports.length, "port"));
  return `${parts.join("; ")}. Drag or use the arrow keys to rotate, + and − to zoom, 0 to reset.`;
}
