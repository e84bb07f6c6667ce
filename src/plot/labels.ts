/**
 * The words and numbers around a field plot, written the same in the dashboard's canvases and
 * the CLI's PNGs: which part of a component is shown, its unit, lengths in micrometres.
 */

/** What of a complex field component a plot shows. */
export type FieldPart = "abs" | "real" | "imag";
export const FIELD_PARTS: readonly FieldPart[] = ["abs", "real", "imag"];

/** The minus sign (U+2212) plots print, wider than a hyphen and level with a plus. */
export const MINUS = "\u2212";

/** `|Ey|`, `Re Ey` or `Im Ey` (also `|E|` for the magnitude of the whole field). */
export function fieldLabel(quantity: string, part: FieldPart): string {
  return part === "abs" ? `|${quantity}|` : part === "real" ? `Re ${quantity}` : `Im ${quantity}`;
}

/** The unit of an electric (E…) or magnetic (H…) field quantity. */
export function unitOf(quantity: string): "A/m" | "V/m" {
  return quantity.startsWith("H") ? "A/m" : "V/m";
}

/** A length in micrometres to four significant digits, trailing zeros dropped: `−0.125`. */
export function formatMicrons(um: number): string {
  return `${Number(um.toPrecision(4))}`.replace("-", MINUS);
}
