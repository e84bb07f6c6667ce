/**
 * A set-up preview (POST /v1/simulations/preview's answer, or `emsim preview`'s) as a picture:
 * each plane a heat map of Re ε as the run steps it, side by side, on one colour scale
 * ("glass": vacuum white, denser darker); metals and perfect conductors in flat colours of their
 * own (their ε is off any dielectric scale); the grid's cell edges where a cell is wide enough
 * to show them; every object's outline in the colour of its kind, labelled, with an arrow where
 * a source injects or a port leads into the device; a legend; the warnings in the margin below.
 * Drawn with the field plots' frame, axes, font and colour bar (heatmap-frame.ts).
 */
import type { PreviewObject, PreviewPlaneResult, PreviewResponse } from "../schema/preview.js";
import { Canvas } from "./canvas.js";
import { colorAt, permittivity, type Rgb } from "./colormap.js";
import { LINE_HEIGHT, textWidth } from "./font.js";
import {
  drawColourBar,
  drawHeatMapAxes,
  heatMapFrame,
  type HeatMapFrame,
} from "./heatmap-frame.js";
import type { ColourScale } from "./heatmap.js";
import { pixelSamples } from "./heatmap.js";
import { formatMicrons } from "./labels.js";
import { CHAR_H, INK, MARGIN, MUTED, S } from "./line-chart.js";
import { encodePng } from "./png.js";

export interface SetupPlotOptions {
  /** First title line; default "Set-up as the solver steps it". */
  title?: string;
  /** Second title line; default "Re ε". */
  subtitle?: string;
  /** Longest side of each plane's plot area in pixels. Default 520 for one plane, 340 for more. */
  size?: number;
}

type SetupPreview = Pick<PreviewResponse, "planes" | "materials" | "warnings">;

const METAL: Rgb = [214, 176, 64];
const PEC: Rgb = [70, 74, 82];
const WARNING: Rgb = [176, 72, 0];

/** Each kind's outline colour, width in pixels, whether dashed, and its legend words. */
const KIND_STYLE: Record<
  PreviewObject["kind"],
  { colour: Rgb; width: number; dash: boolean; words: string }
> = {
  structure: { colour: [30, 34, 42], width: 1, dash: false, words: "structure" },
  pml: { colour: [150, 150, 150], width: 1, dash: true, words: "absorber (PML)" },
  mesh_override: { colour: [225, 130, 0], width: 1, dash: true, words: "mesh override" },
  monitor: { colour: [0, 140, 70], width: 2, dash: false, words: "monitor" },
  port: { colour: [125, 60, 175], width: 2, dash: false, words: "port" },
  source: { colour: [215, 35, 35], width: 2, dash: false, words: "source" },
  symmetry: { colour: [200, 0, 150], width: 1, dash: true, words: "mirror plane" },
};

/** Gap between panels, in pixels. */
const PANEL_GAP = 28;
/** A cell must be this many pixels wide for its edges to be drawn. */
const LEGIBLE_CELL_PX = 6;

/** Whether a sample is drawn as a metal or a perfect conductor rather than by its ε. */
function flatColour(
  answer: SetupPreview,
  plane: PreviewPlaneResult,
  i: number,
  j: number,
): Rgb | null {
  const kind = answer.materials[plane.material[i]![j]!]?.kind;
  if (kind === "pec" || plane.pec[i]![j]! > 0) return PEC;
  if (kind === "metal" || plane.eps_real[i]![j]! < 0) return METAL;
  return null;
}

/** One colour scale for every plane: the dielectric samples' Re ε, from at most 1 up. */
function epsScale(answer: SetupPreview): ColourScale {
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
  return { map: permittivity, lo, hi: hi > lo ? hi : lo + 1 };
}

/** A panel: its plane and frame, moved right to its place on the canvas. */
interface Panel {
  plane: PreviewPlaneResult;
  frame: HeatMapFrame;
}

function layoutPanels(answer: SetupPreview, colours: ColourScale, size: number): Panel[] {
  let x = 0;
  return answer.planes.map((plane) => {
    const [a, b] = plane.axes;
    const f = heatMapFrame(plane.extent[a]!, plane.extent[b]!, colours, "Re ε", size);
    const frame = { ...f, left: f.left + x, yTitleX: f.yTitleX + x };
    x += f.left + f.plotW + PANEL_GAP;
    return { plane, frame };
  });
}

