/**
 * `fields`, the label: value blocks of `inspect`, `status` and `estimate`: labels padded to
 * one width, and a value of several lines (a run's notes) kept under its first line.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { clip, fields } from "./output.js";

test("labels padded to the widest; later lines of a value under its first", () => {
  const out = fields([
    ["run", "3800 steps"],
    ["notes", "first note\nsecond note"],
  ]);
  assert.equal(out, ["run:   3800 steps", "notes: first note", "       second note"].join("\n"));
});

test("clip marks a cut with an ellipsis, so a cut number is not read as a smaller one", () => {
  assert.equal(clip("at time step 20500 of 1000000", 25), "at time step 20500 of 10…");
  assert.equal(clip("short", 25), "short");
  assert.equal(clip("exactly five", 12), "exactly five");
});
