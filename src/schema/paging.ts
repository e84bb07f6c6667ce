/**
 * Paging of the lists (GET /v1/simulations, GET /v1/batches): `?limit=`, one definition for
 * both. A query parameter arrives as text and is never coerced, so the schema holds it to
 * decimal digits within the range (`x-decimal-integer`, src/schema/ajv.ts): anything else,
 * 0 and 101 included, is a 422 naming `query.limit`, never silently clamped.
 */
import Type from "typebox";

/** Items on a page when `limit` is not given. */
export const DEFAULT_PAGE_LIMIT = 20;

/** The most items one page may hold. */
export const MAX_PAGE_LIMIT = 100;

/** The `limit` query parameter: an integer from 1 to MAX_PAGE_LIMIT, as text. */
export const PageLimitSchema = Type.Unsafe<string>({
  type: "string",
  "x-decimal-integer": { minimum: 1, maximum: MAX_PAGE_LIMIT },
  description: `Items per page: an integer from 1 to ${MAX_PAGE_LIMIT}. Default ${DEFAULT_PAGE_LIMIT}.`,
});

/** The error the lists answer a `limit` outside the range with (their OpenAPI example). */
export const PAGE_LIMIT_ERROR = {
  path: "query.limit",
  message: `must be an integer from 1 to ${MAX_PAGE_LIMIT}`,
};

/** The page size a request asks for: its `limit`, which the schema has checked, or the default. */
export function pageLimit(limit: string | undefined): number {
  return limit === undefined ? DEFAULT_PAGE_LIMIT : Number(limit);
}
