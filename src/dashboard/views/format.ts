/** Formatting shared by the dashboard's pages: times, durations, sizes, ids, label: value lists. */
import { formatBytes as formatSize, formatMinutes } from "../../plot/units.js";
import { unitAt } from "../../schema/pointer-unit.js";
import { html, type SafeHtml } from "../html.js";

/** "2025-11-22 10:31 UTC" — the script turns it into local, relative time. */
export function formatUtc(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function timeElement(iso: string | null, empty = "—"): SafeHtml {
  if (!iso) return html`<span class="muted">${empty}</span>`;
  return html`<time datetime="${iso}" title="${iso}" data-relative>${formatUtc(iso)}</time>`;
}

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  return formatMinutes(seconds);
}

export function formatBytes(bytes: number | null | undefined): string {
  return bytes === null || bytes === undefined ? "—" : formatSize(bytes);
}

export function shortId(id: string): string {
  return id.slice(0, 8);
}

/**
 * A batch parameter's value as a label or a table cell: numbers to 6 significant digits, in
 * exponent form below 1e-3 and from 1e6 (a wavelength reads 1.55e-6, not 0.00000155).
 */
export function parameterText(value: number | string | boolean): string {
  if (typeof value !== "number") return String(value);
  const v = Number(value.toPrecision(6));
  const a = Math.abs(v);
  return a !== 0 && (a < 1e-3 || a >= 1e6) ? v.toExponential().replace("e+", "e") : String(v);
}

/** The unit of what a swept parameter sets ("m" for a length), from its JSON Pointer. */
export function unitOfParameter(path: string | undefined): string | null {
  return path ? unitAt(path) : null;
}

/** A swept value as shown: a length (unit "m") in µm, anything else as parameterText. */
export function sweptValueText(value: number | string | boolean, unit: string | null): string {
  if (unit !== "m" || typeof value !== "number") return parameterText(value);
  return `${parameterText(Number((value * 1e6).toPrecision(6)))} µm`;
}

/** A metadata value as one line of text. */
export function metadataValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * A definition list of label: value rows (the job page's set-up and solver report). A value of
 * several lines is a list; `render` draws the rows that are more than words (the time split).
 */
export function factsList<Row extends { key: string; label: string; value: string }>(
  rows: readonly Row[],
  render: (row: Row) => SafeHtml | null = () => null,
): SafeHtml {
  return html`<dl class="facts">
    ${rows.map(
      (row) =>
        html`<div>
          <dt>${row.label}</dt>
          <dd>${render(row) ?? lines(row.value)}</dd>
        </div>`,
    )}
  </dl>`;
}

function lines(value: string): SafeHtml | string {
  const parts = value.split("\n");
  if (parts.length === 1) return value;
  return html`<ul class="plain-list">
    ${parts.map((line) => html`<li>${line}</li>`)}
  </ul>`;
}
