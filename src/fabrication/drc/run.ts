/**
 * Design-rule checks of a flattened layout: per layer, the polygons are merged, then
 * `min_feature` (KLayout `width` with the projection metric), `min_spacing` (KLayout `space`,
 * Euclidean metric, notches included) and `min_radius` (curved features, see radius.ts).
 * One violation per offending edge pair, as KLayout reports them (DESIGN.md §9).
 */

import { mergePolygons } from "../geometry/merge.js";
import type { Ring } from "../geometry/polygon.js";
import { checkLayer, edgesOfMerge, indexEdges } from "./checks.js";
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
// eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
export function runDrc(
  layers: ReadonlyMap<string, readonly Ring[]>,
  rules: Readonly<Record<string, LayerRules>>,
  options: DrcOptions = {},
): DrcResult {
  const maxViolations = options.maxViolations ?? 10_000;
  const violations: Violation[] = [];
  const byRule: Record<RuleName, number> = { min_feature: 0, min_spacing: 0, min_radius: 0 };
  let errors = 0;
  let warnings = 0;
  const summaries: LayerSummary[] = [];
  const unchecked: string[] = [];
  const radiusLayers: string[] = [];
  let radiusFeatures = 0;

  const layerKeys = [...layers.keys()].sort(compareLayerKeys);
  for (const key of layerKeys) {
    const layerRules = rules[key];
    if (
      !layerRules ||
      (layerRules.min_feature_nm === undefined &&
        layerRules.min_spacing_nm === undefined &&
        layerRules.min_radius_nm === undefined)
    ) {
      unchecked.push(key);
      continue;
    }
    const merge = mergePolygons(layers.get(key)!);
    const edges = edgesOfMerge(merge);
    // One grid serves both checks: built for the larger of the two distances.
    const reach = Math.max(layerRules.min_feature_nm ?? 0, layerRules.min_spacing_nm ?? 0);
    const index = reach > 0 ? indexEdges(edges, reach) : null;
    const counts: Record<RuleName, number> = { min_feature: 0, min_spacing: 0, min_radius: 0 };
    const record = (v: Omit<Violation, "severity" | "layer">): void => {
      const severity = layerRules.advisory?.includes(v.rule) ? "warning" : "error";
      counts[v.rule] += 1;
      byRule[v.rule] += 1;
      if (severity === "error") errors += 1;
      else warnings += 1;
      if (violations.length < maxViolations) violations.push({ ...v, severity, layer: key });
    };
    const fromPair = (rule: RuleName, required: number, pair: EdgePair): void => {
      const { first: f, second: s } = pair;
      const xmin = Math.min(f.x1, f.x2, s.x1, s.x2);
      const xmax = Math.max(f.x1, f.x2, s.x1, s.x2);
      const ymin = Math.min(f.y1, f.y2, s.y1, s.y2);
      const ymax = Math.max(f.y1, f.y2, s.y1, s.y2);
      record({
        rule,
        location: [nmToUm((xmin + xmax) / 2), nmToUm((ymin + ymax) / 2)],
        actual_nm: round1(segmentDistance(f, s)),
        required_nm: required,
        edges_nm: [
          [f.x1, f.y1, f.x2, f.y2],
          [s.x1, s.y1, s.x2, s.y2],
        ],
      });
    };
    if (layerRules.min_feature_nm !== undefined) {
      const d = layerRules.min_feature_nm;
      for (const v of checkLayer(edges, "width", "projection", d, index!))
        fromPair("min_feature", d, v.pair);
    }
    if (layerRules.min_spacing_nm !== undefined) {
      const d = layerRules.min_spacing_nm;
      for (const v of checkLayer(edges, "space", "euclidean", d, index!))
        fromPair("min_spacing", d, v.pair);
    }
    const features =
      layerRules.min_radius_nm !== undefined ? curvedFeatures(findArcs(merge)) : null;
    if (features && layerRules.min_radius_nm !== undefined) {
      radiusLayers.push(key);
      radiusFeatures += features.length;
      const r = layerRules.min_radius_nm;
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
    }
    summaries.push({
      layer: key,
      rules: layerRules,
      merged_polygons: merge.polygonCount,
      curved_features: features ? features.length : null,
      violations: counts,
    });
  }

  const notes: string[] = [];
  if (radiusLayers.length > 0 && radiusFeatures === 0) {
    notes.push(
      `min_radius: no curved features on ${radiusLayers.join(", ")} (an arc needs at least 4 segments turning by at most 30° each), so there was nothing to check.`,
    );
  }
  if (unchecked.length > 0) {
    notes.push(`No rules for ${unchecked.join(", ")}: not checked.`);
  }
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
      notes,
    },
  };
}

/** Orders "L/D" keys numerically by layer, then datatype. */
export function compareLayerKeys(a: string, b: string): number {
  const [la, da] = a.split("/").map(Number);
  const [lb, db] = b.split("/").map(Number);
  return la! - lb! || da! - db!;
}
