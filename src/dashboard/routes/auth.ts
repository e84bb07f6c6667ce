/**
 * Signing in and out, first-run setup, invitations and changing one's password.
 *
 * Sign-in checks the throttle first (no password check at all while an email or address is
 * over its limit), then verifies the password in constant time whether or not the account
 * exists, and on success starts a brand-new session (never reusing a pre-sign-in id).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { hashOpaqueToken, isOpaqueToken } from "../../auth/sessions.js";
import {
  hashPassword,
  needsRehash,
  passwordProblem,
  verifyPassword,
} from "../../auth/passwords.js";
import { DashboardError, EMAIL_PATTERN, field, safeNext, type Dashboard } from "../context.js";
import { inviteBody, linkInvalidBody, setupBody, signInBody } from "../views/auth.js";
import { accountBody } from "../views/accounts.js";

type TokenParams = { Params: { token: string } };

/**
 * Setup and invitation addresses carry their one-time token in the path; keep these requests
 * out of the info-level request log, so a log reader cannot use a token before its owner.
 */
const TOKEN_ROUTE = { logLevel: "warn" } as const;

function newPasswordProblem(body: unknown, email: string): string | null {
  const password = field(body, "password");
  const problem = passwordProblem(password, email);
  if (problem) return problem;
  if (password !== field(body, "password2")) return "The two passwords differ.";
  return null;
}

