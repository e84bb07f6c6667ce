/**
 * A request's `gds` structures resolved: each replaced by the polyslabs of its mapped layers
 * (gds-import.ts), and a structure's `ports` turned into the ports its labels give (gds-ports.ts),
 * their guides extended through the domain's absorber (gds-port-extension.ts), appended after
 * the request's own ports. One sequence of steps for the server (FabricationService, which reads
 * a stranger's layout in a worker thread under limits) and `emsim preview` (the user's own
 * local file, read in process): each caller hands in how a layout is imported and how field
 * errors are raised.
 */
import { ApiError, type FieldError } from "../errors.js";
import {
  MAX_STRUCTURES,
  type GdsStructureSpec,
  type SimulationRequest,
} from "../schema/simulation.js";
import type { PolySlabSpec } from "../solver/index.js";
import { GdsError } from "./gds/errors.js";
import { readGds, type GdsReadLimits } from "./gds/reader.js";
import { mergeLayers, polyslabsFromGds, type ImportedLayers } from "./gds-import.js";
import { portExtensions, withPortExtensions } from "./gds-port-extension.js";
import {
  portLabelsOf,
  portsFromLabels,
  withLayoutPorts,
  type PortLabels,
  type RequestPort,
} from "./gds-ports.js";

/** The layer and texttype of a structure's port labels. */
export interface LabelLayer {
  layer: number;
  texttype: number;
}

/** A layout to import: `cell` flattened (default every top cell), the listed layers ("L/D") merged. */
export interface ImportTask {
  op: "import";
  bytes: Uint8Array;
  limits?: Partial<GdsReadLimits>;
  cell?: string;
  layers: string[];
  /** Also the labels on this layer/texttype (a gds structure's `ports`). */
  labels?: LabelLayer;
}

/** An imported layout: the merged layers (and the labels asked for), or the cells when `cell` is not one. */
export type ImportResult =
  ({ ok: true; portLabels?: PortLabels } & ImportedLayers) | { ok: false; cells: string[] };

/** Reads and merges a layout (the server does it in its fabrication thread, thread.ts). */
export function importLayout(task: ImportTask): ImportResult {
  try {
    const layout = readGds(task.bytes, { limits: task.limits, topCell: task.cell });
    const labels = task.labels;
    // Only the one label layer goes back: a layout may hold 10⁵ labels, a request 16 ports.
    const portLabels = labels && portLabelsOf(layout, labels.layer, labels.texttype);
    return {
      ok: true,
      ...mergeLayers(layout, task.layers),
      ...(portLabels ? { portLabels } : {}),
    };
  } catch (err) {
    if (!(err instanceof GdsError && err.reason === "undefined_cell")) throw err;
    return { ok: false, cells: readGds(task.bytes, { limits: task.limits }).cells };
  }
}

export interface GdsResolver {
  /** The structure's layout, its mapped layers merged and, when asked, its port labels. */
  importLayout(
    g: GdsStructureSpec,
    path: string,
    labels: LabelLayer | null,
  ): Promise<ImportResult> | ImportResult;
  /** Raises the request's field errors (the server's 422, the CLI's invalid request). */
  fail(errors: FieldError[]): never;
}

/** What one gds structure becomes. */
interface Expanded {
  structures: PolySlabSpec[];
  ports?: RequestPort[];
}

/**
 * The request with every gds structure resolved; other structures and their order are kept.
 * Ports go with a simulation's source: a /v1/modes request (no source) takes only the
 * polyslabs. A request without gds structures is returned as it is.
 */
export async function resolveGds(
  request: SimulationRequest,
  resolver: GdsResolver,
  isResolved: (s: NonNullable<SimulationRequest["structures"]>[number]) => boolean = (s) =>
    s.type !== "gds",
): Promise<SimulationRequest> {
  const structures = request.structures ?? [];
  if (structures.every(isResolved)) return request;
  const portsDomain = "source" in request ? request.domain : null;
  const out: NonNullable<SimulationRequest["structures"]> = [];
  const sentAs: number[] = [];
  const pieces: number[] = [];
  const fromLayout: Array<{ path: string; ports: RequestPort[] }> = [];
  let budget = MAX_STRUCTURES - structures.filter((s) => s.type !== "gds").length;
  for (const [i, s] of structures.entries()) {
    if (isResolved(s)) {
      out.push(s);
      sentAs.push(i);
      pieces.push(0);
      continue;
    }
    const path = `structures[${i}]`;
    const g = s as GdsStructureSpec;
    const labels = portsDomain && g.ports;
    const imported = await resolver.importLayout(
      g,
      path,
      labels ? { layer: labels.layer, texttype: labels.texttype ?? 0 } : null,
    );
    const expanded = expandImported(g, imported, path, budget, portsDomain, resolver.fail);
    budget -= expanded.structures.length;
    out.push(...expanded.structures);
    pieces.push(...expanded.structures.map((_, p) => p + 1));
    sentAs.push(...expanded.structures.map(() => i));
    if (expanded.ports) fromLayout.push({ path, ports: expanded.ports });
  }
  const withPorts = withLayoutPorts({ ...request, structures: out }, fromLayout);
  if ("errors" in withPorts) resolver.fail(withPorts.errors);
  sentIndices.set(withPorts.request, { sentAs, pieces });
  return withPorts.request;
}

