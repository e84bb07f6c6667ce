/**
 * Polygon slabs (`type: "polyslab"`): an outline in the x–y plane, optionally with holes,
 * extruded from z_min to z_max, with an optional sidewall angle. This module holds their
 * validation (simple outline, holes inside, no collapse under the sidewall angle), their
 * smoothing geometry (a {@link Shape}) and a point locator for plots.
 *
 * Conventions (as gdsfactory and Tidy3D's PolySlab): the vertices are the outline at the
 * **bottom** (z = z_min); `sidewall_angle_deg` is measured from vertical and positive shrinks
 * the outline going up: every edge moves inward by d(z) = (z − z_min)·tan θ, each vertex along
 * its miter vector (n₁ + n₂)/(1 + n₁·n₂) (n the inward unit normals of its two edges), which
 * keeps every edge parallel to itself.
 *
 * Fill fraction of the cube of side h centred on p: the exact area fraction of the cube's x–y
 * square inside the outline offset to the cube's centre height (z clamped into [z_min, z_max]),
 * times the cube's z overlap with [z_min, z_max]. Exact for vertical walls of any direction
 * (not only axis-aligned ones) and continuous as the geometry moves; with a sidewall angle the
 * offset is taken at the cube's mid-height, which is exact while the cut area varies linearly
 * across the cube (the wall crosses the square in one straight piece).
 *
 * The area comes from Green's theorem written per horizontal line: the length of the line
 * y = const inside the square is Σₑ σₑ·(clamp(xₑ(y), x₀, x₁) − x₀) over the edges crossing
 * it, σ = +1 for an edge going up and −1 going down when the solid lies to the left of every
 * edge (outline counter-clockwise, holes clockwise). Edges wholly left of the square add 0;
 * edges wholly right add σ·h per unit of y. Edges are bucketed in rows of half a cell, sorted
 * by their smallest x, so a cell costs a binary search plus the edges that actually cross its
 * square; the "wholly right" part is a precomputed suffix sum for vertical walls (rows align
 * with the Yee bands the medium asks for), so a polygon of thousands of vertices costs about
 * what a box does per cell. With a sidewall angle the suffix is summed per query (the offset
 * changes every row's crossings), the shorter of it and the prefix: the signed crossings of a
 * closed outline cancel on every line.
 *
 * The outward normal is −∇f: the in-plane part Σ ℓₑ·nₑ (length of each edge inside the square
 * times its outward normal, which is −∇ of the area), tilted by the sidewall angle, plus the
 * top/bottom faces' part, weighted as the box's gradient is.
 */
import type { DomainFaces, Shape } from "./shape.js";
import { overlap1d, overlapSlope } from "./overlap.js";
import type { PolySlabSpec, SpecProblem, Vec3 } from "./types.js";
import { numberText } from "./number-text.js";

/** Most vertices of one polyslab (outline and holes together). */
export const MAX_POLYSLAB_VERTICES = 10_000;
/** Most holes of one polyslab. */
export const MAX_POLYSLAB_HOLES = 1_000;
/** Most polyslab vertices of one request, all structures together. */
export const MAX_REQUEST_POLYGON_VERTICES = 200_000;
/** Largest |sidewall angle| in degrees. */
export const MAX_SIDEWALL_ANGLE_DEG = 89;

const fmt = (v: number) => numberText(v);

/**
 * Rings as flat coordinate arrays, consecutive duplicates (and a repeated closing vertex)
 * removed, oriented with the solid to the left of every edge: outline counter-clockwise,
 * holes clockwise.
 */
export interface OrientedRings {
  rings: Float64Array[];
  /** Signed area of the solid (outline minus holes), m². */
  area: number;
}

function dedupe(points: readonly (readonly number[])[]): number[] {
  const out: number[] = [];
  for (const p of points) {
    const n = out.length;
    if (n >= 2 && out[n - 2] === p[0] && out[n - 1] === p[1]) continue;
    out.push(p[0]!, p[1]!);
  }
  while (out.length >= 4 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) {
    out.length -= 2;
  }
  return out;
}

/** Twice the signed area (shoelace, relative to the first vertex), positive counter-clockwise. */
function area2(r: ArrayLike<number>): number {
  const n = r.length >> 1;
  let s = 0;
  const x0 = r[0]!;
  const y0 = r[1]!;
  for (let i = 1; i + 1 < n; i++) {
    s += (r[2 * i]! - x0) * (r[2 * i + 3]! - y0) - (r[2 * i + 2]! - x0) * (r[2 * i + 1]! - y0);
  }
  return s;
}

function oriented(points: readonly (readonly number[])[], ccw: boolean): Float64Array {
  const flat = dedupe(points);
  const r = Float64Array.from(flat);
  if (area2(r) > 0 !== ccw) {
    const n = r.length >> 1;
    for (let i = 0; i < n >> 1; i++) {
      const j = n - 1 - i;
      const tx = r[2 * i]!;
      const ty = r[2 * i + 1]!;
      r[2 * i] = r[2 * j]!;
      r[2 * i + 1] = r[2 * j + 1]!;
      r[2 * j] = tx;
      r[2 * j + 1] = ty;
    }
  }
  return r;
}

export function orientRings(s: Pick<PolySlabSpec, "vertices" | "holes">): OrientedRings {
  const rings = [oriented(s.vertices, true), ...(s.holes ?? []).map((h) => oriented(h, false))];
  const area = rings.reduce((sum, r) => sum + area2(r) / 2, 0);
  return { rings, area };
}

/** Inward miter vectors per vertex, [mx0, my0, …] per ring (solid to the left of each edge). */
function miters(rings: readonly Float64Array[]): Float64Array[] {
  return rings.map((r) => {
    const n = r.length >> 1;
    const m = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const p = (i + n - 1) % n;
      const q = (i + 1) % n;
      const n1 = inwardNormal(r[2 * p]!, r[2 * p + 1]!, r[2 * i]!, r[2 * i + 1]!);
      const n2 = inwardNormal(r[2 * i]!, r[2 * i + 1]!, r[2 * q]!, r[2 * q + 1]!);
      const denom = 1 + n1[0] * n2[0] + n1[1] * n2[1];
      // A reversal (denominator 0) is not a simple polygon and is refused before this is used.
      const k = denom > 1e-12 ? 1 / denom : 0;
      m[2 * i] = (n1[0] + n2[0]) * k;
      m[2 * i + 1] = (n1[1] + n2[1]) * k;
    }
    return m;
  });
}

