/**
 * Dashboard sign-in sessions and the tokens that protect their forms.
 *
 * A session is a random 256-bit token in an HttpOnly cookie; the store keeps only its SHA-256,
 * so a copy of the database does not let anyone act as a signed-in user. A session ends after
 * SESSION_IDLE_MS without a request or SESSION_LIFETIME_MS after sign-in, whichever is first,
 * and at once on sign-out or when the account's password is set again.
 *
 * CSRF: every state-changing form carries a synchroniser token derived from the session token
 * with an HMAC under a server key (`csrfToken`). It is bound to the session (another session's
 * token does not verify), needs no storage, and cannot be computed from what the database holds.
 * Forms shown before sign-in (sign-in, setup, invitation) bind their token the same way to a
 * random pre-session cookie instead.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { DashboardSession, SessionStore } from "../store/types.js";

export const SESSION_LIFETIME_MS = 7 * 24 * 3600_000;
export const SESSION_IDLE_MS = 24 * 3600_000;
/** last_seen_at is written at most this often per session, so reads stay reads. */
const TOUCH_INTERVAL_MS = 5 * 60_000;

/** A fresh unguessable token (256 bits, base64url, 43 characters). */
export function newOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the store keeps of a session, setup or invitation token. */
export function hashOpaqueToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** True when the string has the shape of `newOpaqueToken`'s output (checked before lookups). */
export function isOpaqueToken(value: string | undefined): value is string {
  return typeof value === "string" && TOKEN_PATTERN.test(value);
}

export interface ActiveSession {
  /** The cookie value. */
  token: string;
  idHash: string;
  accountId: string;
  expiresAt: string;
}

export class SessionManager {
  constructor(
    private readonly store: SessionStore,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Starts a new session for the account (after a successful sign-in). */
  async start(accountId: string): Promise<ActiveSession> {
    const token = newOpaqueToken();
    const now = this.clock();
    const session: DashboardSession = {
      idHash: hashOpaqueToken(token),
      accountId,
      createdAt: new Date(now).toISOString(),
      lastSeenAt: new Date(now).toISOString(),
      expiresAt: new Date(now + SESSION_LIFETIME_MS).toISOString(),
    };
    await this.store.createSession(session);
    return { token, idHash: session.idHash, accountId, expiresAt: session.expiresAt };
  }

  /**
   * The live session of a cookie value, or null (unknown, expired or idle too long). With
   * `active` false (a page's background polling) the request does not count as activity.
   */
  async resume(token: string | undefined, active = true): Promise<ActiveSession | null> {
    if (!isOpaqueToken(token)) return null;
    const idHash = hashOpaqueToken(token);
    const session = await this.store.getSession(idHash);
    if (!session) return null;
    const now = this.clock();
    const idleSince = Date.parse(session.lastSeenAt);
    if (Date.parse(session.expiresAt) <= now || now - idleSince >= SESSION_IDLE_MS) {
      await this.store.deleteSession(idHash);
      return null;
    }
    if (active && now - idleSince >= TOUCH_INTERVAL_MS) {
      await this.store.touchSession(idHash, new Date(now).toISOString());
    }
    return { token, idHash, accountId: session.accountId, expiresAt: session.expiresAt };
  }

  async end(session: ActiveSession): Promise<void> {
    await this.store.deleteSession(session.idHash);
  }

  /** Removes expired sessions; returns how many. */
  async sweep(): Promise<number> {
    const now = this.clock();
    return this.store.deleteExpiredSessions(
      new Date(now).toISOString(),
      new Date(now - SESSION_IDLE_MS).toISOString(),
    );
  }
}

/** The HMAC key for CSRF tokens, derived from the service secret with its own label. */
export function csrfKeyFrom(serviceSecret: string): Buffer {
  return createHmac("sha256", serviceSecret).update("emsim dashboard csrf v1").digest();
}

/**
 * The CSRF token of a session (`binding` = the session token) or of a pre-session cookie
 * (`binding` = "pre:" + its value).
 */
export function csrfToken(key: Buffer, binding: string): string {
  return createHmac("sha256", key).update(binding).digest("base64url");
}

/** Constant-time check of a submitted CSRF token against the one expected for `binding`. */
export function csrfTokenMatches(key: Buffer, binding: string, given: unknown): boolean {
  if (typeof given !== "string" || given.length > 100) return false;
  const expected = Buffer.from(csrfToken(key, binding));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