/** Plot coordinates (metres) to canvas pixels. */
function toCanvas(f: HeatMapFrame): (u: number, v: number) => [number, number] {
  const [uLo, uHi] = f.u;
  const [vLo, vHi] = f.v;
  return (u, v) => [
    f.left + ((u - uLo) / (uHi - uLo)) * f.plotW,
    f.top + f.plotH - ((v - vLo) / (vHi - vLo)) * f.plotH,
  ];
}

/** The plane's samples into its plot area: each pixel its nearest sample's colour. */
function drawEps(c: Canvas, answer: SetupPreview, panel: Panel, colours: ColourScale): void {
  const { plane, frame: f } = panel;
  const [a, b] = plane.axes;
  const cols = pixelSamples(plane.coords[a]!, f.u[0], f.u[1], f.plotW);
  const rows = pixelSamples(plane.coords[b]!, f.v[1], f.v[0], f.plotH);
  const span = colours.hi - colours.lo;
  for (let py = 0; py < f.plotH; py++) {
    const j = rows[py]!;
    for (let px = 0; px < f.plotW; px++) {
      const i = cols[px]!;
      const colour =
        flatColour(answer, plane, i, j) ??
        colorAt(colours.map, (plane.eps_real[i]![j]! - colours.lo) / span);
      c.setPixel(f.left + px, f.top + py, colour);
    }
  }
}

/** Darkens a pixel by `amount` (0–1): grid lines that keep the colour beneath readable. */
function darken(c: Canvas, x: number, y: number, amount: number): void {
  if (x < 0 || y < 0 || x >= c.width || y >= c.height) return;
  const [r, g, b] = c.getPixel(Math.round(x), Math.round(y));
  const k = 1 - amount;
  c.setPixel(x, y, [r * k, g * k, b * k].map(Math.round) as Rgb);
}

/** The grid's node lines (the Yee cells' edges), when every sample is a cell wide enough to see. */
function drawCellEdges(c: Canvas, panel: Panel): void {
  const { plane, frame: f } = panel;
  const [a, b] = plane.axes;
  const [us, vs] = [plane.coords[a]!, plane.coords[b]!];
  if (us.length < plane.cells[0] || vs.length < plane.cells[1]) return;
  const at = toCanvas(f);
  const cellPx = Math.min(f.plotW / plane.cells[0], f.plotH / plane.cells[1]);
  if (cellPx < LEGIBLE_CELL_PX) return;
  for (const u of us) {
    const [x] = at(u, 0);
    for (let y = f.top; y < f.top + f.plotH; y++) darken(c, x, y, 0.12);
  }
  for (const v of vs) {
    const [, y] = at(0, v);
    for (let x = f.left; x < f.left + f.plotW; x++) darken(c, x, y, 0.12);
  }
}

/**
 * The part of the segment (x0, y0)–(x1, y1) inside the plot area (Liang–Barsky), or null: a
 * structure may be metres wide (a substrate through the absorber) and its outline millions of
 * pixels long.
 */
function clipToPlot(
  f: HeatMapFrame,
  [x0, y0]: [number, number],
  [x1, y1]: [number, number],
): [number, number, number, number] | null {
  const [dx, dy] = [x1 - x0, y1 - y0];
  let t0 = 0;
  let t1 = 1;
  const sides: [number, number][] = [
    [-dx, x0 - f.left],
    [dx, f.left + f.plotW - 1 - x0],
    [-dy, y0 - f.top],
    [dy, f.top + f.plotH - 1 - y0],
  ];
  for (const [p, q] of sides) {
    if (p === 0) {
      if (q < 0) return null;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return null;
  }
  return [x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy];
}

/** A ring's segments (closed for three points or more) inside the plot area, dashed or not. */
function strokeRing(
  c: Canvas,
  f: HeatMapFrame,
  ring: [number, number][],
  kind: PreviewObject["kind"],
): void {
  const style = KIND_STYLE[kind];
  const at = toCanvas(f);
  const points = ring.map(([u, v]) => at(u, v));
  if (points.length === 1) {
    const [x, y] = points[0]!;
    c.fillRect(x - 3, y - 3, 7, 7, style.colour);
    return;
  }
  const h = Math.floor((style.width - 1) / 2);
  const segments = points.length === 2 ? 1 : points.length;
  for (let k = 0; k < segments; k++) {
    const clipped = clipToPlot(f, points[k]!, points[(k + 1) % points.length]!);
    if (!clipped) continue;
    const [x0, y0, x1, y1] = clipped;
    const n = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0)));
    for (let t = 0; t <= n; t++) {
      if (style.dash && Math.floor(t / 4) % 2 === 1) continue;
      const x = Math.round(x0 + ((x1 - x0) * t) / n);
      const y = Math.round(y0 + ((y1 - y0) * t) / n);
      c.fillRect(x - h, y - h, style.width, style.width, style.colour);
    }
  }
}

