/** Accounts and API keys in SQLite. */
import { randomUUID } from "node:crypto";
import type { Account, AccountStore, AccountSummary, ApiKeyRecord, ReadScope } from "../types.js";
import type { SqliteDatabase } from "./database.js";
import { toAccount, toKey, type Row } from "./rows.js";

export class SqliteAccountStore implements AccountStore {
  constructor(private readonly d: SqliteDatabase) {}

  async createAccount(input: {
    email: string;
    isAdmin: boolean;
    passwordHash?: string;
  }): Promise<Account> {
    const row = this.d.returning(
      `INSERT INTO accounts (id, email, password_hash, is_admin, created_at)
         VALUES (?, ?, ?, ?, ?) RETURNING *`,
      randomUUID(),
      input.email,
      input.passwordHash ?? null,
      input.isAdmin ? 1 : 0,
      new Date().toISOString(),
    );
    return toAccount(row!);
  }

  async findAccountByEmail(email: string): Promise<Account | null> {
    const row = this.d.sql(`SELECT * FROM accounts WHERE email = ?`).get(email) as Row | undefined;
    return row ? toAccount(row) : null;
  }

  async getAccount(id: string): Promise<Account | null> {
    const row = this.d.sql(`SELECT * FROM accounts WHERE id = ?`).get(id) as Row | undefined;
    return row ? toAccount(row) : null;
  }

  async countAccounts(): Promise<number> {
    return (this.d.sql(`SELECT count(*) AS n FROM accounts`).get() as { n: number }).n;
  }

  async findAccountCredentials(
    email: string,
  ): Promise<{ account: Account; passwordHash: string | null } | null> {
    const row = this.d.sql(`SELECT * FROM accounts WHERE email = ?`).get(email) as Row | undefined;
    return row
      ? { account: toAccount(row), passwordHash: (row.password_hash as string | null) ?? null }
      : null;
  }

  async setPasswordHash(accountId: string, passwordHash: string): Promise<void> {
    this.d.sql(`UPDATE accounts SET password_hash = ? WHERE id = ?`).run(passwordHash, accountId);
  }

  async listAccounts(): Promise<AccountSummary[]> {
    const rows = this.d.sql(`SELECT * FROM accounts ORDER BY created_at, email`).all() as Row[];
    return rows.map((r) => ({ ...toAccount(r), hasPassword: r.password_hash !== null }));
  }

  async hasAdminWithPassword(): Promise<boolean> {
    return (
      this.d
        .sql(`SELECT 1 FROM accounts WHERE is_admin = 1 AND password_hash IS NOT NULL LIMIT 1`)
        .get() !== undefined
    );
  }

  async createApiKey(input: {
    accountId: string;
    name: string;
    keyHash: string;
    displayPrefix: string;
  }): Promise<ApiKeyRecord> {
    const row = this.d.returning(
      `INSERT INTO api_keys (id, account_id, name, key_hash, display_prefix, created_at)
         VALUES (?, ?, ?, ?, ?, ?) RETURNING *`,
      randomUUID(),
      input.accountId,
      input.name,
      input.keyHash,
      input.displayPrefix,
      new Date().toISOString(),
    );
    return toKey(row!);
  }

  async findActiveApiKeyByHash(
    keyHash: string,
    scope?: ReadScope,
  ): Promise<{ key: ApiKeyRecord; keyHash: string } | null> {
    return this.d.readCache.get(
      `key:${keyHash}`,
      () => {
        const row = this.d
          .sql(`SELECT * FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL`)
          .get(keyHash) as Row | undefined;
        return row ? { key: toKey(row), keyHash: row.key_hash as string } : null;
      },
      scope,
      () => 512,
    );
  }

  async listApiKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    const rows = accountId
      ? this.d
          .sql(`SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at DESC`)
          .all(accountId)
      : this.d.sql(`SELECT * FROM api_keys ORDER BY created_at DESC`).all();
    return (rows as Row[]).map(toKey);
  }

  async revokeApiKey(idOrPrefix: string, accountId?: string): Promise<ApiKeyRecord | null> {
    return this.d.immediate(() => {
      const matches = this.d
        .sql(
          `SELECT * FROM api_keys WHERE (id = ? OR display_prefix = ?)
             AND (? IS NULL OR account_id = ?)`,
        )
        .all(idOrPrefix, idOrPrefix, accountId ?? null, accountId ?? null) as Row[];
      if (matches.length !== 1) return null;
      const row = this.d
        .sql(`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING *`)
        .get(new Date().toISOString(), matches[0]!.id) as Row;
      return toKey(row);
    });
  }

  async touchApiKey(id: string, at: string): Promise<void> {
    this.d.sql(`UPDATE api_keys SET last_used_at = ? WHERE id = ?`).run(at, id);
  }
}
