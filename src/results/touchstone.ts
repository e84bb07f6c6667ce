/**
 * An S-matrix as a Touchstone 1.1 file (the format scikit-rf and circuit simulators read):
 * `# HZ S RI R 50`, one line group per frequency, ascending, each S_ij as real and imaginary
 * parts. Order: for 2 ports S11 S21 S12 S22 on one line (the format's own exception),
 * otherwise row by row (S11 S12 … S1N, S21 …), each row starting on a line of its own (the
 * first after the frequency) and wrapping after four pairs, as Touchstone 1.1 lays out 3- and
 * 4-port files (one row a line) and larger ones. Inputs that were not run have no column of
 * their own: the entries port_symmetries did not fill are written as 0, and a comment says
 * which columns are 0, which were filled and which were filled in part.
 *
 * Digits: a frequency with 10 significant digits (from the wavelength as the run held it), an
 * S entry with 8, all the job record keeps (report.ts sMatrixSummary); the Python client's
 * `to_touchstone` writes the same text from the result file (clients/python, sparameters.py).
 */

/** The S-matrix as the job record holds it (worker/report.ts sMatrixSummary). */
export interface SMatrixJson {
  ports: string[];
  inputs: string[];
  wavelengths_m: (number | null)[];
  s: ((number | null)[] | null)[][][];
  n_eff: (number | null)[][];
}

const C = 299_792_458;

export function touchstone(m: SMatrixJson, title: string): string {
  const lines = [
    `! ${title}`,
    `! ports: ${m.ports.map((p, i) => `${i + 1} = ${p}`).join(", ")}`,
    "! S[j][i]: from port i into port j, phases referred to each port's plane",
    ...notRunComments(m),
    "# HZ S RI R 50",
  ];
  const order = m.wavelengths_m
    .map((w, k) => ({ f: C / (w ?? Number.NaN), k }))
    .filter((x) => Number.isFinite(x.f))
    .sort((a, b) => a.f - b.f);
  for (const { f, k } of order) lines.push(...frequencyLines(m, f, k));
  return `${lines.join("\n")}\n`;
}

/** Touchstone 1.1's most pairs on one line. */
const PAIRS_PER_LINE = 4;

/** The lines of the k-th wavelength (frequency f): the first starts with the frequency. */
function frequencyLines(m: SMatrixJson, f: number, k: number): string[] {
  const P = m.ports.length;
  const pair = (o: number, i: number) => {
    const v = m.s[o]?.[i]?.[k];
    return isPair(v) ? `${entry(v[0])} ${entry(v[1])}` : "0 0";
  };
  const rows =
    P === 2
      ? [[pair(0, 0), pair(1, 0), pair(0, 1), pair(1, 1)]]
      : m.ports.map((_, o) => m.ports.map((_, i) => pair(o, i)));
  const lines = rows.flatMap((row) => {
    const wrapped: string[] = [];
    for (let at = 0; at < row.length; at += PAIRS_PER_LINE) {
      wrapped.push(row.slice(at, at + PAIRS_PER_LINE).join(" "));
    }
    return wrapped;
  });
  lines[0] = `${num(f)} ${lines[0]}`;
  return lines;
}

/**
 * The inputs that were not run, by what the matrix holds in their columns: nothing (0 in a
 * Touchstone file, NaN in the result file), every entry (filled from port_symmetries), or
 * some entries.
 */
export function notRunInputs(m: SMatrixJson): { empty: string[]; whole: string[]; part: string[] } {
  const groups = { empty: [] as string[], whole: [] as string[], part: [] as string[] };
  m.ports.forEach((port, i) => {
    if (m.inputs.includes(port)) return;
    const filled = m.ports.filter((_, o) => (m.s[o]?.[i] ?? []).some(isPair)).length;
    const group = filled === 0 ? "empty" : filled === m.ports.length ? "whole" : "part";
    groups[group].push(port);
  });
  return groups;
}

/** Whether the matrix holds any value of S[out][input] (run, or filled from port_symmetries). */
export function holdsEntry(m: SMatrixJson, out: number, input: number): boolean {
  return (m.s[out]?.[input] ?? []).some(isPair);
}

/** The comments on inputs that were not run (notRunInputs). */
function notRunComments(m: SMatrixJson): string[] {
  const groups = notRunInputs(m);
  const comment = (text: string, ports: string[]) =>
    ports.length > 0 ? [`! ${text}: ${ports.join(", ")}`] : [];
  return [
    ...comment("not run (their columns are 0)", groups.empty),
    ...comment("not run, filled from port_symmetries", groups.whole),
    ...comment(
      "not run, partly filled from port_symmetries (the other entries are 0)",
      groups.part,
    ),
  ];
}

/** An entry the record holds: [re, im] (null where nothing computed or filled it). */
function isPair(v: (number | null)[] | null | undefined): v is [number, number] {
  return !!v && typeof v[0] === "number" && typeof v[1] === "number";
}

/** The file extension for P ports: .s2p etc. */
export const touchstoneExtension = (ports: number) => `.s${ports}p`;

const num = (v: number) => v.toExponential(9);
/** An S entry's real or imaginary part: the record's 8 significant digits. */
const entry = (v: number) => v.toExponential(7);
