/**
 * Where a request's structures cross a plot: their cross-sections with a plane (rectangles,
 * ellipses and polygons, which a canvas strokes and a raster tests pixel by pixel) and the
 * intervals a line runs inside them. The CLI's PNGs (structures.ts) and the dashboard's canvases
 * (which load this module compiled; dashboard/assets.ts) both draw from here. Plain TypeScript,
 * no Node or DOM; any length unit, as long as structures and coordinates share it.
 *
 * A polyslab comes as its rings at z_min and at z_max, vertex for vertex (polySlabEnds in
 * solver/polyslab.ts, which this module may not import): its sidewall moves each vertex in a
 * straight line between the two, so every cross-section is exact without the solver's geometry.
 */

/** Axis indices: 0 = x, 1 = y, 2 = z. */
export type AxisIndex = 0 | 1 | 2;
const AXES = ["x", "y", "z"] as const;

/** The geometry of a structure as a request gives it (the CLI's StructureSpec fits). */
export interface StructureShape {
  type: string;
  center?: readonly number[];
  size?: readonly number[];
  radius?: number;
  height?: number;
  /** A cylinder's axis, "x", "y" or "z" (default "z"). */
  axis?: string;
  /** A polyslab's extent along z. */
  z_min?: number;
  z_max?: number;
  /**
   * A polyslab's rings, outline first and then its holes, at z_min and at z_max, vertex for
   * vertex: the outline at a height between is the straight blend of the two.
   */
  ends?: { bottom: readonly Ring[]; top: readonly Ring[] };
}

/** A closed ring of points, the last joined to the first. */
export type Ring = readonly (readonly [number, number])[];

/** A plane of a plot: its two in-plane axes (across, up) and the cut along the third. */
export interface PlotPlane {
  u: AxisIndex;
  v: AxisIndex;
  /** Coordinate along the remaining (normal) axis. */
  cut: number;
}

/**
 * A cross-section: a rectangle, the ellipse inscribed in it (a circle in physical units), or
 * polygons (a polyslab's) within it.
 */
export interface Section {
  shape: "rect" | "ellipse" | "polygon";
  u0: number;
  u1: number;
  v0: number;
  v1: number;
  /** A polygon section's rings in plot coordinates (u, v); inside by the even-odd rule. */
  rings?: [number, number][][];
  /** Index of the structure in the list given (later ones are drawn over earlier ones). */
  index: number;
}

/** A stretch [t0, t1] of a line inside structure `index`. */
export interface Crossing {
  t0: number;
  t1: number;
  index: number;
}

/**
 * Slack for "on the face", relative to the structure's extent: a slice through a box's face
 * (coordinates rounded to the picometre on their way to the page) still shows the box.
 */
const FACE_TOLERANCE = 1e-9;

export function normalOf(plane: { u: AxisIndex; v: AxisIndex }): AxisIndex {
  return ([0, 1, 2] as const).find((a) => a !== plane.u && a !== plane.v) ?? 2;
}

/** The cross-section of one structure with a plane, or null when the plane misses it. */
export function crossSection(s: StructureShape, plane: PlotPlane, index = 0): Section | null {
  const c = s.center ?? [0, 0, 0];
  const normal = normalOf(plane);
  const cu = c[plane.u] ?? 0;
  const cv = c[plane.v] ?? 0;
  const d = plane.cut - (c[normal] ?? 0);
  const around = (shape: Section["shape"], hu: number, hv: number): Section => ({
    shape,
    u0: cu - hu,
    u1: cu + hu,
    v0: cv - hv,
    v1: cv + hv,
    index,
  });
  if (s.type === "box" && s.size) {
    const half = (s.size[normal] ?? 0) / 2;
    if (Math.abs(d) > half * (1 + FACE_TOLERANCE)) return null;
    return around("rect", (s.size[plane.u] ?? 0) / 2, (s.size[plane.v] ?? 0) / 2);
  }
  if (s.type === "sphere" && s.radius) {
    if (Math.abs(d) > s.radius) return null;
    const r = Math.sqrt(s.radius * s.radius - d * d);
    return around("ellipse", r, r);
  }
  if (s.type === "cylinder" && s.radius && s.height) {
    const axis = AXES.indexOf((s.axis ?? "z") as "x" | "y" | "z");
    if (axis === normal) {
      if (Math.abs(d) > (s.height / 2) * (1 + FACE_TOLERANCE)) return null;
      return around("ellipse", s.radius, s.radius);
    }
    if (Math.abs(d) > s.radius) return null;
    const chord = Math.sqrt(s.radius * s.radius - d * d);
    return around(
      "rect",
      axis === plane.u ? s.height / 2 : chord,
      axis === plane.v ? s.height / 2 : chord,
    );
  }
  if (s.type === "polyslab" && s.ends && s.z_min !== undefined && s.z_max !== undefined) {
    return polySlabSection(s.ends, s.z_min, s.z_max, plane, index);
  }
  return null;
}

