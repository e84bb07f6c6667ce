/**
 * `metadata`, the free-form object a simulation and a batch each carry and echo back: one
 * definition for both, with its one rule. It is stored and serialised on every read of the job
 * or batch, and serialising very deep nesting overflows the stack (a 500 instead of a 422), so
 * it may nest objects and arrays at most MAX_METADATA_DEPTH levels (itself included); the
 * schema says so with `x-max-depth` (src/schema/ajv.ts), checked wherever the schema is.
 */
import Type from "typebox";

/** Levels of objects and arrays `metadata` may nest (itself included). */
export const MAX_METADATA_DEPTH = 32;

/**
 * The schema of a request's `metadata`: the schema TypeBox writes for an open object, typed as
 * a record (TypeBox's own type for it, `object`, accepts no property access and matches no
 * generated client's type).
 */
export const metadataSchema = (description: string) =>
  Type.Unsafe<Record<string, unknown>>({
    type: "object",
    properties: {},
    additionalProperties: true,
    "x-max-depth": MAX_METADATA_DEPTH,
    "x-finite-numbers": MAX_METADATA_DEPTH,
    description: `${description} Objects and arrays in it nest at most ${MAX_METADATA_DEPTH} levels deep, itself included.`,
  });
