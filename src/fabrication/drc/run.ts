/**
 * Design-rule checks of a flattened layout: per layer, the polygons are merged, then
 * `min_feature` (KLayout `width` with the projection metric), `min_spacing` (KLayout `space`,
 * Euclidean metric, notches included) and `min_radius` (curved features, see radius.ts).
 * One violation per offending edge pair, as KLayout reports them (DESIGN.md §9).
 */

import { mergePolygons, type MergeResult } from "../geometry/merge.js";
import type { Ring } from "../geometry/polygon.js";
import { checkLayer } from "./checks.js";
import { edgesOfMerge, indexEdges } from "./edge-index.js";
import { curvedFeatures, findArcs } from "./radius.js";
import { segmentDistance, type EdgePair } from "./relation.js";

export type RuleName = "min_feature" | "min_spacing" | "min_radius";

/** Rules for one layer, nanometres. A missing rule is not checked. */
export interface LayerRules {
  min_feature_nm?: number;
  min_spacing_nm?: number;
  min_radius_nm?: number;
  /** Rules whose violations are warnings (advisory PDK rules) rather than errors. */
  advisory?: RuleName[];
}

export interface Violation {
  rule: RuleName;
  severity: "error" | "warning";
  /** Centre of the offending edge pair's box (for min_radius: the arc's middle), µm. */
  location: [number, number];
  /** Distance between the two edges, or the feature's radius, nm (0.1 nm resolution). */
  actual_nm: number;
  required_nm: number;
  /** "layer/datatype". */
  layer: string;
  /** The two edges (parts of edges) KLayout would report, [x1, y1, x2, y2] in nm each. */
  edges_nm: [[number, number, number, number], [number, number, number, number]];
}

export interface LayerSummary {
  layer: string;
  rules: LayerRules;
  merged_polygons: number;
  /** Arcs and bends found; null when the layer has no min_radius rule (not looked for). */
  curved_features: number | null;
  violations: Record<RuleName, number>;
}

export interface DrcSummary {
  checked_layers: string[];
  /** Layers in the layout with no rule to check. */
  unchecked_layers: string[];
  violation_count: number;
  errors: number;
  warnings: number;
  by_rule: Record<RuleName, number>;
  layers: LayerSummary[];
  /** True when more violations were found than the list holds. */
  truncated: boolean;
  notes: string[];
}

export interface DrcResult {
  /** No error-severity violation. */
  passed: boolean;
  violations: Violation[];
  summary: DrcSummary;
}

export interface DrcOptions {
  /** Violations listed at most (the counts in the summary are complete); default 10 000. */
  maxViolations?: number;
}

const round1 = (v: number): number => Math.round(v * 10) / 10;
/** A fitted radius fails only when it is this far below the rule (see radius.ts). */
const RADIUS_RESOLUTION_NM = 0.5;
const nmToUm = (v: number): number => Math.round(v * 10) / 1e4;

/**
 * Checks `layers` (flattened polygons per "L/D", integer nm) against `rules` per layer key.
 * Layers without rules are listed as unchecked.
 */
export function runDrc(
  layers: ReadonlyMap<string, readonly Ring[]>,
  rules: Readonly<Record<string, LayerRules>>,
  options: DrcOptions = {},
): DrcResult {
  const tally = new ViolationTally(options.maxViolations ?? 10_000);
  const summaries: LayerSummary[] = [];
  const unchecked: string[] = [];
  for (const key of [...layers.keys()].sort(compareLayerKeys)) {
    const layerRules = rules[key];
    if (!layerRules || !hasAnyRule(layerRules)) {
      unchecked.push(key);
      continue;
    }
    summaries.push(checkLayerRules(key, layers.get(key)!, layerRules, tally));
  }
  const { violations, byRule, errors, warnings } = tally;
  const total = byRule.min_feature + byRule.min_spacing + byRule.min_radius;
  return {
    passed: errors === 0,
    violations,
    summary: {
      checked_layers: summaries.map((s) => s.layer),
      unchecked_layers: unchecked,
      violation_count: total,
      errors,
      warnings,
      by_rule: byRule,
      layers: summaries,
      truncated: total > violations.length,
      notes: summaryNotes(summaries, unchecked),
    },
  };
}

function hasAnyRule(r: LayerRules): boolean {
  return (
    r.min_feature_nm !== undefined ||
    r.min_spacing_nm !== undefined ||
    r.min_radius_nm !== undefined
  );
}

/** A violation as a check finds it, before the layer and the rule's severity are added. */
type Finding = Omit<Violation, "severity" | "layer">;

/** Every violation found, all layers: the counts are complete, the list holds the first ones. */
class ViolationTally {
  readonly violations: Violation[] = [];
  readonly byRule: Record<RuleName, number> = { min_feature: 0, min_spacing: 0, min_radius: 0 };
  errors = 0;
  warnings = 0;

  constructor(private readonly maxViolations: number) {}

