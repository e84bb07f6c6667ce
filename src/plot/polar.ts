/**
 * A far-field monitor's radiation pattern as a polar plot: the radiant intensity against the
 * polar angle θ in azimuthal cuts, each cut a plane through the z axis — φ on the right half,
 * φ + 180° on the left (θ = 0, +z, up) — normalised to the pattern's peak over the whole sphere,
 * on a linear or a dB scale. A pattern recorded at θ = 90° alone (the x–y plane, as a 2-D
 * cross-section thin along z gives it) is drawn as that plane's one curve against φ instead.
 * The CLI's `emsim plot --far-field` (from the result file) and the dashboard's job page (from
 * the job record's solver report) draw the same picture from this one function.
 */
import type { FarFieldPattern, FarFieldUnit } from "../results/read.js";
import { Canvas } from "./canvas.js";
import type { Rgb } from "./colormap.js";
import { LINE_HEIGHT, textWidth } from "./font.js";
import { formatMicrons, MINUS } from "./labels.js";
import { CHAR_H, GRID, INK, MARGIN, MUTED, S } from "./line-chart.js";
import { encodePng } from "./png.js";
import { PALETTE } from "./spectrum.js";

export type PolarScale = "linear" | "db";

export interface PolarPlotOptions {
  /** Which of the pattern's wavelengths (default 0). */
  wavelengthIndex?: number;
  /** Azimuths of the cuts in degrees, each recorded by the monitor (default: defaultCuts). */
  phiDeg?: readonly number[];
  /** Intensity over the peak (default), or in dB below it. */
  scale?: PolarScale;
  /** On the dB scale, how far below the peak the centre lies (dB, default 30). */
  dbRange?: number;
  /** The radius of the polar area in pixels (default 200). */
  radius?: number;
}

/** One cut: the intensity over the peak at each θ, in the azimuth φ and the opposite one. */
export interface PolarCut {
  phiDeg: number;
  /** φ + 180° where the monitor recorded it (the cut's left half), else null. */
  oppositeDeg: number | null;
  thetaDeg: readonly number[];
  right: readonly number[];
  left: readonly number[] | null;
}

/** Recorded azimuths closer than this (degrees, modulo 360) are the one asked for. */
const AZIMUTH_TOLERANCE_DEG = 0.5;

/** The index of the recorded azimuth within 0.5° of `wantedDeg` (modulo 360), or −1. */
export function azimuthIndex(phiDeg: readonly number[], wantedDeg: number): number {
  let best = -1;
  let bestGap = AZIMUTH_TOLERANCE_DEG;
  phiDeg.forEach((phi, i) => {
    const d = Math.abs(((((phi - wantedDeg) % 360) + 540) % 360) - 180);
    if (d <= bestGap) {
      best = i;
      bestGap = d;
    }
  });
  return best;
}

/**
 * The cuts drawn when none is asked for: φ = 0° and 90° (for a dipole along z or x, the E- and
 * H-planes) where recorded, else the first recorded azimuth.
 */
export function defaultCuts(phiDeg: readonly number[]): number[] {
  const recorded = [0, 90].filter((phi) => azimuthIndex(phiDeg, phi) >= 0);
  return recorded.length > 0 ? recorded : phiDeg.slice(0, 1);
}

/** The largest finite radiant intensity at wavelength `w`, over every direction (pattern.unit). */
export function patternPeak(pattern: FarFieldPattern, w: number): number {
  let peak = 0;
  for (const row of pattern.radiantIntensity[w] ?? []) {
    for (const v of row) if (Number.isFinite(v) && v > peak) peak = v;
  }
  return peak;
}

/** The cuts at the azimuths `phiDeg` (each one recorded), normalised to `peak`. */
export function patternCuts(
  pattern: FarFieldPattern,
  w: number,
  phiDeg: readonly number[],
  peak: number,
): PolarCut[] {
  const rows = pattern.radiantIntensity[w];
  if (!rows) throw new RangeError(`no wavelength index ${w} in far-field monitor ${pattern.name}`);
  const column = (p: number) => rows.map((row) => (peak > 0 ? row[p]! / peak : 0));
  return phiDeg.map((wanted) => {
    const p = azimuthIndex(pattern.phiDeg, wanted);
    if (p < 0)
      throw new RangeError(`far-field monitor ${pattern.name} did not record φ = ${wanted}°`);
    const phi = pattern.phiDeg[p]!;
    const o = azimuthIndex(pattern.phiDeg, phi + 180);
    return {
      phiDeg: phi,
      oppositeDeg: o >= 0 ? pattern.phiDeg[o]! : null,
      thetaDeg: pattern.thetaDeg,
      right: column(p),
      left: o >= 0 ? column(o) : null,
    };
  });
}

