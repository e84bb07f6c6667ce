/** Dashboard sessions, one-time tokens and sign-in failures in PostgreSQL. */
import { randomUUID } from "node:crypto";
import { lockedKeys } from "../signin-keys.js";
import type { Account, AccountToken, DashboardSession, SessionStore } from "../types.js";
import type { PgDatabase, Queryable } from "./database.js";
import { toAccount, toSession, toToken, type Row } from "./rows.js";

/** Serialises sign-in bookkeeping across processes (one advisory lock per transaction). */
const SIGNIN_LOCK = 0x7369676e; // "sign"

export class PgSessionStore implements SessionStore {
  constructor(private readonly d: PgDatabase) {}

  async createSession(session: DashboardSession): Promise<void> {
    await this.d.query(
      `INSERT INTO dashboard_sessions (id_hash, account_id, created_at, last_seen_at, expires_at)
         VALUES ($1, $2, $3, $4, $5)`,
      [session.idHash, session.accountId, session.createdAt, session.lastSeenAt, session.expiresAt],
    );
  }

  async getSession(idHash: string): Promise<DashboardSession | null> {
    const { rows } = await this.d.query(`SELECT * FROM dashboard_sessions WHERE id_hash = $1`, [
      idHash,
    ]);
    return rows[0] ? toSession(rows[0]) : null;
  }

  async touchSession(idHash: string, at: string): Promise<void> {
    await this.d.query(`UPDATE dashboard_sessions SET last_seen_at = $1 WHERE id_hash = $2`, [
      at,
      idHash,
    ]);
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.d.query(`DELETE FROM dashboard_sessions WHERE id_hash = $1`, [idHash]);
  }

  async deleteSessionsOfAccount(accountId: string, exceptIdHash?: string): Promise<void> {
    await this.d.query(
      `DELETE FROM dashboard_sessions WHERE account_id = $1 AND id_hash IS DISTINCT FROM $2`,
      [accountId, exceptIdHash ?? null],
    );
  }

  async deleteExpiredSessions(now: string, idleBefore: string): Promise<number> {
    const res = await this.d.query(
      `DELETE FROM dashboard_sessions WHERE expires_at <= $1 OR last_seen_at < $2`,
      [now, idleBefore],
    );
    return res.rowCount ?? 0;
  }

  async createSetupToken(tokenHash: string, createdAt: string): Promise<void> {
    await this.d.query(
      `INSERT INTO dashboard_tokens (token_hash, purpose, account_id, created_at, expires_at)
         VALUES ($1, 'setup', NULL, $2, NULL)`,
      [tokenHash, createdAt],
    );
  }

  async createInviteToken(
    token: Omit<AccountToken, "purpose"> & { accountId: string },
  ): Promise<void> {
    await this.d.tx(async (c) => {
      await c.query(`DELETE FROM dashboard_tokens WHERE purpose = 'invite' AND account_id = $1`, [
        token.accountId,
      ]);
      await c.query(
        `INSERT INTO dashboard_tokens (token_hash, purpose, account_id, created_at, expires_at)
           VALUES ($1, 'invite', $2, $3, $4)`,
        [token.tokenHash, token.accountId, token.createdAt, token.expiresAt],
      );
    });
  }

  private async validToken(
    c: Queryable,
    tokenHash: string,
    now: string,
    lock = false,
  ): Promise<Row | undefined> {
    const { rows } = await c.query(
      `SELECT * FROM dashboard_tokens
         WHERE token_hash = $1 AND (expires_at IS NULL OR expires_at > $2)${lock ? " FOR UPDATE" : ""}`,
      [tokenHash, now],
    );
    return rows[0];
  }

  async findAccountToken(tokenHash: string, now: string): Promise<AccountToken | null> {
    const row = await this.validToken(this.d, tokenHash, now);
    return row ? toToken(row) : null;
  }

