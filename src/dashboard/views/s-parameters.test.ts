/**
 * What the S-parameters section says of the inputs a job did not run: filled from
 * port_symmetries (the file holds their values: not "0 in the file"), partly filled, or empty.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { SMatrixJson } from "../../results/touchstone.js";
import { notRunText } from "./s-parameters.js";

const z: [number, number] = [0.1, 0.2];
/** Three ports, a@0 run; b@0's column filled, c@0's filled in part (one entry), d… none. */
function matrix(columns: ((number[] | null)[] | null)[][]): SMatrixJson {
  return {
    ports: ["a@0", "b@0", "c@0", "d@0"].slice(0, columns.length),
    inputs: ["a@0"],
    wavelengths_m: [1.55e-6],
    s: columns,
    n_eff: [],
  } as unknown as SMatrixJson;
}

test("inputs not run: filled, partly filled and empty columns each named for what they hold", () => {
  const m = matrix([
    [[z], [z], [z], [null]],
    [[z], [z], [null], [null]],
    [[z], [z], [null], [null]],
    [[z], [z], [null], [null]],
  ]);
  const text = notRunText(m);
  assert.match(text, /filled from port_symmetries: b@0;/);
  assert.match(text, /partly filled from port_symmetries \(the rest 0 in Touchstone\): c@0;/);
  assert.match(text, /no curves, 0 in Touchstone: d@0\./);
  assert.doesNotMatch(text, /0 in the file/);
});

test("every input run: nothing to say", () => {
  const m = { ...matrix([[[z]]]), inputs: ["a@0"] };
  assert.equal(notRunText(m), "");
});