/** The absorber's slabs, tinted grey (drawn first, under everything). */
function tintAbsorber(c: Canvas, f: HeatMapFrame, objects: readonly PreviewObject[]): void {
  const at = toCanvas(f);
  for (const o of objects) {
    if (o.kind !== "pml") continue;
    const ring = o.outline[0] ?? [];
    if (ring.length < 4) continue;
    const [x0, y0] = at(Math.min(...ring.map((p) => p[0])), Math.max(...ring.map((p) => p[1])));
    const [x1, y1] = at(Math.max(...ring.map((p) => p[0])), Math.min(...ring.map((p) => p[1])));
    for (
      let y = Math.max(f.top, Math.round(y0));
      y < Math.min(f.top + f.plotH, Math.round(y1));
      y++
    ) {
      for (
        let x = Math.max(f.left, Math.round(x0));
        x < Math.min(f.left + f.plotW, Math.round(x1));
        x++
      ) {
        // Diagonal hatching: every fourth diagonal darker.
        if ((x + y) % 6 === 0) darken(c, x, y, 0.3);
      }
    }
  }
}

/** An arrow of `length` pixels from (x, y) along the in-plane part of `direction`. */
function drawArrow(
  c: Canvas,
  [x, y]: [number, number],
  d: [number, number],
  colour: Rgb,
  length = 26,
): void {
  const norm = Math.hypot(d[0], d[1]);
  if (norm < 0.2) return;
  const [dx, dy] = [d[0] / norm, -d[1] / norm];
  const [tx, ty] = [x + dx * length, y + dy * length];
  c.line(x, y, tx, ty, colour, 2);
  for (const turn of [0.5, -0.5]) {
    const cos = Math.cos(Math.PI + turn);
    const sin = Math.sin(Math.PI + turn);
    c.line(tx, ty, tx + 9 * (dx * cos - dy * sin), ty + 9 * (dx * sin + dy * cos), colour, 2);
  }
}

/** The label of an object: a structure's material, else its name, and its direction's sense. */
function labelOf(o: PreviewObject, plane: PreviewPlaneResult): string {
  const base = o.kind === "structure" ? (o.material ?? o.name) : o.name;
  if (!o.direction) return base;
  const normal = "xyz".indexOf(plane.normal);
  const along = o.direction[normal]!;
  if (Math.abs(along) < 0.9) return base;
  return `${base} (${along > 0 ? "+" : "-"}${plane.normal})`;
}

/** Labels placed so far on a panel, to keep new ones off them. */
type Placed = [number, number, number, number][];

/** A small label with a light backing near (x, y), inside the plot area, off earlier labels. */
function placeLabel(
  c: Canvas,
  f: HeatMapFrame,
  placed: Placed,
  x: number,
  y: number,
  text: string,
  colour: Rgb,
) {
  const w = textWidth(text, 1) + 4;
  const h = LINE_HEIGHT + 2;
  const hits = (lx: number, ly: number) =>
    placed.some(([px, py, pw, ph]) => lx < px + pw && px < lx + w && ly < py + ph && py < ly + h);
  let lx = Math.min(Math.max(x + 3, f.left + 1), f.left + f.plotW - w - 1);
  let ly = Math.min(Math.max(y + 3, f.top + 1), f.top + f.plotH - h - 1);
  for (let tries = 0; tries < 12 && hits(lx, ly); tries++) {
    ly += h;
    if (ly + h > f.top + f.plotH) {
      ly = f.top + 1;
      lx = Math.min(lx + w, f.left + f.plotW - w - 1);
    }
  }
  // Still on another label: the free place nearest the object, anywhere in the plot, so that
  // no label covers an earlier one's.
  if (hits(lx, ly)) {
    const free = freeSpotNear(f, x, y, w, h, hits);
    if (!free) return;
    [lx, ly] = free;
  }
  placed.push([lx, ly, w, h]);
  c.fillRect(lx, ly, w, h, [255, 255, 255]);
  c.text(lx + 2, ly + 1, text, colour);
}

