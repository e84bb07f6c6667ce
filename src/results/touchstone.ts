/**
 * An S-matrix as a Touchstone 1.1 file (the format scikit-rf and circuit simulators read):
 * `# HZ S RI R 50`, one line group per frequency, ascending, each S_ij as real and imaginary
 * parts. Order: for 2 ports S11 S21 S12 S22 (the format's own exception), otherwise row by row
 * (S11 S12 … S1N, S21 …), at most four pairs per line. Inputs that were not run have no column
 * of the matrix: their entries are written as 0 and named in a comment.
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
  const P = m.ports.length;
  const lines = [
    `! ${title}`,
    `! ports: ${m.ports.map((p, i) => `${i + 1} = ${p}`).join(", ")}`,
    "! S[j][i]: from port i into port j, phases referred to each port's plane",
  ];
  const missing = m.ports.filter((p) => !m.inputs.includes(p));
  if (missing.length > 0) lines.push(`! not run (their columns are 0): ${missing.join(", ")}`);
  lines.push("# HZ S RI R 50");
  const order = m.wavelengths_m
    .map((w, k) => ({ f: C / (w ?? Number.NaN), k }))
    .filter((x) => Number.isFinite(x.f))
    .sort((a, b) => a.f - b.f);
  const pairs = (o: number, i: number, k: number) => {
    const v = m.s[o]?.[i]?.[k];
    return v && typeof v[0] === "number" && typeof v[1] === "number"
      ? `${num(v[0])} ${num(v[1])}`
      : "0 0";
  };
  for (const { f, k } of order) {
    const entries: string[] = [];
    if (P === 2) entries.push(pairs(0, 0, k), pairs(1, 0, k), pairs(0, 1, k), pairs(1, 1, k));
    else for (let o = 0; o < P; o++) for (let i = 0; i < P; i++) entries.push(pairs(o, i, k));
    const rows: string[] = [];
    for (let at = 0; at < entries.length; at += 4) rows.push(entries.slice(at, at + 4).join(" "));
    lines.push(`${num(f)} ${rows.join("\n")}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The file extension for P ports: .s2p etc. */
export const touchstoneExtension = (ports: number) => `.s${ports}p`;

const num = (v: number) => v.toExponential(9);
