import assert from "node:assert/strict";
import { test } from "node:test";
import { spectrumTable } from "./spectrum-table.js";

const spectrum = (quantity: string) => ({
  name: "out",
  quantity,
  wavelengthsM: [1.5e-6, 1.6e-6],
  flux: [0.981234, 0.5],
});

test("a power spectrum's heading names the source's reference power, which is not always vacuum", () => {
  // A mode source's monitors read power over its 1 W, a beam's over the beam's power: only a
  // dipole's reference is its power in vacuum.
  const [header, first] = spectrumTable(spectrum("power"));
  assert.deepEqual(header, ["λ (µm)", "P/P_source"]);
  assert.deepEqual(first, ["1.5", "0.98123"]);
});

test("transmittance keeps its name and a box its outflow in m²", () => {
  assert.equal(spectrumTable(spectrum("transmittance"))[0]![1], "transmittance");
  const box = spectrumTable(spectrum("box"));
  assert.equal(box[0]![1], "net outflow (m²)");
  assert.equal(box[1]![1], "9.8123e-1");
});
