/**
 * The batch request `emsim sweep` sends: read from a simulation file and `--param` options,
 * or from a batch request file (`{simulation, parameters, combine?, metadata?}`, e.g.
 * examples/slab-thickness-sweep.json) to which `--param` adds parameters; then checked locally
 * with the server's own code, variant by variant, so that a mistake is reported before
 * anything is sent (the server checks again, and alone resolves gds structures and bounds the
 * batch's total run time).
 */
import type { BatchParameter, BatchRequest, FieldError, ParameterValue } from "../client/index.js";
import { validateBaseSimulation, variantError } from "../batches/request.js";
import {
  checkParameters,
  MAX_BATCH_VARIANTS,
  variantCount,
  variants,
  type Combine,
} from "../batches/variants.js";
import { sweepNameFor } from "../results/sweep-names.js";
import { BatchRequestSchema } from "../schema/batch.js";
import { formatAjvErrors } from "../schema/ajv-errors.js";
import { compileBounded } from "../schema/bounded.js";
import type { RunEstimate } from "../solver/index.js";
import { checkSimulationLocally } from "./simulation-file.js";
import { UsageError } from "./usage.js";

export const PARAM_SYNTAX =
  "--param POINTER=START:STOP:POINTS or --param POINTER=V1,V2,… (e.g. /structures/1/size/0=0.4e-6:0.6e-6:11)";

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A value as typed: a number, `true`/`false`, or else the text itself. */
export function parseParameterValue(text: string): ParameterValue {
  if (NUMBER.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  return text;
}

/**
 * One `--param`: a JSON Pointer, `=`, then `START:STOP:POINTS` (equally spaced, both ends
 * included) or values separated by commas. Its name is the caller's.
 */
export function parseParamOption(arg: string): Omit<BatchParameter, "name"> {
  const at = arg.indexOf("=");
  const path = at < 0 ? "" : arg.slice(0, at);
  const spec = at < 0 ? "" : arg.slice(at + 1);
  if (!path.startsWith("/") || spec === "") {
    throw new UsageError(`cannot read --param '${arg}': use ${PARAM_SYNTAX}`);
  }
  const range = spec.split(":");
  if (range.length === 3) {
    const [start, stop, points] = range.map((t) => t.trim());
    if (!NUMBER.test(start!) || !NUMBER.test(stop!) || !/^[1-9][0-9]*$/.test(points!)) {
      throw new UsageError(
        `cannot read the range of --param '${arg}': START:STOP:POINTS takes two numbers and a whole number of points, e.g. 0.4e-6:0.6e-6:11`,
      );
    }
    return { path, range: { start: Number(start), stop: Number(stop), points: Number(points) } };
  }
  const fields = range.map((t) => t.trim());
  if (range.length > 1 && fields.every((t) => t === "" || NUMBER.test(t))) {
    throw new UsageError(
      `cannot read the range of --param '${arg}': START:STOP:POINTS takes three fields, e.g. 0.4e-6:0.6e-6:11`,
    );
  }
  const items = spec.split(",").map((t) => t.trim());
  if (items.some((t) => t === "")) {
    throw new UsageError(`--param '${arg}' has an empty value: use ${PARAM_SYNTAX}`);
  }
  return { path, values: items.map(parseParameterValue) };
}

/**
 * The parameters of `--param` options, named by `--name` options in the same order (the rest
 * after their pointers, e.g. `structures_1_size_0`), after those `existing` already holds.
 */
export function parametersFromOptions(
  params: readonly string[],
  names: readonly string[],
  existing: readonly BatchParameter[] = [],
): BatchParameter[] {
  if (names.length > params.length) {
    throw new UsageError(
      `${names.length} --name options for ${params.length} --param: each --name names the --param in the same place`,
    );
  }
  const taken = existing.map((p) => p.name);
  return params.map((arg, i) => {
    const parsed = parseParamOption(arg);
    const name = names[i] ?? sweepNameFor(parsed.path, [...taken, ...names]);
    taken.push(name);
    return { name, ...parsed };
  });
}

/** A batch request file's shape, as opposed to a simulation's. */
export function isBatchRequestBody(body: unknown): body is BatchRequest {
  return (
    typeof body === "object" &&
    body !== null &&
    "simulation" in body &&
    "parameters" in body &&
    !("domain" in body)
  );
}

const validateBatchShape = compileBounded<BatchRequest>(BatchRequestSchema);

export type BatchCheck =
  | {
      ok: true;
      /** How many jobs the batch makes. */
      jobCount: number;
      /** Each variant's local estimate (grid, cells, steps), in order. */
      estimates: (RunEstimate | undefined)[];
    }
  | { ok: false; errors: FieldError[] };

/**
 * A batch request checked as POST /v1/batches checks it (src/batches/service.ts), with a
 * default server's limits: its shape, the base simulation's schema, the parameters (pointers
 * to something, names the result file allows, values of one type), the number of variants,
 * then every variant as a single simulation, a problem named `variants[i].<field>` with the
 * parameter and value that caused it. Stops after the first 50 problems.
 */
export function checkBatchRequest(body: unknown): BatchCheck {
  if (!validateBatchShape(body)) {
    return { ok: false, errors: formatAjvErrors(validateBatchShape.errors) };
  }
  const base = validateBaseSimulation(body.simulation, body.parameters);
  if (base.length > 0) return { ok: false, errors: base };
  const parameters = body.parameters;
  const problems: FieldError[] = parameters.flatMap((p, k) =>
    (p.values === undefined) === (p.range === undefined)
      ? [{ path: `parameters[${k}]`, message: "must have either values or range (one of them)" }]
      : [],
  );
  const combine: Combine = body.combine ?? "product";
  problems.push(...checkParameters(body.simulation, parameters, combine));
  if (problems.length > 0) return { ok: false, errors: problems };
  const counted = variantCount(parameters, combine, MAX_BATCH_VARIANTS);
  if ("errors" in counted) return { ok: false, errors: counted.errors };
  const estimates: (RunEstimate | undefined)[] = [];
  for (const v of variants(body.simulation, parameters, combine)) {
    const outcome = checkSimulationLocally(v.request);
    if ("errors" in outcome) {
      problems.push(
        ...outcome.errors.map((e) => variantError(v.index, e, parameters, v.parameters)),
      );
    } else {
      estimates.push(outcome.estimate);
    }
  }
  if (problems.length > 0) return { ok: false, errors: problems };
  return { ok: true, jobCount: counted.count, estimates };
}