/** Where a value (intensity over the peak) lies from the centre, 0 to 1; NaN if not finite. */
function radial(v: number, scale: PolarScale, dbRange: number): number {
  if (!Number.isFinite(v)) return NaN;
  if (scale === "linear") return Math.min(1, Math.max(0, v));
  if (v <= 0) return 0;
  return Math.min(1, Math.max(0, 1 + (10 * Math.log10(v)) / dbRange));
}

/** Degrees as plots print them: `0°`, `22.5°`. */
function degrees(deg: number): string {
  return `${Number(deg.toPrecision(4))}°`.replace("-", MINUS);
}

/** A radiant intensity, to 3 or 4 significant digits: `0.0125 W/sr`, `4.71e+13 W/rad`. */
export function formatIntensity(value: number, unit: FarFieldUnit = "W/sr"): string {
  const abs = Math.abs(value);
  if (abs === 0 || (abs >= 0.01 && abs < 1e4)) return `${Number(value.toPrecision(4))} ${unit}`;
  return `${value.toExponential(2)} ${unit}`;
}

/** Whether a pattern lies in the x–y plane alone (one polar angle, 90°): drawn against φ. */
export function isEquatorial(pattern: FarFieldPattern): boolean {
  return pattern.thetaDeg.length === 1 && Math.abs(pattern.thetaDeg[0]! - 90) <= 1e-9;
}

/**
 * The x–y plane's curve at wavelength `w`, normalised to `peak`: the azimuths ascending as
 * screen angles (at()'s θ: 90° − φ, so φ = 0° points right and 90° up), closed round the
 * circle when the recorded azimuths are evenly spaced over all of it.
 */
function equatorialCurve(
  pattern: FarFieldPattern,
  w: number,
  peak: number,
): { screenDeg: number[]; values: number[] } {
  const row = pattern.radiantIntensity[w]?.[0];
  if (!row) throw new RangeError(`no wavelength index ${w} in far-field monitor ${pattern.name}`);
  const order = pattern.phiDeg
    .map((_, i) => i)
    .sort((a, b) => pattern.phiDeg[a]! - pattern.phiDeg[b]!);
  const phi = order.map((i) => pattern.phiDeg[i]!);
  const values = order.map((i) => (peak > 0 ? row[i]! / peak : 0));
  const steps = phi.slice(1).map((p, i) => p - phi[i]!);
  const wrap = 360 - (phi.at(-1)! - phi[0]!);
  if (phi.length > 2 && steps.every((d) => Math.abs(d - wrap) <= 1e-6 * 360)) {
    phi.push(phi[0]! + 360);
    values.push(values[0]!);
  }
  return { screenDeg: phi.map((p) => 90 - p), values };
}

/** The layout: the centre and radius of the polar area and where the legend starts. */
interface PolarFrame {
  cx: number;
  cy: number;
  radius: number;
  legendTop: number;
  legendLeft: number;
  scale: PolarScale;
  dbRange: number;
}

/** Canvas position of the direction θ on the right (side 1) or left (−1) half, at r (0–1). */
function at(f: PolarFrame, thetaDeg: number, r: number, side: 1 | -1): [number, number] {
  const t = (thetaDeg * Math.PI) / 180;
  return [f.cx + side * f.radius * r * Math.sin(t), f.cy - f.radius * r * Math.cos(t)];
}

/** The rings (intensity over the peak, or every 10 dB) as [fraction of the radius, label]. */
function rings(f: PolarFrame): [number, string][] {
  if (f.scale === "linear") return [0.25, 0.5, 0.75, 1].map((r) => [r, String(r)]);
  const out: [number, string][] = [];
  for (let db = 0; db <= f.dbRange + 1e-9; db += 10) {
    out.push([1 - db / f.dbRange, db === 0 ? "0 dB" : `${MINUS}${db}`]);
  }
  return out;
}

/** A circle of radius r (pixels) about the centre, as a fine polygon. */
function circle(c: Canvas, f: PolarFrame, r: number, color: Rgb): void {
  const n = Math.max(48, Math.ceil(r));
  let prev: [number, number] = [f.cx, f.cy - r];
  for (let k = 1; k <= n; k++) {
    const a = (2 * Math.PI * k) / n;
    const next: [number, number] = [f.cx + r * Math.sin(a), f.cy - r * Math.cos(a)];
    c.line(prev[0], prev[1], next[0], next[1], color);
    prev = next;
  }
}

