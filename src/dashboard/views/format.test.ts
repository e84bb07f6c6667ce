/** parameterText: a swept value as a legend or a table reads it, small and large in exponent form. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parameterText } from "./format.js";

test("numbers to 6 significant digits, exponent form below 1e-3 and from 1e6", () => {
  const cases: [number | string | boolean, string][] = [
    [1.55e-6, "1.55e-6"],
    [3e-7, "3e-7"],
    [0.30000000000000004, "0.3"],
    [2.25, "2.25"],
    [0, "0"],
    [-4e-4, "-4e-4"],
    [123456789, "1.23457e8"],
    ["Si", "Si"],
    [true, "true"],
  ];
  for (const [value, text] of cases) assert.equal(parameterText(value), text, String(value));
});
