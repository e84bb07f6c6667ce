/**
 * Accounts and API keys as every entry point issues them — the CLI (`emsim keys`), the
 * dashboard's API Keys page and the tests — so that a key is made, stored and shown one way.
 */
import { displayPrefix, generateApiKey, hashApiKey } from "../auth/api-keys.js";
import type { Account, AccountStore, ApiKeyRecord } from "../store/types.js";

/**
 * An email address as accounts take it, from the CLI or the dashboard's forms: one @, no blanks
 * or control characters.
 */
// eslint-disable-next-line no-control-regex
export const EMAIL_PATTERN = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+$/;

export interface IssuedKey {
  /** The plaintext key: shown once, never stored. */
  key: string;
  record: ApiKeyRecord;
}

export class AccountService {
  constructor(private readonly accounts: AccountStore) {}

  /** The account with this email, created if there is none (also when another process races). */
  async findOrCreateAccount(email: string, isAdmin = false): Promise<Account> {
    const existing = await this.accounts.findAccountByEmail(email);
    if (existing) return existing;
    try {
      return await this.accounts.createAccount({ email, isAdmin });
    } catch (err) {
      // Another process created it between the lookup and the insert (the email is unique).
      const raced = await this.accounts.findAccountByEmail(email);
      if (raced) return raced;
      throw err;
    }
  }

  /** A new key for the account: only its SHA-256 and display prefix are stored. */
  async issueKey(accountId: string, name: string): Promise<IssuedKey> {
    const key = generateApiKey();
    const record = await this.accounts.createApiKey({
      accountId,
      name,
      keyHash: hashApiKey(key),
      displayPrefix: displayPrefix(key),
    });
    return { key, record };
  }

  /** A new key for the account with this email, creating the account if needed. */
  async issueKeyFor(
    email: string,
    name: string,
    isAdmin = false,
  ): Promise<IssuedKey & { account: Account }> {
    const account = await this.findOrCreateAccount(email, isAdmin);
    return { ...(await this.issueKey(account.id, name)), account };
  }

  listKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    return this.accounts.listApiKeys(accountId);
  }

  /** Revokes by id or display prefix (within an account when given); null when none matches. */
  revokeKey(idOrPrefix: string, accountId?: string): Promise<ApiKeyRecord | null> {
    return this.accounts.revokeApiKey(idOrPrefix, accountId);
  }
}
