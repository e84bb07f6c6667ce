/** Dashboard sessions, one-time setup and invitation tokens, and sign-in failures in SQLite. */
import { randomUUID } from "node:crypto";
import type { Account, AccountToken, DashboardSession, SessionStore } from "../types.js";
import type { SqliteDatabase } from "./database.js";
import { toAccount, toSession, toToken, type Row } from "./rows.js";
import { lockedKeys } from "../signin-keys.js";

export class SqliteSessionStore implements SessionStore {
  constructor(private readonly d: SqliteDatabase) {}

  async createSession(session: DashboardSession): Promise<void> {
    this.d
      .sql(
        `INSERT INTO dashboard_sessions (id_hash, account_id, created_at, last_seen_at, expires_at)
           VALUES (?, ?, ?, ?, ?)`,
      )
      .run(
        session.idHash,
        session.accountId,
        session.createdAt,
        session.lastSeenAt,
        session.expiresAt,
      );
  }

  async getSession(idHash: string): Promise<DashboardSession | null> {
    const row = this.d.sql(`SELECT * FROM dashboard_sessions WHERE id_hash = ?`).get(idHash) as
      Row | undefined;
    return row ? toSession(row) : null;
  }

  async touchSession(idHash: string, at: string): Promise<void> {
    this.d.sql(`UPDATE dashboard_sessions SET last_seen_at = ? WHERE id_hash = ?`).run(at, idHash);
  }

  async deleteSession(idHash: string): Promise<void> {
    this.d.sql(`DELETE FROM dashboard_sessions WHERE id_hash = ?`).run(idHash);
  }

  async deleteSessionsOfAccount(accountId: string, exceptIdHash?: string): Promise<void> {
    this.d
      .sql(`DELETE FROM dashboard_sessions WHERE account_id = ? AND id_hash IS NOT ?`)
      .run(accountId, exceptIdHash ?? null);
  }

  async deleteExpiredSessions(now: string, idleBefore: string): Promise<number> {
    return this.d
      .sql(`DELETE FROM dashboard_sessions WHERE expires_at <= ? OR last_seen_at < ?`)
      .run(now, idleBefore).changes;
  }

  async createSetupToken(tokenHash: string, createdAt: string): Promise<void> {
    this.d
      .sql(
        `INSERT INTO dashboard_tokens (token_hash, purpose, account_id, created_at, expires_at)
           VALUES (?, 'setup', NULL, ?, NULL)`,
      )
      .run(tokenHash, createdAt);
  }

  async createInviteToken(
    token: Omit<AccountToken, "purpose"> & { accountId: string },
  ): Promise<void> {
    this.d.immediate(() => {
      this.d
        .sql(`DELETE FROM dashboard_tokens WHERE purpose = 'invite' AND account_id = ?`)
        .run(token.accountId);
      this.d
        .sql(
          `INSERT INTO dashboard_tokens (token_hash, purpose, account_id, created_at, expires_at)
             VALUES (?, 'invite', ?, ?, ?)`,
        )
        .run(token.tokenHash, token.accountId, token.createdAt, token.expiresAt);
    });
  }

  private validToken(tokenHash: string, now: string): Row | undefined {
    return this.d
      .sql(
        `SELECT * FROM dashboard_tokens
           WHERE token_hash = ? AND (expires_at IS NULL OR expires_at > ?)`,
      )
      .get(tokenHash, now) as Row | undefined;
  }

  async findAccountToken(tokenHash: string, now: string): Promise<AccountToken | null> {
    const row = this.validToken(tokenHash, now);
    return row ? toToken(row) : null;
  }