function inwardNormal(ax: number, ay: number, bx: number, by: number): [number, number] {
  const len = Math.hypot(bx - ax, by - ay) || 1;
  return [-(by - ay) / len, (bx - ax) / len];
}

function offsetRings(
  rings: readonly Float64Array[],
  m: readonly Float64Array[],
  d: number,
): Float64Array[] {
  return rings.map((r, k) => r.map((v, i) => v + d * m[k]![i]!));
}

const tanDeg = (deg: number) => Math.tan((deg * Math.PI) / 180);

/** Inward offset at the top, m: (z_max − z_min)·tan θ. */
function topOffset(s: PolySlabSpec): number {
  return (s.z_max - s.z_min) * tanDeg(s.sidewall_angle_deg ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Validation

interface Segment {
  ring: number;
  index: number;
  ax: number;
  ay: number;
  bx: number;
  by: number;
}

function segmentsOf(rings: readonly Float64Array[]): Segment[] {
  const out: Segment[] = [];
  rings.forEach((r, ring) => {
    const n = r.length >> 1;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      out.push({
        ring,
        index: i,
        ax: r[2 * i]!,
        ay: r[2 * i + 1]!,
        bx: r[2 * j]!,
        by: r[2 * j + 1]!,
      });
    }
  });
  return out;
}

/**
 * The first pair of edges that cross, touch or overlap (other than neighbours meeting at their
 * shared vertex), or null. Edges are bucketed on a √E × √E grid over the rings' box (each edge
 * in the cells its segment passes through), so typical outlines cost about O(E) pair tests.
 */
export function firstIntersection(rings: readonly Float64Array[]): [Segment, Segment] | null {
  const segs = segmentsOf(rings);
  let xmin = Infinity;
  let ymin = Infinity;
  let xmax = -Infinity;
  let ymax = -Infinity;
  for (const s of segs) {
    xmin = Math.min(xmin, s.ax);
    xmax = Math.max(xmax, s.ax);
    ymin = Math.min(ymin, s.ay);
    ymax = Math.max(ymax, s.ay);
  }
  const scale = Math.max(xmax - xmin, ymax - ymin);
  // Orientation values below this count as zero (collinear): 1e-12 of the outline's size².
  const eps = 1e-12 * scale * scale;
  const g = Math.max(1, Math.min(1024, Math.ceil(Math.sqrt(segs.length))));
  const cw = (xmax - xmin) / g || 1;
  const ch = (ymax - ymin) / g || 1;
  const cells = new Map<number, number[]>();
  const col = (x: number) => Math.min(g - 1, Math.max(0, Math.floor((x - xmin) / cw)));
  const row = (y: number) => Math.min(g - 1, Math.max(0, Math.floor((y - ymin) / ch)));
  segs.forEach((s, id) => {
    const c0 = col(Math.min(s.ax, s.bx));
    const c1 = col(Math.max(s.ax, s.bx));
    for (let c = c0; c <= c1; c++) {
      // The segment's y range within this column (widened by one cell for rounding).
      const xl = Math.max(Math.min(s.ax, s.bx), xmin + c * cw);
      const xr = Math.min(Math.max(s.ax, s.bx), xmin + (c + 1) * cw);
      let ylo = Math.min(s.ay, s.by);
      let yhi = Math.max(s.ay, s.by);
      if (s.bx !== s.ax) {
        const y1 = s.ay + ((xl - s.ax) * (s.by - s.ay)) / (s.bx - s.ax);
        const y2 = s.ay + ((xr - s.ax) * (s.by - s.ay)) / (s.bx - s.ax);
        ylo = Math.min(y1, y2);
        yhi = Math.max(y1, y2);
      }
      const r0 = Math.max(0, row(ylo) - 1);
      const r1 = Math.min(g - 1, row(yhi) + 1);
      for (let r = r0; r <= r1; r++) {
        const key = r * g + c;
        let list = cells.get(key);
        if (!list) cells.set(key, (list = []));
        list.push(id);
      }
    }
  });
  const ringSize = rings.map((r) => r.length >> 1);
  for (const list of cells.values()) {
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const s = segs[list[a]!]!;
        const t = segs[list[b]!]!;
        if (segmentsConflict(s, t, ringSize, eps)) return [s, t];
      }
    }
  }
  return null;
}

function orient(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  eps: number,
) {
  const v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return v > eps ? 1 : v < -eps ? -1 : 0;
}

function onSegment(s: Segment, x: number, y: number): boolean {
  return (
    x >= Math.min(s.ax, s.bx) &&
    x <= Math.max(s.ax, s.bx) &&
    y >= Math.min(s.ay, s.by) &&
    y <= Math.max(s.ay, s.by)
  );
}

function segmentsConflict(s: Segment, t: Segment, ringSize: number[], eps: number): boolean {
  if (s.ring === t.ring) {
    const n = ringSize[s.ring]!;
    const next = (s.index + 1) % n === t.index;
    const prev = (t.index + 1) % n === s.index;
    if (next || prev) {
      // Neighbours share one vertex; they conflict only if they fold back over each other.
      const [ox, oy, px, py, qx, qy] = next
        ? [s.bx, s.by, s.ax, s.ay, t.bx, t.by]
        : [s.ax, s.ay, s.bx, s.by, t.ax, t.ay];
      if (orient(ox, oy, px, py, qx, qy, eps) !== 0) return false;
      return (px - ox) * (qx - ox) + (py - oy) * (qy - oy) > 0;
    }
  }
  const o1 = orient(s.ax, s.ay, s.bx, s.by, t.ax, t.ay, eps);
  const o2 = orient(s.ax, s.ay, s.bx, s.by, t.bx, t.by, eps);
  const o3 = orient(t.ax, t.ay, t.bx, t.by, s.ax, s.ay, eps);
  const o4 = orient(t.ax, t.ay, t.bx, t.by, s.bx, s.by, eps);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  if (o1 === 0 && onSegment(s, t.ax, t.ay)) return true;
  if (o2 === 0 && onSegment(s, t.bx, t.by)) return true;
  if (o3 === 0 && onSegment(t, s.ax, s.ay)) return true;
  if (o4 === 0 && onSegment(t, s.bx, s.by)) return true;
  return false;
}

