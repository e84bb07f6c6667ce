/**
 * Mode planes written as text: the normal at one position with the transverse axes spanning
 * the domain, or given as ranges in any unit; each mistake refused with what to write.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseLengthText, parsePlaneSpec, PlaneSpecError } from "./plane-spec.js";

const DOMAIN = [2e-6, 1e-6, 3e-6];
const close = (a: readonly number[], b: readonly number[]) =>
  a.every((x, i) => Math.abs(x - b[i]!) < 1e-18);

test("y=0: the whole cross-section normal to y, the domain's extent across", () => {
  const { center, size } = parsePlaneSpec("y=0", DOMAIN);
  assert.deepEqual(center, [0, 0, 0]);
  assert.deepEqual(size, [2e-6, 0, 3e-6]);
});

test("ranges in µm, nm and metres give the centre and size", () => {
  const { center, size } = parsePlaneSpec("x = 150nm, y=-0.8um:0.8um,z=-6.9e-7:9.1e-7", DOMAIN);
  assert.ok(close(center, [150e-9, 0, 0.11e-6]), String(center));
  assert.ok(close(size, [0, 1.6e-6, 1.6e-6]), String(size));
  assert.equal(parseLengthText("-0.25µm"), -0.25e-6);
  assert.equal(parseLengthText("0"), 0);
});

test("mistakes say what to write", () => {
  const refused = (spec: string, message: RegExp) =>
    assert.throws(
      () => parsePlaneSpec(spec, DOMAIN),
      (e: unknown) => {
        assert.ok(e instanceof PlaneSpecError);
        assert.match(e.message, message);
        return true;
      },
    );
  refused("x=-1um:1um", /the normal axis needs one position/);
  refused("y=0,z=1um", /y and z are both given one position/);
  refused("y=0,y=1um", /y is named twice/);
  refused("y=0,x=1um:-1um", /LO must be below HI/);
  refused("y=0.5", /plain numbers are metres; add a unit, e.g\. 0\.5um/);
  refused("w=0", /cannot read 'w=0'/);
  refused("y=0,x=1:2:3", /cannot read/);
  refused("y=abc", /cannot read 'abc' as a length/);
});
