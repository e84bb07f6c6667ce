/**
 * Validation whose cost is bounded by the schema, not by the body.
 *
 * Ajv with `allErrors` validates every element of an array even after `maxItems` has failed,
 * and reports every unknown property of an object: a 300 KB body of 100 000 empty monitors
 * took 0.8 s and produced 400 001 errors, and `uniqueItems` over an untyped enum compared
 * 110 000 strings pairwise for 53 s — all of it on the event loop. So before Ajv runs, a
 * walk over the body and the schema together refuses arrays longer than their `maxItems`
 * (tuples longer than their prefix) and objects with many unknown fields, without looking
 * inside them. Only a body that passes this walk reaches Ajv, and then Ajv's work is bounded
 * by the schema's own limits (1 000 structures, 64 monitors, …).
 */
import type { ErrorObject } from "ajv";
import { ajv } from "./ajv.js";

/** Unknown fields an object may carry before the walk refuses it without listing them all. */
export const MAX_UNKNOWN_FIELDS = 16;

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function oversize(instancePath: string, limit: number, message: string): ErrorObject {
  return {
    instancePath,
    schemaPath: "#/maxItems",
    keyword: "maxItems",
    params: { limit },
    message,
  };
}

/** The branch of a discriminated `oneOf` that a value selects, if any. */
function discriminatedBranch(schema: Schema, value: Record<string, unknown>): Schema | null {
  const discriminator = schema.discriminator as { propertyName?: string } | undefined;
  const branches = schema.oneOf as unknown[] | undefined;
  if (!discriminator?.propertyName || !Array.isArray(branches)) return null;
  const tag = value[discriminator.propertyName];
  for (const branch of branches) {
    if (!isSchema(branch)) continue;
    const prop = (branch.properties as Schema | undefined)?.[discriminator.propertyName];
    if (isSchema(prop) && prop.const === tag) return branch;
  }
  return null;
}

/**
 * Walks `value` along `schema` and returns the first oversize arrays and objects found
 * (at most `max`). It descends only into arrays and objects already found to be within
 * bounds, so its own work is bounded by the schema.
 */
export function oversizeErrors(schema: unknown, value: unknown, path = "", max = 8): ErrorObject[] {
  const out: ErrorObject[] = [];
  const visit = (s: unknown, v: unknown, at: string): void => {
    if (out.length >= max || !isSchema(s) || typeof v !== "object" || v === null) return;
    if (Array.isArray(v)) {
      const prefix = Array.isArray(s.prefixItems)
        ? (s.prefixItems as unknown[])
        : Array.isArray(s.items)
          ? (s.items as unknown[])
          : null;
      const closedTuple =
        prefix !== null && (s.additionalItems === false || (s.prefixItems && s.items === false));
      const limit =
        typeof s.maxItems === "number" ? s.maxItems : closedTuple ? prefix!.length : Infinity;
      if (v.length > limit) {
        out.push(
          oversize(at, limit, `must NOT have more than ${limit} items (it has ${v.length})`),
        );
        return;
      }
      v.forEach((item, i) => {
        const itemSchema = prefix ? prefix[i] : s.items;
        visit(itemSchema, item, `${at}/${i}`);
      });
      return;
    }
    const obj = v as Record<string, unknown>;
    const target = discriminatedBranch(s, obj) ?? s;
    const properties = (target.properties ?? {}) as Schema;
    if (target.additionalProperties === false) {
      const unknown = Object.keys(obj).filter((k) => !Object.hasOwn(properties, k));
      if (unknown.length > MAX_UNKNOWN_FIELDS) {
        const shown = unknown
          .slice(0, 3)
          .map((k) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k))
          .join(", ");
        out.push({
          instancePath: at,
          schemaPath: "#/additionalProperties",
          keyword: "maxProperties",
          params: { limit: MAX_UNKNOWN_FIELDS },
          message: `has ${unknown.length} fields that are not allowed (${shown}, …)`,
        });
        return;
      }
    }
    if (typeof target.maxProperties === "number") {
      const count = Object.keys(obj).length;
      if (count > target.maxProperties) {
        out.push(
          oversize(
            at,
            target.maxProperties,
            `must NOT have more than ${target.maxProperties} properties (it has ${count})`,
          ),
        );
        return;
      }
    }
    for (const [key, propSchema] of Object.entries(properties)) {
      if (Object.hasOwn(obj, key)) visit(propSchema, obj[key], `${at}/${escapePointer(key)}`);
    }
    // A record's values (bounded by maxProperties above).
    if (isSchema(target.additionalProperties) && typeof target.maxProperties === "number") {
      for (const [key, item] of Object.entries(obj)) {
        if (!Object.hasOwn(properties, key)) {
          visit(target.additionalProperties, item, `${at}/${escapePointer(key)}`);
        }
      }
    }
  };
  visit(schema, value, path);
  return out;
}

/** A validator with Ajv's calling convention (`fn(data)`, then `fn.errors`). */
export interface BoundedValidator<T> {
  (data: unknown): data is T;
  errors: ErrorObject[] | null;
}

/** Compiles `schema` with the project's Ajv behind the oversize walk. */
export function compileBounded<T = unknown>(schema: object): BoundedValidator<T> {
  const validate = ajv.compile<T>(schema);
  const bounded = ((data: unknown): data is T => {
    const big = oversizeErrors(schema, data);
    if (big.length > 0) {
      bounded.errors = big;
      return false;
    }
    const ok = validate(data);
    bounded.errors = ok ? null : (validate.errors ?? null);
    return ok;
  }) as BoundedValidator<T>;
  bounded.errors = null;
  return bounded;
}
