/**
 * The one Ajv configuration used everywhere (server routes, CLI, SDK): no coercion, no
 * stripping of unknown fields, all errors, discriminated unions. Fastify's default Ajv would
 * silently coerce "5" to 5 and drop unknown fields, which hides client mistakes.
 *
 * `strictNumbers`: a number JSON cannot hold (1e309 parses to Infinity) is no number, whatever
 * the field's bounds, so a request is told that before any bound compares with it. `verbose`:
 * each error carries its schema and value, so that messages are derived from the schema that
 * failed (a discriminated union's own tags) rather than written out beside it.
 */
import {
  Ajv,
  type ErrorObject,
  type JSONType,
  type KeywordDefinition,
  type SchemaValidateFunction,
  type ValidateFunction,
} from "ajv";
import type { FieldError } from "../errors.js";

export const ajv = new Ajv({
  allErrors: true,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  discriminator: true,
  strict: false,
  strictNumbers: true,
  verbose: true,
  allowUnionTypes: true,
});

/** True when `value` nests objects or arrays more than `levels` deep (stops at the limit). */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (levels === 0) return true;
  for (const item of Object.values(value)) if (nestsDeeperThan(item, levels - 1)) return true;
  return false;
}

/**
 * A custom keyword's validation: `problem` says what is wrong with the value (null: nothing),
 * and that is the keyword's one error. Its name begins `x-`, as OpenAPI allows in a schema.
 */
function customKeyword<S>(
  keyword: string,
  types: JSONType[],
  problem: (schema: S, data: unknown) => string | null,
): KeywordDefinition {
  const validate: SchemaValidateFunction = (schema: S, data: unknown) => {
    const message = problem(schema, data);
    validate.errors = message === null ? [] : [{ keyword, params: { [keyword]: schema }, message }];
    return message === null;
  };
  return { keyword, type: types, errors: true, validate };
}

/**
 * `"x-max-depth": n` on a free-form object: it and what it holds nest objects and arrays at
 * most n levels (itself included). Such a value is stored and serialised on every read, and
 * serialising very deep nesting overflows the stack (a 500 instead of a 422); the check stops
 * at the limit, so its own recursion is bounded.
 */
ajv.addKeyword(
  customKeyword("x-max-depth", ["object", "array"], (levels: number, data) =>
    nestsDeeperThan(data, levels)
      ? `must not nest objects and arrays more than ${levels} levels deep`
      : null,
  ),
);

/**
 * Where in `value` a number JSON cannot carry lies (1e999 parses to Infinity, which would be
 * stored and echoed back as null), as a JSON Pointer below it ("" for the value itself); null
 * when there is none. Looks `levels` deep at most (x-max-depth refuses deeper values).
 */
function nonFiniteAt(value: unknown, levels: number): string | null {
  if (typeof value === "number") return Number.isFinite(value) ? null : "";
  if (typeof value !== "object" || value === null || levels === 0) return null;
  for (const [key, item] of Object.entries(value)) {
    const below = nonFiniteAt(item, levels - 1);
    if (below !== null) return `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}${below}`;
  }
  return null;
}

/**
 * `"x-finite-numbers": n` on a free-form object: every number in it (n levels deep) is finite,
 * as `strictNumbers` makes every typed number field; the error names the number's own path.
 */
const finiteNumbers: SchemaValidateFunction = (levels: number, data, _parent, cxt) => {
  const at = nonFiniteAt(data, levels);
  finiteNumbers.errors =
    at === null
      ? []
      : [
          {
            keyword: "x-finite-numbers",
            instancePath: `${cxt?.instancePath ?? ""}${at}`,
            params: {},
            message: "must be a finite number",
          },
        ];
  return at === null;
};
ajv.addKeyword({
  keyword: "x-finite-numbers",
  type: ["object", "array"],
  errors: true,
  validate: finiteNumbers,
});

/**
 * `"x-decimal-integer": {minimum, maximum}` on a string (a query parameter, which arrives as
 * text and is never coerced): decimal digits whose value lies within the bounds.
 */
ajv.addKeyword(
  customKeyword(
    "x-decimal-integer",
    ["string"],
    (b: { minimum: number; maximum: number }, data) => {
      const value = /^[0-9]+$/.test(String(data)) ? Number(data) : NaN;
      return value >= b.minimum && value <= b.maximum
        ? null
        : `must be an integer from ${b.minimum} to ${b.maximum}`;
    },
  ),
);

/** `/domain/size/0` → `domain.size[0]`; the root is `body`. */
export function pointerToPath(pointer: string, root = "body"): string {
  if (pointer === "") return root;
  let out = "";
  for (const raw of pointer.split("/").slice(1)) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^\d+$/.test(part) ? `[${part}]` : out === "" ? part : `.${part}`;
  }
  return out;
}

function join(path: string, key: string): string {
  return path === "body" ? key : `${path}.${key}`;
}

/**
 * Where an error lies as the 422 names it: a body's fields by themselves (`domain.size[0]`),
 * any other part of the request under its name (`query.limit`), as `join` names a missing one.
 */
