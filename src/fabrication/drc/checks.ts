/**
 * Width and space checks over a merged layer, as KLayout's `width` and `space` (flat mode,
 * default options: merged input, `ignore_angle` 90°, shielded, no projection limits):
 *
 * - width: pairs of edges of the same merged polygon facing each other across its interior;
 * - space: pairs of edges facing each other across the exterior, within one polygon (notches)
 *   and between polygons;
 * - shielding: a violation is dropped when another edge within reach runs between the two
 *   edges (crosses both lines joining their ends), as KLayout's default "shielded" mode does
 *   (shielding.ts).
 *
 * Candidate pairs come from a uniform grid (edge-index.ts): each edge is entered in the cells
 * it passes through and looks for partners in the cells within d of it, so the work is
 * proportional to the number of edge pairs closer than about a cell, not to n².
 */

import {
  edgeAt,
  growBoxes,
  indexEdges,
  type EdgeIndex,
  type EdgeViolation,
  type GrownBoxes,
  type LayerEdges,
} from "./edge-index.js";
import { checkEdgePair, type Metric, type Relation } from "./relation.js";
import { Shielding } from "./shielding.js";

/**
 * Runs a width or space check with distance `d` nm over a merged layer's edges and returns the
 * violating edge pairs, one per offending pair of edges, shielded ones removed. `index` may be
 * shared between checks whose distance is at most its reach.
 */
export function checkLayer(
  e: LayerEdges,
  relation: Relation,
  metric: Metric,
  d: number,
  index: EdgeIndex = indexEdges(e, d),
): EdgeViolation[] {
  if (!(d > 0) || e.count === 0) return [];
  if (d > index.reach) throw new RangeError("the index was built for a smaller distance");
  const box = growBoxes(e, index.reach / 2);
  const found = violatingPairs(e, relation, metric, d, index, box);
  found.sort((u, v) => u.a - v.a || u.b - v.b);
  // KLayout's space check keeps its results in a set of symmetric edge pairs, so the same pair
  // found from two edge combinations (two corners whose near parts both shrink to the corner
  // points) counts once; its width check appends to a list and keeps both.
  const reported = relation === "space" ? withoutRepeatedPairs(found) : found;
  const shielding = new Shielding(e, relation, d, index, box);
  return reported.filter((v) => !shielding.shielded(v));
}

/** Every pair of edges that violates the check, before shielding; each pair once. */
function violatingPairs(
  e: LayerEdges,
  relation: Relation,
  metric: Metric,
  d: number,
  index: EdgeIndex,
  box: GrownBoxes,
): EdgeViolation[] {
  const { columns, keys, start, members } = index;
  const found: EdgeViolation[] = [];
  for (let c = 0; c < keys.length; c += 1) {
    const key = keys[c]!;
    const row = Math.floor(key / columns);
    const col = key - row * columns;
    for (let p = start[c]!; p < start[c + 1]!; p += 1) {
      const i = members[p]!;
      const adx = e.x2[i]! - e.x1[i]!;
      const ady = e.y2[i]! - e.y1[i]!;
      for (let q = p + 1; q < start[c + 1]!; q += 1) {
        const j = members[q]!;
        // Facing edges only (directions more than 90° apart): cheapest test first.
        if (adx * (e.x2[j]! - e.x1[j]!) + ady * (e.y2[j]! - e.y1[j]!) >= 0) continue;
        if (relation === "width" && e.polygon[i] !== e.polygon[j]) continue;
        if (!nearPairOwnedBy(index, box, i, j, row, col, d)) continue;
        if (!mayFace(e, i, j, relation) || !mayFace(e, j, i, relation)) continue;
        const [a, b] = i < j ? [i, j] : [j, i];
        const pair = checkEdgePair(edgeAt(e, a), edgeAt(e, b), relation, metric, d);
        if (pair) found.push({ pair, a, b });
      }
    }
  }
  return found;
}

/**
 * Do the grown boxes of edges i and j overlap, with the overlap's lower-left corner in cell
 * (row, col) (the pair's owner: see EdgeIndex), and are the edges' own boxes closer than d
 * along both axes (edges whose boxes are d or more apart have no points closer than d)?
 */
function nearPairOwnedBy(
  index: EdgeIndex,
  box: GrownBoxes,
  i: number,
  j: number,
  row: number,
  col: number,
  d: number,
): boolean {
  const half = index.reach / 2;
  const ox0 = Math.max(box.x0[i]!, box.x0[j]!);
  const oy0 = Math.max(box.y0[i]!, box.y0[j]!);
  const ox1 = Math.min(box.x1[i]!, box.x1[j]!);
  const oy1 = Math.min(box.y1[i]!, box.y1[j]!);
  if (ox0 > ox1 || oy0 > oy1) return false;
  if (
    Math.floor((ox0 - index.originX) / index.cell) !== col ||
    Math.floor((oy0 - index.originY) / index.cell) !== row
  ) {
    return false;
  }
  const gapX = ox0 - ox1 + 2 * half;
  const gapY = oy0 - oy1 + 2 * half;
  return gapX < d && gapY < d;
}

/**
 * Exact pre-test before the full relation: can edge b have a part strictly on the side edge a
 * looks into (right for width, left for space)? Collinear edges pass (the kissing-corner case).
 */
function mayFace(e: LayerEdges, a: number, b: number, relation: Relation): boolean {
  const ax = e.x1[a]!;
  const ay = e.y1[a]!;
  const dx = e.x2[a]! - ax;
  const dy = e.y2[a]! - ay;
  const s1 = Math.sign(dx * (e.y1[b]! - ay) - dy * (e.x1[b]! - ax));
  const s2 = Math.sign(dx * (e.y2[b]! - ay) - dy * (e.x2[b]! - ax));
  if (s1 === 0 && s2 === 0) return true;
  return relation === "width" ? s1 < 0 || s2 < 0 : s1 > 0 || s2 > 0;
}

/** The violations with the same pair of edge parts (either way round) kept once, the first. */
function withoutRepeatedPairs(found: readonly EdgeViolation[]): EdgeViolation[] {
  const seen = new Set<string>();
  return found.filter((v) => {
    const f = v.pair.first;
    const g = v.pair.second;
    const a = `${f.x1},${f.y1},${f.x2},${f.y2}`;
    const b = `${g.x1},${g.y1},${g.x2},${g.y2}`;
    const key = a < b ? `${a}|${b}` : `${b}|${a}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
