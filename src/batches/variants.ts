/**
 * A batch's variants (DESIGN §11): the base simulation with each parameter's value written at
 * its JSON Pointer (RFC 6901), the parameters combined as a product (the first parameter
 * outermost, so variant i is row-major over the dimensions) or zipped (the i-th value of each).
 *
 * A pointer must name something the base request already holds (a member of an object or an
 * index of an array): a sweep changes a value, it does not invent fields, so a typo in a path
 * is an error naming that parameter instead of a field the schema rejects in every variant.
 */
import type { FieldError } from "../errors.js";
import { sweepNameFor, sweepNameProblem } from "../results/sweep-names.js";
import { findMaterial } from "../solver/index.js";
import { pointerTokens } from "../schema/json-pointer.js";

export type ParameterValue = number | string | boolean;

/** One parameter of a batch request: its values listed or as an inclusive range. */
export interface BatchParameter {
  name: string;
  path: string;
  values?: ParameterValue[];
  range?: { start: number; stop: number; points: number };
}

export type Combine = "product" | "zip";

/** A sweep dimension of the batch's results: a name and its values in order. */
export interface SweepDimension {
  name: string;
  values: ParameterValue[];
  /** The JSON Pointer it sets (absent in batches stored before the record carried it). */
  path?: string;
  /** A zip's other parameters, each as long as this one (absent for a product). */
  along?: { name: string; path: string; values: ParameterValue[] }[];
}

export interface Variant {
  index: number;
  /** Each parameter's value in this variant, by name. */
  parameters: Record<string, ParameterValue>;
  request: unknown;
}

/** The most variants a batch may hold (the issue's bound; EMSIM_MAX_BATCH_JOBS may lower it). */
export const MAX_BATCH_VARIANTS = 10_000;

/** A parameter's values: its list, or `points` equally spaced from start to stop inclusive. */
export function parameterValues(p: BatchParameter): ParameterValue[] {
  if (p.values) return p.values;
  const { start, stop, points } = p.range!;
  if (points === 1) return [start];
  // As numpy.linspace computes them (i·step + start, the last exactly stop), so that a value
  // from np.linspace selects its variant: .sel(width=5.4e-7) finds 0.4e-6:0.6e-6:11's eighth.
  const step = (stop - start) / (points - 1);
  return Array.from({ length: points }, (_, i) => {
    if (i === points - 1) return stop;
    return step === 0 ? (i / (points - 1)) * (stop - start) + start : i * step + start;
  });
}

/** The variant count, or field errors (zip lengths that differ, a product over the limit). */
export function variantCount(
  parameters: readonly BatchParameter[],
  combine: Combine,
  maxVariants: number,
): { count: number } | { errors: FieldError[] } {
  const lengths = parameters.map((p) => parameterValues(p).length);
  if (combine === "zip") {
    const bad = lengths.findIndex((n) => n !== lengths[0]);
    if (bad > 0) {
      return {
        errors: [
          {
            path: `parameters[${bad}]`,
            message: `has ${lengths[bad]} values where parameters[0] has ${lengths[0]}: zipped parameters need as many values each`,
          },
        ],
      };
    }
  }
  const count = combine === "zip" ? lengths[0]! : lengths.reduce((a, b) => a * b, 1);
  if (count > maxVariants) {
    return {
      errors: [
        {
          path: "parameters",
          message: `combine "${combine}" makes ${count} variants (${lengths.join(" × ")}); at most ${maxVariants} are allowed in one batch`,
        },
      ],
    };
  }
  return { count };
}

/** The batch's sweep dimensions: one per parameter (product) or one for all (zip). */
export function sweepDimensions(
  parameters: readonly BatchParameter[],
  combine: Combine,
): SweepDimension[] {
  const all = parameters.map((p) => ({ name: p.name, path: p.path, values: parameterValues(p) }));
  return combine === "zip" ? [{ ...all[0]!, along: all.slice(1) }] : all;
}

/**
 * Names that are not safe keys of a plain object: assigning `__proto__` calls
 * Object.prototype's setter instead of making a property, so its values would vanish from
 * every job's `parameters` (and from anything else keyed by the name downstream). The
 * prototype's other members are data properties, which an own property merely shadows
 * (`constructor`, `toString` name dimensions like any other).
 */