/** Crossing-number test of a point against rings (solid where the count is odd). */
function insideRing(r: ArrayLike<number>, x: number, y: number): boolean {
  const n = r.length >> 1;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const yi = r[2 * i + 1]!;
    const yj = r[2 * j + 1]!;
    if (yi > y !== yj > y) {
      const xc = r[2 * i]! + ((y - yi) * (r[2 * j]! - r[2 * i]!)) / (yj - yi);
      if (x < xc) inside = !inside;
    }
  }
  return inside;
}

function ringName(ring: number): string {
  return ring === 0 ? "vertices" : `holes[${ring - 1}]`;
}

type AddProblem = (path: string, message: string) => void;
const isFinite = (v: unknown) => typeof v === "number" && Number.isFinite(v);

/** Geometry problems of one polyslab (the caller checks the material). */
export function polySlabProblems(s: PolySlabSpec, path: string): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const add = (p: string, message: string) => problems.push({ path: `${path}${p}`, message });
  checkNumbers(s, add);
  if (problems.length > 0) return problems;
  const { rings, area } = orientRings(s);
  if (checkRings(rings, area, add)) checkSidewall(s, rings, add);
  return problems;
}

/** Vertices (finite pairs, three distinct per ring, not too many), z range and angle. */
function checkNumbers(s: PolySlabSpec, add: AddProblem): void {
  const lists: [string, readonly (readonly number[])[]][] = [
    ["vertices", s.vertices],
    ...(s.holes ?? []).map((h, k): [string, readonly (readonly number[])[]] => [`holes[${k}]`, h]),
  ];
  let total = 0;
  for (const [name, list] of lists) {
    total += list.length;
    const bad = list.findIndex((v) => v.length !== 2 || !isFinite(v[0]) || !isFinite(v[1]));
    if (bad >= 0) return add(`.${name}[${bad}]`, "must be a finite [x, y] pair in metres");
    if (dedupe(list).length < 6) return add(`.${name}`, "must have at least 3 distinct vertices");
  }
  if ((s.holes?.length ?? 0) > MAX_POLYSLAB_HOLES) {
    add(".holes", `has ${s.holes!.length} holes; at most ${MAX_POLYSLAB_HOLES} are allowed`);
  }
  if (total > MAX_POLYSLAB_VERTICES) {
    add(
      ".vertices",
      `the outline and holes have ${total} vertices; at most ${MAX_POLYSLAB_VERTICES} are allowed per polyslab`,
    );
  }
  if (!isFinite(s.z_min)) add(".z_min", "must be a finite number of metres");
  if (!isFinite(s.z_max)) add(".z_max", "must be a finite number of metres");
  else if (isFinite(s.z_min) && !(s.z_max > s.z_min)) {
    add(".z_max", `must be greater than z_min (${fmt(s.z_min)} m)`);
  }
  const angle = s.sidewall_angle_deg ?? 0;
  if (!(isFinite(angle) && Math.abs(angle) <= MAX_SIDEWALL_ANGLE_DEG)) {
    add(
      ".sidewall_angle_deg",
      `must be between −${MAX_SIDEWALL_ANGLE_DEG} and ${MAX_SIDEWALL_ANGLE_DEG} degrees`,
    );
  }
}

/**
 * The outline and holes are simple and disjoint, each hole inside the outline and outside the
 * other holes, and they enclose an area. Returns whether they passed.
 */
function checkRings(rings: Float64Array[], area: number, add: AddProblem): boolean {
  const hit = firstIntersection(rings);
  if (hit) {
    const [a, b] = hit;
    // An edge from vertex i to the next, the last one closing the ring back to vertex 0.
    const edge = (e: { ring: number; index: number }) =>
      `${e.index}→${(e.index + 1) % (rings[e.ring]!.length / 2)}`;
    const where =
      a.ring === b.ring
        ? `edges ${edge(a)} and ${edge(b)} of ${ringName(a.ring)}`
        : `edge ${a.index} of ${ringName(a.ring)} and edge ${b.index} of ${ringName(b.ring)}`;
    add(
      a.ring === 0 && b.ring === 0 ? ".vertices" : "",
      `is not a simple polygon: ${where} cross or touch (outlines must not intersect themselves or each other; vertices are not reordered)`,
    );
    return false;
  }
  let ok = true;
  const outline = rings[0]!;
  for (let k = 1; k < rings.length; k++) {
    const h = rings[k]!;
    if (!insideRing(outline, h[0]!, h[1]!)) {
      add(`.holes[${k - 1}]`, "must lie inside the outline");
      ok = false;
    }
    const j = rings.findIndex((r, j) => j > 0 && j !== k && insideRing(r, h[0]!, h[1]!));
    if (j > 0) {
      add(`.holes[${k - 1}]`, `must not lie inside holes[${j - 1}]`);
      ok = false;
    }
  }
  if (!ok) return false;
  if (!(area > 1e-12 * ringsSize(rings) ** 2)) {
    add(".vertices", "encloses no area");
    return false;
  }
  return true;
}

/** The larger side of the rings' bounding box. */
function ringsSize(rings: readonly ArrayLike<number>[]): number {
  const box = boundsOf(rings);
  return Math.max(box[2] - box[0], box[3] - box[1]);
}

/**
 * The sidewall: every edge's length is linear in the offset, so no edge collapses between
 * bottom and top when none has at the top; then the top outline must still be simple.
 */