/** A point of ring `k`, vertex `i`, at the fraction `f` of the polyslab's height. */
type Blend = (k: number, i: number, f: number) => [number, number];

function polySlabSection(
  ends: NonNullable<StructureShape["ends"]>,
  zMin: number,
  zMax: number,
  plane: PlotPlane,
  index: number,
): Section | null {
  const height = zMax - zMin;
  const at: Blend = (k, i, f) => {
    const b = ends.bottom[k]![i]!;
    const t = ends.top[k]![i]!;
    return [b[0] + f * (t[0] - b[0]), b[1] + f * (t[1] - b[1])];
  };
  const normal = normalOf(plane);
  let rings: [number, number][][];
  if (normal === 2) {
    // A horizontal cut: the outline and holes at that height.
    const slack = height * FACE_TOLERANCE;
    if (plane.cut < zMin - slack || plane.cut > zMax + slack) return null;
    const f = height > 0 ? Math.min(1, Math.max(0, (plane.cut - zMin) / height)) : 0;
    const xy = plane.u === 0;
    rings = ends.bottom.map((ring, k) =>
      ring.map((_, i) => {
        const [x, y] = at(k, i, f);
        return xy ? [x, y] : [y, x];
      }),
    );
  } else {
    const zu = plane.u === 2;
    rings = verticalCut(ends, at, normal, plane.cut).map((ring) =>
      ring.map(([a, f]) => {
        const z = zMin + f * height;
        return zu ? [z, a] : [a, z];
      }),
    );
  }
  if (rings.length === 0) return null;
  let u0 = Infinity;
  let u1 = -Infinity;
  let v0 = Infinity;
  let v1 = -Infinity;
  for (const ring of rings) {
    for (const [u, v] of ring) {
      u0 = Math.min(u0, u);
      u1 = Math.max(u1, u);
      v0 = Math.min(v0, v);
      v1 = Math.max(v1, v);
    }
  }
  return { shape: "polygon", u0, u1, v0, v1, rings, index };
}

/**
 * A vertical cut of a polyslab along the line {x or y (`normal`) = `cut`}: polygons in
 * (coordinate along the line, fraction of the height). Between two heights at which a vertex
 * passes the line, the same edges cross it and each crossing moves in a straight line (the
 * sidewall moves each edge parallel to itself), so the section there is a row of trapezoids;
 * trapezoids stack into one polygon per piece while the number of pieces stays the same.
 */
function verticalCut(
  ends: NonNullable<StructureShape["ends"]>,
  at: Blend,
  normal: 0 | 1,
  cut: number,
): [number, number][][] {
  const along = normal === 0 ? 1 : 0;
  const levels = new Set([0, 1]);
  ends.bottom.forEach((ring, k) =>
    ring.forEach((b, i) => {
      const t = ends.top[k]![i]!;
      if (t[normal] === b[normal]) return;
      const f = (cut - b[normal]) / (t[normal] - b[normal]);
      if (f > 0 && f < 1) levels.add(f);
    }),
  );
  const fs = [...levels].sort((a, b) => a - b);
  let extent = 0;
  for (const ring of [...ends.bottom, ...ends.top]) {
    for (const p of ring) extent = Math.max(extent, Math.abs(p[along]));
  }
  const near = (a: number, b: number) => Math.abs(a - b) <= extent * 1e-9;
  const done: [number, number][][] = [];
  let open: { left: [number, number][]; right: [number, number][] }[] = [];
  const close = () => {
    for (const c of open) done.push([...c.left, ...c.right.reverse()]);
    open = [];
  };
  for (let j = 0; j + 1 < fs.length; j++) {
    const lo = fs[j]!;
    const hi = fs[j + 1]!;
    const mid = (lo + hi) / 2;
    // The edges that cross the line inside this band, by where they cross it halfway up.
    const crossing: { k: number; i: number; mid: number }[] = [];
    ends.bottom.forEach((ring, k) => {
      for (let i = 0; i < ring.length; i++) {
        const p = at(k, i, mid);
        const q = at(k, (i + 1) % ring.length, mid);
        if (p[normal] > cut !== q[normal] > cut) {
          crossing.push({
            k,
            i,
            mid: p[along] + ((cut - p[normal]) * (q[along] - p[along])) / (q[normal] - p[normal]),
          });
        }
      }
    });
    crossing.sort((a, b) => a.mid - b.mid);
    const where = (c: { k: number; i: number }, f: number): number => {
      const p = at(c.k, c.i, f);
      const q = at(c.k, (c.i + 1) % ends.bottom[c.k]!.length, f);
      return p[along] + ((cut - p[normal]) * (q[along] - p[along])) / (q[normal] - p[normal]);
    };
    const pieces: [number, number][] = [];
    for (let n = 0; n + 1 < crossing.length; n += 2) {
      pieces.push([where(crossing[n]!, lo), where(crossing[n + 1]!, lo)]);
    }
    // Pieces go on up while they join the band below edge to edge; where a vertex passing the
    // line moves a crossing to another edge (a notch opening, say) a new polygon starts.
    const joins =
      pieces.length === open.length &&
      pieces.every(([a, b], n) => {
        const below = open[n]!;
        return near(below.left.at(-1)![0], a) && near(below.right.at(-1)![0], b);
      });
    if (!joins) {
      close();
      for (const [a, b] of pieces) open.push({ left: [[a, lo]], right: [[b, lo]] });
    }
    pieces.forEach((_, n) => {
      open[n]!.left.push([where(crossing[2 * n]!, hi), hi]);
      open[n]!.right.push([where(crossing[2 * n + 1]!, hi), hi]);
    });
  }
  close();
  return done;
}