const UNSAFE_OBJECT_KEYS: ReadonlySet<string> = new Set(["__proto__"]);

/** Parameter problems that no variant can fix: duplicate names, pointers to nothing. */
export function checkParameters(
  base: unknown,
  parameters: readonly BatchParameter[],
  combine: Combine = "product",
): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Map<string, number>();
  const paths = new Map<string, number>();
  parameters.forEach((p, k) => {
    const at = `parameters[${k}]`;
    if (seen.has(p.name)) {
      errs.push({
        path: `${at}.name`,
        message: `"${p.name}" is also parameters[${seen.get(p.name)}]'s name`,
      });
    }
    seen.set(p.name, k);
    if (paths.has(p.path)) {
      errs.push({
        path: `${at}.path`,
        message: `"${p.path}" is also parameters[${paths.get(p.path)}]'s path: in every variant one value would overwrite the other`,
      });
    } else paths.set(p.path, k);
    const nested = nestedProblem(p.path, parameters.slice(0, k));
    if (nested) errs.push({ path: `${at}.path`, message: nested });
    const badName = UNSAFE_OBJECT_KEYS.has(p.name)
      ? "is a name JavaScript objects reserve"
      : sweepNameProblem(p.name);
    if (badName) {
      errs.push({
        path: `${at}.name`,
        message: `"${p.name}" ${badName} (name the dimension otherwise, e.g. "${sweepNameFor(p.path, seen.keys())}")`,
      });
    }
    const problem = pointerProblem(base, p.path);
    if (problem) errs.push({ path: `${at}.path`, message: problem });
    const rangeIssue = p.range ? rangeProblem(p.range) : null;
    if (rangeIssue) errs.push({ path: `${at}.range`, message: rangeIssue });
    // A zip's later parameters pair each value with a distinct first one.
    const repeated = combine === "zip" && k > 0 ? null : repeatedValue(p.values ?? [], p.path);
    if (repeated) errs.push({ path: `${at}.values`, message: repeated });
    const types = new Set((p.values ?? []).map((v) => typeof v));
    if (types.size > 1) {
      errs.push({
        path: `${at}.values`,
        message: `mixes ${[...types].join(" and ")} values; a parameter's values are of one type`,
      });
    }
  });
  return errs;
}

/**
 * Why a list of values names one twice (null: it does not): identical variants. Material
 * names are compared as the library matches them (case, spaces and aliases aside: "Si", "si"
 * and "silicon" are one material); a request's own materials by their exact names.
 */
function repeatedValue(values: readonly ParameterValue[], path: string): string | null {
  const isMaterial = pointerTokens(path)?.at(-1) === "material";
  const key = (v: ParameterValue) =>
    isMaterial && typeof v === "string" ? (findMaterial(v)?.name ?? v) : v;
  const first = new Map<ParameterValue, number>();
  for (const [i, v] of values.entries()) {
    const j = first.get(key(v));
    if (j !== undefined) {
      const twice =
        values[j] === v
          ? `lists ${shown(v)} twice (values[${j}] and values[${i}])`
          : `lists one material twice: ${shown(values[j]!)} (values[${j}]) and ${shown(v)} (values[${i}])`;
      return `${twice}: equal values would make identical variants`;
    }
    first.set(key(v), i);
  }
  return null;
}

/** A value as a message shows it: small and large numbers in exponent form, strings quoted. */
function shown(v: ParameterValue): string {
  if (typeof v !== "number" || v === 0 || !Number.isFinite(v)) return JSON.stringify(v);
  return Math.abs(v) < 1e-3 || Math.abs(v) >= 1e7 ? v.toExponential() : String(v);
}

/**
 * Why a range gives no list of distinct finite values that holds both its ends (null: it
 * does). Equal values would make identical variants and a sweep coordinate that names two.
 */