function checkSidewall(s: PolySlabSpec, rings: Float64Array[], add: AddProblem): void {
  const dTop = topOffset(s);
  if (dTop === 0) return;
  const angle = s.sidewall_angle_deg ?? 0;
  const m = miters(rings);
  const worst = firstCollapsingEdge(rings, m, dTop);
  if (worst) {
    const zCollapse = s.z_min + worst.dZero / tanDeg(angle);
    add(
      ".sidewall_angle_deg",
      `with a sidewall angle of ${fmt(angle)}° edge ${worst.index} of ${ringName(worst.ring)} shrinks to nothing at z = ${fmt(zCollapse)} m, below z_max (${fmt(s.z_max)} m); use a smaller angle or a thinner slab`,
    );
    return;
  }
  const top = offsetRings(rings, m, dTop);
  const topArea = top.reduce((sum, r) => sum + area2(r) / 2, 0);
  if (firstIntersection(top) || !(topArea > 1e-12 * ringsSize(rings) ** 2)) {
    add(
      ".sidewall_angle_deg",
      `with a sidewall angle of ${fmt(angle)}° the outline at z_max is no longer a simple polygon (parts of it collide); use a smaller angle or a thinner slab`,
    );
  }
}

/** The edge that shrinks to nothing soonest before the offset `dTop` (miters `m`), or null. */
function firstCollapsingEdge(
  rings: Float64Array[],
  m: Float64Array[],
  dTop: number,
): { ring: number; index: number; dZero: number } | null {
  let worst: { ring: number; index: number; dZero: number } | null = null;
  rings.forEach((r, k) => {
    const n = r.length >> 1;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const tx = r[2 * j]! - r[2 * i]!;
      const ty = r[2 * j + 1]! - r[2 * i + 1]!;
      const len = Math.hypot(tx, ty);
      const rate =
        ((m[k]![2 * j]! - m[k]![2 * i]!) * tx + (m[k]![2 * j + 1]! - m[k]![2 * i + 1]!) * ty) / len;
      if (len + dTop * rate > 1e-9 * len) continue;
      const dZero = -len / rate;
      if (!worst || Math.abs(dZero) < Math.abs(worst.dZero)) worst = { ring: k, index: i, dZero };
    }
  });
  return worst;
}

/** [xmin, ymin, xmax, ymax] of flat rings [x0, y0, x1, y1, …] (infinite when there are none). */
export function boundsOf(rings: readonly ArrayLike<number>[]): [number, number, number, number] {
  let xmin = Infinity;
  let ymin = Infinity;
  let xmax = -Infinity;
  let ymax = -Infinity;
  for (const r of rings) {
    for (let i = 0; i < r.length; i += 2) {
      xmin = Math.min(xmin, r[i]!);
      xmax = Math.max(xmax, r[i]!);
      ymin = Math.min(ymin, r[i + 1]!);
      ymax = Math.max(ymax, r[i + 1]!);
    }
  }
  return [xmin, ymin, xmax, ymax];
}

/** The outline (counter-clockwise, holes left out) at height z, clamped to [z_min, z_max]. */
export function polySlabOutlineAt(s: PolySlabSpec, z: number): [number, number][] {
  const { rings } = orientRings({ vertices: s.vertices });
  const zc = Math.min(s.z_max, Math.max(s.z_min, z));
  const d = (zc - s.z_min) * tanDeg(s.sidewall_angle_deg ?? 0);
  const r = d === 0 ? rings[0]! : offsetRings(rings, miters(rings), d)[0]!;
  const out: [number, number][] = [];
  for (let i = 0; i < r.length; i += 2) out.push([r[i]!, r[i + 1]!]);
  return out;
}

/**
 * The rings (outline counter-clockwise first, then holes clockwise) at z_min and at z_max,
 * vertex for vertex. A sidewall angle moves each vertex along its miter in proportion to the
 * height, so the outline at any z in between is the straight blend of the two: what a plot
 * needs to draw the polyslab's cross-sections without this module (src/plot/sections.ts).
 */
export function polySlabEnds(s: PolySlabSpec): {
  bottom: [number, number][][];
  top: [number, number][][];
} {
  const { rings } = orientRings(s);
  const dTop = topOffset(s);
  const top = dTop === 0 ? rings : offsetRings(rings, miters(rings), dTop);
  const pairs = (r: Float64Array): [number, number][] =>
    Array.from({ length: r.length >> 1 }, (_, i) => [r[2 * i]!, r[2 * i + 1]!]);
  return { bottom: rings.map(pairs), top: top.map(pairs) };
}

/** Axis-aligned bounds of the polyslab over its whole height (bottom and top outlines). */
export function polySlabBounds(s: PolySlabSpec): { lo: Vec3; hi: Vec3 } {
  let [xmin, ymin, xmax, ymax] = boundsOf([dedupe(s.vertices)]);
  const dTop = topOffset(s);
  if (dTop !== 0 && Number.isFinite(dTop)) {
    const { rings } = orientRings({ vertices: s.vertices });
    const t = boundsOf(offsetRings(rings, miters(rings), dTop));
    xmin = Math.min(xmin, t[0]);
    ymin = Math.min(ymin, t[1]);
    xmax = Math.max(xmax, t[2]);
    ymax = Math.max(ymax, t[3]);
  }
  return { lo: [xmin, ymin, s.z_min], hi: [xmax, ymax, s.z_max] };
}

// ---------------------------------------------------------------------------------------------
// Smoothing geometry

/** Edges as structure-of-arrays: endpoints at offset 0, their miter vectors, outward normal. */
interface Edges {
  count: number;
  ax: Float64Array;
  ay: Float64Array;
  bx: Float64Array;
  by: Float64Array;
  max: Float64Array;
  may: Float64Array;
  mbx: Float64Array;
  mby: Float64Array;
  /** Outward unit normal (solid on the left: (t_y, −t_x)). */
  nx: Float64Array;
  ny: Float64Array;
  /** Swept box over the offsets [0, dTop]. */
  xlo: Float64Array;
  xhi: Float64Array;
  ylo: Float64Array;
  yhi: Float64Array;
}

