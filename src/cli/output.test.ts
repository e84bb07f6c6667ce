/**
 * `fields`, the label: value blocks of `inspect`, `status` and `estimate`: labels padded to
 * one width, and a value of several lines (a run's notes) kept under its first line.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fields } from "./output.js";

test("labels padded to the widest; later lines of a value under its first", () => {
  const out = fields([
    ["run", "3800 steps"],
    ["notes", "first note\nsecond note"],
  ]);
  assert.equal(out, ["run:   3800 steps", "notes: first note", "       second note"].join("\n"));
});
