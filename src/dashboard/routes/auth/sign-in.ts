/**
 * Signing in and out. Sign-in checks the throttle first (no password check at all while an
 * email or address is over its limit), then verifies the password in constant time whether or
 * not the account exists, and on success starts a brand-new session (never reusing a
 * pre-sign-in id).
 */
import type { FastifyInstance } from "fastify";
import { hashPassword, needsRehash, verifyPassword } from "../../../auth/passwords.js";
import { EMAIL_PATTERN } from "../../../accounts/service.js";
import { field, safeNext, type Dashboard } from "../../context.js";
import { signInBody } from "../../views/auth.js";
import { EMAIL_MAX_LENGTH } from "../../views/forms.js";

function waitInWords(seconds: number): string {
  return seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}

export function signInRoutes(app: FastifyInstance, d: Dashboard): void {
  const { accounts } = d.deps.stores;

  app.get("/sign-in", async (req, reply) => {
    if (d.state(req).account) return reply.redirect("/dashboard/jobs", 303);
    const next = safeNext((req.query as Record<string, unknown>).next);
    return d.sendPage(reply, req, {
      title: "Sign in",
      body: signInBody({ csrf: d.csrfFor(req, reply), ...(next ? { next } : {}) }),
    });
  });

  app.post("/sign-in", async (req, reply) => {
    const email = field(req.body, "email").trim().slice(0, EMAIL_MAX_LENGTH);
    const password = field(req.body, "password");
    const next = safeNext(field(req.body, "next"));
    const again = (status: number, error: string) =>
      d.sendPage(reply, req, {
        title: "Sign in",
        status,
        body: signInBody({ csrf: d.csrfFor(req, reply), email, error, ...(next ? { next } : {}) }),
      });
    if (!email || !password) return again(400, "Enter your email and password.");
    // No account has such an address (the forms that make one check it): the usual answer,
    // without a throttle entry keyed by it (PostgreSQL's text cannot hold a NUL).
    if (!EMAIL_PATTERN.test(email)) return again(401, "The email or password is not right.");
    // Counted as failed until the password proves right, so that parallel attempts cannot
    // all pass the check while the first ones are still being hashed.
    const begun = await d.throttle.begin(email, req.ip);
    if ("waitSeconds" in begun) {
      reply.header("Retry-After", String(begun.waitSeconds));
      return again(
        429,
        `Too many failed sign-in attempts. Try again in ${waitInWords(begun.waitSeconds)}, or ask an administrator to lift the lock.`,
      );
    }
    const credentials = await accounts.findAccountCredentials(email);
    const ok = await verifyPassword(password, credentials?.passwordHash ?? null);
    if (!ok || !credentials) {
      req.log.info({ event: "dashboard_sign_in_failed" }, "dashboard sign-in failed");
      return again(401, "The email or password is not right.");
    }
    await d.throttle.succeeded(begun.attempt);
    if (needsRehash(credentials.passwordHash!)) {
      await accounts.setPasswordHash(credentials.account.id, await hashPassword(password));
    }
    await d.signIn(reply, credentials.account.id);
    // Expired sessions are removed now and then, on sign-in.
    await d.sessions.sweep();
    return reply.redirect(next ?? "/dashboard/jobs", 303);
  });

  app.post("/sign-out", async (req, reply) => {
    const { session } = d.state(req);
    if (session) await d.sessions.end(session);
    d.clearSessionCookie(reply);
    return reply.redirect("/dashboard/sign-in?notice=signed-out", 303);
  });
}
