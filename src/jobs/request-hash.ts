/**
 * The canonical form of a request (DESIGN §11, "identical work runs once"): the spec the
 * solver runs, every default filled in, with the request's metadata (the result file holds
 * both), written with every object's keys sorted, and hashed with the solver's result
 * revision. Two submissions with the same hash ask for the same result file, so the second is
 * answered from the first's.
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

/**
 * Changed with every change to the solver that changes what a request's result holds (a
 * physics fix): a job stored before it then answers no new submission of the same request,
 * which runs instead. 2026-12-03: the mode source's backward-free H factor; then faces on grid
 * nodes painted as on them (solver/overlap.ts) and a metal's half-filled cells (medium.ts).
 */
export const RESULT_REVISION = "2026-12-03b";

/** SHA-256 hex of the canonical spec and metadata, under `revision`. */
export function requestHash(spec: unknown, metadata: unknown, revision = RESULT_REVISION): string {
  return createHash("sha256")
    .update(canonicalJson({ metadata: metadata ?? {}, revision, spec }))
    .digest("hex");
}
