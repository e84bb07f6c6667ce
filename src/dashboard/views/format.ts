/** Formatting shared by the dashboard's pages: times, durations, sizes, ids. */
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
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0
    ? `${h} h ${String(m).padStart(2, "0")} min`
    : `${m} min ${String(s).padStart(2, "0")} s`;
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return "—";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** A metadata value as one line of text. */
export function metadataValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Lengths in metres shown in µm or nm, whichever reads better. */
export function formatLength(metres: number): string {
  if (!Number.isFinite(metres)) return String(metres);
  const abs = Math.abs(metres);
  if (abs !== 0 && abs < 1e-6) return `${+(metres * 1e9).toPrecision(4)} nm`;
  return `${+(metres * 1e6).toPrecision(4)} µm`;
}