/** The angle a spoke at screen angle a (clockwise from up) is labelled with: θ on each side. */
const thetaLabel = (a: number) => (a <= 180 ? a : 360 - a);
/** The x–y plane's labels: φ, 0° to the right, counter-clockwise. */
const phiLabel = (a: number) => (((90 - a) % 360) + 360) % 360;

/** Spokes every 30° labelled (θ: 0° up, 180° down, each side its own azimuth), and rings. */
function drawPolarGrid(c: Canvas, f: PolarFrame, label: (a: number) => number): void {
  for (let a = 0; a < 360; a += 30) {
    const [x, y] = at(f, a, 1, 1);
    c.line(f.cx, f.cy, x, y, a % 180 === 0 ? MUTED : GRID);
    const theta = label(a);
    const [lx, ly] = at(f, a, 1 + 10 / f.radius, 1);
    const sin = Math.sin((a * Math.PI) / 180);
    const cos = Math.cos((a * Math.PI) / 180);
    const align = Math.abs(sin) < 1e-6 ? "center" : sin > 0 ? "left" : "right";
    const top = ly - CHAR_H / 2 - (cos * CHAR_H) / 2;
    c.text(lx, top, degrees(theta), INK, { scale: S, align });
  }
  for (const [r, label] of rings(f)) {
    if (r <= 0) continue;
    circle(c, f, r * f.radius, r === 1 ? INK : GRID);
    c.text(f.cx + 5, f.cy - r * f.radius + 3, label, MUTED, { scale: S });
  }
}

/** A curve's colour and width in pixels. */
interface Stroke {
  color: Rgb;
  width: number;
}

/**
 * One half of a cut, θ ascending, through its samples (dots where they are sparse): between
 * samples the radius is interpolated in θ in steps of at most 1°, so that a coarse pattern is
 * drawn as a polar curve rather than as chords.
 */
function drawHalf(
  c: Canvas,
  f: PolarFrame,
  thetaDeg: readonly number[],
  values: readonly number[],
  side: 1 | -1,
  { color, width }: Stroke,
): void {
  const r = values.map((v) => radial(v, f.scale, f.dbRange));
  const dots = thetaDeg.length <= 19;
  for (let i = 0; i < thetaDeg.length; i++) {
    if (!Number.isFinite(r[i]!)) continue;
    const [x, y] = at(f, thetaDeg[i]!, r[i]!, side);
    if (dots) c.fillRect(x - 1 - width / 2, y - 1 - width / 2, width + 3, width + 3, color);
    if (i + 1 >= thetaDeg.length || !Number.isFinite(r[i + 1]!)) continue;
    const [t0, t1] = [thetaDeg[i]!, thetaDeg[i + 1]!];
    const steps = Math.max(1, Math.ceil(Math.abs(t1 - t0)));
    let prev = [x, y];
    for (let k = 1; k <= steps; k++) {
      const s = k / steps;
      const next = at(f, t0 + s * (t1 - t0), r[i]! + s * (r[i + 1]! - r[i]!), side);
      c.line(prev[0]!, prev[1]!, next[0], next[1], color, width);
      prev = next;
    }
  }
}

/** A cut's label in the legend: `φ = 0° (right), 180° (left)`. */
function cutLabel(cut: PolarCut): string {
  const right = `φ = ${degrees(cut.phiDeg)}`;
  return cut.oppositeDeg === null
    ? `${right} (right half)`
    : `${right} (right), ${degrees(cut.oppositeDeg)} (left)`;
}

/**
 * The layout for the given radius, the two centred title lines and the legend's lines (each
 * after a swatch, the last one a note); the canvas's width and height.
 */
function polarLayout(
  radius: number,
  titles: readonly string[],
  legend: readonly string[],
  scale: PolarScale,
  dbRange: number,
): PolarFrame & { width: number; height: number } {
  const side = textWidth("150°", S) + 14;
  const width = Math.max(
    2 * (MARGIN + side + radius),
    ...titles.map((t) => textWidth(t, S) + 2 * MARGIN),
    ...legend.map((t) => textWidth(t, S) + 2 * MARGIN + side + 32),
  );
  const line = LINE_HEIGHT * S + 4;
  const cy = MARGIN + 2 * line + 8 + CHAR_H + 10 + radius;
  const legendTop = cy + radius + 10 + CHAR_H + 16;
  const height = legendTop + legend.length * line + MARGIN;
  const legendLeft = MARGIN + side;
  return {
    cx: Math.round(width / 2),
    cy,
    radius,
    legendTop,
    legendLeft,
    scale,
    dbRange,
    width,
    height,
  };
}