/** The cross-sections of every structure the plane cuts, in the structures' order. */
export function planeSections(structures: readonly StructureShape[], plane: PlotPlane): Section[] {
  const out: Section[] = [];
  structures.forEach((s, i) => {
    const section = crossSection(s, plane, i);
    if (section) out.push(section);
  });
  return out;
}

/**
 * Where the horizontal line at `v` crosses a polygon section's rings, sorted along u: inside
 * between the first and second, the third and fourth… (the even-odd rule). The last row asked
 * is kept, so that a raster tested row by row costs one pass over the edges per row.
 */
function polygonCrossings(s: Section, v: number): number[] {
  const last = lastRow.get(s);
  if (last && last.v === v) return last.us;
  const us: number[] = [];
  for (const ring of s.rings ?? []) {
    for (let i = 0; i < ring.length; i++) {
      const p = ring[i]!;
      const q = ring[(i + 1) % ring.length]!;
      if (p[1] > v !== q[1] > v) us.push(p[0] + ((v - p[1]) * (q[0] - p[0])) / (q[1] - p[1]));
    }
  }
  us.sort((a, b) => a - b);
  lastRow.set(s, { v, us });
  return us;
}
const lastRow = new WeakMap<Section, { v: number; us: number[] }>();

/** Whether the point (u, v) of the plane lies in the section (edges included but a polygon's). */
export function sectionContains(s: Section, u: number, v: number): boolean {
  if (s.shape === "rect") return u >= s.u0 && u <= s.u1 && v >= s.v0 && v <= s.v1;
  if (s.shape === "polygon") {
    if (u < s.u0 || u > s.u1 || v < s.v0 || v > s.v1) return false;
    const us = polygonCrossings(s, v);
    let before = 0;
    while (before < us.length && us[before]! < u) before++;
    return before % 2 === 1;
  }
  const hu = (s.u1 - s.u0) / 2;
  const hv = (s.v1 - s.v0) / 2;
  const du = (u - (s.u0 + s.u1) / 2) / hu;
  const dv = (v - (s.v0 + s.v1) / 2) / hv;
  return du * du + dv * dv <= 1;
}

/**
 * The stretches of a line along axis `along` through `point` that lie inside structures, in
 * the structures' order: the sections of a plane holding the line, cut along it.
 */
export function lineCrossings(
  structures: readonly StructureShape[],
  along: AxisIndex,
  point: readonly number[],
): Crossing[] {
  const v = ([0, 1, 2] as const).find((a) => a !== along)!;
  const plane: PlotPlane = { u: along, v, cut: point[normalOf({ u: along, v })] ?? 0 };
  const at = point[v] ?? 0;
  const out: Crossing[] = [];
  for (const s of planeSections(structures, plane)) {
    if (at < s.v0 || at > s.v1) continue;
    if (s.shape === "polygon") {
      const us = polygonCrossings(s, at);
      for (let n = 0; n + 1 < us.length; n += 2) {
        out.push({ t0: us[n]!, t1: us[n + 1]!, index: s.index });
      }
      continue;
    }
    let half = (s.u1 - s.u0) / 2;
    if (s.shape === "ellipse") {
      const dv = (at - (s.v0 + s.v1) / 2) / ((s.v1 - s.v0) / 2);
      half *= Math.sqrt(Math.max(0, 1 - dv * dv));
    }
    const mid = (s.u0 + s.u1) / 2;
    out.push({ t0: mid - half, t1: mid + half, index: s.index });
  }
  return out;
}
