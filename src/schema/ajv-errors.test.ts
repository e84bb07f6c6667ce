/**
 * formatAjvErrors: a value of one branch's type in a "list or range" union is told what is
 * wrong with it in that branch, not that it "must be array"; a union of choices is one error
 * naming them all.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import Type from "typebox";
import { formatAjvErrors } from "./ajv-errors.js";
import { ajv } from "./ajv.js";
import { validateRequestSchema } from "./validate.js";

/** The errors a request (on a 1 µm cube at 50 nm) with this source and more is refused with. */
function refused(source: object, more: object = {}) {
  const request = {
    solver: "fdtd",
    domain: { size: [1e-6, 1e-6, 1e-6], resolution: 5e-8 },
    source,
    ...more,
  };
  assert.equal(validateRequestSchema(request), false);
  return formatAjvErrors(validateRequestSchema.errors);
}

/** The errors of a far-field monitor with this theta_deg. */
function errorsFor(theta: unknown) {
  return refused(
    {
      source_type: "point_dipole",
      center: [0, 0, 0],
      polarization: "Ez",
      wavelength: 1e-6,
    },
    {
      monitors: [
        {
          name: "ff",
          monitor_type: "far_field",
          center: [0, 0, 0],
          size: [6e-7, 6e-7, 6e-7],
          theta_deg: theta,
        },
      ],
    },
  );
}

test("a range's own bound is the one error, without the list branch's type", () => {
  assert.deepEqual(errorsFor({ start: 0, stop: 200, points: 5 }), [
    { path: "monitors[0].theta_deg.stop", message: "must be <= 180" },
  ]);
  assert.deepEqual(errorsFor({ start: 0, stop: 180, points: 1e6 }), [
    { path: "monitors[0].theta_deg.points", message: "must be <= 361" },
  ]);
});

test("a list's own errors are kept, without the range branch's type", () => {
  assert.deepEqual(errorsFor([0, 190]), [
    { path: "monitors[0].theta_deg[1]", message: "must be <= 180" },
  ]);
});

test("a value of neither type is told every type it may have, in one error", () => {
  assert.deepEqual(errorsFor("all"), [
    { path: "monitors[0].theta_deg", message: "must be array or object" },
  ]);
});

test("a union of constants and null names each choice in one error", () => {
  const source = {
    source_type: "mode",
    wavelength: 1.55e-6,
    center: [0, 0, 0],
    size: [0, 1e-6, 1e-6],
    direction: "+x",
    mode_spec: { target_neff: "high", bend_axis: 3 },
  };
  assert.deepEqual(refused(source), [
    { path: "source.mode_spec.target_neff", message: "must be number or null" },
    { path: "source.mode_spec.bend_axis", message: "must be one of 0, 1" },
  ]);
});

test("a record's key past its length is named by the record, without echoing the key", () => {
  const source = {
    source_type: "ports",
    wavelength: 1.55e-6,
    port_symmetries: { ["o2@0,o1@0" + " ".repeat(1000)]: ["o1@0,o2@0"] },
  };
  assert.deepEqual(refused(source), [
    { path: "source.port_symmetries", message: "a key must NOT have more than 80 characters" },
  ]);
});

test("metadata's numbers are finite: 1e999 (Infinity once parsed) is named where it lies", () => {
  // As the body parser reads it: -1e999 parses to -Infinity.
  const metadata = JSON.parse('{"ok": 1e308, "a/b": {"list": [1, -1e999]}}') as object;
  const source = { source_type: "plane_wave", wavelength: 1e-6, direction: [0, 0, 1] };
  assert.deepEqual(refused(source, { metadata }), [
    { path: "metadata.a/b.list[1]", message: "must be a finite number" },
  ]);
});

test("a union of string constants names its choices once, not their type once per branch", () => {
  const format = Type.Union([Type.Literal("json"), Type.Literal("touchstone")]);
  const check = ajv.compile(Type.Object({ format: Type.Optional(format) }));
  assert.equal(check({ format: ["touchstone", "json"] }), false);
  assert.deepEqual(formatAjvErrors(check.errors, "body"), [
    { path: "format", message: 'must be one of "json", "touchstone"' },
  ]);
  // In a query (…/sparameters?format=touchstone&format=json) the array is the parameter given
  // twice, and that is what is said.
  assert.deepEqual(formatAjvErrors(check.errors, "query"), [
    { path: "query.format", message: "is given more than once; give it once" },
  ]);
});
