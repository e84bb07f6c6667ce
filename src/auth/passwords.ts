/**
 * Dashboard passwords, hashed with scrypt (RFC 7914) from node:crypto. A stored hash is
 * self-describing, `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` (base64url), so the cost can be raised
 * later: `needsRehash` tells the sign-in route to re-hash with the current parameters.
 *
 * Cost: N = 2^15, r = 8, p = 1 takes 32 MiB and about 60–100 ms per hash on the 2-core Zen 5
 * hosts (NOTES.md) — the OWASP recommendation for scrypt — and runs on libuv's thread pool, so
 * a sign-in does not stall the event loop.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

export interface ScryptParams {
  log2N: number;
  r: number;
  p: number;
}

export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { log2N: 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;

/** Shortest and longest password accepted (characters). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 512;

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.log2N;
  const options: ScryptOptions = {
    N,
    r: params.r,
    p: params.p,
    // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is just below that for N=2^15.
    maxmem: 128 * N * params.r * params.p + 16 * 1024 * 1024,
  };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_BYTES, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

const b64 = (buf: Buffer) => buf.toString("base64url");

/** A new salted scrypt hash of the password, in the self-describing format above. */
export async function hashPassword(
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT_PARAMS,
): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return `scrypt$${params.log2N}$${params.r}$${params.p}$${b64(salt)}$${b64(key)}`;
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [log2N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const valid = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max;
  if (!valid(log2N, 22) || !valid(r, 32) || !valid(p, 16)) return null;
  const salt = Buffer.from(parts[4]!, "base64url");
  const key = Buffer.from(parts[5]!, "base64url");
  if (salt.length < 8 || key.length < 16) return null;
  return { params: { log2N, r, p }, salt, key };
}

/**
 * The salt and cost a password is derived with when an account has no password or does not
 * exist (the key is never compared: the answer is false), so that the response time does not
 * tell whether an email address has an account. Made at start: hashing a decoy on the first
 * such attempt made that one attempt cost two derivations.
 */
const DECOY: ParsedHash = {
  params: DEFAULT_SCRYPT_PARAMS,
  salt: randomBytes(SALT_BYTES),
  key: randomBytes(KEY_BYTES),
};

/**
 * True when `password` matches `stored` (compared in constant time). With `stored` null or
 * unparseable it spends the same time and returns false.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parsed = stored ? parseHash(stored) : null;
  if (!parsed) {
    await derive(password, DECOY.salt, DECOY.params);
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** True when a stored hash was made with other parameters than the current ones. */
export function needsRehash(stored: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): boolean {
  const parsed = parseHash(stored);
  return (
    !parsed ||
    parsed.params.log2N !== params.log2N ||
    parsed.params.r !== params.r ||
    parsed.params.p !== params.p ||
    parsed.key.length !== KEY_BYTES
  );
}

/** Why a new password is not acceptable, or null when it is. */
export function passwordProblem(password: string, email = ""): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  }
  if (length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  if (email && password.trim().toLowerCase() === email.trim().toLowerCase()) {
    return "The password must not be your email address.";
  }
  if (new Set(password).size < 4) return "Use more than three different characters.";
  return null;
}
