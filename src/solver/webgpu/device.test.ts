/**
 * EMSIM_WEBGPU_TOGGLES as Dawn's `create()` flags (device.ts): the names become one
 * `enable-dawn-features` flag, and an empty or unset variable adds nothing to the flag that
 * is always there (timestamp quantization off).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dawnToggleFlags } from "./device.js";

describe("dawnToggleFlags", () => {
  const always = "disable-dawn-features=timestamp_quantization";
  it("enables nothing when the variable is unset, empty or only separators", () => {
    assert.deepEqual(dawnToggleFlags(undefined), [always]);
    assert.deepEqual(dawnToggleFlags(""), [always]);
    assert.deepEqual(dawnToggleFlags(" , ,"), [always]);
  });

  it("enables the named toggles, trimmed, in one flag", () => {
    assert.deepEqual(dawnToggleFlags("disable_robustness"), [
      always,
      "enable-dawn-features=disable_robustness",
    ]);
    assert.deepEqual(dawnToggleFlags(" disable_robustness, skip_validation ,"), [
      always,
      "enable-dawn-features=disable_robustness,skip_validation",
    ]);
  });
});
