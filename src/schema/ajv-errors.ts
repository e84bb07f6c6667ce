/**
 * Ajv's errors in the words a client reads: each `{path, message}` names the field (as the
 * request spells it, `domain.size[0]`, `query.limit`) and the bound, one error per problem.
 * Unions are the subtle part: Ajv reports every branch's failure and then the union's own, so a
 * union's errors are cut to the branch of the value's type, or merged into one naming every
 * choice.
 */
import type { ErrorObject } from "ajv";
import type { FieldError } from "../errors.js";

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
 * branches of the value's type are kept. A value of none of the branches' types keeps them all
 * (mergeChoiceErrors then names them in one).
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

/**
 * A union of constants and plain types (`"te" | "tm" | null`, `number | null`, written as anyOf)
 * that the value matches none of reports each branch ("must be equal to constant", "must be
 * number") and then "must match a schema in anyOf": one error in their place, naming every
 * choice ("must be one of "te", "tm"", "must be number or null").
 */
function mergeChoiceErrors(errs: ErrorObject[]): ErrorObject[] {
  const replaced = new Map<ErrorObject, ErrorObject | null>();
  for (const union of errs) {
    if (union.keyword !== "anyOf" && union.keyword !== "oneOf") continue;
    const prefix = `${union.schemaPath}/`;
    const inside = errs.filter((e) => e.schemaPath.startsWith(prefix));
    const values: unknown[] = [];
    const types: string[] = [];
    const isChoice = (e: ErrorObject) => {
      if (e.instancePath !== union.instancePath) return false;
      if (e.keyword === "const") values.push(e.params.allowedValue);
      else if (e.keyword === "enum") values.push(...(e.params.allowedValues as unknown[]));
      else if (e.keyword === "type") types.push(String(e.params.type));
      else return false;
      return true;
    };
    if (inside.length === 0 || !inside.every(isChoice)) continue;
    // A constant's branch also reports its type ("must be string"): a type whose every value
    // is named among the choices says nothing more, and each type is named once.
    const valueTypes = new Set<string>(values.map((v) => typeof v));
    const named = [...new Set(types)].filter((t) => t !== "null" && !valueTypes.has(t));
    if (values.length > 0) named.push(`one of ${quoted(values)}`);
    if (types.includes("null")) named.push("null");
    for (const e of inside) replaced.set(e, null);
    replaced.set(union, { ...union, keyword: "x-union", message: `must be ${named.join(" or ")}` });
  }
  return errs.flatMap((e) => (replaced.has(e) ? (replaced.get(e) ?? []) : [e]));
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
  for (const e of mergeChoiceErrors(pruneUnionErrors(informative))) {
    // No query parameter takes a list: an array there is a parameter given twice, whatever
    // its schema then says of it ("must be string", "must be one of …").
    const repeated = root === "query" && Array.isArray(e.data) && e.instancePath !== "";
    const item = repeated
      ? { path: errorPath(e.instancePath, root), message: "is given more than once; give it once" }
      : messageFor(e, errorPath(e.instancePath, root));
    const key = `${item.path}\u0000${item.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(item);
    }
  }
  return out;
}
