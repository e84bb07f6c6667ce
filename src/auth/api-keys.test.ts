import { test } from "node:test";
import assert from "node:assert/strict";
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from "./api-keys.js";

test("generated keys are well formed, distinct and 44 characters", () => {
  const keys = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const key = generateApiKey();
    assert.match(key, /^emsim_[0-9A-Za-z]{38}$/);
    assert.ok(isWellFormedApiKey(key), key);
    keys.add(key);
  }
  assert.equal(keys.size, 200);
});

test("a single changed character breaks the checksum", () => {
  const key = generateApiKey();
  let refused = 0;
  for (let i = 6; i < key.length; i++) {
    const c = key[i] === "a" ? "b" : "a";
    const mutated = key.slice(0, i) + c + key.slice(i + 1);
    if (!isWellFormedApiKey(mutated)) refused++;
  }
  // CRC32 detects every single-character change of the body; a change inside the checksum
  // itself is a mismatch by construction.
  assert.equal(refused, key.length - 6);
});

test("wrong prefix, length or alphabet is malformed", () => {
  const key = generateApiKey();
  assert.equal(isWellFormedApiKey("sk_" + key.slice(6)), false);
  assert.equal(isWellFormedApiKey(key + "0"), false);
  assert.equal(isWellFormedApiKey(key.slice(0, -1)), false);
  assert.equal(isWellFormedApiKey(key.slice(0, 10) + "-" + key.slice(11)), false);
  assert.equal(isWellFormedApiKey(""), false);
});

test("hash is SHA-256 hex and the display prefix hides the secret part", () => {
  const key = generateApiKey();
  assert.match(hashApiKey(key), /^[0-9a-f]{64}$/);
  assert.equal(displayPrefix(key).length, 14);
  assert.ok(key.startsWith(displayPrefix(key)));
});
