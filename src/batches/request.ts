/**
 * Problems of a batch request as the user wrote it: the base simulation against the
 * simulation's schema (paths under `simulation.`), and a variant's problem traced to the
 * parameter whose value caused it (a swept value of the wrong type, a thickness out of range).
 */
import type { FieldError } from "../errors.js";
import { formatAjvErrors, pointerToPath } from "../schema/ajv-errors.js";
import { validateRequestSchema } from "../schema/validate.js";
import type { BatchParameter, ParameterValue } from "./variants.js";

/**
 * The base simulation's schema errors, named under `simulation.`, but for those at or under a
 * swept pointer: a value every variant replaces may be a placeholder (a size of 0 was refused
 * as "must be > 0" while a time_steps past its limit passed); each variant is checked in full.
 */
export function validateBaseSimulation(
  simulation: unknown,
  parameters: readonly Pick<BatchParameter, "path">[],
): FieldError[] {
  if (validateRequestSchema(simulation)) return [];
  return formatAjvErrors(validateRequestSchema.errors)
    .filter((e) => !parameters.some((p) => lies(e.path, pointerToPath(p.path, ""))))
    .map((e) => ({ ...e, path: `simulation.${e.path}` }));
}

/** Whether an error's path is `at` or lies under it. */
function lies(path: string, at: string): boolean {
  return path === at || path.startsWith(`${at}.`) || path.startsWith(`${at}[`);
}

/**
 * A variant's problem, its path under `variants[i].`, and the parameter and the value that put
 * it there: the one whose pointer it lies at or under (or that lies under it: a port's centre
 * refused, its x swept). Where no swept pointer is on its path (a monitor left outside a domain
 * made shorter), the variant's values of every parameter, the one at fault among them.
 */
export function variantError(
  index: number,
  error: FieldError,
  parameters: readonly BatchParameter[],
  values: Record<string, ParameterValue>,
): FieldError {
  const at = (p: BatchParameter) => pointerToPath(p.path, "");
  const named = (k: number) =>
    `parameters[${k}] "${parameters[k]!.name}" = ${JSON.stringify(values[parameters[k]!.name])}`;
  const under = parameters.findIndex((p) => lies(error.path, at(p)));
  const k =
    under >= 0 ? under : parameters.findIndex((p) => error.path !== "" && lies(at(p), error.path));
  const cause =
    k >= 0
      ? named(k)
      : parameters.length === 1
        ? named(0)
        : `in the variant where ${parameters.map((_, j) => named(j)).join(" and ")}`;
  return { path: `variants[${index}].${error.path}`, message: `${error.message} (${cause})` };
}
