/**
 * A completed batch's sweep plot (issue #30): one monitor quantity at one wavelength against
 * the sweep's first dimension, one curve per value of the second (further dimensions held at a
 * chosen value each). The numbers come from the jobs' records — each completed job's solver
 * report, read by the job page's own readers (spectra.ts for flux monitors, s-parameters.ts for
 * |S_ji|² in dB) — so no batch result file has to be built to draw it; the image is drawn by the
 * spectra's line chart (src/plot/spectrum.ts), as the job page's plots are.
 *
 * Variants are row-major over the dimensions (docs/api.md "Batches"): with dimensions of n0,
 * n1, … values, variant i sits at (i0, i1, …) with i = (i0·n1 + i1)·n2 + …
 */
import type { SweepDimension } from "../../batches/variants.js";
import type { SolverReport } from "../../schema/responses.js";
import { colorAt, sequential, type Rgb } from "../../plot/colormap.js";
import { formatDb, sParameterCurves } from "../../plot/s-parameters.js";
import { PALETTE, type LineChartOptions, type LineSeries } from "../../plot/spectrum.js";
import { formatLength } from "../../plot/units.js";
import { html, type SafeHtml } from "../html.js";
import { parameterText, sweptValueText, unitOfParameter } from "./format.js";
import { numbersTable } from "./numbers-table.js";
import { sMatrixOfReport } from "./s-parameters.js";
import { spectraOfReport } from "./spectra.js";

/** How a quantity's numbers read: its y axis, the span it always shows, its table format. */
export type QuantityKind = "fraction" | "power" | "cross-section" | "db";

/** A variant's numbers of one quantity: its wavelengths (m) and the values there. */
export interface VariantValues {
  wavelengthsM: readonly number[];
  values: readonly number[];
}

/** One quantity the completed jobs recorded, with every variant's numbers. */
export interface SweepQuantity {
  /** Stable key for the page's select: `flux:T`, `flux:box:scattering`, `s:S21`. */
  key: string;
  /** For people: `T (transmittance)`, `|S21|² o1@0 → o2@0`. */
  label: string;
  kind: QuantityKind;
  /**
   * The wavelengths (m) every variant that has the quantity recorded, when they all recorded
   * the same; null when they differ (a swept source wavelength moves the monitors' default
   * wavelength), and then the plot takes each variant's own k-th wavelength.
   */
  wavelengthsM: readonly number[] | null;
  /** The most wavelengths any variant recorded: the choices are 0 … count − 1. */
  wavelengthCount: number;
  /** By variant index; null where the variant did not complete or lacks the quantity. */
  byVariant: (VariantValues | null)[];
}

export interface Sweep {
  dimensions: readonly SweepDimension[];
  quantities: SweepQuantity[];
}

/** A completed variant's solver report, by its index in the batch (null where none). */
export interface VariantReport {
  index: number;
  report: SolverReport | null | undefined;
}

const KIND_AXIS: Record<QuantityKind, { yTitle: string; includeY: number[] }> = {
  fraction: { yTitle: "fraction of incident power", includeY: [0, 1] },
  power: { yTitle: "power over the source's reference power", includeY: [0] },
  "cross-section": { yTitle: "cross-section (µm²)", includeY: [0] },
  db: { yTitle: "|S|² (dB)", includeY: [0] },
};

/** Relative difference below which two variants' wavelengths are the same. */
const SAME_WAVELENGTH = 1e-9;

/** Curves drawn at most: past this, values of the second dimension are taken evenly. */
export const MAX_CURVES = 12;

/** One quantity of one report, with its numbers. */
type ReportQuantity = Pick<SweepQuantity, "key" | "label" | "kind"> & { values: VariantValues };

