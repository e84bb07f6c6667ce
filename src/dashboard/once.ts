/**
 * Forms that must act at most once. Generate New Key answers its POST with the plaintext key
 * and nothing stores it, so reloading that page must not quietly make (and show) a second key:
 * the form carries a random id, and a second submission of the same id is recognised here.
 *
 * In this process's memory for a day (bounded): a reload through another server of a
 * multi-server deployment could still make one more key, never reveal the first one.
 */
import { newOpaqueToken } from "../auth/sessions.js";

const TTL_MS = 24 * 3600_000;
const MAX_ENTRIES = 100_000;

export class OneTimeForms {
  private readonly used = new Map<string, number>();

  newId(): string {
    return newOpaqueToken();
  }

  /** True the first time an id is presented, false for every repeat. */
  claim(id: string, now = Date.now()): boolean {
    for (const [key, at] of this.used) {
      if (at > now - TTL_MS && this.used.size <= MAX_ENTRIES) break;
      this.used.delete(key);
    }
    if (this.used.has(id)) return false;
    this.used.set(id, now);
    return true;
  }
}
