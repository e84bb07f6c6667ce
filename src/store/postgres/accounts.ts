/** Accounts and API keys in PostgreSQL. Emails are unique and matched case-insensitively. */
import { randomUUID } from "node:crypto";
import type { Account, AccountStore, AccountSummary, ApiKeyRecord } from "../types.js";
import type { PgDatabase } from "./database.js";
import { heldByNoRow, toAccount, toKey } from "./rows.js";

export class PgAccountStore implements AccountStore {
  constructor(private readonly d: PgDatabase) {}

  async createAccount(input: {
    email: string;
    isAdmin: boolean;
    passwordHash?: string;
  }): Promise<Account> {
    const { rows } = await this.d.query(
      `INSERT INTO accounts (id, email, password_hash, is_admin, created_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [randomUUID(), input.email, input.passwordHash ?? null, input.isAdmin, new Date()],
    );
    return toAccount(rows[0]!);
  }

  async findAccountByEmail(email: string): Promise<Account | null> {
    if (heldByNoRow(email)) return null;
    const { rows } = await this.d.query(`SELECT * FROM accounts WHERE lower(email) = lower($1)`, [
      email,
    ]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async getAccount(id: string): Promise<Account | null> {
    if (heldByNoRow(id)) return null;
    const { rows } = await this.d.query(`SELECT * FROM accounts WHERE id = $1`, [id]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async countAccounts(): Promise<number> {
    const { rows } = await this.d.query<{ n: string }>(`SELECT count(*) AS n FROM accounts`);
    return Number(rows[0]!.n);
  }

  async findAccountCredentials(
    email: string,
  ): Promise<{ account: Account; passwordHash: string | null } | null> {
    if (heldByNoRow(email)) return null;
    const { rows } = await this.d.query(`SELECT * FROM accounts WHERE lower(email) = lower($1)`, [
      email,
    ]);
    const row = rows[0];
    return row
      ? { account: toAccount(row), passwordHash: (row.password_hash as string | null) ?? null }
      : null;
  }

  async setPasswordHash(accountId: string, passwordHash: string): Promise<void> {
    await this.d.query(`UPDATE accounts SET password_hash = $1 WHERE id = $2`, [
      passwordHash,
      accountId,
    ]);
  }

  async listAccounts(): Promise<AccountSummary[]> {
    const { rows } = await this.d.query(`SELECT * FROM accounts ORDER BY created_at, email`);
    return rows.map((r) => ({ ...toAccount(r), hasPassword: r.password_hash !== null }));
  }

  async hasAdminWithPassword(): Promise<boolean> {
    const { rows } = await this.d.query(
      `SELECT 1 FROM accounts WHERE is_admin AND password_hash IS NOT NULL LIMIT 1`,
    );
    return rows.length > 0;
  }

  async createApiKey(input: {
    accountId: string;
    name: string;
    keyHash: string;
    displayPrefix: string;
  }): Promise<ApiKeyRecord> {
    const { rows } = await this.d.query(
      `INSERT INTO api_keys (id, account_id, name, key_hash, display_prefix, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [randomUUID(), input.accountId, input.name, input.keyHash, input.displayPrefix, new Date()],
    );
    return toKey(rows[0]!);
  }

  /** Not cached: a revocation by any process must refuse the very next request. */
  async findActiveApiKeyByHash(
    keyHash: string,
  ): Promise<{ key: ApiKeyRecord; keyHash: string } | null> {
    const { rows } = await this.d.query(
      `SELECT * FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
      [keyHash],
    );
    const row = rows[0];
    return row ? { key: toKey(row), keyHash: row.key_hash as string } : null;
  }

  async listApiKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    const { rows } = accountId
      ? await this.d.query(
          `SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC`,
          [accountId],
        )
      : await this.d.query(`SELECT * FROM api_keys ORDER BY created_at DESC`);
    return rows.map(toKey);
  }

  async revokeApiKey(idOrPrefix: string, accountId?: string): Promise<ApiKeyRecord | null> {
    if (heldByNoRow(idOrPrefix)) return null;
    return this.d.tx(async (c) => {
      const matches = await c.query(
        `SELECT id FROM api_keys WHERE (id = $1 OR display_prefix = $1)
           AND ($2::text IS NULL OR account_id = $2) FOR UPDATE`,
        [idOrPrefix, accountId ?? null],
      );
      if (matches.rows.length !== 1) return null;
      const { rows } = await c.query(
        `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2 RETURNING *`,
        [new Date(), matches.rows[0]!.id],
      );
      return toKey(rows[0]!);
    });
  }

  async touchApiKey(id: string, at: string): Promise<void> {
    await this.d.query(`UPDATE api_keys SET last_used_at = $1 WHERE id = $2`, [at, id]);
  }
}
