import { test } from "node:test";
import assert from "node:assert/strict";
import { findMaterial } from "../solver/materials.js";
import { PDKS, findPdk, pdkNames } from "./pdks.js";

test("PDKs: every rule, cross-section and process step refers to a layer and level the kit defines", () => {
  assert.deepEqual(pdkNames(), [
    "siepic_ebeam",
    "gdsfactory_generic",
    "cornerstone_si220",
    "cornerstone_sin300",
  ]);
  for (const pdk of PDKS) {
    const keys = pdk.layers.map((l) => l.key);
    assert.equal(new Set(keys).size, keys.length, `${pdk.name}: layer keys unique`);
    for (const l of pdk.layers) assert.equal(l.key, `${l.layer}/${l.datatype}`);
    for (const key of Object.keys(pdk.rules))
      assert.ok(keys.includes(key), `${pdk.name}: rules for unknown ${key}`);
    for (const xs of pdk.cross_sections) {
      assert.ok(keys.includes(xs.layer), `${pdk.name}: cross-section ${xs.name}`);
      for (const c of xs.cladding_layers ?? []) assert.ok(keys.includes(c.layer));
      assert.ok(xs.width_nm > 0 && xs.min_radius_nm > 0);
    }
    const levels = new Set(pdk.stack.map((l) => l.name));
    for (const [key, p] of Object.entries(pdk.process)) {
      assert.ok(keys.includes(key), `${pdk.name}: process for unknown ${key}`);
      assert.ok(levels.has(p.level), `${pdk.name}: ${key} patterns unknown level ${p.level}`);
      const level = pdk.stack.find((l) => l.name === p.level)!;
      assert.ok(
        p.remaining_nm >= 0 && p.remaining_nm < level.thickness_nm,
        `${pdk.name}: ${key} etch leaves less than the level`,
      );
      for (const k of p.protect_with ?? []) assert.ok(keys.includes(k));
    }
    for (const level of pdk.stack) {
      assert.ok(level.thickness_nm > 0);
      // Library names where the library has the material (Si, SiO2, Si3N4, Al, TiN); others
      // (TiW) flagged.
      assert.equal(
        level.in_material_library,
        findMaterial(level.material)?.name === level.material,
        `${pdk.name}: ${level.material}`,
      );
    }
    assert.ok(
      pdk.stack.some((l) => l.role === "box" && l.zmin_nm + l.thickness_nm === 0),
      `${pdk.name}: BOX top at z = 0`,
    );
    assert.equal(pdk.illustrative, pdk.illustrative_fields.length > 0);
    assert.match(pdk.source.url, /^https:\/\/github\.com\//);
  }
});

test("PDKs: the published numbers of shared/NOTES.md", () => {
  const ebeam = findPdk("SiEPIC_EBeam")!;
  assert.deepEqual(ebeam.rules["1/0"], { min_feature_nm: 60, min_spacing_nm: 70 });
  assert.deepEqual(ebeam.rules["1/5"], { min_feature_nm: 120, min_spacing_nm: 120 });
  const generic = findPdk("gdsfactory_generic")!;
  assert.deepEqual(
    ["1/0", "2/0", "3/0", "34/0"].map((k) => generic.layers.find((l) => l.key === k)!.name),
    ["WG", "SLAB150", "SLAB90", "WGN"],
  );
  assert.equal(generic.stack.find((l) => l.name === "core")!.thickness_nm, 220);
  assert.equal(generic.stack.find((l) => l.name === "nitride")!.thickness_nm, 350);
  assert.equal(generic.stack.find((l) => l.name === "box")!.thickness_nm, 3000);
  const cs = findPdk("cornerstone_si220")!;
  assert.equal(cs.layers.find((l) => l.name === "WG")!.key, "3/0");
  assert.equal(cs.layers.find((l) => l.name === "SLAB")!.key, "5/0");
  assert.equal(cs.cross_sections.find((x) => x.name === "strip")!.min_radius_nm, 5000);
  assert.equal(
    findPdk("cornerstone_sin300")!.stack.find((l) => l.name === "core")!.material,
    "Si3N4",
  );
  assert.equal(findPdk("no_such_kit"), undefined);
  // Heaters: TiN (gdsfactory generic, CORNERSTONE) is in the optical library, SiEPIC's TiW is not.
  for (const name of ["gdsfactory_generic", "cornerstone_si220", "cornerstone_sin300"]) {
    const heater = findPdk(name)!.stack.find((l) => l.name === "heater")!;
    assert.deepEqual([heater.material, heater.in_material_library], ["TiN", true], name);
  }
  const tiw = ebeam.stack.find((l) => l.name === "heater")!;
  assert.deepEqual([tiw.material, tiw.in_material_library], ["TiW", false]);
});
