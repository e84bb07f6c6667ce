import assert from "node:assert/strict";
import { test } from "node:test";
import { RESULT_REVISION, canonicalJson, requestHash } from "./request-hash.js";

test("canonical JSON sorts keys at every level and keeps arrays in order", () => {
  assert.equal(
    canonicalJson({ b: 1, a: [{ d: 2, c: 3 }, 1], u: undefined }),
    '{"a":[{"c":3,"d":2},1],"b":1}',
  );
  assert.equal(canonicalJson("x"), '"x"');
  assert.equal(canonicalJson(null), "null");
});

test("the hash sees every value and no key order", () => {
  const spec = { domain: { size: [1, 2, 3], resolution: 1e-8 }, source: { wavelength: 1.55e-6 } };
  const same = { source: { wavelength: 1.55e-6 }, domain: { resolution: 1e-8, size: [1, 2, 3] } };
  assert.equal(requestHash(spec, { p: 1 }), requestHash(same, { p: 1 }));
  assert.notEqual(requestHash(spec, { p: 1 }), requestHash(spec, { p: 2 }));
  assert.notEqual(
    requestHash(spec, {}),
    requestHash({ ...spec, source: { wavelength: 1.5500001e-6 } }, {}),
  );
  assert.match(requestHash(spec, undefined), /^[0-9a-f]{64}$/);
  assert.equal(requestHash(spec, undefined), requestHash(spec, {}));
});

test("a result stored under an earlier solver revision answers no new submission", () => {
  const spec = { domain: { size: [1, 2, 3], resolution: 1e-8 } };
  assert.notEqual(requestHash(spec, {}, "2026-12-02"), requestHash(spec, {}));
  assert.equal(requestHash(spec, {}, RESULT_REVISION), requestHash(spec, {}));
});
