/**
 * A ports job's S-parameters as engineers read them: |S_ji|² in dB against wavelength, one
 * curve per out/in pair of the inputs that were run, drawn with the flux spectra's chart
 * (spectrum.ts `renderLineChart`), and the same numbers as a table. `emsim sparams` and the
 * dashboard's job page both draw from the job record's S-matrix (worker/report.ts's shape).
 */
import { holdsEntry, type SMatrixJson } from "../results/touchstone.js";
import { lineChartPng, PALETTE, renderLineChart, type LineSeries } from "./spectrum.js";
import type { Canvas } from "./canvas.js";

/** One out/in pair: S[out][in] over the matrix's wavelengths, as |S|² in dB. */
export interface SParameterCurve {
  /** "S21": row and column from 1, as in a Touchstone file; "S10,2" past 9 ports. */
  name: string;
  out: string;
  in: string;
  /** 10·log10(|S|²) per wavelength of the matrix, in its order; NaN where there is no value. */
  db: number[];
}

/** 10·log10(re² + im²): −Infinity for an exact zero, NaN for a missing entry. */
export function powerDb(z: readonly (number | null)[] | null | undefined): number {
  if (!z || typeof z[0] !== "number" || typeof z[1] !== "number") return Number.NaN;
  return 10 * Math.log10(z[0] ** 2 + z[1] ** 2);
}

/** "S21" for out 1, in 0 (zero-based); with more than 9 ports "S10,2", to stay unambiguous. */
export function sParameterName(out: number, input: number, ports: number): string {
  return ports > 9 ? `S${out + 1},${input + 1}` : `S${out + 1}${input + 1}`;
}

/**
 * Every out/in pair the matrix holds, by input (S11, S21, …, S12, S22, …): all pairs of the
 * inputs that were run, and those port_symmetries filled for inputs that were not.
 */
export function sParameterCurves(m: SMatrixJson): SParameterCurve[] {
  const curves: SParameterCurve[] = [];
  m.ports.forEach((input, i) => {
    const run = m.inputs.includes(input);
    m.ports.forEach((out, o) => {
      if (!run && !holdsEntry(m, o, i)) return;
      curves.push({
        name: sParameterName(o, i, m.ports.length),
        out,
        in: input,
        db: m.wavelengths_m.map((_, w) => powerDb(m.s[o]?.[i]?.[w])),
      });
    });
  });
  return curves;
}

/** The matrix's wavelength indices, shortest first (a curve must run one way). */
function ascending(m: SMatrixJson): number[] {
  return m.wavelengths_m
    .map((w, k) => ({ w: w ?? Number.NaN, k }))
    .filter((x) => Number.isFinite(x.w))
    .sort((a, b) => a.w - b.w)
    .map((x) => x.k);
}

function seriesOf(m: SMatrixJson): LineSeries[] {
  const order = ascending(m);
  const x = order.map((k) => m.wavelengths_m[k]! * 1e6);
  return sParameterCurves(m).map((c, n) => ({
    label: `|${c.name}|² ${c.in} -> ${c.out}`,
    x,
    y: order.map((k) => c.db[k]!),
    color: PALETTE[n % PALETTE.length]!,
  }));
}

const OPTIONS = { xTitle: "wavelength (µm)", yTitle: "|S|² (dB)", includeY: [0] } as const;

/** |S_ji|² in dB against wavelength (µm), one curve per pair run, legend below. */
export function renderSParameters(m: SMatrixJson, title: string, size?: number): Canvas {
  return renderLineChart(seriesOf(m), { ...OPTIONS, title }, size);
}

/** renderSParameters as PNG bytes. */
export function sParametersPng(m: SMatrixJson, title: string, size?: number): Buffer {
  return lineChartPng(seriesOf(m), { ...OPTIONS, title }, size);
}

/**
 * A dB value to 3 decimals ("-inf" for an exact zero, "-" where the entry is missing; a loss
 * that rounds to nothing is "0.000", not "-0.000").
 */
export function formatDb(db: number): string {
  if (Number.isNaN(db)) return "-";
  if (db === -Infinity) return "-inf";
  const text = db.toFixed(3);
  return text === "-0.000" ? "0.000" : text;
}

/**
 * The header row (`λ (µm)`, then `|S11|² (dB)` … per pair run), then one row per wavelength,
 * shortest first, every cell already formatted.
 */
export function sParameterTable(m: SMatrixJson): string[][] {
  const curves = sParameterCurves(m);
  return [
    ["λ (µm)", ...curves.map((c) => `|${c.name}|² (dB)`)],
    ...ascending(m).map((k) => [
      String(Number((m.wavelengths_m[k]! * 1e6).toPrecision(6))),
      ...curves.map((c) => formatDb(c.db[k]!)),
    ]),
  ];
}
