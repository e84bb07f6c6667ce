/**
 * Invitation addresses (made by an administrator): the account's owner chooses a password —
 * the first one of a new account, or a reset — and is signed in; the account's other sessions
 * end and its sign-in lock, if any, is lifted.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hashPassword } from "../../../auth/passwords.js";
import { hashOpaqueToken } from "../../../auth/sessions.js";
import { DashboardError, field, type Dashboard } from "../../context.js";
import { inviteBody } from "../../views/auth.js";
import {
  linkInvalid,
  newPasswordProblem,
  TOKEN_ROUTE,
  validToken,
  type TokenParams,
} from "./one-time.js";

export function inviteRoutes(app: FastifyInstance, d: Dashboard): void {
  const { accounts, sessions } = d.deps.stores;

  /** The invited account, if the address is valid. */
  async function target(req: FastifyRequest<TokenParams>) {
    const valid = await validToken(sessions, req, "invite");
    const account = valid?.record.accountId
      ? await accounts.getAccount(valid.record.accountId)
      : null;
    if (!valid || !account) return null;
    const credentials = await accounts.findAccountCredentials(account.email);
    return { token: valid.token, account, hasPassword: Boolean(credentials?.passwordHash) };
  }

  function form(
    req: FastifyRequest,
    reply: FastifyReply,
    invited: NonNullable<Awaited<ReturnType<typeof target>>>,
    error?: string,
  ) {
    return d.sendPage(reply, req, {
      title: "Choose a password",
      ...(error ? { status: 400 } : {}),
      body: inviteBody({
        csrf: d.csrfFor(req, reply),
        token: invited.token,
        email: invited.account.email,
        hasPassword: invited.hasPassword,
        ...(error ? { error } : {}),
      }),
    });
  }

  app.get<TokenParams>("/invite/:token", TOKEN_ROUTE, async (req, reply) => {
    const invited = await target(req);
    return invited ? form(req, reply, invited) : linkInvalid(d, req, reply, "invitation");
  });

  app.post<TokenParams>("/invite/:token", TOKEN_ROUTE, async (req, reply) => {
    const invited = await target(req);
    if (!invited) return linkInvalid(d, req, reply, "invitation");
    const problem = newPasswordProblem(req.body, invited.account.email);
    if (problem) return form(req, reply, invited, problem);
    const account = await sessions.redeemInvite({
      tokenHash: hashOpaqueToken(invited.token),
      passwordHash: await hashPassword(field(req.body, "password")),
      now: new Date().toISOString(),
    });
    if (!account) throw new DashboardError(404, "This invitation is no longer valid.");
    await d.throttle.clearAccount(account.email);
    await d.signIn(reply, account.id);
    return reply.redirect("/dashboard/jobs?notice=welcome", 303);
  });
}