function rangeProblem(range: NonNullable<BatchParameter["range"]>): string | null {
  const { start, stop, points } = range;
  if (points === 1 && start !== stop) {
    return `one point holds start alone, but both ends are included: give points of 2 or more, or stop equal to start (${start})`;
  }
  if (!Number.isFinite(stop - start)) {
    return `stop − start (${stop} − ${start}) is beyond what a double holds: narrow the range`;
  }
  if (points > 1 && start === stop) {
    return `start and stop are both ${start}: its ${points} points would be ${points} identical variants; give points 1, or another stop`;
  }
  const values = parameterValues({ name: "", path: "", range });
  if (values.some((v, i) => i > 0 && v === values[i - 1])) {
    return `its ${points} points from ${start} to ${stop} are closer than a double tells apart (some would be equal): give fewer points or a wider range`;
  }
  return null;
}

/**
 * Why `path` cannot be swept beside the parameters before it: it lies inside one's value, or
 * holds one (a variant writes both, and one write would replace or break the other).
 */
function nestedProblem(path: string, before: readonly BatchParameter[]): string | null {
  const within = (inner: string, outer: string) => inner.startsWith(`${outer}/`);
  for (const [j, q] of before.entries()) {
    if (within(path, q.path)) {
      return `"${path}" lies inside parameters[${j}]'s "${q.path}", whose value every variant replaces whole: sweep one or the other`;
    }
    if (within(q.path, path)) {
      return `"${path}" holds parameters[${j}]'s "${q.path}": every variant would replace that value whole; sweep one or the other`;
    }
  }
  return null;
}

/** The variants in order (product: row-major, the first parameter outermost). */
export function* variants(
  base: unknown,
  parameters: readonly BatchParameter[],
  combine: Combine,
): Generator<Variant> {
  const lists = parameters.map(parameterValues);
  const count = combine === "zip" ? lists[0]!.length : lists.reduce((n, l) => n * l.length, 1);
  for (let index = 0; index < count; index++) {
    const picks = combine === "zip" ? lists.map(() => index) : rowMajor(index, lists);
    const request = structuredClone(base);
    const entries = parameters.map((p, k): [string, ParameterValue] => {
      const value = lists[k]![picks[k]!]!;
      setAt(request, p.path, value);
      return [p.name, value];
    });
    // Own data properties whatever the name (an assignment would call a `__proto__` setter).
    yield { index, parameters: Object.fromEntries(entries), request };
  }
}

/** Each list's index for variant `index`, the last list varying fastest. */
function rowMajor(index: number, lists: readonly unknown[][]): number[] {
  const picks = new Array<number>(lists.length);
  let rest = index;
  for (let k = lists.length - 1; k >= 0; k--) {
    picks[k] = rest % lists[k]!.length;
    rest = Math.floor(rest / lists[k]!.length);
  }
  return picks;
}

/** Why `pointer` does not name an existing value of `doc` (null when it does). */
export function pointerProblem(doc: unknown, pointer: string): string | null {
  const path = pointerTokens(pointer);
  if (!path) return `"${pointer}" is not a JSON Pointer into the simulation (it starts with "/")`;
  let node: unknown = doc;
  for (let i = 0; i < path.length; i++) {
    const t = path[i]!;
    const where = i === 0 ? "the simulation" : `"/${path.slice(0, i).join("/")}"`;
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(t) || Number(t) >= node.length) {
        return `"${pointer}" points to nothing: ${where} is an array of ${node.length}, with no index "${t}"`;
      }
      node = node[Number(t)];
    } else if (node !== null && typeof node === "object" && Object.hasOwn(node, t)) {
      node = (node as Record<string, unknown>)[t];
    } else {
      const kind =
        node !== null && typeof node === "object"
          ? "has no member"
          : "is not an object, so it has no member";
      return `"${pointer}" points to nothing: ${where} ${kind} "${t}"`;
    }
  }
  return null;
}

/** Writes `value` at an existing pointer (checked by pointerProblem first). */
function setAt(doc: unknown, pointer: string, value: ParameterValue): void {
  const path = pointerTokens(pointer)!;
  let node = doc as Record<string, unknown>;
  for (const t of path.slice(0, -1)) node = node[t] as Record<string, unknown>;
  node[path[path.length - 1]!] = value;
}
