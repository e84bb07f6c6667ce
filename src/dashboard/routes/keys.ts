/**
 * API Keys: the account's keys, Generate New Key and Revoke.
 *
 * The plaintext of a new key exists only in the response to the POST that made it (no-store,
 * never logged, never stored — the store keeps its SHA-256 like every key). Revocation needs a
 * confirmation: a script dialog, or without scripts a confirmation page; the form says so with
 * `confirm=yes`.
 */
import type { FastifyInstance } from "fastify";
import { isOpaqueToken } from "../../auth/sessions.js";
import { DashboardError, field, type Dashboard } from "../context.js";
import type { OneTimeForms } from "../once.js";
import { keysBody, revokeConfirmBody, type KeysView } from "../views/keys.js";

type KeyParams = { Params: { id: string } };

export function keyRoutes(app: FastifyInstance, d: Dashboard, forms: OneTimeForms): void {
  const { accountService, config } = d.deps;

  async function view(accountId: string, csrf: string, extra: Partial<KeysView> = {}) {
    return keysBody({
      csrf,
      keys: await accountService.listKeys(accountId),
      formId: forms.newId(),
      baseUrl: config.baseUrl,
      ...extra,
    });
  }

  app.get("/keys", async (req, reply) => {
    const { account } = d.requireAccount(req);
    return d.sendPage(reply, req, {
      title: "API keys",
      section: "keys",
      body: await view(account.id, d.csrfFor(req, reply)),
    });
  });

  app.post("/keys", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const csrf = d.csrfFor(req, reply);
    const name = field(req.body, "name").trim();
    const formId = field(req.body, "form_id");
    const again = async (status: number, error: string) =>
      d.sendPage(reply, req, {
        title: "API keys",
        section: "keys",
        status,
        body: await view(account.id, csrf, { error, name }),
      });
    if (!isOpaqueToken(formId)) return again(400, "The form was incomplete; please try again.");
    if (!name) return again(400, "Give the key a name.");
    if ([...name].length > 100) return again(400, "Use at most 100 characters for the name.");
    if ([...name].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) {
      return again(400, "The name contains control characters.");
    }
    if (!forms.claim(formId)) return reply.redirect("/dashboard/keys?notice=key-shown-once", 303);
    const { key: plaintext, record } = await accountService.issueKey(account.id, name);
    req.log.info(
      { event: "api_key_created", keyId: record.id },
      "API key created in the dashboard",
    );
    return d.sendPage(reply, req, {
      title: "API keys",
      section: "keys",
      status: 201,
      body: await view(account.id, csrf, { newKey: { name, plaintext } }),
    });
  });

  async function ownKey(accountId: string, id: string) {
    const key = (await accountService.listKeys(accountId)).find((k) => k.id === id);
    if (!key) throw new DashboardError(404, "You have no API key with that id.");
    return key;
  }

  app.get<KeyParams>("/keys/:id/revoke", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const key = await ownKey(account.id, req.params.id);
    if (key.revokedAt) return reply.redirect("/dashboard/keys", 303);
    return d.sendPage(reply, req, {
      title: "Revoke key",
      section: "keys",
      body: revokeConfirmBody(key, d.csrfFor(req, reply)),
    });
  });

  app.post<KeyParams>("/keys/:id/revoke", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const key = await ownKey(account.id, req.params.id);
    if (field(req.body, "confirm") !== "yes") {
      return d.sendPage(reply, req, {
        title: "Revoke key",
        section: "keys",
        body: revokeConfirmBody(key, d.csrfFor(req, reply)),
      });
    }
    await accountService.revokeKey(key.id, account.id);
    req.log.info({ event: "api_key_revoked", keyId: key.id }, "API key revoked in the dashboard");
    return reply.redirect("/dashboard/keys?notice=key-revoked", 303);
  });
}
