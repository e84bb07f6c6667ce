/**
 * `emsim plot --wavelength`: reading the option, and choosing which of a monitor's recorded
 * wavelengths to draw — shared by the field plots and the far-field patterns.
 */
import { CliError, EXIT, formatMicrons } from "../output.js";
import { UsageError } from "../usage.js";

/** What a wavelength is chosen from: a field or far-field monitor's name and wavelengths. */
interface RecordedWavelengths {
  name: string;
  wavelengthsM: readonly number[];
}

/** "1.55e-6", "1.55um", "1.55µm", "1550nm" → metres. */
export function parseWavelength(text: string): number {
  const m = /^\s*([0-9]*\.?[0-9]+(?:e[-+]?\d+)?)\s*(nm|um|µm|m)?\s*$/i.exec(text);
  if (!m)
    throw new UsageError(`--wavelength: cannot read '${text}' (e.g. 1.55um, 1550nm, 1.55e-6)`);
  const value = Number(m[1]);
  const unit = (m[2] ?? "").toLowerCase();
  if (unit === "nm") return value * 1e-9;
  if (unit === "um" || unit === "µm") return value * 1e-6;
  if (unit === "" && value >= 1e-3) {
    throw new UsageError(
      `--wavelength ${text}: plain numbers are metres; add a unit, e.g. ${text}um or ${text}nm`,
    );
  }
  return value;
}

/** Index of the recorded wavelength nearest `wavelengthM`, if within 1 %. */
export function wavelengthIndex(m: RecordedWavelengths, wavelengthM: number): number {
  let best = 0;
  m.wavelengthsM.forEach((w, i) => {
    if (Math.abs(w - wavelengthM) < Math.abs(m.wavelengthsM[best]! - wavelengthM)) best = i;
  });
  if (Math.abs(m.wavelengthsM[best]! - wavelengthM) > 0.01 * wavelengthM) {
    throw new CliError(
      `monitor '${m.name}' did not record ${formatMicrons(wavelengthM)}; it has ${m.wavelengthsM.map((w) => formatMicrons(w)).join(", ")}`,
      EXIT.usage,
    );
  }
  return best;
}

/**
 * The wavelength asked for with --wavelength; by default the source wavelength when the
 * monitor recorded it, else its first one.
 */
export function chosenWavelengthIndex(
  monitor: RecordedWavelengths,
  wavelengthM: number | null,
  request: Record<string, unknown>,
): number {
  if (wavelengthM !== null) return wavelengthIndex(monitor, wavelengthM);
  const sourceM = (request as { source?: { wavelength?: number } }).source?.wavelength;
  return Math.max(
    0,
    monitor.wavelengthsM.findIndex(
      (x) => sourceM !== undefined && Math.abs(x - sourceM) <= 1e-9 * sourceM,
    ),
  );
}