/**
 * For each request resolveGds made: the index each of its structures had as sent, and for a
 * gds structure's polyslabs which of them it is (from 1; 0 for a structure sent as it is).
 */
const sentIndices = new WeakMap<SimulationRequest, { sentAs: number[]; pieces: number[] }>();

/**
 * `text` (a path, a message) about a request resolveGds returned, with each `structures[k]`
 * named as the request was sent: the polyslabs of a gds structure by the gds structure's own
 * index, and with `pieces` set, which polygon of it (`structures[1] polygon 2`: names on a
 * drawing). Any other text, and text about a request with no gds structures, is returned as is.
 */
export function asSent(text: string, resolved: SimulationRequest, pieces = false): string {
  const sent = sentIndices.get(resolved);
  if (!sent) return text;
  return text.replace(/structures\[(\d+)\]/g, (whole, k: string) => {
    const i = sent.sentAs[Number(k)];
    if (i === undefined) return whole;
    const piece = sent.pieces[Number(k)]!;
    return pieces && piece > 0 ? `structures[${i}] polygon ${piece}` : `structures[${i}]`;
  });
}

/** Field errors (or warnings) about a resolved request, paths and messages named as sent. */
export function fieldErrorsAsSent<E extends FieldError>(
  errors: readonly E[],
  resolved: SimulationRequest,
): E[] {
  return errors.map((e) => ({
    ...e,
    path: asSent(e.path, resolved),
    message: asSent(e.message, resolved),
  }));
}

/** A 422's field errors (and detail) about a resolved request, named as it was sent (asSent). */
export function errorAsSent<E>(err: E, resolved: SimulationRequest): E | ApiError {
  if (!(err instanceof ApiError) || err.code !== "validation_error") return err;
  if (!sentIndices.has(resolved)) return err;
  const fieldErrors = fieldErrorsAsSent(err.extra.errors as FieldError[], resolved);
  const extra = { ...err.extra, errors: fieldErrors };
  return new ApiError(err.statusCode, err.code, asSent(err.detail, resolved), extra, err.headers);
}

/**
 * One imported layout's polyslabs and, for a simulation (`portsDomain` given) whose structure
 * has labels, the ports they give, the guides extended through the absorber.
 */
function expandImported(
  g: GdsStructureSpec,
  imported: ImportResult,
  path: string,
  budget: number,
  portsDomain: SimulationRequest["domain"] | null,
  fail: GdsResolver["fail"],
): Expanded {
  if (!imported.ok) {
    const cells = imported.cells;
    const more = cells.length > 20 ? ", …" : "";
    fail([
      {
        path: `${path}.cell`,
        message: `the layout has no cell named "${g.cell}" (its cells: ${cells.slice(0, 20).join(", ")}${more})`,
      },
    ]);
  }
  const orFail = <T extends object>(result: T | { errors: FieldError[] }): T =>
    "errors" in result ? fail(result.errors) : result;
  // The layout as drawn first, so that a missing layer is reported as the file's.
  const drawn = orFail(polyslabsFromGds(g, imported, path, budget));
  if (!imported.portLabels || !portsDomain) return drawn;
  const ports = orFail(portsFromLabels(g, imported, imported.portLabels, path));
  const extensions = portExtensions(g, ports.ends, portsDomain);
  if (extensions.length === 0) return { ...drawn, ports: ports.ports };
  const extended = orFail(withPortExtensions(g, imported, extensions, path));
  return { ...orFail(polyslabsFromGds(g, extended.imported, path, budget)), ports: ports.ports };
}
