/**
 * API key format (DESIGN §5): `emsim_` + 32 random base62 characters + a 6-character base62
 * CRC32 of everything before it. The checksum lets a malformed or mistyped key be refused
 * without a database lookup; only the SHA-256 hex of a key is ever stored.
 */
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { crc32 } from "node:zlib";

export const KEY_PREFIX = "emsim_";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_CHARS = 32;
const CHECKSUM_CHARS = 6;
/** Characters of a key shown in listings so users can tell keys apart. */
const DISPLAY_CHARS = KEY_PREFIX.length + 8;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_CHARS + CHECKSUM_CHARS}}$`);

function base62(value: number, width: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function checksumOf(body: string): string {
  return base62(crc32(body), CHECKSUM_CHARS);
}

/** A new random key (plaintext; show it once, store only `hashApiKey` of it). */
export function generateApiKey(): string {
  let random = "";
  for (let i = 0; i < RANDOM_CHARS; i++) random += BASE62[randomInt(62)];
  const body = KEY_PREFIX + random;
  return body + checksumOf(body);
}

/** True when the key has the prefix, length, alphabet and a matching checksum. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, -CHECKSUM_CHARS);
  const given = Buffer.from(key.slice(-CHECKSUM_CHARS));
  return timingSafeEqual(given, Buffer.from(checksumOf(body)));
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Constant-time comparison of two SHA-256 hex digests. */
export function sameHash(a: string, b: string): boolean {
  const ab = Buffer.from(a, "hex");
  const bb = Buffer.from(b, "hex");
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_CHARS);
}
