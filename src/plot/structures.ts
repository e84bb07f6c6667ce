/**
 * Which structure of a request occupies a point, for drawing the geometry over the CLI's field
 * plots. The same precedence as the solver: a later structure overrides an earlier one. Boxes,
 * spheres and cylinders come from their cross-sections (sections.ts, which the dashboard draws
 * too); polyslabs from the solver's own point test.
 */
import { polySlabContains } from "../solver/polyslab.js";
import type { StructureSpec } from "../solver/types.js";
import { planeSections, sectionContains, type AxisIndex } from "./sections.js";

export type Point3 = { x: number; y: number; z: number };
type AxisName = "x" | "y" | "z";
const AXES: readonly AxisName[] = ["x", "y", "z"];

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
  const sections = planeSections(structures, { u, v, cut: fixed[normal] ?? 0 });
  const slabs = structures.flatMap((s, index) => (s.type === "polyslab" ? [{ s, index }] : []));
  const base: Point3 = { x: fixed.x ?? 0, y: fixed.y ?? 0, z: fixed.z ?? 0 };
  return (pu, pv) => {
    let found = -1;
    for (let k = sections.length - 1; k >= 0; k--) {
      if (sectionContains(sections[k]!, pu, pv)) {
        found = sections[k]!.index;
        break;
      }
    }
    for (let k = slabs.length - 1; k >= 0 && slabs[k]!.index > found; k--) {
      const p = { ...base, [axes[0]]: pu, [axes[1]]: pv };
      if (polySlabContains(slabs[k]!.s, p.x, p.y, p.z)) return slabs[k]!.index;
    }
    return found;
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
