/**
 * First-run setup: the address printed at the first start creates the first administrator,
 * once; every other setup address is void from then on.
 */
import type { FastifyInstance } from "fastify";
import { hashPassword } from "../../../auth/passwords.js";
import { hashOpaqueToken } from "../../../auth/sessions.js";
import { EMAIL_PATTERN } from "../../../accounts/service.js";
import { field, type Dashboard } from "../../context.js";
import { setupBody } from "../../views/auth.js";
import {
  linkInvalid,
  newPasswordProblem,
  TOKEN_ROUTE,
  validToken,
  type TokenParams,
} from "./one-time.js";
import { EMAIL_MAX_LENGTH } from "../../views/forms.js";

export function setupRoutes(app: FastifyInstance, d: Dashboard): void {
  const { accounts, sessions } = d.deps.stores;

  app.get<TokenParams>("/setup/:token", TOKEN_ROUTE, async (req, reply) => {
    const valid = await validToken(sessions, req, "setup");
    if (!valid || (await accounts.hasAdminWithPassword())) {
      return linkInvalid(d, req, reply, "setup");
    }
    return d.sendPage(reply, req, {
      title: "Set up emsim",
      body: setupBody({ csrf: d.csrfFor(req, reply), token: valid.token }),
    });
  });

  app.post<TokenParams>("/setup/:token", TOKEN_ROUTE, async (req, reply) => {
    const valid = await validToken(sessions, req, "setup");
    if (!valid) return linkInvalid(d, req, reply, "setup");
    const email = field(req.body, "email").trim();
    const again = (error: string) =>
      d.sendPage(reply, req, {
        title: "Set up emsim",
        status: 400,
        body: setupBody({ csrf: d.csrfFor(req, reply), token: valid.token, email, error }),
      });
    if (!EMAIL_PATTERN.test(email) || email.length > EMAIL_MAX_LENGTH) {
      return again("Enter a valid email address.");
    }
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
    if (!account) return linkInvalid(d, req, reply, "setup");
    req.log.info({ event: "dashboard_setup_completed", accountId: account.id }, "dashboard set up");
    await d.signIn(reply, account.id);
    return reply.redirect("/dashboard/jobs?notice=welcome", 303);
  });
}
