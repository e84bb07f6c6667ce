import { test } from "node:test";
import assert from "node:assert/strict";
import { findPdk } from "./pdks.js";
import { generateRecipe } from "./recipe.js";

test("recipe: SiEPIC EBeam silicon layer — HSQ, clear-field exposure, full 220 nm etch, cladding", () => {
  const r = generateRecipe(findPdk("siepic_ebeam")!, ["1/0", "10/0", "7/7"]);
  assert.deepEqual(r.layers_used, ["1/0"]);
  assert.deepEqual(
    r.steps.map((s) => s.step),
    ["substrate", "resist_coat", "lithography", "develop", "etch", "strip", "cladding"],
  );
  assert.deepEqual(
    r.steps.map((s) => s.index),
    [1, 2, 3, 4, 5, 6, 7],
  );
  const litho = r.steps.find((s) => s.step === "lithography")!;
  assert.deepEqual(litho.mask_layers, ["1/0"]);
  // HSQ is negative: exposed resist stays, so the waveguides themselves are exposed.
  assert.equal(litho.mask_tone, "clear_field");
  const etch = r.steps.find((s) => s.step === "etch")!;
  assert.equal(etch.depth_nm, 220);
  assert.equal(etch.remaining_nm, 0);
  assert.equal(r.steps.find((s) => s.step === "cladding")!.thickness_nm, 2200);
  assert.match(r.steps[0]!.description, /2 µm of SiO2.*220 nm Si device layer/);
  assert.ok(r.warnings.some((w) => /7\/7 is not in siepic_ebeam/.test(w)));
  assert.ok(r.warnings.some((w) => /10\/0 \(Text\) is a marker/.test(w)));
});

test("recipe: generic kit — full etch protecting the slab, then a 130 nm partial etch; positive resist", () => {
  const r = generateRecipe(findPdk("gdsfactory_generic")!, ["3/0", "1/0"]);
  assert.deepEqual(r.layers_used, ["1/0", "3/0"]);
  const lithos = r.steps.filter((s) => s.step === "lithography");
  assert.deepEqual(
    lithos.map((s) => s.mask_layers),
    [
      ["1/0", "3/0"],
      ["3/0", "1/0"],
    ],
  );
  // Keep-drawn with a positive resist: expose everything else (dark field); etch-drawn: expose drawn.
  assert.deepEqual(
    lithos.map((s) => s.mask_tone),
    ["dark_field", "clear_field"],
  );
  const etches = r.steps.filter((s) => s.step === "etch");
  assert.deepEqual(
    etches.map((s) => [s.depth_nm, s.remaining_nm]),
    [
      [220, 0],
      [130, 90],
    ],
  );
  assert.equal(r.illustrative, true);
  assert.ok(r.warnings.some((w) => /illustrative/.test(w)));
});

test("recipe: nitride kit — LPCVD nitride, etch, cladding, CMP before lift-off metal", () => {
  const r = generateRecipe(findPdk("cornerstone_sin300")!, ["41/0", "203/0"]);
  const kinds = r.steps.map((s) => s.step);
  assert.deepEqual(kinds, [
    "substrate",
    "deposition",
    "resist_coat",
    "lithography",
    "develop",
    "etch",
    "strip",
    "cladding",
    "planarisation",
    "resist_coat",
    "lithography",
    "develop",
    "metal_deposition",
    "lift_off",
    "strip",
  ]);
  const dep = r.steps[1]!;
  assert.equal(dep.material, "Si3N4");
  assert.equal(dep.thickness_nm, 300);
  assert.equal(dep.method, "LPCVD");
  assert.equal(r.steps.find((s) => s.step === "metal_deposition")!.material, "Al");
});

test("recipe: a layout the kit cannot make gets a warning and only the wafer", () => {
  const r = generateRecipe(findPdk("cornerstone_si220")!, ["1/0"]);
  assert.deepEqual(r.layers_used, []);
  assert.deepEqual(
    r.steps.map((s) => s.step),
    ["substrate", "cladding"],
  );
  assert.ok(r.warnings.some((w) => /None of the layout's layers/.test(w)));
});
