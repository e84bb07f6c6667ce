/**
 * The mode cache: a repeated solve is served from it with the very modes a fresh solve gives,
 * callers cannot change what it holds, a solve that found the group index serves one that does
 * not ask for it (not the other way round), any change of the plane misses, and the byte
 * budget evicts the least recently used.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ModeCache } from "./mode-cache.js";
import { coarseSiWire, everyModeNumber } from "./slab-case.js";
import { solveModes, type SolveModesInput } from "./solve.js";

const strip = coarseSiWire();
const input: SolveModesInput = {
  axes: strip.axes,
  planeEps: strip.eps,
  wavelengths_m: [1.5e-6, 1.55e-6],
  mode_spec: { num_modes: 2 },
};

/** Every number of every mode, for exact comparison. */
const flat = (r: ReturnType<typeof solveModes>) => everyModeNumber(r.modes);

/** Solves `v` with `cache` and says how many of its wavelengths the cache served. */
function served(v: SolveModesInput, cache: ModeCache): number {
  const before = cache.hits;
  solveModes(v, cache);
  return cache.hits - before;
}

describe("mode cache", () => {
  it("serves a repeated solve with exactly the modes a fresh solve gives", () => {
    const cache = new ModeCache(64 << 20);
    const fresh = solveModes(input, null);
    const first = solveModes(input, cache);
    assert.equal(cache.size, 2, "one entry per wavelength");
    const again = solveModes(input, cache);
    assert.deepEqual(flat(first), flat(fresh));
    assert.deepEqual(flat(again), flat(fresh));
    assert.equal(again.unknowns, fresh.unknowns);
    assert.equal(again.factorEntries, fresh.factorEntries);
  });

  it("hands out copies: turning a served mode round does not change the next one served", () => {
    const cache = new ModeCache(64 << 20);
    const before = flat(solveModes(input, cache));
    const served = solveModes(input, cache);
    for (const m of served.modes.flat()) m.fields.Hu.re.fill(7);
    assert.deepEqual(flat(solveModes(input, cache)), before);
  });

  it("a solve with the group index serves one without; not the other way round", () => {
    const cache = new ModeCache(64 << 20);
    solveModes(input, cache);
    const withGroup = solveModes({ ...input, groupIndex: true }, cache);
    assert.ok(withGroup.modes.flat().every((m) => (m.group_index ?? 0) > 2));
    assert.equal(cache.size, 4, "the group-index solve missed and was stored apart");
    const fresh = new ModeCache(64 << 20);
    solveModes({ ...input, groupIndex: true }, fresh);
    // Stored with the group index and, without it, under the plain solve's key.
    assert.equal(fresh.size, 4);
    assert.equal(
      served(input, fresh),
      2,
      "the plain solve was not served by the group-index solve",
    );
    assert.equal(fresh.size, 4);
    // Served without the group index it did not ask for, equal to a plain solve's modes.
    assert.deepEqual(flat(solveModes(input, fresh)), flat(solveModes(input, null)));
  });

  it("the first solve of a wavelength stays the one served, whatever solves it again later", () => {
    // As a ports job's runs ask: a monitor's plane over its band (the middle wavelength solved
    // in a chain from the first), then a mode source on the same plane at the middle one with
    // its group index (solved afresh from the plane's largest index). That second solve used to
    // replace the first under the plain key too, so a later job's monitor got other bits than
    // the first job's (1e-15 apart) and a worker's S-parameters depended on its history.
    const band = { ...input, wavelengths_m: [1.5e-6, 1.55e-6, 1.6e-6] };
    const source = {
      ...band,
      wavelengths_m: [1.55e-6, 1.5e-6, 1.6e-6],
      groupIndex: "first" as const,
    };
    const cache = new ModeCache(64 << 20);
    const first = flat(solveModes(band, cache));
    solveModes(source, cache);
    assert.deepEqual(flat(solveModes(band, cache)), first);
  });

  it("misses when anything the modes depend on changes", () => {
    const cache = new ModeCache(64 << 20);
    solveModes(input, cache);
    const changed = strip.eps.uu.re.slice();
    changed[changed.length >> 1] += 1e-12;
    const variants: SolveModesInput[] = [
      { ...input, wavelengths_m: [1.5e-6 * (1 + 1e-12)] },
      { ...input, mode_spec: { num_modes: 1 } },
      { ...input, mode_spec: { num_modes: 2, target_neff: 2.5 } },
      { ...input, mode_spec: { num_modes: 2, filter_pol: "tm" } },
      { ...input, leftHanded: true },
      { ...input, planeEps: { ...strip.eps, uu: { re: changed } } },
    ];
    variants.forEach((v, k) => assert.equal(served(v, cache), 0, `variant ${k} missed`));
    assert.equal(served(input, cache), 2, "the original request still hits");
  });

  it("keeps within its byte budget, evicting the least recently used", () => {
    const at = (wl: number) => ({ ...input, wavelengths_m: [wl] });
    const probe = new ModeCache(64 << 20);
    solveModes(at(1.5e-6), probe);
    // Room for two entries of this size, not three.
    const cache = new ModeCache(2.5 * probe.heldBytes);
    solveModes(at(1.5e-6), cache);
    solveModes(at(1.51e-6), cache);
    assert.equal(served(at(1.5e-6), cache), 1, "1.5 µm is now the most recent");
    solveModes(at(1.52e-6), cache);
    assert.equal(cache.size, 2);
    assert.equal(served(at(1.5e-6), cache), 1, "1.5 µm was kept");
    assert.equal(served(at(1.51e-6), cache), 0, "1.51 µm was evicted");
  });
});
