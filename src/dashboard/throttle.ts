/**
 * Sign-in throttling: failed attempts are counted per account (the email as typed, lower-cased,
 * whether or not it has an account — so the limit does not reveal which addresses exist) and per
 * client address, in a sliding window. Once either count reaches its limit, further attempts for
 * that email or from that address are refused until the oldest failure leaves the window, with
 * no password check at all. A successful sign-in clears the account's count.
 *
 * The counts live in the database, so that every API process sharing it enforces one limit, a
 * restart does not reset it, and an administrator can lift an account's or an address's
 * lockout from the Accounts page. Each attempt is checked and counted in one transaction: parallel attempts
 * cannot all pass the check while the first ones are still hashing their passwords.
 */
import type { SessionStore } from "../store/types.js";

export interface ThrottlePolicy {
  /** Failures per email address within the window before sign-in is refused. */
  perAccount: number;
  /** Failures per client address within the window before sign-in is refused. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  perAccount: 5,
  perAddress: 30,
  windowMs: 15 * 60_000,
};

const ACCOUNT_PREFIX = "account:";
const ADDRESS_PREFIX = "address:";

function accountKey(email: string): string {
  return `${ACCOUNT_PREFIX}${email.toLowerCase()}`;
}

/** An attempt in progress: counted as failed until `succeeded` takes it back. */
export interface SignInAttempt {
  email: string;
  failureIds: number[];
}

export class SignInThrottle {
  constructor(
    private readonly store: SessionStore,
    private readonly policy: ThrottlePolicy = DEFAULT_THROTTLE_POLICY,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Starts an attempt for this email from this address: either the seconds to wait (nothing
   * is counted), or the attempt, already counted as a failure.
   */
  async begin(
    email: string,
    address: string,
  ): Promise<{ waitSeconds: number } | { attempt: SignInAttempt }> {
    const outcome = await this.store.beginSignInAttempt({
      keys: [
        { key: accountKey(email), limit: this.policy.perAccount },
        { key: `${ADDRESS_PREFIX}${address}`, limit: this.policy.perAddress },
      ],
      nowMs: this.clock(),
      windowMs: this.policy.windowMs,
    });
    if ("retryAfterMs" in outcome) {
      return { waitSeconds: Math.max(1, Math.ceil(outcome.retryAfterMs / 1000)) };
    }
    return { attempt: { email, failureIds: outcome.failureIds } };
  }

  /** The password was right: the attempt is not a failure, and the account's count is cleared. */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    await this.store.clearSignInFailures(accountKey(attempt.email), attempt.failureIds);
  }

  /** Clears an account's failures (its owner proved who they are, or an administrator). */
  async clearAccount(email: string): Promise<void> {
    await this.store.clearSignInFailures(accountKey(email));
  }

  /** Clears a client address's failures (an administrator lifts its lock). */
  async clearAddress(address: string): Promise<void> {
    await this.store.clearSignInFailures(`${ADDRESS_PREFIX}${address}`);
  }

  /** Emails (lower-cased) that are locked out now, with the seconds until they are not. */
  lockedAccounts(): Promise<Map<string, number>> {
    return this.locked(ACCOUNT_PREFIX, this.policy.perAccount);
  }

  /**
   * Client addresses locked out now (every email from them refused: behind a proxy, everyone),
   * with the seconds until they are not.
   */
  lockedAddresses(): Promise<Map<string, number>> {
    return this.locked(ADDRESS_PREFIX, this.policy.perAddress);
  }

  private async locked(prefix: string, limit: number): Promise<Map<string, number>> {
    const locked = await this.store.lockedSignInKeys({
      prefix,
      limit,
      nowMs: this.clock(),
      windowMs: this.policy.windowMs,
    });
    return new Map(
      locked.map((l) => [
        l.key.slice(prefix.length),
        Math.max(1, Math.ceil(l.retryAfterMs / 1000)),
      ]),
    );
  }
}