/** The quantities of one report, each with its numbers (in the order the job page lists them). */
function quantitiesOfReport(report: SolverReport | null | undefined): ReportQuantity[] {
  const out: ReportQuantity[] = [];
  const m = sMatrixOfReport(report);
  if (m) {
    for (const c of sParameterCurves(m)) {
      out.push({
        key: `s:${c.name}`,
        label: `|${c.name}|² ${c.in} → ${c.out}`,
        kind: "db",
        values: { wavelengthsM: m.wavelengths_m.map((w) => w ?? Number.NaN), values: c.db },
      });
    }
  }
  for (const s of spectraOfReport(report)) {
    if (s.quantity === "box") {
      // A box's net outflow is not a fraction of anything; its cross-sections are what it gives.
      if (!s.crossSections) continue;
      for (const part of ["scattering", "absorption"] as const) {
        out.push({
          key: `flux:${s.name}:${part}`,
          label: `${s.name} ${part} cross-section`,
          kind: "cross-section",
          values: {
            wavelengthsM: s.wavelengthsM,
            values: s.crossSections[part].map((v) => v * 1e12),
          },
        });
      }
    } else {
      out.push({
        key: `flux:${s.name}`,
        label: `${s.name} (${s.quantity})`,
        kind: s.quantity === "power" ? "power" : "fraction",
        values: { wavelengthsM: s.wavelengthsM, values: s.flux },
      });
    }
  }
  return out;
}

function sameWavelengths(a: readonly number[], b: readonly number[]): boolean {
  return (
    a.length === b.length &&
    a.every((w, i) => Math.abs(w - b[i]!) <= SAME_WAVELENGTH * Math.max(Math.abs(w), 1e-30))
  );
}

/**
 * Every quantity any completed variant recorded, in the order the first that has it lists it,
 * with each variant's numbers. `jobCount` is the batch's number of variants.
 */
export function sweepOfReports(
  dimensions: readonly SweepDimension[],
  jobCount: number,
  variants: readonly VariantReport[],
): Sweep {
  const byKey = new Map<string, SweepQuantity>();
  for (const v of [...variants].sort((a, b) => a.index - b.index)) {
    if (!Number.isInteger(v.index) || v.index < 0 || v.index >= jobCount) continue;
    for (const q of quantitiesOfReport(v.report)) {
      let quantity = byKey.get(q.key);
      if (!quantity) {
        quantity = {
          key: q.key,
          label: q.label,
          kind: q.kind,
          wavelengthsM: q.values.wavelengthsM,
          wavelengthCount: 0,
          byVariant: new Array<VariantValues | null>(jobCount).fill(null),
        };
        byKey.set(q.key, quantity);
      }
      quantity.byVariant[v.index] = q.values;
      quantity.wavelengthCount = Math.max(quantity.wavelengthCount, q.values.values.length);
      if (quantity.wavelengthsM && !sameWavelengths(quantity.wavelengthsM, q.values.wavelengthsM)) {
        quantity.wavelengthsM = null;
      }
    }
  }
  const quantities = [...byKey.values()].filter((q) => q.wavelengthCount > 0);
  return { dimensions, quantities };
}

/** What to plot: a quantity, a wavelength (an index) and a value for each dimension past two. */
export interface SweepChoice {
  quantity: SweepQuantity;
  wavelengthIndex: number;
  /** Value index of each dimension from the third on (`at` [0] is dimension 2's). */
  at: number[];
}

/** The query field that holds the value index of a dimension past the second. */
export function atField(dimension: SweepDimension): string {
  return `at_${dimension.name}`;
}

function indexIn(value: unknown, count: number): number | null {
  if (typeof value !== "string" || !/^\d{1,6}$/.test(value)) return null;
  const i = Number(value);
  return i < count ? i : null;
}

/** The index of the wavelength nearest `metres`, when the variants share their wavelengths. */
function nearestWavelength(quantity: SweepQuantity, metres: number): number | null {
  const list = quantity.wavelengthsM;
  if (!list || !Number.isFinite(metres) || list.length === 0) return null;
  let best = 0;
  list.forEach((w, i) => {
    if (Math.abs(w - metres) < Math.abs(list[best]! - metres)) best = i;
  });
  return best;
}

/** The wavelength shown first: the middle of the list (a band's centre, the source's, often). */
export function defaultWavelengthIndex(quantity: SweepQuantity): number {
  return Math.floor((quantity.wavelengthCount - 1) / 2);
}

