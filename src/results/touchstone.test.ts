/**
 * The Touchstone 1.1 layout, against text written out by hand: one port, one line per
 * frequency; two ports, S11 S21 S12 S22 on one line (the format's exception); three and four
 * ports, one matrix row per line, the first of each frequency starting with the frequency;
 * more than four, each row starting on a new line and wrapping after four pairs. The header
 * names as 0 only the columns that really are 0, not those port_symmetries filled. Frequencies
 * carry 10 significant digits, S entries the record's 8.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { touchstone, type SMatrixJson } from "./touchstone.js";

/** c / 1.6 µm and c / 1.5 µm as the file writes them. */
const F16 = "1.873702863e+14";
const F15 = "1.998616387e+14";

/**
 * A P-port matrix at `wavelengths` whose S_ji (s[j-1][i-1]) at the k-th wavelength is
 * (10 j + i + k) + 0.5i, with every input run unless `inputs` says otherwise.
 */
function matrix(P: number, wavelengths: number[], inputs?: number[]): SMatrixJson {
  const ports = Array.from({ length: P }, (_, n) => `p${n + 1}@0`);
  return {
    ports,
    inputs: (inputs ?? ports.map((_, n) => n)).map((n) => ports[n]!),
    wavelengths_m: wavelengths,
    s: ports.map((_, o) =>
      ports.map((_, i) => wavelengths.map((_, k) => [10 * (o + 1) + (i + 1) + k, 0.5])),
    ),
    n_eff: ports.map(() => wavelengths.map(() => 2)),
  };
}

/** The data lines (after the option line). */
const dataOf = (text: string) => text.split("\n# HZ S RI R 50\n")[1]!;

/**
 * `layout` with each `Sji` replaced by that entry's pair at the wavelength of its line's
 * frequency (the values of `matrix`), so that the layout below reads as written by hand.
 */
function expand(layout: string): string {
  let k = 0;
  return layout
    .trim()
    .split("\n")
    .map((line) => {
      if (line.startsWith(F16)) k = 1;
      if (line.startsWith(F15)) k = 0;
      return line.replace(/S(\d)(\d)/g, (_, j: string, i: string) => {
        const re = 10 * Number(j) + Number(i) + k;
        return `${re.toExponential(7)} 5.0000000e-1`;
      });
    })
    .map((line) => `${line}\n`)
    .join("");
}

test("one port: the frequency and S11 on one line, the numbers as written", () => {
  const text = touchstone(matrix(1, [1.5e-6]), "one");
  assert.equal(
    text,
    [
      "! one",
      "! ports: 1 = p1@0",
      "! S[j][i]: from port i into port j, phases referred to each port's plane",
      "# HZ S RI R 50",
      `${F15} 1.1000000e+1 5.0000000e-1`,
      "",
    ].join("\n"),
  );
});

test("two ports: S11 S21 S12 S22 on one line, frequency ascending", () => {
  assert.equal(
    dataOf(touchstone(matrix(2, [1.5e-6, 1.6e-6]), "two")),
    expand(`
${F16} S11 S21 S12 S22
${F15} S11 S21 S12 S22
`),
  );
});

test("three ports: one matrix row per line", () => {
  assert.equal(
    dataOf(touchstone(matrix(3, [1.5e-6, 1.6e-6]), "three")),
    expand(`
${F16} S11 S12 S13
S21 S22 S23
S31 S32 S33
${F15} S11 S12 S13
S21 S22 S23
S31 S32 S33
`),
  );
});

test("four ports: one matrix row per line", () => {
  assert.equal(
    dataOf(touchstone(matrix(4, [1.5e-6]), "four")),
    expand(`
${F15} S11 S12 S13 S14
S21 S22 S23 S24
S31 S32 S33 S34
S41 S42 S43 S44
`),
  );
});

test("five ports: each row on a new line, wrapped after four pairs", () => {
  assert.equal(
    dataOf(touchstone(matrix(5, [1.5e-6, 1.6e-6]), "five")),
    expand(`
${F16} S11 S12 S13 S14
S15
S21 S22 S23 S24
S25
S31 S32 S33 S34
S35
S41 S42 S43 S44
S45
S51 S52 S53 S54
S55
${F15} S11 S12 S13 S14
S15
S21 S22 S23 S24
S25
S31 S32 S33 S34
S35
S41 S42 S43 S44
S45
S51 S52 S53 S54
S55
`),
  );
});

test("the header names as 0 only the columns that are; those port_symmetries filled apart", () => {
  // Only p1 run. p2's column filled whole from symmetries, p3's partly (S33 only), p4's not.
  const m = matrix(4, [1.5e-6], [0]);
  for (let o = 0; o < 4; o++) {
    m.s[o]![3] = [null];
    if (o !== 2) m.s[o]![2] = [null];
  }
  const text = touchstone(m, "filled");
  const comments = text.split("\n").filter((l) => l.startsWith("! not run"));
  assert.deepEqual(comments, [
    "! not run (their columns are 0): p4@0",
    "! not run, filled from port_symmetries: p2@0",
    "! not run, partly filled from port_symmetries (the other entries are 0): p3@0",
  ]);
  // Every input run: no such comment at all.
  assert.doesNotMatch(touchstone(matrix(3, [1.5e-6]), "all"), /not run/);
  // Nothing filled: the one comment, as before.
  const bare = matrix(2, [1.5e-6], [0]);
  for (let o = 0; o < 2; o++) bare.s[o]![1] = [null];
  assert.match(touchstone(bare, "bare"), /^! not run \(their columns are 0\): p2@0$/m);
  assert.doesNotMatch(touchstone(bare, "bare"), /filled/);
});
