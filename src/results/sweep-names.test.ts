/**
 * Names made for parameters given by pointer alone: identifiers the result file allows, from
 * the pointer's tokens, unique within the batch.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { sweepNameFor, sweepNameProblem } from "./sweep-names.js";

test("a pointer's tokens joined by _ name its dimension", () => {
  assert.equal(sweepNameFor("/structures/1/size/0"), "structures_1_size_0");
  assert.equal(sweepNameFor("/source/wavelength"), "source_wavelength");
  assert.equal(sweepNameFor("/structures/0/material"), "structures_0_material");
  // RFC 6901 escapes, and characters an identifier cannot hold.
  assert.equal(sweepNameFor("/metadata/a~1b/c-d e"), "metadata_a_b_c_d_e");
});

test("names the result file reserves, leading digits and repeats are changed", () => {
  assert.equal(sweepNameFor("/wavelength"), "wavelength_value");
  assert.equal(sweepNameFor("/monitors/0/mode_index"), "monitors_0_mode_index_value");
  assert.equal(sweepNameFor("/0/x"), "p_0_x");
  assert.equal(sweepNameFor("/"), "parameter");
  assert.equal(sweepNameFor("/source/wavelength", ["source_wavelength"]), "source_wavelength_2");
  assert.equal(
    sweepNameFor("/source/wavelength", ["source_wavelength", "source_wavelength_2"]),
    "source_wavelength_3",
  );
});

test("a long pointer keeps its last tokens; every name made is one a parameter may have", () => {
  const long = `/${"a".repeat(30)}/${"b".repeat(30)}/size/2`;
  assert.equal(sweepNameFor(long), `${"b".repeat(30)}_size_2`);
  const one = `/${"c".repeat(100)}`;
  for (const pointer of [long, one, "/wavelength", "/0", "/structures/1/size/0", "/x/y/z"]) {
    const name = sweepNameFor(pointer, ["x"]);
    assert.equal(sweepNameProblem(name), null, `${pointer} → ${name}`);
    assert.ok(name.length <= 64, name);
  }
});
