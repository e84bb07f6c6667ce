/**
 * One-time addresses: the setup address printed at first start (creates the first admin
 * account) and invitation addresses made by an admin (set the password of a new account, or a
 * new password for an existing one). Only the SHA-256 of a token is stored; the address itself
 * exists only in what is printed or shown once.
 */
import { hashOpaqueToken, newOpaqueToken } from "../auth/sessions.js";
import type { AccountStore, SessionStore } from "../store/types.js";

/** How long an invitation address stays valid. */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

/**
 * The setup address to print when no admin account can sign in yet, else null. Each call makes
 * a new token; all of them stay valid until one is used (so several servers starting on the
 * same database each print a working address), then every one of them is void.
 */
export async function dashboardSetupAddress(
  stores: { accounts: AccountStore; sessions: SessionStore },
  baseUrl: string,
): Promise<string | null> {
  if (await stores.accounts.hasAdminWithPassword()) return null;
  const token = newOpaqueToken();
  await stores.sessions.createSetupToken(hashOpaqueToken(token), new Date().toISOString());
  return `${baseUrl}/dashboard/setup/${token}`;
}

/** A new invitation address for the account, replacing any earlier one. */
export async function invitationAddress(
  store: SessionStore,
  baseUrl: string,
  accountId: string,
  now = Date.now(),
): Promise<{ url: string; expiresAt: string }> {
  const token = newOpaqueToken();
  const expiresAt = new Date(now + INVITATION_TTL_MS).toISOString();
  await store.createInviteToken({
    tokenHash: hashOpaqueToken(token),
    accountId,
    createdAt: new Date(now).toISOString(),
    expiresAt,
  });
  return { url: `${baseUrl}/dashboard/invite/${token}`, expiresAt };
}
