/**
 * The canonical form of a request (DESIGN §11, "identical work runs once"): the spec the
 * solver runs, every default filled in, with the request's metadata (the result file holds
 * both), written with every object's keys sorted, and hashed. Two submissions with the same
 * hash ask for the same result file, so the second is answered from the first's.
 */
import { createHash } from "node:crypto";

/** JSON with object keys in sorted order at every level (arrays keep their order). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** SHA-256 hex of the canonical spec and metadata. */
export function requestHash(spec: unknown, metadata: unknown): string {
  return createHash("sha256")
    .update(canonicalJson({ metadata: metadata ?? {}, spec }))
    .digest("hex");
}
