/**
 * Per-key token bucket: `perMinute` requests a minute with a burst of the same size. In memory
 * per server process; a multi-server deployment divides the budget by its server count.
 */
import { errors } from "../../errors.js";

export function createRateLimiter(perMinute: number) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const ratePerMs = perMinute / 60_000;

  return function take(key: string, now = Date.now()): void {
    if (perMinute <= 0) return;
    const b = buckets.get(key) ?? { tokens: perMinute, at: now };
    b.tokens = Math.min(perMinute, b.tokens + (now - b.at) * ratePerMs);
    b.at = now;
    if (b.tokens < 1) {
      buckets.set(key, b);
      throw errors.rateLimited(Math.max(1, Math.ceil((1 - b.tokens) / ratePerMs / 1000)));
    }
    b.tokens -= 1;
    buckets.set(key, b);
  };
}
