/**
 * Sign-in throttling: failed attempts are counted per account (the email as typed, lower-cased,
 * whether or not it has an account — so the limit does not reveal which addresses exist) and per
 * client address, in a sliding window. Once either count reaches its limit, further attempts for
 * that email or from that address are refused until the oldest failure leaves the window, with
 * no password check at all. A successful sign-in clears the account's count.
 *
 * Counts live in this process's memory (like the API's rate limiter): with several servers each
 * counts its own share, which multiplies the limit by the server count at most.
 */

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

/** Entries kept at most; beyond it the stalest are dropped (bounded memory under attack). */
const MAX_ENTRIES = 50_000;

export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly policy: ThrottlePolicy = DEFAULT_THROTTLE_POLICY,
    private readonly clock: () => number = Date.now,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => t > now - this.policy.windowMs);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  /** Seconds until an attempt for this email from this address is allowed; 0 = now. */
  retryAfterSeconds(email: string, address: string): number {
    const now = this.clock();
    let waitMs = 0;
    for (const [key, limit] of [
      [`account:${email.toLowerCase()}`, this.policy.perAccount],
      [`address:${address}`, this.policy.perAddress],
    ] as const) {
      const list = this.recent(key, now);
      if (list.length >= limit) {
        waitMs = Math.max(waitMs, list[list.length - limit]! + this.policy.windowMs - now);
      }
    }
    return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : 0;
  }

  /**
   * Counts a failure; returns its time. Sign-in calls it before checking the password (with no
   * await in between after `retryAfterSeconds`), so parallel attempts cannot all pass the check
   * while the first ones are still hashing; a success takes it back with `recordSuccess`.
   */
  recordFailure(email: string, address: string): number {
    const now = this.clock();
    for (const [key, limit] of [
      [`account:${email.toLowerCase()}`, this.policy.perAccount],
      [`address:${address}`, this.policy.perAddress],
    ] as const) {
      const list = this.recent(key, now);
      list.push(now);
      // Only the last `limit` failures matter for the decision.
      this.failures.delete(key);
      this.failures.set(key, list.slice(-limit));
    }
    while (this.failures.size > MAX_ENTRIES) {
      // Map iteration order is insertion order, and each update re-inserts: drop the stalest.
      this.failures.delete(this.failures.keys().next().value!);
    }
    return now;
  }

  /**
   * Clears the account's failures; with `address` and `attempt` (the time `recordFailure`
   * returned for this attempt) it also takes that attempt back from the address's count.
   */
  recordSuccess(email: string, address?: string, attempt?: number): void {
    this.failures.delete(`account:${email.toLowerCase()}`);
    if (address === undefined || attempt === undefined) return;
    const list = this.failures.get(`address:${address}`);
    const i = list?.lastIndexOf(attempt) ?? -1;
    if (i >= 0) list!.splice(i, 1);
  }
}