function buildEdges(
  rings: readonly Float64Array[],
  m: readonly Float64Array[],
  dTop: number,
): Edges {
  const count = rings.reduce((n, r) => n + (r.length >> 1), 0);
  const f = () => new Float64Array(count);
  const e: Edges = {
    count,
    ax: f(),
    ay: f(),
    bx: f(),
    by: f(),
    max: f(),
    may: f(),
    mbx: f(),
    mby: f(),
    nx: f(),
    ny: f(),
    xlo: f(),
    xhi: f(),
    ylo: f(),
    yhi: f(),
  };
  let k = 0;
  rings.forEach((r, ri) => {
    const n = r.length >> 1;
    const mr = m[ri]!;
    for (let i = 0; i < n; i++, k++) {
      const j = (i + 1) % n;
      e.ax[k] = r[2 * i]!;
      e.ay[k] = r[2 * i + 1]!;
      e.bx[k] = r[2 * j]!;
      e.by[k] = r[2 * j + 1]!;
      e.max[k] = mr[2 * i]!;
      e.may[k] = mr[2 * i + 1]!;
      e.mbx[k] = mr[2 * j]!;
      e.mby[k] = mr[2 * j + 1]!;
      const len = Math.hypot(e.bx[k]! - e.ax[k]!, e.by[k]! - e.ay[k]!) || 1;
      e.nx[k] = (e.by[k]! - e.ay[k]!) / len;
      e.ny[k] = -(e.bx[k]! - e.ax[k]!) / len;
      const xs = [e.ax[k]!, e.bx[k]!, e.ax[k]! + dTop * e.max[k]!, e.bx[k]! + dTop * e.mbx[k]!];
      const ys = [e.ay[k]!, e.by[k]!, e.ay[k]! + dTop * e.may[k]!, e.by[k]! + dTop * e.mby[k]!];
      e.xlo[k] = Math.min(...xs);
      e.xhi[k] = Math.max(...xs);
      e.ylo[k] = Math.min(...ys);
      e.yhi[k] = Math.max(...ys);
    }
  });
  return e;
}

/** The edges whose swept box meets one row (of height h/2), sorted by their smallest x. */
interface Row {
  ids: Int32Array;
  xlo: Float64Array;
  /** Largest swept x extent of an edge in the row. */
  width: number;
  /** suffix[i] = Σ_{m ≥ i} σ·(y extent inside the row) at offset 0. */
  suffix: Float64Array;
}

/**
 * Rows are built when first asked for (a polygon may reach far beyond the grid): each scans the
 * edges once, so a grid of R rows costs O(R·E) to set up and then O(log E + crossing edges)
 * per cell.
 */
function buildRow(e: Edges, rowLo: number, rowHi: number): Row {
  const list: number[] = [];
  // Edges within rounding of the row count too (a horizontal edge on its boundary: cutRow).
  const tol = ROW_TOL * (rowHi - rowLo);
  for (let k = 0; k < e.count; k++) {
    if (e.ylo[k]! <= rowHi + tol && e.yhi[k]! >= rowLo - tol) list.push(k);
  }
  list.sort((a, b) => e.xlo[a]! - e.xlo[b]!);
  let width = 0;
  for (const k of list) width = Math.max(width, e.xhi[k]! - e.xlo[k]!);
  const suffix = new Float64Array(list.length + 1);
  for (let i = list.length - 1; i >= 0; i--) {
    const k = list[i]!;
    suffix[i] = suffix[i + 1]! + signedSpan(e.ay[k]!, e.by[k]!, rowLo, rowHi);
  }
  return {
    ids: Int32Array.from(list),
    xlo: Float64Array.from(list, (k) => e.xlo[k]!),
    width,
    suffix,
  };
}

/** σ·|[ya, yb] ∩ [lo, hi]| for an edge from y = a to y = b (σ = +1 going up). */
function signedSpan(a: number, b: number, lo: number, hi: number): number {
  if (b > a) return Math.max(0, Math.min(b, hi) - Math.max(a, lo));
  if (a > b) return -Math.max(0, Math.min(a, hi) - Math.max(b, lo));
  return 0;
}

/** First index i with a[i] >= v (a sorted ascending). */
function lowerBound(a: Float64Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** ∫ (clamp(x, 0, w)) dx from 0 … u, the antiderivative used for each edge's strip. */
function strip(u: number, w: number): number {
  if (u <= 0) return 0;
  if (u < w) return (u * u) / 2;
  return (w * w) / 2 + w * (u - w);
}

/** Length of the segment inside the rectangle (Liang–Barsky clipping). */
function clippedLength(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  x0: number,
  x1: number,
  y0: number,
  y1: number,
): number {
  const dx = bx - ax;
  const dy = by - ay;
  let t0 = 0;
  let t1 = 1;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
    return true;
  };
  if (!clip(-dx, ax - x0) || !clip(dx, x1 - ax) || !clip(-dy, ay - y0) || !clip(dy, y1 - ay)) {
    return 0;
  }
  return t1 > t0 ? (t1 - t0) * Math.hypot(dx, dy) : 0;
}

export interface SquareCut {
  /** Area of the square inside the outline, m². */
  area: number;
  /** Σ (edge length inside the square × outward normal), m. */
  nx: number;
  ny: number;
}

/** Tolerance, in rows, of a band's edges against the rows' (rounding of the bands' y). */
const ROW_TOL = 1e-7;

/** The rectangle `cut` is measuring: its sides, width and larger side. */
interface Square {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  w: number;
  h: number;
}

/** Exact area of polygon ∩ square, with the normal sum, for an outline given as rings. */
export class PolygonArea {
  private readonly edges: Edges;
  private rows = new Map<number, Row>();
  /**
   * Row height (h/2) and the y the rows are aligned to, set by the first square of a grid, and
   * again by any shorter square (a graded grid's finer cells).
   */
  private rowH = NaN;
  private rowY0 = 0;
  private readonly box: [number, number, number, number];
  /** The square of the current `cut` (reused: `cut` runs once per cell and structure). */
  private readonly square: Square = { x0: 0, x1: 0, y0: 0, y1: 0, w: 0, h: 0 };