  async completeSetup(input: {
    tokenHash: string;
    email: string;
    passwordHash: string;
    now: string;
  }): Promise<Account | null> {
    return this.d.tx(async (c): Promise<Account | null> => {
      // One setup at a time across processes: the check for an admin and the insert.
      await c.query(`LOCK TABLE dashboard_tokens IN SHARE ROW EXCLUSIVE MODE`);
      const token = await this.validToken(c, input.tokenHash, input.now, true);
      if (!token || token.purpose !== "setup") return null;
      const admin = await c.query(
        `SELECT 1 FROM accounts WHERE is_admin AND password_hash IS NOT NULL LIMIT 1`,
      );
      await c.query(`DELETE FROM dashboard_tokens WHERE purpose = 'setup'`);
      if (admin.rows.length > 0) return null;
      const existing = await c.query(
        `SELECT id FROM accounts WHERE lower(email) = lower($1) FOR UPDATE`,
        [input.email],
      );
      const { rows } = existing.rows[0]
        ? await c.query(
            `UPDATE accounts SET password_hash = $1, is_admin = true WHERE id = $2 RETURNING *`,
            [input.passwordHash, existing.rows[0].id],
          )
        : await c.query(
            `INSERT INTO accounts (id, email, password_hash, is_admin, created_at)
               VALUES ($1, $2, $3, true, $4) RETURNING *`,
            [randomUUID(), input.email, input.passwordHash, input.now],
          );
      return toAccount(rows[0]!);
    });
  }

  async redeemInvite(input: {
    tokenHash: string;
    passwordHash: string;
    now: string;
  }): Promise<Account | null> {
    return this.d.tx(async (c): Promise<Account | null> => {
      const token = await this.validToken(c, input.tokenHash, input.now, true);
      if (!token || token.purpose !== "invite" || typeof token.account_id !== "string") {
        return null;
      }
      await c.query(`DELETE FROM dashboard_tokens WHERE token_hash = $1`, [input.tokenHash]);
      const { rows } = await c.query(
        `UPDATE accounts SET password_hash = $1 WHERE id = $2 RETURNING *`,
        [input.passwordHash, token.account_id],
      );
      if (!rows[0]) return null;
      await c.query(`DELETE FROM dashboard_sessions WHERE account_id = $1`, [token.account_id]);
      return toAccount(rows[0]);
    });
  }

  async beginSignInAttempt(input: {
    keys: { key: string; limit: number }[];
    nowMs: number;
    windowMs: number;
  }): Promise<{ retryAfterMs: number } | { failureIds: number[] }> {
    const since = input.nowMs - input.windowMs;
    return this.d.tx(async (c) => {
      await c.query(`SELECT pg_advisory_xact_lock($1)`, [SIGNIN_LOCK]);
      await c.query(`DELETE FROM signin_failures WHERE at_ms <= $1`, [since]);
      let retryAfterMs = 0;
      for (const { key, limit } of input.keys) {
        const { rows } = await c.query<{ at_ms: string }>(
          `SELECT at_ms FROM signin_failures WHERE throttle_key = $1 AND at_ms > $2
             ORDER BY at_ms DESC, id DESC LIMIT 1 OFFSET $3`,
          [key, since, limit - 1],
        );
        if (rows[0]) {
          retryAfterMs = Math.max(
            retryAfterMs,
            Number(rows[0].at_ms) + input.windowMs - input.nowMs,
          );
        }
      }
      if (retryAfterMs > 0) return { retryAfterMs };
      const failureIds: number[] = [];
      for (const { key } of input.keys) {
        const { rows } = await c.query<{ id: string }>(
          `INSERT INTO signin_failures (throttle_key, at_ms) VALUES ($1, $2) RETURNING id`,
          [key, input.nowMs],
        );
        failureIds.push(Number(rows[0]!.id));
      }
      return { failureIds };
    });
  }

  async clearSignInFailures(key: string | null, failureIds: number[] = []): Promise<void> {
    await this.d.query(
      `DELETE FROM signin_failures WHERE throttle_key = $1 OR id = ANY($2::bigint[])`,
      [key, failureIds],
    );
  }

  async lockedSignInKeys(input: {
    prefix: string;
    limit: number;
    nowMs: number;
    windowMs: number;
  }): Promise<{ key: string; retryAfterMs: number }[]> {
    const { rows } = await this.d.query<{ key: string; at_ms: string }>(
      `SELECT throttle_key AS key, at_ms FROM signin_failures
         WHERE left(throttle_key, $1) = $2 AND at_ms > $3
         ORDER BY throttle_key, at_ms DESC, id DESC`,
      [input.prefix.length, input.prefix, input.nowMs - input.windowMs],
    );
    return lockedKeys(rows, input);
  }
}