function errorPath(pointer: string, root: string): string {
  const path = pointerToPath(pointer, root);
  if (root === "body" || pointer === "") return path;
  return path.startsWith("[") ? `${root}${path}` : `${root}.${path}`;
}

const quoted = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(", ");

/**
 * The tags a discriminated union accepts, in the order of its `oneOf`: each branch's `const`
 * (or `enum`) for the tag property. Read from the union that failed, so that every union
 * (sources, structures, monitors, poles, any added later) lists its own.
 */
function discriminatorTags(union: unknown, tag: string): unknown[] {
  const branches = (union as { oneOf?: unknown[] } | null)?.oneOf ?? [];
  return branches.flatMap((branch) => {
    const prop = (branch as { properties?: Record<string, { const?: unknown; enum?: unknown[] }> })
      ?.properties?.[tag];
    if (prop === undefined) return [];
    return "const" in prop ? [prop.const] : (prop.enum ?? []);
  });
}

/** A discriminator's error: a tag that is missing, of the wrong type, or none of the union's. */
function discriminatorError(e: ErrorObject, path: string): FieldError {
  const tag = String(e.params.tag ?? "type");
  const at = join(path, tag);
  const given: unknown = e.params.tagValue;
  if (given === undefined) return { path: at, message: "is required" };
  const choices = quoted(discriminatorTags(e.parentSchema, tag));
  return typeof given === "string"
    ? { path: at, message: `must be one of ${choices}` }
    : { path: at, message: `must be a string, one of ${choices}` };
}

const BOUND_KEYWORDS = new Set([
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
]);

/** A number field given a number that overflowed in JSON (1e309 is Infinity). */
function isOverflow(e: ErrorObject): boolean {
  if (typeof e.data !== "number" || Number.isFinite(e.data)) return false;
  return e.keyword === "type"
    ? /number|integer/.test(String(e.params.type))
    : BOUND_KEYWORDS.has(e.keyword);
}

/** Ajv's message for one error, in the words a client reads. */
function messageFor(e: ErrorObject, path: string): FieldError {
  if (isOverflow(e)) return { path, message: "must be a finite number" };
  // A key that fails `propertyNames` (the key itself is not echoed: it may be long).
  if (e.propertyName !== undefined) return { path, message: `a key ${e.message}` };
  switch (e.keyword) {
    case "required":
      return { path: join(path, String(e.params.missingProperty)), message: "is required" };
    case "additionalProperties":
      return {
        path: join(path, String(e.params.additionalProperty)),
        message: "is not an allowed field",
      };
    case "enum":
      return { path, message: `must be one of ${quoted(e.params.allowedValues as unknown[])}` };
    case "const":
      return { path, message: `must be ${JSON.stringify(e.params.allowedValue)}` };
    case "discriminator":
      return discriminatorError(e, path);
    case "uniqueItems": {
      const { i, j } = e.params as { i: number; j: number };
      const value = Array.isArray(e.data) ? ` are both ${JSON.stringify(e.data[i])}` : "";
      return { path, message: `has duplicate items: items ${j} and ${i}${value}` };
    }
    default:
      return { path, message: e.message ?? "is not valid" };
  }
}

/**
 * A union (`anyOf`/`oneOf` without a discriminator, e.g. a list or a `{start, stop, points}`
 * range) reports every branch's errors and then its own "must match a schema". Where the value
 * has some branch's type, the branches of other types and that summary say nothing useful
 * ("theta_deg: must be array" for a range whose stop is out of bounds): only the errors of the
 * branches of the value's type are kept. A value of none of the branches' types keeps them all.
 */
function pruneUnionErrors(errs: ErrorObject[]): ErrorObject[] {
  const dropped = new Set<ErrorObject>();
  for (const union of errs) {
    if (union.keyword !== "anyOf" && union.keyword !== "oneOf") continue;
    const prefix = `${union.schemaPath}/`;
    const inside = errs.filter((e) => e.schemaPath.startsWith(prefix));
    const branchOf = (e: ErrorObject) => e.schemaPath.slice(prefix.length).split("/")[0]!;
    const wrongType = new Set(
      inside
        .filter((e) => e.keyword === "type" && e.instancePath === union.instancePath)
        .filter((e) => e.schemaPath === `${prefix}${branchOf(e)}/type`)
        .map(branchOf),
    );
    const branches = new Set(inside.map(branchOf));
    if (wrongType.size === 0 || wrongType.size === branches.size) continue;
    dropped.add(union);
    for (const e of inside) if (wrongType.has(branchOf(e))) dropped.add(e);
  }
  return errs.filter((e) => !dropped.has(e));
}

/** Turns Ajv errors into `{path, message}` pairs that name the field and the bound. */
export function formatAjvErrors(
  errs: ErrorObject[] | null | undefined,
  root = "body",
): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  // `propertyNames` adds "property name must be valid" after the key's own error: dropped.
  const informative = (errs ?? []).filter((e) => e.keyword !== "propertyNames");
  for (const e of pruneUnionErrors(informative)) {
    const item = messageFor(e, errorPath(e.instancePath, root));
    const key = `${item.path}\u0000${item.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(item);
    }
  }
  return out;
}

export type { ValidateFunction };