  constructor(rings: readonly Float64Array[], dTop = 0) {
    this.edges = buildEdges(rings, miters(rings), dTop);
    const e = this.edges;
    let xmin = Infinity;
    let ymin = Infinity;
    let xmax = -Infinity;
    let ymax = -Infinity;
    for (let k = 0; k < e.count; k++) {
      xmin = Math.min(xmin, e.xlo[k]!);
      xmax = Math.max(xmax, e.xhi[k]!);
      ymin = Math.min(ymin, e.ylo[k]!);
      ymax = Math.max(ymax, e.yhi[k]!);
    }
    this.box = [xmin, ymin, xmax, ymax];
  }

  /** Swept box [xmin, ymin, xmax, ymax] over all offsets. */
  get bounds(): readonly [number, number, number, number] {
    return this.box;
  }

  /**
   * The rectangle [x − hx/2, x + hx/2] × [y − hy/2, y + hy/2] against the outline offset
   * inward by `d` (0 ≤ d/dTop ≤ 1). Writes into `out`.
   */
  cut(x: number, y: number, hx: number, hy: number, d: number, out: SquareCut): SquareCut {
    out.area = 0;
    out.nx = 0;
    out.ny = 0;
    const sq = this.square;
    sq.x0 = x - hx / 2;
    sq.x1 = x + hx / 2;
    sq.y0 = y - hy / 2;
    sq.y1 = y + hy / 2;
    sq.w = sq.x1 - sq.x0;
    sq.h = Math.max(hx, hy);
    const [bx0, by0, bx1, by1] = this.box;
    if (sq.x1 <= bx0 || sq.y1 <= by0 || sq.y0 >= by1) return out;
    if (sq.x0 >= bx1) return out;
    this.alignRows(hy, sq.y0);
    const rh = this.rowH;
    const rFirst = Math.floor((Math.max(sq.y0, by0) - this.rowY0) / rh + ROW_TOL);
    const rLast = Math.ceil((Math.min(sq.y1, by1) - this.rowY0) / rh - ROW_TOL) - 1;
    let area = 0;
    for (let r = rFirst; r <= rLast; r++) area = this.cutRow(r, d, out, area);
    out.area = Math.min(Math.max(area, 0), sq.w * (sq.y1 - sq.y0));
    return out;
  }

  /**
   * Rows aligned with the first band asked for: the Yee bands of a uniform grid are all whole
   * multiples of h/2 away from it, so they cover whole rows and the suffix sums apply. On a
   * graded grid rows follow the shortest band seen; a band that covers a row only in part sums
   * that row's edges instead (rightOfSquare), which is exact too.
   */
  private alignRows(hy: number, y0: number): void {
    if (!(this.rowH <= hy / 2)) {
      this.rows.clear();
      this.rowH = hy / 2;
      this.rowY0 = y0;
    }
  }

  /**
   * Row r's part of the square: each edge crossing it adds its normal (into `out`) and its
   * strip of area, then the edges wholly right of the square theirs; returns `area` with them
   * added, in that order.
   */
  private cutRow(r: number, d: number, out: SquareCut, area: number): number {
    const sq = this.square;
    const rh = this.rowH;
    const rowLo = this.rowY0 + r * rh;
    const rowHi = rowLo + rh;
    const ya = Math.max(sq.y0, rowLo);
    const yb = Math.min(sq.y1, rowHi);
    if (yb <= ya) return area;
    let row = this.rows.get(r);
    if (!row) this.rows.set(r, (row = buildRow(this.edges, rowLo, rowHi)));
    const end = lowerBound(row.xlo, sq.x1);
    const start = lowerBound(row.xlo, sq.x0 - row.width - 1e-12 * sq.h);
    for (let i = start; i < end; i++) area = this.crossEdge(row.ids[i]!, d, ya, yb, out, area);
    const whole = ya <= rowLo + ROW_TOL * rh && yb >= rowHi - ROW_TOL * rh;
    return area + this.rightOfSquare(row, end, ya, yb, d, whole);
  }

  /**
   * Edge k, offset by d, within the band [ya, yb]: its length inside the square times its
   * normal into `out`, and its strip ∫ (clamp(x(y), x0, x1) − x0) dy, signed by its direction,
   * added to `area`.
   */
  private crossEdge(
    k: number,
    d: number,
    ya: number,
    yb: number,
    out: SquareCut,
    area: number,
  ): number {
    const e = this.edges;
    const { x0, x1, y0, y1, w, h } = this.square;
    const ax = e.ax[k]! + d * e.max[k]!;
    const ay = e.ay[k]! + d * e.may[k]!;
    const bx = e.bx[k]! + d * e.mbx[k]!;
    const by = e.by[k]! + d * e.mby[k]!;
    // An edge lying along a side of the square only touches it; like the box's gradient,
    // it adds no normal (this is also where an outline meets an absorbing face).
    // (Along an axis up to rounding: a sidewall's offset moves an edge's ends apart by 1e-17.)
    const edgeTol = 1e-9 * h;
    const vertical = Math.abs(ax - bx) <= edgeTol;
    const horizontal = Math.abs(ay - by) <= edgeTol;
    const onSide =
      (vertical && (Math.abs(ax - x0) <= edgeTol || Math.abs(ax - x1) <= edgeTol)) ||
      (horizontal && (Math.abs(ay - y0) <= edgeTol || Math.abs(ay - y1) <= edgeTol));
    const len = onSide
      ? 0
      : horizontal
        ? this.horizontalLength(ax, bx, (ay + by) / 2, e.ny[k]! < 0, ya, yb)
        : clippedLength(ax, ay, bx, by, x0, x1, ya, yb);
    if (len > 0) {
      out.nx += len * e.nx[k]!;
      out.ny += len * e.ny[k]!;
    }
    if (ay === by) return area;
    return area + signedStrip(ax, ay, bx, by, x0, w, ya, yb);
  }

