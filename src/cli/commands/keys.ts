/**
 * `emsim keys create|list|revoke`: API-key administration straight on the data directory
 * (the dashboard does the same over the web).
 */
import { AccountService } from "../../accounts/service.js";
import { loadConfig } from "../../config.js";
import { openStores } from "../../store/open.js";
import { parse, UsageError } from "../usage.js";

const EMAIL = /^[^\s@]+@[^\s@]+$/;

// eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
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
      case "create": {
        if (!values.email || !EMAIL.test(values.email)) {
          throw new UsageError("keys create needs --email with a valid address");
        }
        if (!values.name || values.name.length > 100) {
          throw new UsageError("keys create needs --name (at most 100 characters)");
        }
        const { key } = await accounts.issueKeyFor(
          values.email,
          values.name,
          values.admin === true,
        );
        process.stdout.write(`${key}\n`);
        process.stderr.write(
          "This key is shown once; store it now. Use it as 'Authorization: Bearer <key>'.\n",
        );
        return 0;
      }
      case "list": {
        let accountId: string | undefined;
        if (values.email) {
          const account = await stores.accounts.findAccountByEmail(values.email);
          if (!account) throw new Error(`no account with email ${values.email}`);
          accountId = account.id;
        }
        const keys = await accounts.listKeys(accountId);
        if (values.json) {
          process.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
          return 0;
        }
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
        for (const r of rows) {
          process.stdout.write(`${r.map((c, i) => c.padEnd(widths[i]!)).join("  ")}\n`);
        }
        return 0;
      }
      case "revoke": {
        const target = positionals[0];
        if (!target) throw new UsageError("keys revoke needs a key id or display prefix");
        const revoked = await accounts.revokeKey(target);
        if (!revoked) throw new Error(`no single key matches '${target}'`);
        process.stdout.write(`revoked ${revoked.id} (${revoked.displayPrefix}, ${revoked.name})\n`);
        return 0;
      }
      default:
        throw new UsageError(`unknown keys subcommand '${sub ?? ""}' (create, list, revoke)`);
    }
  } finally {
    await stores.close();
  }
}