export function authRoutes(app: FastifyInstance, d: Dashboard): void {
  const { accounts, sessions } = d.deps.stores;

  app.get("/sign-in", async (req, reply) => {
    if (d.state(req).account) return reply.redirect("/dashboard/jobs", 303);
    const next = safeNext((req.query as Record<string, unknown>).next);
    return d.sendPage(reply, req, {
      title: "Sign in",
      body: signInBody({ csrf: d.csrfFor(req, reply), ...(next ? { next } : {}) }),
    });
  });

  app.post("/sign-in", async (req, reply) => {
    const email = field(req.body, "email").trim().slice(0, 254);
    const password = field(req.body, "password");
    const next = safeNext(field(req.body, "next"));
    const again = (status: number, error: string, headers: Record<string, string> = {}) => {
      for (const [k, v] of Object.entries(headers)) reply.header(k, v);
      return d.sendPage(reply, req, {
        title: "Sign in",
        status,
        body: signInBody({ csrf: d.csrfFor(req, reply), email, error, ...(next ? { next } : {}) }),
      });
    };
    if (!email || !password) return again(400, "Enter your email and password.");
    // Counted as failed until the password proves right, so that parallel attempts cannot
    // all pass the check while the first ones are still being hashed.
    const begun = await d.throttle.begin(email, req.ip);
    if ("waitSeconds" in begun) {
      const wait = begun.waitSeconds;
      return again(
        429,
        `Too many failed sign-in attempts. Try again in ${wait < 90 ? `${wait} seconds` : `${Math.ceil(wait / 60)} minutes`}, or ask an administrator to lift the lock.`,
        { "Retry-After": String(wait) },
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

  async function validToken(req: FastifyRequest<TokenParams>, purpose: "setup" | "invite") {
    const token = req.params.token;
    if (!isOpaqueToken(token)) return null;
    const found = await sessions.findAccountToken(hashOpaqueToken(token), new Date().toISOString());
    return found && found.purpose === purpose ? { token, record: found } : null;
  }

  app.get<TokenParams>("/setup/:token", TOKEN_ROUTE, async (req, reply) => {
    const valid = await validToken(req, "setup");
    if (!valid || (await accounts.hasAdminWithPassword())) {
      return d.sendPage(reply, req, {
        title: "Setup",
        status: 404,
        body: linkInvalidBody("setup"),
      });
    }
    return d.sendPage(reply, req, {
      title: "Set up emsim",
      body: setupBody({ csrf: d.csrfFor(req, reply), token: valid.token }),
    });
  });

  app.post<TokenParams>("/setup/:token", TOKEN_ROUTE, async (req, reply) => {
    const valid = await validToken(req, "setup");
    if (!valid) {
      return d.sendPage(reply, req, {
        title: "Setup",
        status: 404,
        body: linkInvalidBody("setup"),
      });
    }
    const email = field(req.body, "email").trim();
    const again = (error: string) =>
      d.sendPage(reply, req, {
        title: "Set up emsim",
        status: 400,
        body: setupBody({ csrf: d.csrfFor(req, reply), token: valid.token, email, error }),
      });
    if (!EMAIL_PATTERN.test(email) || email.length > 254)
      return again("Enter a valid email address.");
    const problem = newPasswordProblem(req.body, email);
    if (problem) return again(problem);
    const existing = await accounts.findAccountCredentials(email);
    if (existing?.passwordHash) {
      return again("An account with this email already has a password; use another address.");
    }
    const account = await sessions.completeSetup({
      tokenHash: hashOpaqueToken(valid.token),
      email,
      passwordHash: await hashPassword(field(req.body, "password")),
      now: new Date().toISOString(),
    });
    if (!account) {
      return d.sendPage(reply, req, {
        title: "Setup",
        status: 404,
        body: linkInvalidBody("setup"),
      });
    }
    req.log.info({ event: "dashboard_setup_completed", accountId: account.id }, "dashboard set up");
    await d.signIn(reply, account.id);
    return reply.redirect("/dashboard/jobs?notice=welcome", 303);
  });

  async function inviteTarget(req: FastifyRequest<TokenParams>) {
    const valid = await validToken(req, "invite");
    const account = valid?.record.accountId
      ? await accounts.getAccount(valid.record.accountId)
      : null;
    if (!valid || !account) return null;
    const credentials = await accounts.findAccountCredentials(account.email);
    return { token: valid.token, account, hasPassword: Boolean(credentials?.passwordHash) };
  }

  app.get<TokenParams>("/invite/:token", TOKEN_ROUTE, async (req, reply) => {
    const target = await inviteTarget(req);
    if (!target) {
      return d.sendPage(reply, req, {
        title: "Invitation",
        status: 404,
        body: linkInvalidBody("invitation"),
      });
    }
    return d.sendPage(reply, req, {
      title: "Choose a password",
      body: inviteBody({
        csrf: d.csrfFor(req, reply),
        token: target.token,
        email: target.account.email,
        hasPassword: target.hasPassword,
      }),
    });
  });

  app.post<TokenParams>("/invite/:token", TOKEN_ROUTE, async (req, reply) => {
    const target = await inviteTarget(req);
    if (!target) {
      return d.sendPage(reply, req, {
        title: "Invitation",
        status: 404,
        body: linkInvalidBody("invitation"),
      });
    }
    const problem = newPasswordProblem(req.body, target.account.email);
    if (problem) {
      return d.sendPage(reply, req, {
        title: "Choose a password",
        status: 400,
        body: inviteBody({
          csrf: d.csrfFor(req, reply),
          token: target.token,
          email: target.account.email,
          hasPassword: target.hasPassword,
          error: problem,
        }),
      });
    }
    const account = await sessions.redeemInvite({
      tokenHash: hashOpaqueToken(target.token),
      passwordHash: await hashPassword(field(req.body, "password")),
      now: new Date().toISOString(),
    });
    if (!account) throw new DashboardError(404, "This invitation is no longer valid.");
    await d.throttle.clearAccount(account.email);
    await d.signIn(reply, account.id);
    return reply.redirect("/dashboard/jobs?notice=welcome", 303);
  });

  app.get("/account", async (req, reply) => {
    const { account } = d.requireAccount(req);
    return d.sendPage(reply, req, {
      title: "Your account",
      section: "account",
      body: accountBody({ account, csrf: d.csrfFor(req, reply) }),
    });
  });

  app.post("/account/password", async (req, reply) => {
    const { account, session } = d.requireAccount(req);
    const again = (status: number, error: string) =>
      d.sendPage(reply, req, {
        title: "Your account",
        section: "account",
        status,
        body: accountBody({ account, csrf: d.csrfFor(req, reply), error }),
      });
    const begun = await d.throttle.begin(account.email, req.ip); // taken back if right
    if ("waitSeconds" in begun) {
      return again(429, `Too many wrong passwords. Try again in ${begun.waitSeconds} seconds.`);
    }
    const credentials = await accounts.findAccountCredentials(account.email);
    if (!(await verifyPassword(field(req.body, "current"), credentials?.passwordHash ?? null))) {
      return again(400, "The current password is not right.");
    }
    await d.throttle.succeeded(begun.attempt);
    const problem = newPasswordProblem(req.body, account.email);
    if (problem) return again(400, problem);
    await accounts.setPasswordHash(account.id, await hashPassword(field(req.body, "password")));
    await sessions.deleteSessionsOfAccount(account.id, session.idHash);
    return reply.redirect("/dashboard/account?notice=password-changed", 303);
  });
}
