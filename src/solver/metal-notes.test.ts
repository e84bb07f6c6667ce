/**
 * The run report warns about a metal sphere or cylinder whose radius spans fewer than 20
 * cells (simulation.ts, metalSurfaceNotes): its surface is a staircase and its plasmon
 * resonance moves with it (docs/materials.md). Not a dielectric one, not a metal box, not a
 * metal particle resolved finely enough. And a metal film whose faces lie between the grid's
 * nodes where the source drives E normal to them (oblique tm): first order there.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { withUserMaterials } from "./dispersion/user.js";
import { libraryMaterials } from "./index.js";
import { METAL_RADIUS_CELLS } from "./metal-notes.js";
import { FdtdSimulation } from "./simulation.js";
import { boxSpec, lineSpec } from "./testing/index.js";
import type { StructureSpec } from "./types.js";

const H = 5e-9;

/** The notes of a 5 nm grid 60 cells wide holding `structures`, constructed, not run. */
function notesOf(structures: StructureSpec[]): string[] {
  const spec = boxSpec({
    sizeM: [60 * H, 60 * H, 60 * H],
    stepM: H,
    wavelengthM: 0.6e-6,
    pmlLayers: 4,
    structures,
    timeSteps: 10,
  });
  const sim = new FdtdSimulation(spec, withUserMaterials(libraryMaterials, spec.materials), {
    backend: "reference",
  });
  return sim.notes.filter((n) => /staircase/.test(n));
}

test("a gold sphere of 10 cells' radius is noted, with its index, material and cells", () => {
  const notes = notesOf([
    { type: "box", center: [0, 0, -100e-9], size: [1, 1, 20e-9], material: "SiO2" },
    { type: "sphere", center: [0, 0, 0], radius: 50e-9, material: "Au" },
  ]);
  assert.equal(notes.length, 1, notes.join("\n"));
  assert.match(notes[0], /^structures\[1\] \(a sphere of Au\) has 10\.0 cells across its radius/);
  assert.match(notes[0], /docs\/materials\.md/);
});

test("a silver cylinder is noted; TiN (a Drude pole) too", () => {
  const notes = notesOf([
    {
      type: "cylinder",
      center: [0, 0, 0],
      radius: 40e-9,
      height: 50e-9,
      axis: "z",
      material: "Ag",
    },
    { type: "sphere", center: [0, 80e-9, 0], radius: 30e-9, material: "TiN" },
  ]);
  assert.equal(notes.length, 2, notes.join("\n"));
  assert.match(notes[0], /a cylinder of Ag\) has 8\.0 cells/);
  assert.match(notes[1], /a sphere of TiN\) has 6\.0 cells/);
});

test("no note for a dielectric sphere, a metal box, or a metal sphere of 20 cells' radius", () => {
  assert.deepEqual(
    notesOf([
      { type: "sphere", center: [0, 0, 0], radius: 50e-9, material: "Si3N4" },
      { type: "box", center: [0, 0, 0], size: [100e-9, 100e-9, 20e-9], material: "Au" },
      { type: "sphere", center: [0, 0, 0], radius: METAL_RADIUS_CELLS * H, material: "Au" },
    ]),
    [],
  );
});

test("on a graded grid the cells counted are the sphere's own: a mesh override over it lifts the note", () => {
  const gold: StructureSpec = { type: "sphere", center: [0, 0, 0], radius: 50e-9, material: "Au" };
  const spec = (refined: boolean) => {
    const s = boxSpec({
      sizeM: [60 * H, 60 * H, 60 * H],
      stepM: 2 * H,
      wavelengthM: 0.6e-6,
      pmlLayers: 4,
      structures: [gold],
      timeSteps: 10,
    });
    if (refined) {
      s.domain.mesh_overrides = [
        { center: [0, 0, 0], size: [110e-9, 110e-9, 110e-9], resolution: 2.5e-9 },
      ];
    }
    return new FdtdSimulation(s, libraryMaterials, { backend: "reference" }).notes.filter((n) =>
      /staircase/.test(n),
    );
  };
  const coarse = spec(false);
  assert.equal(coarse.length, 1);
  assert.match(coarse[0], /has 5\.0 cells across its radius/);
  assert.deepEqual(spec(true), [], "20 cells of 2.5 nm across the radius");
});

/** The face notes of a gold film 48 nm thick with its lower face at z0, in a 4 nm column. */
function faceNotes(z0: number, polarization: "te" | "tm"): string[] {
  const spec = lineSpec({
    axis: 2,
    wavelengthM: 0.7e-6,
    stepM: 4e-9,
    lengthM: 1.2e-6,
    direction: [Math.sin(0.5), 0, Math.cos(0.5)],
    polarization,
    structures: [{ type: "box", center: [0, 0, z0 + 24e-9], size: [1, 1, 48e-9], material: "Au" }],
    monitors: [],
  });
  const sim = new FdtdSimulation(spec, withUserMaterials(libraryMaterials, spec.materials), {
    backend: "reference",
  });
  return sim.notes.filter((n) => /between grid nodes/.test(n));
}

test("a metal film's faces off the nodes are noted where the source drives E normal to them", () => {
  // Oblique tm: E has a z part, normal to the film. Half a cell off: both faces noted.
  const off = faceNotes(2e-9, "tm");
  assert.equal(off.length, 1, off.join("\n"));
  assert.match(off[0]!, /^structures\[0\] \(a box of Au\): its faces at z = 2e-9 m, z = 5e-8 m/);
  // On the nodes, or te (E along y, parallel to the faces): nothing to say.
  assert.deepEqual(faceNotes(0, "tm"), []);
  assert.deepEqual(faceNotes(2e-9, "te"), []);
});