/** The top-left corner of a free w × h place in the plot nearest (x, y), or null when none. */
function freeSpotNear(
  f: HeatMapFrame,
  x: number,
  y: number,
  w: number,
  h: number,
  hits: (lx: number, ly: number) => boolean,
): [number, number] | null {
  let best: [number, number] | null = null;
  let bestD = Infinity;
  for (let ly = f.top + 1; ly + h <= f.top + f.plotH - 1; ly += Math.max(2, h >> 1)) {
    for (let lx = f.left + 1; lx + w <= f.left + f.plotW - 1; lx += 4) {
      const d = (lx - x) ** 2 + (ly - y) ** 2;
      if (d < bestD && !hits(lx, ly)) [best, bestD] = [[lx, ly], d];
    }
  }
  return best;
}

/**
 * Every object of a panel: outlines and arrows first, then the labels over them (the
 * absorber's and the mirror's once), so that no later outline crosses an earlier label.
 */
function drawObjects(c: Canvas, panel: Panel): void {
  const { plane, frame: f } = panel;
  const at = toCanvas(f);
  const placed: Placed = [];
  const labelled = new Set<string>();
  tintAbsorber(c, f, plane.objects);
  const bounds = (ring: [number, number][]) => {
    const us = ring.map((p) => p[0]);
    const vs = ring.map((p) => p[1]);
    return [Math.min(...us), Math.max(...us), Math.min(...vs), Math.max(...vs)] as const;
  };
  for (const o of plane.objects) {
    for (const ring of o.outline) strokeRing(c, f, ring, o.kind);
    const ring = o.outline[0];
    if (!o.direction || !ring || ring.length === 0) continue;
    const [u0, u1, v0, v1] = bounds(ring);
    const [a, b] = plane.axes.map((n) => "xyz".indexOf(n));
    const centre = at((u0 + u1) / 2, (v0 + v1) / 2);
    drawArrow(c, centre, [o.direction[a!]!, o.direction[b!]!], KIND_STYLE[o.kind].colour);
  }
  for (const o of plane.objects) {
    const ring = o.outline[0];
    if (!ring || ring.length === 0) continue;
    const once = o.kind === "pml" ? "PML" : o.kind === "symmetry" ? "mirror" : null;
    if (once && labelled.has(once)) continue;
    if (once) labelled.add(once);
    const [u0, , , v1] = bounds(ring);
    const [x, y] = at(u0, v1);
    const text = once === "PML" ? "PML" : labelOf(o, plane);
    placeLabel(c, f, placed, x, y, text, KIND_STYLE[o.kind].colour);
  }
}