  /**
   * The length inside the square of a horizontal edge at y from ax to bx, counted in the one
   * band that holds it. One on the boundary between two rows, where rounding put it in both
   * rows' bands or in neither (an outline's edge on a grid node, through the middle of an E
   * cell's square), counts in the row on its solid's side (above it when its outward normal
   * points down), which the cut always visits, on either side of a mirror alike.
   */
  private horizontalLength(
    ax: number,
    bx: number,
    y: number,
    solidAbove: boolean,
    ya: number,
    yb: number,
  ): number {
    const tol = ROW_TOL * this.rowH;
    const inBand = solidAbove ? y >= ya - tol && y < yb - tol : y > ya + tol && y <= yb + tol;
    if (!inBand) return 0;
    const { x0, x1 } = this.square;
    return Math.max(0, Math.min(Math.max(ax, bx), x1) - Math.max(Math.min(ax, bx), x0));
  }

  /**
   * What the edges wholly right of the square add in the band [ya, yb] of a row: σ·w per unit
   * of y, from the row's suffix sums where the band covers the row at offset 0, else summed
   * over the shorter side (the signed crossings of a closed outline cancel on every line).
   */
  private rightOfSquare(
    row: Row,
    end: number,
    ya: number,
    yb: number,
    d: number,
    whole: boolean,
  ): number {
    const w = this.square.w;
    if (d === 0 && whole) return w * row.suffix[end]!;
    if (row.ids.length - end <= end)
      return w * this.offsetSpans(row, end, row.ids.length, d, ya, yb);
    return -(w * this.offsetSpans(row, 0, end, d, ya, yb));
  }

  /** Σ σ·(y extent inside [ya, yb]) of the row's edges from..to−1, offset by d. */
  private offsetSpans(row: Row, from: number, to: number, d: number, ya: number, yb: number) {
    const e = this.edges;
    let s = 0;
    for (let i = from; i < to; i++) {
      const k = row.ids[i]!;
      s += signedSpan(e.ay[k]! + d * e.may[k]!, e.by[k]! + d * e.mby[k]!, ya, yb);
    }
    return s;
  }
}

/**
 * The strip of the band [ya, yb] left of a non-horizontal edge from (ax, ay) to (bx, by),
 * ∫ (clamp(x(y) − x0, 0, w)) dy over the band, signed +1 going up (Green's theorem per line).
 */
function signedStrip(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  x0: number,
  w: number,
  ya: number,
  yb: number,
): number {
  // Lower and upper end of the edge, σ = +1 going up.
  const up = by > ay;
  const lx = up ? ax : bx;
  const ly = up ? ay : by;
  const ux = up ? bx : ax;
  const uy = up ? by : ay;
  const lo = Math.max(ly, ya);
  const hi = Math.min(uy, yb);
  if (hi <= lo) return 0;
  const slope = (ux - lx) / (uy - ly);
  const xa = lx + (lo - ly) * slope - x0;
  const xb = lx + (hi - ly) * slope - x0;
  const dy = hi - lo;
  let strips: number;
  if (Math.abs(xb - xa) <= 1e-9 * w) {
    strips = dy * Math.min(w, Math.max(0, (xa + xb) / 2));
  } else {
    strips = (dy * (strip(xb, w) - strip(xa, w))) / (xb - xa);
  }
  return up ? strips : -strips;
}

/**
 * A polyslab's bounds where they reach an absorbing face (within 1e-9 of the domain's span):
 * open to infinity there, and along x and y the face as the clamp that keeps a cube's centre
 * inside (polySlabShape).
 */
function throughAbsorbers(
  lo: Vec3,
  hi: Vec3,
  faces: DomainFaces,
): { lo: Vec3; hi: Vec3; clampLo: Vec3; clampHi: Vec3 } {
  const clampLo: Vec3 = [-Infinity, -Infinity, -Infinity];
  const clampHi: Vec3 = [Infinity, Infinity, Infinity];
  const tol = 1e-9;
  for (let a = 0; a < 3; a++) {
    if (!faces.extends[a]) continue;
    const span = faces.hi[a] - faces.lo[a];
    const reachLo = lo[a] <= faces.lo[a] + tol * span;
    const reachHi = hi[a] >= faces.hi[a] - tol * span;
    if (reachLo) lo[a] = -Infinity;
    if (reachHi) hi[a] = Infinity;
    if (a < 2) {
      if (reachLo) clampLo[a] = faces.lo[a];
      if (reachHi) clampHi[a] = faces.hi[a];
    }
  }
  return { lo, hi, clampLo, clampHi };
}

/**
 * The smoothing shape of a polyslab (without periodic images; geometry.ts adds them).
 *
 * Through absorbing faces: along z the slab continues to infinity when it reaches the face (as a
 * box does), keeping its outline there; along x and y, when the outline reaches a face, points
 * beyond it are evaluated as if the cube sat just inside (its centre half a cell from the face),
 * so the cross-section at the face is extruded through the absorber.
 */
