/**
 * Which structure of a request occupies a point, for drawing the geometry over field plots.
 * The same precedence as the solver: a later structure overrides an earlier one.
 */
import { polySlabContains } from "../solver/polyslab.js";
import type { StructureSpec } from "../solver/types.js";

export type Point3 = { x: number; y: number; z: number };
const AXES = ["x", "y", "z"] as const;

/** Whether `p` (metres) lies inside structure `s` (boundaries included). */
export function contains(s: StructureSpec, p: Point3): boolean {
  if (s.type === "polyslab") return polySlabContains(s, p.x, p.y, p.z);
  if (!("center" in s)) return false;
  const d = [p.x - s.center[0], p.y - s.center[1], p.z - s.center[2]];
  if (s.type === "box") return d.every((v, a) => Math.abs(v) <= s.size[a]! / 2);
  if (s.type === "sphere") return Math.hypot(d[0]!, d[1]!, d[2]!) <= s.radius;
  const a = AXES.indexOf(s.axis);
  if (Math.abs(d[a]!) > s.height / 2) return false;
  const across = d.filter((_, i) => i !== a);
  return Math.hypot(across[0]!, across[1]!) <= s.radius;
}

/** Index of the structure at `p` (the last one containing it), or -1 for the background. */
export function structureAt(structures: readonly StructureSpec[], p: Point3): number {
  for (let i = structures.length - 1; i >= 0; i--) if (contains(structures[i]!, p)) return i;
  return -1;
}