/** Words broken into lines of at most `width` pixels at `scale`. */
function wrap(text: string, width: number, scale: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (textWidth(next, scale) > width && line) {
      lines.push(line);
      line = `  ${word}`;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** Room above each panel for its cut ("z = 0 µm"), in pixels. */
const PANEL_TITLE = CHAR_H + 12;

/** The legend's rows: the flat colours present, then each kind of object drawn. */
function legendRows(answer: SetupPreview): [Rgb, string, boolean][] {
  const kinds = new Set(answer.planes.flatMap((p) => p.objects.map((o) => o.kind)));
  const materialKinds = new Set(answer.materials.map((m) => m.kind));
  const rows: [Rgb, string, boolean][] = [];
  if (materialKinds.has("metal")) rows.push([METAL, "metal", true]);
  if (materialKinds.has("pec")) rows.push([PEC, "PEC", true]);
  for (const [kind, style] of Object.entries(KIND_STYLE)) {
    if (kinds.has(kind as PreviewObject["kind"])) rows.push([style.colour, style.words, false]);
  }
  return rows;
}

/** The legend at (x, y): a swatch or a line of each row's colour, and its words. */
function drawLegend(c: Canvas, x: number, y: number, rows: [Rgb, string, boolean][]): void {
  rows.forEach(([colour, words, swatch], k) => {
    const ry = y + k * LEGEND_ROW;
    if (swatch) c.fillRect(x, ry, 18, CHAR_H, colour);
    else c.fillRect(x, ry + CHAR_H / 2 - 1, 18, 3, colour);
    c.text(x + 24, ry, words, INK, { scale: S });
  });
}

const LEGEND_ROW = CHAR_H + 8;

/** The canvas's layout: the panels, the colour bar's frame, the legend, the warnings' lines. */
function layoutPicture(answer: SetupPreview, colours: ColourScale, options: SetupPlotOptions) {
  const size = options.size ?? (answer.planes.length === 1 ? 520 : 340);
  const panels = layoutPanels(answer, colours, size).map((p) => ({
    ...p,
    frame: { ...p.frame, top: p.frame.top + PANEL_TITLE, height: p.frame.height + PANEL_TITLE },
  }));
  const last = panels[panels.length - 1]!.frame;
  const bar = { ...last, barX: last.left + last.plotW + PANEL_GAP };
  const legend = legendRows(answer);
  const legendW = 24 + Math.max(0, ...legend.map(([, words]) => textWidth(words, S)));
  // heatMapFrame's width past its colour bar: the bar, its ticks and labels, the margin.
  const width = Math.max(600, bar.barX + Math.max(last.width - last.barX, legendW + MARGIN));
  const legendY = bar.top + bar.plotH + CHAR_H + 16;
  const warningsY =
    Math.max(...panels.map((p) => p.frame.height), legendY + legend.length * LEGEND_ROW) + MARGIN;
  const warnings = answer.warnings.flatMap((w) => wrap(`! ${w.message}`, width - 2 * MARGIN, 1));
  const height =
    warningsY + (warnings.length > 0 ? (warnings.length + 1) * (LINE_HEIGHT + 2) + MARGIN : 0);
  return { panels, bar, legend, legendY, width, height, warnings, warningsY };
}

/** The set-up's picture: the planes side by side, the colour bar and legend, the warnings. */
export function renderSetupPlot(answer: SetupPreview, options: SetupPlotOptions = {}): Canvas {
  if (answer.planes.length === 0) throw new RangeError("a set-up picture needs a plane");
  const colours = epsScale(answer);
  const layout = layoutPicture(answer, colours, options);
  const { width } = layout;
  const c = new Canvas(width, layout.height);
  const title = options.title ?? "Set-up as the solver steps it";
  c.text(width / 2, MARGIN, title, INK, { scale: S, align: "center" });
  const subtitle = options.subtitle ?? "Re ε";
  c.text(width / 2, MARGIN + LINE_HEIGHT * S + 4, subtitle, MUTED, { scale: S, align: "center" });
  for (const panel of layout.panels) {
    const f = panel.frame;
    drawEps(c, answer, panel, colours);
    drawCellEdges(c, panel);
    drawObjects(c, panel);
    drawHeatMapAxes(c, f, panel.plane.axes);
    const cut = `${panel.plane.normal} = ${formatMicrons(panel.plane.position * 1e6)} µm`;
    c.text(f.left + f.plotW / 2, f.top - PANEL_TITLE + 2, cut, MUTED, {
      scale: S,
      align: "center",
    });
  }
  drawColourBar(c, layout.bar, colours, "Re ε");
  drawLegend(c, layout.bar.barX, layout.legendY, layout.legend);
  let y = layout.warningsY;
  if (layout.warnings.length > 0) {
    c.text(MARGIN, y, `Warnings (${answer.warnings.length}):`, WARNING);
    for (const line of layout.warnings) {
      y += LINE_HEIGHT + 2;
      c.text(MARGIN, y, line, WARNING);
    }
  }
  return c;
}

/** The picture as PNG bytes. */
export function setupPlotPng(answer: SetupPreview, options: SetupPlotOptions = {}): Buffer {
  const c = renderSetupPlot(answer, options);
  return encodePng(c.width, c.height, c.data, { Title: "emsim set-up preview", Software: "emsim" });
}
