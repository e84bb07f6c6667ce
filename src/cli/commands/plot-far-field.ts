/**
 * `emsim plot --far-field [--monitor M] [--wavelength W] [--phi DEG …] [--db]`: a far-field
 * monitor's radiation pattern as a polar plot (src/plot/polar.ts, the dashboard's picture too),
 * from the result file's /monitors/<name>/radiant_intensity.
 */
import { writeFile } from "node:fs/promises";
import type { FarFieldPattern } from "../../results/read.js";
import {
  azimuthIndex,
  defaultCuts,
  formatIntensity,
  isEquatorial,
  patternCuts,
  patternPeak,
  polarPatternPng,
  type PolarScale,
} from "../../plot/polar.js";
import { CliError, EXIT, formatMicrons, printJson, type CommandIo } from "../output.js";
import { UsageError } from "../usage.js";
import { chosenWavelengthIndex } from "./plot-wavelength.js";

/** What a far-field plot was asked for. */
export interface FarFieldRequest {
  file: string;
  out: string;
  monitor: string | undefined;
  /** --wavelength in metres; null: the source's wavelength (or the monitor's first). */
  wavelengthM: number | null;
  /** --phi: the cuts' azimuths in degrees; empty: φ = 0° and 90° where recorded. */
  phiDeg: number[];
  scale: PolarScale;
}

/** --phi, repeated or comma-separated: azimuths in degrees (`90`, `90deg`, `90°`). */
export function parsePhi(values: readonly string[] | undefined): number[] {
  return (values ?? []).flatMap((value) =>
    value.split(",").map((text) => {
      const m = /^\s*([-+]?[0-9]*\.?[0-9]+)\s*(°|deg)?\s*$/i.exec(text);
      if (!m) throw new UsageError(`--phi: cannot read '${text}' (an azimuth in degrees, e.g. 90)`);
      return Number(m[1]);
    }),
  );
}

/** Angles as a message lists them: all of a few, the ends of many. */
function angleList(deg: readonly number[]): string {
  const words = deg.map((d) => `${Number(d.toPrecision(4))}°`);
  if (words.length <= 12) return words.join(", ");
  return `${words.slice(0, 3).join(", ")}, …, ${words.at(-1)} (${words.length} azimuths)`;
}

/** The far-field monitor named with --monitor, else the first (in name order). */
function chooseFarField(p: FarFieldRequest, patterns: FarFieldPattern[]): FarFieldPattern {
  const first = patterns[0];
  if (!first) {
    throw new CliError(
      `${p.file} has no far-field monitor (see 'emsim inspect ${p.file}')`,
      EXIT.failure,
    );
  }
  if (p.monitor === undefined) return first;
  const named = patterns.find((m) => m.name === p.monitor);
  if (!named) {
    throw new CliError(
      `no far-field monitor '${p.monitor}' in ${p.file}; it has ${patterns.map((m) => m.name).join(", ")}`,
      EXIT.usage,
    );
  }
  return named;
}

/**
 * The cuts asked for with --phi, each one the monitor recorded; by default φ = 0° and 90°. A
 * pattern in the x–y plane alone has no cuts: it is drawn whole.
 */
function chosenCuts(p: FarFieldRequest, pattern: FarFieldPattern): number[] {
  if (isEquatorial(pattern)) {
    if (p.phiDeg.length === 0) return [];
    throw new CliError(
      `monitor '${pattern.name}' recorded the x–y plane alone (θ = 90°), drawn whole against ` +
        "φ: leave out --phi",
      EXIT.usage,
    );
  }
  if (p.phiDeg.length === 0) return defaultCuts(pattern.phiDeg);
  for (const phi of p.phiDeg) {
    if (azimuthIndex(pattern.phiDeg, phi) < 0) {
      throw new CliError(
        `monitor '${pattern.name}' did not record φ = ${phi}°; it has ${angleList(pattern.phiDeg)}`,
        EXIT.usage,
      );
    }
  }
  return p.phiDeg;
}

/** Draws a far-field monitor's pattern, writes the PNG and says what it shows. */
export async function plotFarField(
  io: CommandIo,
  p: FarFieldRequest,
  patterns: FarFieldPattern[],
  request: Record<string, unknown>,
): Promise<number> {
  const pattern = chooseFarField(p, patterns);
  const w = chosenWavelengthIndex(pattern, p.wavelengthM, request);
  const phiDeg = chosenCuts(p, pattern);
  const peak = patternPeak(pattern, w);
  const cuts = phiDeg.length > 0 ? patternCuts(pattern, w, phiDeg, peak) : [];
  const png = polarPatternPng(pattern, { wavelengthIndex: w, phiDeg, scale: p.scale });
  await writeFile(p.out, png);
  const wavelengthM = pattern.wavelengthsM[w]!;
  if (io.json) {
    printJson(io, {
      out: p.out,
      bytes: png.length,
      monitor: pattern.name,
      wavelength_m: wavelengthM,
      scale: p.scale,
      [pattern.unit === "W/rad" ? "peak_w_per_rad" : "peak_w_per_sr"]: peak,
      cuts: cuts.map((c) => ({ phi_deg: c.phiDeg, opposite_phi_deg: c.oppositeDeg })),
    });
  } else {
    const shown = isEquatorial(pattern)
      ? "the x–y plane (θ = 90°)"
      : `φ = ${angleList(cuts.map((c) => c.phiDeg))}`;
    io.stderr.write(
      `plotted the far field of '${pattern.name}' at ${formatMicrons(wavelengthM)}: ${shown} (peak ${formatIntensity(peak, pattern.unit)})\n`,
    );
    io.stdout.write(`${p.out}\n`);
  }
  return EXIT.ok;
}
