import assert from "node:assert/strict";
import { test } from "node:test";
import { parse, UsageError } from "./usage.js";

const options = {
  "bend-radius": { type: "string" },
  "target-neff": { type: "string", short: "n" },
  json: { type: "boolean" },
} as const;

test("a negative number after an option that takes a value is its value", () => {
  // cli.md: --bend-radius R is signed; parseArgs alone calls "-5um" an ambiguous option.
  const { values } = parse(["--bend-radius", "-5um", "-n", "-.5", "--json"], options);
  assert.equal(values["bend-radius"], "-5um");
  assert.equal(values["target-neff"], "-.5");
  assert.equal(values.json, true);
  assert.equal(parse(["--bend-radius=-2um"], options).values["bend-radius"], "-2um");
});

test("what is not a number after an option, or after --, is read as before", () => {
  assert.throws(() => parse(["--bend-radius", "-x"], options), UsageError);
  assert.throws(() => parse(["--json", "-5"], options), UsageError);
  const { positionals } = parse(["--", "-5"], options, true);
  assert.deepEqual(positionals, ["-5"]);
});

test("an empty argument is a usage mistake (exit 2), not a request for the job ''", () => {
  for (const args of [[""], ["  "], ["a", ""]]) {
    assert.throws(() => parse(args, options, true), /an argument is empty/);
  }
  assert.deepEqual(parse(["job-1"], options, true).positionals, ["job-1"]);
});