/** What one picture draws: its curves (each half a cut, or the x–y plane's), legend and note. */
interface PolarContent {
  curves: {
    legend: number;
    screenDeg: readonly number[];
    values: readonly number[];
    side: 1 | -1;
  }[];
  legend: string[];
  note: string;
  label: (a: number) => number;
}

/** The azimuthal cuts at `phiDeg` as curves (each cut's two halves under one legend line). */
function cutContent(
  pattern: FarFieldPattern,
  w: number,
  phiDeg: readonly number[],
  peak: number,
): PolarContent {
  const cuts = patternCuts(pattern, w, phiDeg, peak);
  if (cuts.length === 0) throw new RangeError("no azimuth to draw");
  return {
    curves: cuts.flatMap((cut, k) => [
      { legend: k, screenDeg: cut.thetaDeg, values: cut.right, side: 1 as const },
      ...(cut.left
        ? [{ legend: k, screenDeg: cut.thetaDeg, values: cut.left, side: -1 as const }]
        : []),
    ]),
    legend: cuts.map(cutLabel),
    note: "θ from +z (up), φ from +x about +z",
    label: thetaLabel,
  };
}

/** The x–y plane's one curve against φ. */
function equatorialContent(pattern: FarFieldPattern, w: number, peak: number): PolarContent {
  const { screenDeg, values } = equatorialCurve(pattern, w, peak);
  return {
    curves: [{ legend: 0, screenDeg, values, side: 1 }],
    legend: ["θ = 90° (the x-y plane)"],
    note: "φ from +x (right) about +z (counter-clockwise)",
    label: phiLabel,
  };
}

/**
 * The polar plot of one wavelength of a far-field pattern: each cut a curve in its own colour
 * (or the x–y plane's one curve), a legend below, and in the title the monitor, the wavelength
 * and the peak in the pattern's unit.
 */
export function renderPolarPattern(
  pattern: FarFieldPattern,
  options: PolarPlotOptions = {},
): Canvas {
  const w = options.wavelengthIndex ?? 0;
  const scale = options.scale ?? "linear";
  const dbRange = options.dbRange ?? 30;
  const peak = patternPeak(pattern, w);
  const content = isEquatorial(pattern)
    ? equatorialContent(pattern, w, peak)
    : cutContent(pattern, w, options.phiDeg ?? defaultCuts(pattern.phiDeg), peak);
  const lambda = pattern.wavelengthsM[w]!;
  const title = `${pattern.name}: λ = ${formatMicrons(lambda * 1e6)} µm, peak ${formatIntensity(peak, pattern.unit)}`;
  const subtitle =
    scale === "linear"
      ? "radiant intensity / peak"
      : `radiant intensity, dB below the peak (centre ${MINUS}${dbRange} dB)`;
  const { legend, note } = content;
  const f = polarLayout(
    options.radius ?? 200,
    [title, subtitle],
    [...legend, note],
    scale,
    dbRange,
  );
  const c = new Canvas(f.width, f.height);
  const line = LINE_HEIGHT * S + 4;
  c.text(f.cx, MARGIN, title, INK, { scale: S, align: "center" });
  c.text(f.cx, MARGIN + line, subtitle, MUTED, { scale: S, align: "center" });
  drawPolarGrid(c, f, content.label);
  // Each cut is drawn wider than the next (up to three), so that where cuts coincide, as the
  // E- and H-planes of a dipole along z do, the earlier ones still show as a border.
  const strokes: Stroke[] = legend.map((_, k) => ({
    color: PALETTE[k % PALETTE.length]!,
    width: 2 + 2 * Math.max(0, Math.min(legend.length, 3) - 1 - k),
  }));
  for (const curve of content.curves) {
    drawHalf(c, f, curve.screenDeg, curve.values, curve.side, strokes[curve.legend]!);
  }
  legend.forEach((label, k) => {
    const { color, width } = strokes[k]!;
    const y = f.legendTop + k * line;
    c.fillRect(f.legendLeft, y + Math.round((CHAR_H - width) / 2), 24, width, color);
    c.text(f.legendLeft + 32, y, label, INK, { scale: S });
  });
  c.text(f.legendLeft, f.legendTop + legend.length * line, note, MUTED, { scale: S });
  return c;
}

/** renderPolarPattern as PNG bytes. */
export function polarPatternPng(pattern: FarFieldPattern, options: PolarPlotOptions = {}): Buffer {
  const c = renderPolarPattern(pattern, options);
  const title = `far field of ${pattern.name}`;
  return encodePng(c.width, c.height, c.data, {
    Title: title.replace(/[^\x20-\x7e]/g, "?"),
    Software: "emsim",
  });
}
