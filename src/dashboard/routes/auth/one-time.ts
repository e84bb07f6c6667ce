/**
 * What the setup and invitation pages share: their one-time token in the path, kept out of the
 * info-level request log (a log reader must not use a token before its owner), looked up by
 * its hash; the page shown for an address that is not (or no longer) valid; and the new
 * password's rules.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { passwordProblem } from "../../../auth/passwords.js";
import { hashOpaqueToken, isOpaqueToken } from "../../../auth/sessions.js";
import type { AccountToken, SessionStore } from "../../../store/types.js";
import { field, type Dashboard } from "../../context.js";
import { linkInvalidBody } from "../../views/auth.js";

export type TokenParams = { Params: { token: string } };

export const TOKEN_ROUTE = { logLevel: "warn" } as const;

/** The token in the path, if it is a live one of this purpose. */
export async function validToken(
  sessions: SessionStore,
  req: FastifyRequest<TokenParams>,
  purpose: AccountToken["purpose"],
): Promise<{ token: string; record: AccountToken } | null> {
  const token = req.params.token;
  if (!isOpaqueToken(token)) return null;
  const found = await sessions.findAccountToken(hashOpaqueToken(token), new Date().toISOString());
  return found && found.purpose === purpose ? { token, record: found } : null;
}

/** 404: the setup or invitation address is not valid (any more). */
export function linkInvalid(
  d: Dashboard,
  req: FastifyRequest,
  reply: FastifyReply,
  kind: "setup" | "invitation",
) {
  return d.sendPage(reply, req, {
    title: kind === "setup" ? "Setup" : "Invitation",
    status: 404,
    body: linkInvalidBody(kind),
  });
}

/** What is wrong with the form's new password (and its repetition), or null. */
export function newPasswordProblem(body: unknown, email: string): string | null {
  const password = field(body, "password");
  const problem = passwordProblem(password, email);
  if (problem) return problem;
  if (password !== field(body, "password2")) return "The two passwords differ.";
  return null;
}
