/**
 * The thread a fabrication check runs in (see service.ts): reading an uploaded file and design
 * rule checks take seconds on large layouts, so they run off the server's event loop, under a
 * heap limit, and are terminated when they pass their time limit.
 *
 * The thread stays up between checks (service.ts keeps a small pool of them, a TaskThreads
 * of src/threads), so the compiled code is warm. Each message is a {@link ThreadTask}; each
 * answer is {ok: true, result} or {ok: false, error: {name, reason?, message}}, the reason
 * being a GdsError's (the service turns it into a 422 gds_invalid).
 */

export type { ImportResult } from "./gds-resolve.js";
import { runDrc, type LayerRules } from "./drc/run.js";
import { GdsError } from "./gds/errors.js";
import { readGds, type GdsReadLimits } from "./gds/reader.js";
import { importLayout, type ImportTask } from "./gds-resolve.js";
import { serveTasks } from "../threads/task-threads.js";

export type ThreadTask =
  | { op: "inspect"; bytes: Uint8Array; limits?: Partial<GdsReadLimits> }
  | ImportTask
  | {
      op: "drc";
      bytes: Uint8Array;
      limits?: Partial<GdsReadLimits>;
      /** Rules per layer key; `fallback` applies to layers not listed except `markers`. */
      rules: Record<string, LayerRules>;
      fallback?: LayerRules;
      markers?: string[];
      maxViolations?: number;
    };

export interface InspectResult {
  cells: string[];
  topCells: string[];
  layers: string[];
  polygonCount: number;
  elementCount: number;
  bboxNm: [number, number, number, number] | null;
  warnings: string[];
}

function run(task: ThreadTask): unknown {
  if (task.op === "import") return importLayout(task);
  const layout = readGds(task.bytes, { limits: task.limits });
  if (task.op === "inspect") {
    const result: InspectResult = {
      cells: layout.cells,
      topCells: layout.topCells,
      layers: [...layout.layers.keys()],
      polygonCount: layout.polygonCount,
      elementCount: layout.elementCount,
      bboxNm: layout.bboxNm,
      warnings: layout.warnings,
    };
    return result;
  }
  const rules: Record<string, LayerRules> = {};
  for (const key of layout.layers.keys()) {
    const own = task.rules[key];
    if (task.markers?.includes(key)) continue;
    if (own || task.fallback) rules[key] = { ...own, ...task.fallback };
  }
  return {
    drc: runDrc(layout.layers, rules, { maxViolations: task.maxViolations }),
    warnings: layout.warnings,
    layers: [...layout.layers.keys()],
  };
}

serveTasks(run, (err) => ({
  name: err instanceof Error ? err.name : "Error",
  reason: err instanceof GdsError ? err.reason : undefined,
  message: err instanceof Error ? err.message : String(err),
}));
