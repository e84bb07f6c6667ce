/**
 * The one Ajv configuration used everywhere (server routes, CLI, SDK): no coercion, no
 * stripping of unknown fields, all errors, discriminated unions. Fastify's default Ajv would
 * silently coerce "5" to 5 and drop unknown fields, which hides client mistakes.
 *
 * `strictNumbers`: a number JSON cannot hold (1e309 parses to Infinity) is no number, whatever
 * the field's bounds, so a request is told that before any bound compares with it. `verbose`:
 * each error carries its schema and value, so that messages are derived from the schema that
 * failed (a discriminated union's own tags) rather than written out beside it (ajv-errors.ts).
 */
import {
  Ajv,
  type JSONType,
  type KeywordDefinition,
  type SchemaValidateFunction,
  type ValidateFunction,
} from "ajv";

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

export type { ValidateFunction };
