/**
 * `emsim keys create|list|revoke`: API-key administration straight on the data directory
 * (the dashboard does the same over the web).
 */
import { AccountService, EMAIL_PATTERN } from "../../accounts/service.js";
import { loadConfig } from "../../config.js";
import { openStores } from "../../store/open.js";
import type { ApiKeyRecord, Stores } from "../../store/types.js";
import { parse, UsageError } from "../usage.js";

/** The options of `emsim keys` that the subcommands read. */
interface KeyOptions {
  email?: string | undefined;
  name?: string | undefined;
  admin?: boolean | undefined;
  json?: boolean | undefined;
}

export async function runKeys(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parse(
    rest,
    {
      email: { type: "string" },
      name: { type: "string" },
      admin: { type: "boolean" },
      json: { type: "boolean" },
      "data-dir": { type: "string" },
    },
    true,
  );
  const config = loadConfig(
    process.env,
    values["data-dir"] !== undefined ? { dataDir: values["data-dir"] } : {},
  );
  const stores = await openStores(config);
  const accounts = new AccountService(stores.accounts);
  try {
    switch (sub) {
      case "create":
        return await createKey(accounts, values);
      case "list":
        return await listKeys(stores, accounts, values);
      case "revoke":
        return await revokeKey(accounts, positionals[0]);
      default:
        throw new UsageError(`unknown keys subcommand '${sub ?? ""}' (create, list, revoke)`);
    }
  } finally {
    await stores.close();
  }
}

/** `keys create --email E --name N [--admin]`: prints the new key, once. */
async function createKey(accounts: AccountService, values: KeyOptions): Promise<number> {
  if (!values.email || !EMAIL_PATTERN.test(values.email)) {
    throw new UsageError("keys create needs --email with a valid address");
  }
  if (!values.name || values.name.length > 100) {
    throw new UsageError("keys create needs --name (at most 100 characters)");
  }
  const { key } = await accounts.issueKeyFor(values.email, values.name, values.admin === true);
  process.stdout.write(`${key}\n`);
  process.stderr.write(
    "This key is shown once; store it now. Use it as 'Authorization: Bearer <key>'.\n",
  );
  return 0;
}

/** `keys list [--email E] [--json]`: every key, or one account's, as a table or JSON. */
async function listKeys(
  stores: Stores,
  accounts: AccountService,
  values: KeyOptions,
): Promise<number> {
  let accountId: string | undefined;
  if (values.email) {
    const account = await stores.accounts.findAccountByEmail(values.email);
    if (!account) throw new Error(`no account with email ${values.email}`);
    accountId = account.id;
  }
  const keys = await accounts.listKeys(accountId);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(keys.map(keyJson), null, 2)}\n`);
    return 0;
  }
  process.stdout.write(keyTable(keys));
  return 0;
}

/** A key as `--json` prints it: snake_case, as everything else the CLI prints. */
function keyJson(k: ApiKeyRecord) {
  return {
    id: k.id,
    account_id: k.accountId,
    name: k.name,
    display_prefix: k.displayPrefix,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
    revoked_at: k.revokedAt,
  };
}

/** The keys as columns under a header, one line each; every column is padded, the last too. */
function keyTable(keys: ApiKeyRecord[]): string {
  const rows = [["ID", "PREFIX", "NAME", "CREATED", "LAST USED", "STATUS"]];
  for (const k of keys) {
    rows.push([
      k.id,
      k.displayPrefix,
      k.name,
      k.createdAt,
      k.lastUsedAt ?? "never",
      k.revokedAt ? `revoked ${k.revokedAt}` : "active",
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => `${r.map((c, i) => c.padEnd(widths[i]!)).join("  ")}\n`).join("");
}

/** `keys revoke ID|PREFIX`: revokes the one key that matches. */
async function revokeKey(accounts: AccountService, target: string | undefined): Promise<number> {
  if (!target) throw new UsageError("keys revoke needs a key id or display prefix");
  const revoked = await accounts.revokeKey(target);
  if (!revoked) throw new Error(`no single key matches '${target}'`);
  process.stdout.write(`revoked ${revoked.id} (${revoked.displayPrefix}, ${revoked.name})\n`);
  return 0;
}