  async completeSetup(input: {
    tokenHash: string;
    email: string;
    passwordHash: string;
    now: string;
  }): Promise<Account | null> {
    return this.d.immediate((): Account | null => {
      const token = this.validToken(input.tokenHash, input.now);
      if (!token || token.purpose !== "setup") return null;
      const admin = this.d
        .sql(`SELECT 1 FROM accounts WHERE is_admin = 1 AND password_hash IS NOT NULL`)
        .get();
      this.d.sql(`DELETE FROM dashboard_tokens WHERE purpose = 'setup'`).run();
      if (admin) return null;
      const existing = this.d.sql(`SELECT * FROM accounts WHERE email = ?`).get(input.email) as
        Row | undefined;
      const row = existing
        ? (this.d
            .sql(`UPDATE accounts SET password_hash = ?, is_admin = 1 WHERE id = ? RETURNING *`)
            .get(input.passwordHash, existing.id) as Row)
        : (this.d
            .sql(
              `INSERT INTO accounts (id, email, password_hash, is_admin, created_at)
                 VALUES (?, ?, ?, 1, ?) RETURNING *`,
            )
            .get(randomUUID(), input.email, input.passwordHash, input.now) as Row);
      return toAccount(row);
    });
  }

  async redeemInvite(input: {
    tokenHash: string;
    passwordHash: string;
    now: string;
  }): Promise<Account | null> {
    return this.d.immediate((): Account | null => {
      const token = this.validToken(input.tokenHash, input.now);
      if (!token || token.purpose !== "invite" || typeof token.account_id !== "string") {
        return null;
      }
      this.d.sql(`DELETE FROM dashboard_tokens WHERE token_hash = ?`).run(input.tokenHash);
      const row = this.d
        .sql(`UPDATE accounts SET password_hash = ? WHERE id = ? RETURNING *`)
        .get(input.passwordHash, token.account_id) as Row | undefined;
      if (!row) return null;
      this.d.sql(`DELETE FROM dashboard_sessions WHERE account_id = ?`).run(token.account_id);
      return toAccount(row);
    });
  }

  async beginSignInAttempt(input: {
    keys: { key: string; limit: number }[];
    nowMs: number;
    windowMs: number;
  }): Promise<{ retryAfterMs: number } | { failureIds: number[] }> {
    const since = input.nowMs - input.windowMs;
    return this.d.immediate(() => {
      this.d.sql(`DELETE FROM signin_failures WHERE at_ms <= ?`).run(since);
      let retryAfterMs = 0;
      for (const { key, limit } of input.keys) {
        // The limit-th newest failure: once it leaves the window, an attempt is allowed.
        const row = this.d
          .sql(
            `SELECT at_ms FROM signin_failures WHERE throttle_key = ? AND at_ms > ?
               ORDER BY at_ms DESC, id DESC LIMIT 1 OFFSET ?`,
          )
          .get(key, since, limit - 1) as { at_ms: number } | undefined;
        if (row) retryAfterMs = Math.max(retryAfterMs, row.at_ms + input.windowMs - input.nowMs);
      }
      if (retryAfterMs > 0) return { retryAfterMs };
      const insert = this.d.sql(
        `INSERT INTO signin_failures (throttle_key, at_ms) VALUES (?, ?) RETURNING id`,
      );
      return {
        failureIds: input.keys.map(
          ({ key }) => (insert.get(key, input.nowMs) as { id: number }).id,
        ),
      };
    });
  }

  async clearSignInFailures(key: string | null, failureIds: number[] = []): Promise<void> {
    this.d.immediate(() => {
      if (key !== null) this.d.sql(`DELETE FROM signin_failures WHERE throttle_key = ?`).run(key);
      const remove = this.d.sql(`DELETE FROM signin_failures WHERE id = ?`);
      for (const id of failureIds) remove.run(id);
    });
  }

  async lockedSignInKeys(input: {
    prefix: string;
    limit: number;
    nowMs: number;
    windowMs: number;
  }): Promise<{ key: string; retryAfterMs: number }[]> {
    const rows = this.d
      .sql(
        `SELECT throttle_key AS key, at_ms FROM signin_failures
           WHERE substr(throttle_key, 1, ?) = ? AND at_ms > ?
           ORDER BY throttle_key, at_ms DESC, id DESC`,
      )
      .all(input.prefix.length, input.prefix, input.nowMs - input.windowMs) as {
      key: string;
      at_ms: number;
    }[];
    return lockedKeys(rows, input);
  }
}
