/**
 * A request's structures in the plotting core's terms, and which one occupies a point, for
 * drawing the geometry over the CLI's field plots (the dashboard's summary sends the same
 * shapes to the browser; dashboard/plots.ts). The same precedence as the solver: a later
 * structure overrides an earlier one. Every kind comes from its cross-section (sections.ts);
 * a polyslab's from its rings at both ends, which only the solver knows how to offset.
 */
import { polySlabEnds, type StructureSpec } from "../solver/index.js";
import { planeSections, sectionContains, type AxisIndex, type StructureShape } from "./sections.js";

export type Point3 = { x: number; y: number; z: number };
type AxisName = "x" | "y" | "z";
const AXES: readonly AxisName[] = ["x", "y", "z"];

/** A structure as sections.ts takes it: as given, but a polyslab as its rings at both ends. */
export function structureShape(s: StructureSpec): StructureShape {
  if (s.type !== "polyslab") return s;
  return { type: s.type, z_min: s.z_min, z_max: s.z_max, ends: polySlabEnds(s) };
}

/**
 * The index of the structure at each point (u, v) of a plot whose axes are `axes` (the others
 * fixed at `fixed`, metres; 0 where not given), or -1 for the background.
 */
export function structureLookup(
  structures: readonly StructureSpec[],
  axes: readonly [AxisName, AxisName],
  fixed: Partial<Record<AxisName, number>>,
): (u: number, v: number) => number {
  const u = AXES.indexOf(axes[0]) as AxisIndex;
  const v = AXES.indexOf(axes[1]) as AxisIndex;
  const normal = AXES.find((a) => a !== axes[0] && a !== axes[1])!;
  const sections = planeSections(structures.map(structureShape), { u, v, cut: fixed[normal] ?? 0 });
  return (pu, pv) => {
    for (let k = sections.length - 1; k >= 0; k--) {
      if (sectionContains(sections[k]!, pu, pv)) return sections[k]!.index;
    }
    return -1;
  };
}

/** Index of the structure at `p` (the last one containing it), or -1 for the background. */
export function structureAt(structures: readonly StructureSpec[], p: Point3): number {
  return structureLookup(structures, ["x", "y"], { z: p.z })(p.x, p.y);
}

/** Whether `p` (metres) lies inside structure `s` (boundaries included). */
export function contains(s: StructureSpec, p: Point3): boolean {
  return structureAt([s], p) === 0;
}