/**
 * The choice a page's query asks for (`quantity`, `wavelength` (an index, or else `near_m`, a
 * wavelength in metres), `at_<dimension>`), defaults
 * where it says nothing; `invalid` when it named something the sweep does not have (the page
 * then shows the defaults; the image answers 404). Null when there is nothing to plot.
 */
export function sweepChoice(
  sweep: Sweep,
  query: Record<string, unknown>,
): { choice: SweepChoice; invalid: boolean } | null {
  if (sweep.quantities.length === 0 || sweep.dimensions.length === 0) return null;
  let invalid = false;
  const asked = query.quantity;
  let quantity = sweep.quantities.find((q) => q.key === asked);
  if (!quantity) {
    invalid ||= asked !== undefined && asked !== "";
    quantity = sweep.quantities[0]!;
  }
  let wavelengthIndex = defaultWavelengthIndex(quantity);
  if (query.wavelength !== undefined && query.wavelength !== "") {
    const w = indexIn(query.wavelength, quantity.wavelengthCount);
    if (w === null) invalid = true;
    else wavelengthIndex = w;
  } else {
    // The page's script, changing the quantity, asks for the wavelength nearest the one shown.
    wavelengthIndex = nearestWavelength(quantity, Number(query.near_m)) ?? wavelengthIndex;
  }
  const at = sweep.dimensions.slice(2).map((d) => {
    const given = query[atField(d)];
    if (given === undefined || given === "") return 0;
    const i = indexIn(given, d.values.length);
    if (i === null) invalid = true;
    return i ?? 0;
  });
  return { choice: { quantity, wavelengthIndex, at }, invalid };
}

/**
 * How a numeric dimension's values are shown: as they are when they read well, else scaled by
 * a power of a thousand (lengths in metres, 3e-7, become 0.3 with `× 1e-6` in the title).
 */
export function axisScale(values: readonly number[]): { factor: number; suffix: string } {
  const big = Math.max(0, ...values.map((v) => Math.abs(v)).filter(Number.isFinite));
  if (big === 0 || (big >= 1e-2 && big < 1e4)) return { factor: 1, suffix: "" };
  const exponent = 3 * Math.round(Math.log10(big) / 3);
  return { factor: 10 ** -exponent, suffix: ` (× 1e${exponent})` };
}

/** The chart and its numbers, ready to draw and to list. */
export interface SweepChart {
  options: LineChartOptions;
  series: LineSeries[];
  /** Header row, then one row per point along the first dimension, every cell formatted. */
  table: string[][];
  /** In words: what is plotted, at which wavelength, against what. */
  caption: string;
}

function formatValue(kind: QuantityKind, v: number): string {
  if (kind === "db") return formatDb(v);
  if (!Number.isFinite(v)) return "-";
  return kind === "fraction" ? v.toFixed(5) : v.toPrecision(5);
}

/** The wavelength a choice shows, in words. */
export function wavelengthText(quantity: SweepQuantity, index: number): string {
  if (quantity.wavelengthsM) return formatLength(quantity.wavelengthsM[index]!);
  return quantity.wavelengthCount === 1
    ? "each variant's wavelength"
    : `each variant's wavelength ${index + 1} of ${quantity.wavelengthCount}`;
}

/** Text for the plot's bitmap font, which has no arrows (src/plot/font.ts). */
function plotText(text: string): string {
  return text.replace(/→/g, "->");
}

/** Up to `max` indices of 0 … n − 1, evenly spaced, both ends included. */
function evenly(n: number, max: number): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: max }, (_, k) => Math.round((k * (n - 1)) / (max - 1)));
}

function curveColor(k: number, count: number): Rgb {
  // The palette's distinct colours while they last; past them, an ordered ramp (the second
  // dimension is a sweep, so neighbouring values get neighbouring colours).
  if (count <= PALETTE.length) return PALETTE[k]!;
  return colorAt(sequential, 0.15 + (0.7 * k) / (count - 1));
}

/** A dimension's i-th value as a label shows it (a length in µm). */
function valueOf(d: SweepDimension, i: number): string {
  return sweptValueText(d.values[i]!, unitOfParameter(d.path));
}

