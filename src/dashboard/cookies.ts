/**
 * The dashboard's two cookies, read and written without a cookie library. Both are HttpOnly and
 * SameSite=Lax; when the service is reached over HTTPS (its base URL) they are also Secure and
 * carry the `__Host-` prefix, which makes the browser refuse them unless Secure, Path=/ and
 * host-only — so a sibling subdomain cannot plant a session or pre-session cookie.
 *
 * Lax rather than Strict: following a link to the dashboard from another site (a chat message,
 * an email) should find the user signed in; state changes are protected by CSRF tokens anyway.
 */
import type { FastifyReply, FastifyRequest } from "fastify";

export interface CookieNames {
  session: string;
  preSession: string;
}

export function cookieNamesFor(secure: boolean): CookieNames {
  return secure
    ? { session: "__Host-emsim_session", preSession: "__Host-emsim_pre" }
    : { session: "emsim_session", preSession: "emsim_pre" };
}

/** Cookies of a request, first occurrence of each name winning; malformed pairs skipped. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      value = value.slice(1, -1);
    }
    if (!out.has(name)) out.set(name, value);
  }
  return out;
}

export interface CookieOptions {
  secure: boolean;
  /** Seconds; omitted = ends with the browser session; 0 = delete now. */
  maxAgeSeconds?: number;
}

/** A Set-Cookie value; `value` must be cookie-safe (our tokens are base64url). */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (options.secure) parts.push("Secure");
  if (options.maxAgeSeconds !== undefined) {
    parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`);
    if (options.maxAgeSeconds <= 0) parts.push("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
  }
  return parts.join("; ");
}

export function readCookie(req: FastifyRequest, name: string): string | undefined {
  return parseCookies(req.headers.cookie).get(name);
}

/** Adds a Set-Cookie header (Fastify appends repeated set-cookie headers). */
export function appendCookie(reply: FastifyReply, cookie: string): void {
  reply.header("set-cookie", cookie);
}