  /** Counts a finding on `layer` (in `layerCounts` too), as a warning if its rule is advisory. */
  record(
    layer: string,
    rules: LayerRules,
    layerCounts: Record<RuleName, number>,
    v: Finding,
  ): void {
    const severity = rules.advisory?.includes(v.rule) ? "warning" : "error";
    layerCounts[v.rule] += 1;
    this.byRule[v.rule] += 1;
    if (severity === "error") this.errors += 1;
    else this.warnings += 1;
    if (this.violations.length < this.maxViolations) {
      this.violations.push({ ...v, severity, layer });
    }
  }
}

/** Merges one layer, runs each of its rules and records what they find. */
function checkLayerRules(
  key: string,
  polygons: readonly Ring[],
  layerRules: LayerRules,
  tally: ViolationTally,
): LayerSummary {
  const merge = mergePolygons(polygons);
  const counts: Record<RuleName, number> = { min_feature: 0, min_spacing: 0, min_radius: 0 };
  const record = (v: Finding): void => tally.record(key, layerRules, counts, v);
  checkWidthAndSpace(merge, layerRules, record);
  const curved =
    layerRules.min_radius_nm !== undefined
      ? checkRadius(merge, layerRules.min_radius_nm, record)
      : null;
  return {
    layer: key,
    rules: layerRules,
    merged_polygons: merge.polygonCount,
    curved_features: curved,
    violations: counts,
  };
}

/** min_feature (width, projection metric) and min_spacing (space, Euclidean) of a layer. */
function checkWidthAndSpace(
  merge: MergeResult,
  layerRules: LayerRules,
  record: (v: Finding) => void,
): void {
  const edges = edgesOfMerge(merge);
  // One grid serves both checks: built for the larger of the two distances.
  const reach = Math.max(layerRules.min_feature_nm ?? 0, layerRules.min_spacing_nm ?? 0);
  const index = reach > 0 ? indexEdges(edges, reach) : null;
  if (layerRules.min_feature_nm !== undefined) {
    const d = layerRules.min_feature_nm;
    for (const v of checkLayer(edges, "width", "projection", d, index!))
      record(pairFinding("min_feature", d, v.pair));
  }
  if (layerRules.min_spacing_nm !== undefined) {
    const d = layerRules.min_spacing_nm;
    for (const v of checkLayer(edges, "space", "euclidean", d, index!))
      record(pairFinding("min_spacing", d, v.pair));
  }
}

/** A width or space violation, located at the centre of its edge pair's box. */
function pairFinding(rule: RuleName, required: number, pair: EdgePair): Finding {
  const { first: f, second: s } = pair;
  const xmin = Math.min(f.x1, f.x2, s.x1, s.x2);
  const xmax = Math.max(f.x1, f.x2, s.x1, s.x2);
  const ymin = Math.min(f.y1, f.y2, s.y1, s.y2);
  const ymax = Math.max(f.y1, f.y2, s.y1, s.y2);
  return {
    rule,
    location: [nmToUm((xmin + xmax) / 2), nmToUm((ymin + ymax) / 2)],
    actual_nm: round1(segmentDistance(f, s)),
    required_nm: required,
    edges_nm: [
      [f.x1, f.y1, f.x2, f.y2],
      [s.x1, s.y1, s.x2, s.y2],
    ],
  };
}

/** min_radius of a layer's curved features; returns how many features it found. */
function checkRadius(merge: MergeResult, r: number, record: (v: Finding) => void): number {
  const features = curvedFeatures(findArcs(merge));
  for (const feature of features) {
    // Vertices snapped to 1 nm scatter the fitted radius by a few tenths of a nanometre.
    if (!(feature.radiusNm < r - RADIUS_RESOLUTION_NM)) continue;
    const arc = feature.arcs[0]!;
    record({
      rule: "min_radius",
      location: [nmToUm(feature.location[0]), nmToUm(feature.location[1])],
      actual_nm: round1(feature.radiusNm),
      required_nm: r,
      edges_nm: [arc.firstEdge, arc.lastEdge],
    });
  }
  return features.length;
}

/** The summary's notes: min_radius rules that found nothing to check, layers without rules. */
function summaryNotes(summaries: readonly LayerSummary[], unchecked: readonly string[]): string[] {
  const notes: string[] = [];
  const radiusLayers = summaries.filter((s) => s.curved_features !== null);
  const radiusFeatures = radiusLayers.reduce((sum, s) => sum + s.curved_features!, 0);
  if (radiusLayers.length > 0 && radiusFeatures === 0) {
    notes.push(
      `min_radius: no curved features on ${radiusLayers.map((s) => s.layer).join(", ")} (an arc needs at least 4 segments turning by at most 30° each), so there was nothing to check.`,
    );
  }
  if (unchecked.length > 0) {
    notes.push(`No rules for ${unchecked.join(", ")}: not checked.`);
  }
  return notes;
}

/** Orders "L/D" keys numerically by layer, then datatype. */
export function compareLayerKeys(a: string, b: string): number {
  const [la, da] = a.split("/").map(Number);
  const [lb, db] = b.split("/").map(Number);
  return la! - lb! || da! - db!;
}
