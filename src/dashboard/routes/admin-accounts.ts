/**
 * Accounts, for administrators: the list, creating an account (which yields a one-time
 * invitation address for its owner to choose a password) and a new sign-in address for an
 * existing account (first password for one made with `emsim keys create`, or a reset).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { EMAIL_PATTERN } from "../../accounts/service.js";
import { DashboardError, field, type Dashboard } from "../context.js";
import { invitationAddress } from "../setup.js";
import { accountsBody, type AccountsView } from "../views/accounts.js";
import { EMAIL_MAX_LENGTH } from "../views/forms.js";

type AccountParams = { Params: { id: string } };

export function adminAccountRoutes(app: FastifyInstance, d: Dashboard): void {
  accountListRoute(app, d);
  createAccountRoute(app, d);
  signInAddressRoute(app, d);
  liftLockRoute(app, d);
}

/** The Accounts page: every account and sign-in lock as they are now, and what `view` adds. */
async function sendAccountsPage(
  d: Dashboard,
  req: FastifyRequest,
  reply: FastifyReply,
  view: Omit<AccountsView, "accounts" | "lockouts" | "addressLockouts">,
  status?: number,
) {
  const [accounts, lockouts, addressLockouts] = await Promise.all([
    d.deps.stores.accounts.listAccounts(),
    d.throttle.lockedAccounts(),
    d.throttle.lockedAddresses(),
  ]);
  return d.sendPage(reply, req, {
    title: "Accounts",
    section: "accounts",
    ...(status === undefined ? {} : { status }),
    body: accountsBody({ accounts, lockouts, addressLockouts, ...view }),
  });
}

function accountListRoute(app: FastifyInstance, d: Dashboard): void {
  app.get("/accounts", async (req, reply) => {
    const { account } = d.requireAdmin(req);
    return sendAccountsPage(d, req, reply, { csrf: d.csrfFor(req, reply), self: account });
  });
}

/** A new account, answered with its invitation address (or the form again, with the error). */
function createAccountRoute(app: FastifyInstance, d: Dashboard): void {
  const { stores, config } = d.deps;
  app.post("/accounts", async (req, reply) => {
    const { account: self } = d.requireAdmin(req);
    const csrf = d.csrfFor(req, reply);
    const email = field(req.body, "email").trim();
    const isAdmin = field(req.body, "is_admin") === "yes";
    const again = (error: string) =>
      sendAccountsPage(d, req, reply, { csrf, self, error, email }, 400);
    if (!EMAIL_PATTERN.test(email) || email.length > EMAIL_MAX_LENGTH)
      return again("Enter a valid email address.");
    if (await stores.accounts.findAccountByEmail(email)) {
      return again(
        "An account with this email exists already; make it a new sign-in address below.",
      );
    }
    const created = await stores.accounts.createAccount({ email, isAdmin });
    const invitation = await invitationAddress(stores.sessions, config.baseUrl, created.id);
    req.log.info(
      { event: "account_created", accountId: created.id, by: self.id },
      "account created",
    );
    const shown = { email, ...invitation, isNew: true };
    return sendAccountsPage(d, req, reply, { csrf, self, invitation: shown }, 201);
  });
}

/** A new one-time sign-in address for another account: its first password, or a reset. */
function signInAddressRoute(app: FastifyInstance, d: Dashboard): void {
  const { stores, config } = d.deps;
  app.post<AccountParams>("/accounts/:id/invitation", async (req, reply) => {
    const { account: self } = d.requireAdmin(req);
    const target = await stores.accounts.getAccount(req.params.id);
    if (!target) throw new DashboardError(404, "There is no such account.");
    if (target.id === self.id) {
      throw new DashboardError(400, "Change your own password on your account page.");
    }
    const invitation = await invitationAddress(stores.sessions, config.baseUrl, target.id);
    req.log.info({ event: "invitation_created", accountId: target.id, by: self.id }, "invitation");
    return sendAccountsPage(d, req, reply, {
      csrf: d.csrfFor(req, reply),
      self,
      invitation: { email: target.email, ...invitation, isNew: false },
    });
  });
}

/** Lifts the sign-in lock that failed passwords put on an account. */
function liftLockRoute(app: FastifyInstance, d: Dashboard): void {
  // A static path: the router prefers it to /accounts/:id/unlock ("address-locks" is no id).
  app.post("/accounts/address-locks/unlock", async (req, reply) => {
    const { account: self } = d.requireAdmin(req);
    const address = field(req.body, "address");
    if (!address) throw new DashboardError(400, "Say which address to lift the lock of.");
    await d.throttle.clearAddress(address);
    req.log.info({ event: "sign_in_lock_lifted", address, by: self.id }, "lock lifted");
    return reply.redirect("/dashboard/accounts?notice=lock-lifted", 303);
  });
  app.post<AccountParams>("/accounts/:id/unlock", async (req, reply) => {
    const { account: self } = d.requireAdmin(req);
    const target = await d.deps.stores.accounts.getAccount(req.params.id);
    if (!target) throw new DashboardError(404, "There is no such account.");
    await d.throttle.clearAccount(target.email);
    req.log.info(
      { event: "sign_in_lock_lifted", accountId: target.id, by: self.id },
      "lock lifted",
    );
    return reply.redirect("/dashboard/accounts?notice=lock-lifted", 303);
  });
}
