/**
 * The note a run adds when the domain's size is rounded to whole cells: only where the rounding
 * shows in the six digits it prints (a step of 33.333333 nm puts 4 µm at 3.99999996 µm, which
 * it would print as "rounded from 4e-6 m to 120 cells = 4e-6 m").
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { FdtdSimulation } from "./simulation.js";
import { constantMaterials, lineSpec } from "./testing/index.js";

const sizeNotes = (lengthM: number, stepM: number) =>
  new FdtdSimulation(
    lineSpec({ axis: 2, wavelengthM: 1e-6, stepM, lengthM, monitors: [] }),
    constantMaterials({}),
    { backend: "reference" },
  ).notes.filter((n) => /rounded from/.test(n));

it("says nothing of a rounding below what it prints", () => {
  assert.deepEqual(sizeNotes(4e-6, 33.333333e-9), []);
});

it("says how a size that is no whole number of cells was rounded", () => {
  assert.deepEqual(sizeNotes(4.01e-6, 40e-9), [
    "domain.size along z rounded from 4.01e-6 m to 100 cells = 4e-6 m",
  ]);
});
