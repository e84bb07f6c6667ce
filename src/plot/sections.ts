/**
 * Where a request's structures cross a plot: their cross-sections with a plane (rectangles and
 * ellipses, which a canvas strokes and a raster tests pixel by pixel) and the intervals a line
 * runs inside them. The CLI's PNGs (structures.ts) and the dashboard's canvases (which load this
 * module compiled; dashboard/assets.ts) both draw from here. Plain TypeScript, no Node or DOM;
 * any length unit, as long as structures and coordinates share it.
 *
 * Boxes, spheres and cylinders only: a polyslab's cross-section is a polygon that depends on its
 * sidewall angle, which the CLI tests point by point with the solver's own test
 * (solver/polyslab.ts) and the dashboard does not draw.
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
}

/** A plane of a plot: its two in-plane axes (across, up) and the cut along the third. */
export interface PlotPlane {
  u: AxisIndex;
  v: AxisIndex;
  /** Coordinate along the remaining (normal) axis. */
  cut: number;
}

/** A cross-section: a rectangle, or the ellipse inscribed in it (a circle in physical units). */
export interface Section {
  shape: "rect" | "ellipse";
  u0: number;
  u1: number;
  v0: number;
  v1: number;
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
  return null;
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

/** Whether the point (u, v) of the plane lies in the section (edges included). */
export function sectionContains(s: Section, u: number, v: number): boolean {
  if (s.shape === "rect") return u >= s.u0 && u <= s.u1 && v >= s.v0 && v <= s.v1;
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
