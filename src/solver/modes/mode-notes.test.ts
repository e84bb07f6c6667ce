/**
 * gainNotes: one note per mode index whose k_eff is negative beyond rounding (a straight guide's
 * beyond 1e-6, what a run could notice), naming how many
 * wavelengths and the worst; a bend's note names the caustic and the outer side; rounding-size
 * and positive k_eff say nothing. bendNotes: a bend whose plane has no absorber cells on its
 * outer side (+radial for a positive radius, −radial for a negative one) gets a note; one with
 * absorber there, or no bend, none.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { absorberNotes, bendNotes, gainNotes, modeNotes, unguidedNotes } from "./mode-notes.js";
import type { ModeAxis } from "./operator.js";
import type { SolvedMode } from "./solved-mode.js";

/** A mode with no field at all on a plane of 2 × 2 cells (nothing in its absorber). */
const mode = (wavelength_m: number, mode_index: number, k_eff: number): SolvedMode => {
  const zero = () => ({ re: new Float64Array(4), im: new Float64Array(4) });
  const fields = { Eu: zero(), Ev: zero(), Ew: zero(), Hu: zero(), Hv: zero(), Hw: zero() };
  return { wavelength_m, mode_index, n_eff: 2.4, k_eff, te_fraction: 1, fields };
};

test("a negative k_eff gets one note per mode, with its count and worst value", () => {
  const modes = [
    [mode(1.5e-6, 0, -2e-6), mode(1.5e-6, 1, 3e-6)],
    [mode(1.55e-6, 0, -8.6e-6), mode(1.55e-6, 1, -5e-10)],
    [mode(1.6e-6, 0, 1e-7), mode(1.6e-6, 1, 0)],
  ];
  const straight = gainNotes(modes, false);
  assert.equal(straight.length, 1, straight.join("\n"));
  assert.match(
    straight[0]!,
    /^mode 0: k_eff < 0 at 2 of 3 wavelength\(s\) \(-8\.60e-6 at 1\.55 µm\)/,
  );
  assert.doesNotMatch(straight[0]!, /caustic/);
  const bent = gainNotes(modes, true);
  assert.match(bent[0]!, /caustic/);
  assert.match(bent[0]!, /on the bend's outer side/);
});

test("positive and rounding-size k_eff: no note", () => {
  assert.deepEqual(gainNotes([[mode(1.55e-6, 0, 2e-6), mode(1.55e-6, 1, -1e-10)]], true), []);
});

test("a straight guide's gain too small to matter gets no note; a bend's does", () => {
  // The examples' Si wire: −2.7e-8 at 1.5 µm, a power change of 3e-5 % over 100 wavelengths.
  const modes = [[mode(1.5e-6, 0, -2.7e-8)], [mode(1.55e-6, 0, 2.6e-7)]];
  assert.deepEqual(gainNotes(modes, false), []);
  assert.equal(gainNotes(modes, true).length, 1);
});

test("a bend without absorber on its outer side gets a note", () => {
  const nodes = new Float64Array([0, 1, 2]);
  const walls: ModeAxis = { nodesM: nodes, boundary: "pec" };
  const lowOnly: ModeAxis = { nodesM: nodes, boundary: "pml", pmlLo: 1, pmlHi: 0 };
  const both: ModeAxis = { nodesM: nodes, boundary: "pml", pmlLo: 1, pmlHi: 1 };
  const names = ["x", "y"] as const;
  const bend = (radiusM: number, radialAxis: 0 | 1) => ({ radiusM, radialAxis });
  const [note] = bendNotes([both, walls], names, bend(2e-6, 1));
  assert.match(note!, /no absorber on the bend's outer side \(\+y\)/);
  assert.match(note!, /k_eff is 0 by construction/);
  assert.match(note!, /into the domain's PML along y/);
  assert.equal(bendNotes([lowOnly, both], names, bend(2e-6, 0)).length, 1);
  assert.deepEqual(bendNotes([lowOnly, both], names, bend(-2e-6, 0)), []);
  assert.deepEqual(bendNotes([walls, both], names, bend(2e-6, 1)), []);
  assert.deepEqual(bendNotes([walls, walls], names, undefined), []);
});

test("modeNotes: the bend's note, named by the plane's transverse axes, then the modes'", () => {
  const walls: ModeAxis = { nodesM: new Float64Array([0, 1, 2]), boundary: "pec" };
  const notes = modeNotes([walls, walls], [0, 2], { radiusM: -2e-6, radialAxis: 1 }, [
    [mode(1.55e-6, 0, -3e-6)],
  ]);
  assert.equal(notes.length, 2, notes.join("\n"));
  assert.match(notes[0]!, /outer side \(−z\)/);
  // Walls, no absorber: the k_eff below zero is the eigen-solve's rounding.
  assert.match(notes[1]!, /^mode 0: k_eff < 0 .*the plane has no absorber/);
});

test("a mode not above the index at the plane's edges is noted as not guided, once per index", () => {
  const at = (wl: number, index: number, n: number) => ({ ...mode(wl, index, 0), n_eff: n });
  const notes = unguidedNotes(
    [
      [at(1.5e-6, 0, 2.5), at(1.5e-6, 1, 1.43)],
      [at(1.55e-6, 0, 2.45), at(1.55e-6, 1, 1.42)],
    ],
    [1.444, 1.444],
  );
  assert.equal(notes.length, 1, notes.join("\n"));
  assert.match(
    notes[0]!,
    /^mode 1: n_eff 1\.43000 at 1\.5 µm is not above the index at the plane's edges \(1\.44400\): it does not guide/,
  );
  assert.deepEqual(unguidedNotes([[at(1.55e-6, 0, 1.0)]], [1.0]).length, 1, "an empty plane's");
});

test("a mode lying mostly in the plane's absorber is noted, once per index", () => {
  // A 4 × 1 plane whose first and last cells along u are absorber: one mode in them, one not.
  const axis: ModeAxis = {
    nodesM: new Float64Array([0, 1, 2, 3, 4]),
    boundary: "pml",
    pmlLo: 1,
    pmlHi: 1,
  };
  const line: ModeAxis = { nodesM: new Float64Array([0, 1]), boundary: "periodic" };
  const field = (values: number[]) => {
    const c = () => ({ re: new Float64Array(4), im: new Float64Array(4) });
    const f = { Eu: c(), Ev: c(), Ew: c(), Hu: c(), Hv: c(), Hw: c() };
    f.Eu.re.set(values);
    return f;
  };
  const inAbsorber = { ...mode(1.55e-6, 1, 0), fields: field([1, 0.1, 0.1, 1]) };
  const guided = { ...mode(1.55e-6, 0, 0), fields: field([0, 1, 1, 0]) };
  const notes = absorberNotes([axis, line], [[guided, inAbsorber]]);
  assert.equal(notes.length, 1, notes.join("\n"));
  assert.match(
    notes[0]!,
    /^mode 1: a fifth or more of its field lies in the plane's absorber at 1 of 1/,
  );
});

test("a mode past cut-off (n_eff below |k_eff|) gets no gain note", () => {
  const evanescent = { ...mode(1.55e-6, 3, -0.7), n_eff: 1e-16 };
  assert.deepEqual(gainNotes([[evanescent]], false), []);
});

test("a negative k_eff on a plane without absorber is the eigen-solve's rounding, not the absorber", () => {
  const notes = gainNotes([[mode(1.55, 0, -3.15e-5)]], false, false);
  assert.equal(notes.length, 1);
  assert.match(notes[0]!, /the plane has no absorber, so it is the eigen-solve's rounding/);
  assert.doesNotMatch(notes[0]!, /absorber begins/);
});