/** The chart of a choice: x along the first dimension, a curve per value of the second. */
export function sweepChart(sweep: Sweep, choice: SweepChoice, title: string): SweepChart {
  const dims = sweep.dimensions;
  const first = dims[0]!;
  const second = dims[1];
  const strides = dims.map((_, d) => dims.slice(d + 1).reduce((n, e) => n * e.values.length, 1));
  const fixedOffset = choice.at.reduce((sum, i, k) => sum + i * strides[k + 2]!, 0);
  const { quantity, wavelengthIndex: w } = choice;
  const valueAt = (variant: number): number => {
    const v = quantity.byVariant[variant]?.values[w];
    return typeof v === "number" ? v : Number.NaN;
  };

  const numeric = first.values.every((v) => typeof v === "number" && Number.isFinite(v));
  const length = numeric && unitOfParameter(first.path) === "m";
  const scale = length
    ? { factor: 1e6, suffix: " (µm)" }
    : numeric
      ? axisScale(first.values as number[])
      : { factor: 1, suffix: "" };
  const positions = first.values.map((v, i) => (numeric ? (v as number) * scale.factor : i));
  // A curve runs one way: points in increasing x (a sweep may list values in any order).
  const order = positions.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x);
  const xs = order.map((p) => p.x);

  const curveIndices = second ? evenly(second.values.length, MAX_CURVES) : [0];
  const series: LineSeries[] = curveIndices.map((b, k) => ({
    label: second ? `${second.name} = ${valueOf(second, b)}` : quantity.label,
    x: xs,
    y: order.map((p) => valueAt(p.i * strides[0]! + b * (second ? strides[1]! : 0) + fixedOffset)),
    color: curveColor(k, curveIndices.length),
  }));

  const xTitle = numeric
    ? `${first.name}${scale.suffix}`
    : `${first.name} (position in its values)`;
  const held = dims
    .slice(2)
    .map((d, k) => `${d.name} = ${valueOf(d, choice.at[k]!)}`)
    .join(", ");
  const lambda = wavelengthText(quantity, w);
  const caption = [
    `${quantity.label} at ${lambda} against ${first.name}`,
    second
      ? curveIndices.length < second.values.length
        ? `, one curve for each of ${curveIndices.length} of the ${second.values.length} values of ${second.name}`
        : `, one curve per value of ${second.name}`
      : "",
    held ? `; ${held}` : "",
  ].join("");
  const xHeader = numeric ? `${first.name}${scale.suffix}` : first.name;
  const table = [
    [xHeader, ...series.map((s) => (second ? s.label : quantity.label))],
    ...order.map((p, row) => [
      numeric ? parameterText(Number(xs[row]!.toPrecision(12))) : parameterText(first.values[p.i]!),
      ...series.map((s) => formatValue(quantity.kind, s.y[row]!)),
    ]),
  ];
  const axis = KIND_AXIS[quantity.kind];
  return {
    options: { title: plotText(title), xTitle, yTitle: axis.yTitle, includeY: axis.includeY },
    series: series.map((s) => ({ ...s, label: plotText(s.label) })),
    table,
    caption,
  };
}

/** The image's address for a choice (the route reads the same fields back). */
export function sweepPlotUrl(batchId: string, sweep: Sweep, choice: SweepChoice): string {
  return `/dashboard/batches/${batchId}/plot.png?${choiceQuery(sweep, choice)}`;
}

function choiceQuery(sweep: Sweep, choice: SweepChoice): string {
  const q = new URLSearchParams({
    quantity: choice.quantity.key,
    wavelength: String(choice.wavelengthIndex),
  });
  sweep.dimensions.slice(2).forEach((d, k) => q.set(atField(d), String(choice.at[k])));
  return q.toString();
}

interface Option {
  value: string;
  text: string;
  selected: boolean;
  /** A wavelength option's wavelength in metres (the script asks for the nearest one). */
  metres?: number;
}

