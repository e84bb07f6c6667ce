/**
 * The one Ajv configuration used everywhere (server routes, CLI, SDK): no coercion, no
 * stripping of unknown fields, all errors, discriminated unions. Fastify's default Ajv would
 * silently coerce "5" to 5 and drop unknown fields, which hides client mistakes.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { FieldError } from "../errors.js";

export const ajv = new Ajv({
  allErrors: true,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  discriminator: true,
  strict: false,
  allowUnionTypes: true,
});

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

/** Turns Ajv errors into `{path, message}` pairs that name the field and the bound. */
export function formatAjvErrors(
  errs: ErrorObject[] | null | undefined,
  root = "body",
): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errs ?? []) {
    const path = pointerToPath(e.instancePath, root);
    let item: FieldError;
    switch (e.keyword) {
      case "required":
        item = { path: join(path, String(e.params.missingProperty)), message: "is required" };
        break;
      case "additionalProperties":
        item = {
          path: join(path, String(e.params.additionalProperty)),
          message: "is not an allowed field",
        };
        break;
      case "enum":
        item = {
          path,
          message: `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
        };
        break;
      case "const":
        item = { path, message: `must be ${JSON.stringify(e.params.allowedValue)}` };
        break;
      case "discriminator":
        {
          const tag = String(e.params.tag ?? "type");
          const choices =
            tag === "monitor_type"
              ? '"field", "flux"'
              : '"box", "sphere", "cylinder", "polyslab", "gds"';
          item =
            e.params.error === "mapping"
              ? { path: join(path, tag), message: `must be one of ${choices}` }
              : { path: join(path, tag), message: "is required" };
        }
        break;
      default:
        item = { path, message: e.message ?? "is not valid" };
    }
    const key = `${item.path}\u0000${item.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(item);
    }
  }
  return out;
}

export type { ValidateFunction };
