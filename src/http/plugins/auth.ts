/**
 * API-key authentication (spec §5, DESIGN §5). A missing header and a malformed key get their
 * own 401 details; a well-formed key that is unknown or revoked gets one generic 401. The
 * checksum in the key lets malformed keys be refused without touching the database; a
 * well-formed key is looked up by its SHA-256 and the digests compared in constant time.
 */
import type { FastifyRequest } from "fastify";
import { hashApiKey, isWellFormedApiKey, sameHash } from "../../auth/api-keys.js";
import { errors } from "../../errors.js";
import type { AccountStore, ReadScope } from "../../store/types.js";

export interface Caller {
  accountId: string;
  keyId: string;
  /** The request's reads (store/types.ts ReadScope): pass to the store reads it makes. */
  reads: ReadScope;
}

declare module "fastify" {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** last_used_at is written at most this often per key, to keep reads read-only. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The key digest of the last well-formed Authorization header each connection sent. A client
 * polling over keep-alive sends the same header every time, and parsing, the checksum and
 * SHA-256 were ≈ 2 µs of a ≈ 30 µs status GET (docs/benchmarks.md). Only the digest is
 * reused: whether the key exists and is unrevoked is looked up on every request. A
 * connection remembers nothing but its own previous header, so the string comparison (not
 * constant-time) can tell a client only what it sent itself.
 */
const lastKeyOfConnection = new WeakMap<object, { header: string; hash: string }>();

/** SHA-256 of the key in a Bearer header; 401s for a missing or malformed one. */
function keyHashOf(header: string | undefined): string {
  if (header === undefined || header.trim() === "") throw errors.missingApiKey();
  // No Bearer credential at all is a missing key; "Bearer <key> extra" is a key, malformed.
  const match = /^Bearer[ \t]+(\S.*?)[ \t]*$/i.exec(header);
  if (!match) throw errors.missingApiKey();
  const key = match[1]!;
  if (!isWellFormedApiKey(key)) throw errors.malformedApiKey();
  return hashApiKey(key);
}

export function createAuthenticator(store: AccountStore) {
  const lastTouched = new Map<string, number>();

  return async function authenticate(req: FastifyRequest): Promise<Caller> {
    const header = req.headers.authorization;
    const connection: object | undefined = req.raw.socket ?? undefined;
    const last = connection && lastKeyOfConnection.get(connection);
    let hash: string;
    if (last !== undefined && header !== undefined && last.header === header) {
      hash = last.hash;
    } else {
      hash = keyHashOf(header);
      if (connection) lastKeyOfConnection.set(connection, { header: header!, hash });
    }
    const reads: ReadScope = {};
    const found = await store.findActiveApiKeyByHash(hash, reads);
    if (!found || !sameHash(found.keyHash, hash)) throw errors.unauthorized();
    const now = Date.now();
    if (now - (lastTouched.get(found.key.id) ?? 0) > TOUCH_INTERVAL_MS) {
      lastTouched.set(found.key.id, now);
      // Best effort: a database that refuses writes (full disk) must not refuse reads too.
      await store.touchApiKey(found.key.id, new Date(now).toISOString()).catch((err: unknown) => {
        req.log.warn({ err }, "could not record the key's last use");
      });
    }
    const caller = { accountId: found.key.accountId, keyId: found.key.id, reads };
    req.caller = caller;
    return caller;
  };
}
