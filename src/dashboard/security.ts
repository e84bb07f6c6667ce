/**
 * Response headers for every dashboard response, and the same-origin check on form posts.
 *
 * Content-Security-Policy: nothing loads from anywhere but this origin, no inline script or
 * style (the pages have none), no plugins, no framing (`frame-ancestors 'none'`, with
 * X-Frame-Options for older browsers), forms post only here, and `<base>` cannot be injected.
 */
import type { FastifyReply, FastifyRequest } from "fastify";

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join("; ");

export function setSecurityHeaders(reply: FastifyReply, https: boolean): void {
  reply.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
  reply.header("X-Frame-Options", "DENY");
  reply.header("X-Content-Type-Options", "nosniff");
  reply.header("Referrer-Policy", "same-origin");
  reply.header("Cross-Origin-Opener-Policy", "same-origin");
  reply.header("Cross-Origin-Resource-Policy", "same-origin");
  reply.header(
    "Permissions-Policy",
    "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  );
  if (https) reply.header("Strict-Transport-Security", "max-age=31536000");
}

/**
 * Defence in depth behind the CSRF token: a browser's form post states where it comes from in
 * Sec-Fetch-Site and Origin; refuse posts that say another site. Requests without these
 * headers (older browsers, non-browser clients) still need the CSRF token.
 */
export function crossSiteReason(req: FastifyRequest, baseUrl: string): string | null {
  const site = req.headers["sec-fetch-site"];
  if (typeof site === "string" && site !== "same-origin" && site !== "none") {
    return `Sec-Fetch-Site is ${site}`;
  }
  const origin = req.headers.origin;
  if (typeof origin === "string") {
    if (origin === "null") return "Origin is null";
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return "Origin is malformed";
    }
    const allowed = new Set([req.headers.host, new URL(baseUrl).host]);
    if (!allowed.has(host)) return `Origin ${origin} is another site`;
  }
  return null;
}
