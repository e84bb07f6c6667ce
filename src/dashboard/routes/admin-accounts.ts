/**
 * Accounts, for administrators: the list, creating an account (which yields a one-time
 * invitation address for its owner to choose a password) and a new sign-in address for an
 * existing account (first password for one made with `emsim keys create`, or a reset).
 */
import type { FastifyInstance } from "fastify";
import { DashboardError, EMAIL_PATTERN, field, type Dashboard } from "../context.js";
import { invitationAddress } from "../setup.js";
import { accountsBody, type AccountsView } from "../views/accounts.js";
import { EMAIL_MAX_LENGTH } from "../views/forms.js";

type AccountParams = { Params: { id: string } };

// eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
export function adminAccountRoutes(app: FastifyInstance, d: Dashboard): void {
  const { stores, config } = d.deps;
  const store = stores.accounts;

  async function page(extra: Omit<AccountsView, "accounts" | "lockouts">) {
    const [accounts, lockouts] = await Promise.all([
      store.listAccounts(),
      d.throttle.lockedAccounts(),
    ]);
    return accountsBody({ accounts, lockouts, ...extra });
  }

  app.get("/accounts", async (req, reply) => {
    const { account } = d.requireAdmin(req);
    return d.sendPage(reply, req, {
      title: "Accounts",
      section: "accounts",
      body: await page({ csrf: d.csrfFor(req, reply), self: account }),
    });
  });

  app.post("/accounts", async (req, reply) => {
    const { account: self } = d.requireAdmin(req);
    const csrf = d.csrfFor(req, reply);
    const email = field(req.body, "email").trim();
    const isAdmin = field(req.body, "is_admin") === "yes";
    const again = async (error: string) =>
      d.sendPage(reply, req, {
        title: "Accounts",
        section: "accounts",
        status: 400,
        body: await page({ csrf, self, error, email }),
      });
    if (!EMAIL_PATTERN.test(email) || email.length > EMAIL_MAX_LENGTH)
      return again("Enter a valid email address.");
    if (await store.findAccountByEmail(email)) {
      return again(
        "An account with this email exists already; make it a new sign-in address below.",
      );
    }
    const created = await store.createAccount({ email, isAdmin });
    const invitation = await invitationAddress(stores.sessions, config.baseUrl, created.id);
    req.log.info(
      { event: "account_created", accountId: created.id, by: self.id },
      "account created",
    );
    return d.sendPage(reply, req, {
      title: "Accounts",
      section: "accounts",
      status: 201,
      body: await page({ csrf, self, invitation: { email, ...invitation, isNew: true } }),
    });
  });

  app.post<AccountParams>("/accounts/:id/invitation", async (req, reply) => {
    const { account: self } = d.requireAdmin(req);
    const target = await store.getAccount(req.params.id);
    if (!target) throw new DashboardError(404, "There is no such account.");
    if (target.id === self.id) {
      throw new DashboardError(400, "Change your own password on your account page.");
    }
    const invitation = await invitationAddress(stores.sessions, config.baseUrl, target.id);
    req.log.info({ event: "invitation_created", accountId: target.id, by: self.id }, "invitation");
    return d.sendPage(reply, req, {
      title: "Accounts",
      section: "accounts",
      body: await page({
        csrf: d.csrfFor(req, reply),
        self,
        invitation: { email: target.email, ...invitation, isNew: false },
      }),
    });
  });

  app.post<AccountParams>("/accounts/:id/unlock", async (req, reply) => {
    const { account: self } = d.requireAdmin(req);
    const target = await store.getAccount(req.params.id);
    if (!target) throw new DashboardError(404, "There is no such account.");
    await d.throttle.clearAccount(target.email);
    req.log.info(
      { event: "sign_in_lock_lifted", accountId: target.id, by: self.id },
      "lock lifted",
    );
    return reply.redirect("/dashboard/accounts?notice=lock-lifted", 303);
  });
}
