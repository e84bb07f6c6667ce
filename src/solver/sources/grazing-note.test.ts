/**
 * The run report's note on oblique incidence past a critical angle: glass (n = 1.5) onto
 * vacuum at 43.5° grazes at 678 nm for a source at 700 nm, with or without a metal film
 * between them; from vacuum onto glass, through a metal film between two vacuums, or with the
 * monitors' band far below grazing, there is nothing to say.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { FdtdSimulation } from "../simulation.js";
import { fluxPlane, lineSpec, poleMaterials } from "../testing/index.js";
import { grazingNote } from "./grazing-note.js";
import type { SimulationSpec } from "../types.js";

const THETA = (43.5 * Math.PI) / 180;

/** A gold-like Drude metal (Re ε ≈ −25 at 700 nm, Re n ≈ 0.2) and a glass of ε = 2.25. */
const MATERIALS = poleMaterials({
  glass: { epsInf: 2.25, sigma: 0, poles: [] },
  metal: { epsInf: 1, sigma: 0, poles: [{ kind: "drude", omegaP: 1.37e16, gamma: 1.06e14 }] },
});

const METAL_FILM = { type: "box", center: [0, 0, 25e-9], size: [1, 1, 50e-9], material: "metal" };

/**
 * The grazing notes of a column with `below` filling z < 0 (nothing: vacuum), a 50 nm metal
 * film on it where `film`, the wave coming from `from`: below (+z) or above (−z).
 */
function grazingNotes(
  below: "glass" | "vacuum",
  from: "below" | "above",
  wavelengths: number[],
  film = false,
): string[] {
  const structures = [
    ...(below === "glass"
      ? [{ type: "box", center: [0, 0, -1e-6], size: [1, 1, 2e-6], material: "glass" }]
      : []),
    ...(film ? [METAL_FILM] : []),
  ] as SimulationSpec["structures"];
  const spec = lineSpec({
    axis: 2,
    wavelengthM: 0.7e-6,
    stepM: 10e-9,
    lengthM: 2e-6,
    direction: [Math.sin(THETA), 0, (from === "below" ? 1 : -1) * Math.cos(THETA)],
    polarization: "te",
    structures,
    monitors: [fluxPlane("R", 2, from === "below" ? -0.5e-6 : 0.5e-6, wavelengths)],
  });
  return new FdtdSimulation(spec, MATERIALS, { backend: "reference" }).notes.filter((n) =>
    /grazing/.test(n),
  );
}

const BAND = [0.66e-6, 0.7e-6, 0.74e-6];

for (const film of [false, true]) {
  test(`glass onto vacuum past the critical angle${film ? " through a metal film" : ""}, the band reaching grazing: noted`, () => {
    const found = grazingNotes("glass", "below", BAND, film);
    assert.equal(found.length, 1, found.join("\n"));
    assert.match(found[0]!, /from a medium of index 1\.500 onto one of index 1\.000/);
    assert.match(found[0]!, /critical angle 41\.8°/);
    assert.match(found[0]!, /from about 6\.779e-7 m on the wave is evanescent/);
  });
}

test("nothing to say from vacuum onto glass, through a metal film in vacuum, or for a band well short of grazing", () => {
  assert.deepEqual(grazingNotes("glass", "above", BAND), []);
  // A metal's Re n (about 0.2 here) is no medium a wave can graze in: the film is crossed by
  // its evanescent field, and vacuum lies on both sides.
  assert.deepEqual(grazingNotes("vacuum", "below", BAND, true), []);
  assert.equal(
    grazingNote({
      sourceIndex: 1.5,
      lowestIndex: 1,
      sinTheta: Math.sin(THETA),
      wavelengthM: 0.7e-6,
      wavelengthsM: [0.55e-6, 0.6e-6],
    }),
    null,
  );
});
