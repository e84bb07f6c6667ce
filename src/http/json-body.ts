/**
 * The JSON body parser. Fastify's own answers every failure with one message, so a body that
 * is valid JSON but would poison prototypes (`__proto__`, `constructor.prototype`) read as
 * "not valid JSON"; here each failure says what it is.
 */
import { errors } from "../errors.js";

/** True when some object in `value` has an own `__proto__` key or `constructor.prototype`. */
function poisonsPrototypes(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    if (!Array.isArray(node)) {
      if (Object.hasOwn(node, "__proto__")) return true;
      const ctor = (node as Record<string, unknown>).constructor;
      if (
        Object.hasOwn(node, "constructor") &&
        typeof ctor === "object" &&
        ctor !== null &&
        Object.hasOwn(ctor, "prototype")
      ) {
        return true;
      }
    }
    for (const child of Object.values(node)) {
      if (typeof child === "object" && child !== null) stack.push(child);
    }
  }
  return false;
}

/** Parses a request body as JSON, or throws the ApiError that says why it cannot be used. */
export function parseJsonBody(text: string): unknown {
  if (text.length === 0) throw errors.malformedJson("the body is empty.");
  return parseJsonText(text);
}

/**
 * Parses JSON text from a request (a body, or a form field holding JSON, `where` naming it in
 * the message), with the API's refusals: 400 `malformed_json`, 400 `forbidden_json_key`.
 */
export function parseJsonText(text: string, where = ""): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw errors.malformedJson(`${where}${(err as Error).message}.`);
  }
  if (usesForbiddenKey(text, value)) throw errors.forbiddenJsonKey();
  return value;
}

/** Whether `value`, parsed from `text`, has a `__proto__` key or `constructor.prototype`. */
export function usesForbiddenKey(text: string, value: unknown): boolean {
  // The walk is needed only when a forbidden key can be spelt: plainly or with \u escapes.
  return /__proto__|constructor|\\u/.test(text) && poisonsPrototypes(value);
}