export function polySlabShape(s: PolySlabSpec, faces: DomainFaces): Shape {
  const { rings } = orientRings(s);
  const tanT = tanDeg(s.sidewall_angle_deg ?? 0);
  const dTop = (s.z_max - s.z_min) * tanT;
  const poly = new PolygonArea(rings, dTop);
  const [bx0, by0, bx1, by1] = poly.bounds;
  const { lo, hi, clampLo, clampHi } = throughAbsorbers(
    [bx0, by0, s.z_min],
    [bx1, by1, s.z_max],
    faces,
  );
  const zlo = lo[2];
  const zhi = hi[2];
  const cut: SquareCut = { area: 0, nx: 0, ny: 0 };
  // The last square asked for: the medium walks z innermost, and without a sidewall angle the
  // square's cut is the same all the way up.
  let lastX = NaN;
  let lastY = NaN;
  let lastD = NaN;
  let lastHx = NaN;
  let lastHy = NaN;
  return {
    lo,
    hi,
    fill(p, h, normal) {
      const [hx, hy, hz] = h;
      const oz = overlap1d(p[2], hz, zlo, zhi);
      if (oz === 0) return 0;
      let x = p[0];
      let y = p[1];
      // Extrusion through absorbing faces the outline reaches: keep the box inside.
      const midX = (faces.lo[0] + faces.hi[0]) / 2;
      const midY = (faces.lo[1] + faces.hi[1]) / 2;
      if (x < clampLo[0] + hx / 2) x = Math.min(clampLo[0] + hx / 2, midX);
      if (x > clampHi[0] - hx / 2) x = Math.max(clampHi[0] - hx / 2, midX);
      if (y < clampLo[1] + hy / 2) y = Math.min(clampLo[1] + hy / 2, midY);
      if (y > clampHi[1] - hy / 2) y = Math.max(clampHi[1] - hy / 2, midY);
      const zc = Math.min(s.z_max, Math.max(s.z_min, p[2]));
      const d = tanT === 0 ? 0 : (zc - s.z_min) * tanT;
      if (x !== lastX || y !== lastY || d !== lastD || hx !== lastHx || hy !== lastHy) {
        poly.cut(x, y, hx, hy, d, cut);
        lastX = x;
        lastY = y;
        lastD = d;
        lastHx = hx;
        lastHy = hy;
      }
      // An edge within rounding of the square's side leaves it whole or empty, with no wall's
      // normal: on one side of a mirror it cut a sliver of 1e-16 and tilted the normal.
      const cutArea = cut.area / (hx * hy);
      const a = cutArea < PARTIAL ? 0 : cutArea > 1 - PARTIAL ? 1 : cutArea;
      const f = a * oz;
      if (f > 0 && f < 1) {
        // −∇f: the walls' part (Σ ℓ·n over the area, tilted by the sidewall angle) and the
        // faces'.
        const walled = a < 1;
        let vx = walled ? cut.nx / (hx * hy) : 0;
        let vy = walled ? cut.ny / (hx * hy) : 0;
        if (vx === 0 && vy === 0 && a > PARTIAL && a < 1 - PARTIAL) {
          // Not along an axis the square was held inside the domain on: there the outline is
          // extruded through the face, which is no wall.
          [vx, vy] = areaSlope(poly, x, y, hx, hy, d, [x === p[0], y === p[1]]);
        }
        const caps = -(overlapSlope(p[2], hz, zlo, zhi) / hz) * a;
        setNormal(normal, vx * oz, vy * oz, Math.hypot(vx, vy) * tanT * oz + caps);
      }
      return f;
    },
  };
}

/** `normal` along (gx, gy, gz), or along z where that vanishes. */
function setNormal(normal: Vec3, gx: number, gy: number, gz: number): void {
  const norm = Math.hypot(gx, gy, gz);
  normal[0] = norm > 0 ? gx / norm : 0;
  normal[1] = norm > 0 ? gy / norm : 0;
  normal[2] = norm > 0 ? gz / norm : 1;
}

/** A cube this far from empty or full is cut by a wall (closer: the area's rounding). */
const PARTIAL = 1e-9;

/**
 * −∇a of a square partly inside the outline whose cut found no edge: an edge lying exactly on
 * a boundary between the cut's rows (a horizontal edge through the square's middle, where the
 * dual cell of an E point is centred on the node the edge sits on) adds its area but, by the
 * rounding of the rows, no normal; without this the smoothing took the fill for a z face and
 * averaged E_z harmonically (ε 3.6 for 7.0 in a Si–SiO2 half cell). A central difference of
 * the area over a thousandth of a cell gives the wall's normal, the same Σ ℓ·n / (hx·hy) the cut
 * would have given.
 */
function areaSlope(
  poly: PolygonArea,
  x: number,
  y: number,
  hx: number,
  hy: number,
  d: number,
  [alongX, alongY]: [boolean, boolean],
): [number, number] {
  const probe: SquareCut = { area: 0, nx: 0, ny: 0 };
  const at = (px: number, py: number) => poly.cut(px, py, hx, hy, d, probe).area / (hx * hy);
  const dx = hx * 1e-3;
  const dy = hy * 1e-3;
  return [
    alongX ? -(at(x + dx, y) - at(x - dx, y)) / (2 * dx) : 0,
    alongY ? -(at(x, y + dy) - at(x, y - dy)) / (2 * dy) : 0,
  ];
}

// ---------------------------------------------------------------------------------------------
// Point location (plots)

interface Locator {
  edges: Edges;
  rows: number[][];
  y0: number;
  rh: number;
}

const locators = new WeakMap<PolySlabSpec, Locator>();

/**
 * Whether (x, y, z) lies inside the polyslab (for drawing outlines over plots): crossing
 * number over the edges of the point's row (256 rows over the outline's height).
 */
export function polySlabContains(s: PolySlabSpec, x: number, y: number, z: number): boolean {
  if (!(z >= s.z_min && z <= s.z_max)) return false;
  let loc = locators.get(s);
  if (!loc) {
    const { rings } = orientRings(s);
    const e = buildEdges(rings, miters(rings), topOffset(s));
    let ymin = Infinity;
    let ymax = -Infinity;
    for (let k = 0; k < e.count; k++) {
      ymin = Math.min(ymin, e.ylo[k]!);
      ymax = Math.max(ymax, e.yhi[k]!);
    }
    const count = 256;
    const rh = (ymax - ymin) / count || 1;
    const rows: number[][] = Array.from({ length: count }, () => []);
    for (let k = 0; k < e.count; k++) {
      const r0 = Math.max(0, Math.floor((e.ylo[k]! - ymin) / rh));
      const r1 = Math.min(count - 1, Math.floor((e.yhi[k]! - ymin) / rh));
      for (let r = r0; r <= r1; r++) rows[r]!.push(k);
    }
    loc = { edges: e, rows, y0: ymin, rh };
    locators.set(s, loc);
  }
  const r = Math.min(loc.rows.length - 1, Math.floor((y - loc.y0) / loc.rh));
  if (r < 0) return false;
  const d = (z - s.z_min) * tanDeg(s.sidewall_angle_deg ?? 0);
  const e = loc.edges;
  let inside = false;
  for (const k of loc.rows[r]!) {
    const ay = e.ay[k]! + d * e.may[k]!;
    const by = e.by[k]! + d * e.mby[k]!;
    if (ay > y !== by > y) {
      const ax = e.ax[k]! + d * e.max[k]!;
      const bx = e.bx[k]! + d * e.mbx[k]!;
      if (x < ax + ((y - ay) * (bx - ax)) / (by - ay)) inside = !inside;
    }
  }
  return inside;
}