/**
 * What changes on the page when the choice does: the image and its words, the numbers and the
 * wavelength choices (another quantity may have recorded others). The page renders them, and
 * the script fetches them as JSON (routes/api.ts) to redraw without reloading.
 */
export interface SweepPlotParts {
  image_url: string;
  /** The page's own address for this choice (the script puts it in the history). */
  page_url: string;
  caption: string;
  numbers_html: string;
  wavelengths: Option[];
}

export function sweepPlotParts(
  batchId: string,
  sweep: Sweep,
  choice: SweepChoice,
  chart: SweepChart,
): SweepPlotParts {
  const q = choice.quantity;
  return {
    image_url: sweepPlotUrl(batchId, sweep, choice),
    page_url: `/dashboard/batches/${batchId}?${choiceQuery(sweep, choice)}`,
    caption: chart.caption,
    numbers_html: numbersTable(chart.table, { id: "sweep-table" }).value,
    wavelengths: Array.from({ length: q.wavelengthCount }, (_, i) => ({
      value: String(i),
      text: q.wavelengthsM ? formatLength(q.wavelengthsM[i]!) : `wavelength ${i + 1}`,
      selected: i === choice.wavelengthIndex,
      ...(q.wavelengthsM ? { metres: q.wavelengthsM[i]! } : {}),
    })),
  };
}

function select(
  id: string,
  name: string,
  label: string,
  options: readonly Option[],
  hidden = false,
): SafeHtml {
  return html`<div class="field" ${hidden ? html`hidden` : ""}>
    <label for="${id}">${label}</label
    ><select id="${id}" name="${name}">
      ${options.map((o) => {
        // Attributes apart, so that the option's text has no white space around it.
        const selected = o.selected ? html` selected` : "";
        const metres = o.metres !== undefined ? html` data-metres="${o.metres}"` : "";
        return html`<option value="${o.value}" ${selected}${metres}>${o.text}</option>`;
      })}
    </select>
  </div>`;
}

/**
 * The plot's controls — a plain GET form, so it works without scripts and from the keyboard;
 * with the script, each change redraws in place (focus stays on the control) — the image, its
 * caption and its numbers. With one wavelength there is no wavelength to choose.
 */
export function batchPlotSection(
  batchId: string,
  sweep: Sweep,
  choice: SweepChoice,
  chart: SweepChart,
): SafeHtml {
  const parts = sweepPlotParts(batchId, sweep, choice, chart);
  return html`<section class="card plots" id="sweep-plot" aria-labelledby="sweep-plot-title">
    <form
      class="plots-head"
      method="get"
      action="/dashboard/batches/${batchId}"
      data-sweep-plot="/dashboard/api/batches/${batchId}/plot"
    >
      <h2 id="sweep-plot-title">Sweep plot</h2>
      <div class="plot-controls">
        ${select(
          "sweep-quantity",
          "quantity",
          "Quantity",
          sweep.quantities.map((x) => ({
            value: x.key,
            text: x.label,
            selected: x === choice.quantity,
          })),
        )}
        ${select(
          "sweep-wavelength",
          "wavelength",
          "Wavelength",
          parts.wavelengths,
          parts.wavelengths.length <= 1,
        )}
        ${sweep.dimensions.slice(2).map((d, k) =>
          select(
            `sweep-at-${d.name}`,
            atField(d),
            d.name,
            d.values.map((v, i) => ({
              value: String(i),
              text: sweptValueText(v, unitOfParameter(d.path)),
              selected: i === choice.at[k],
            })),
          ),
        )}
        <button type="submit" class="btn btn-small" data-sweep-submit>Plot</button>
      </div>
    </form>
    <figure class="plot-figure">
      <img class="spectra" id="sweep-image" src="${parts.image_url}" alt="${parts.caption}" />
      <figcaption class="plot-caption" id="sweep-caption" aria-live="polite">
        ${parts.caption}
      </figcaption>
    </figure>
    <details class="spectra-numbers">
      <summary>Numbers</summary>
      <div id="sweep-numbers">${numbersTable(chart.table, { id: "sweep-table" })}</div>
    </details>
  </section>`;
}
