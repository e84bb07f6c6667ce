/**
 * One's own account: the page, and changing the password (the current one is checked against
 * the sign-in throttle like a sign-in; the account's other sessions end).
 */
import type { FastifyInstance } from "fastify";
import { hashPassword, verifyPassword } from "../../../auth/passwords.js";
import { field, type Dashboard } from "../../context.js";
import { accountBody } from "../../views/accounts.js";
import { newPasswordProblem } from "./one-time.js";

export function accountRoutes(app: FastifyInstance, d: Dashboard): void {
  const { accounts, sessions } = d.deps.stores;

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
