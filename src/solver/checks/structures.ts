/**
 * Checks of each structure's geometry: positive sizes, finite centres, polyslab outlines
 * (polyslab.ts), and that each lies at least partly inside the domain.
 */
import { MAX_REQUEST_POLYGON_VERTICES, polySlabBounds, polySlabProblems } from "../polyslab.js";
import type { StructureSpec, Vec3 } from "../types.js";
import { AXES, finite, fmt, type CheckContext } from "./common.js";

export function structureBounds(s: StructureSpec): { lo: Vec3; hi: Vec3 } {
  if (s.type === "polyslab") return polySlabBounds(s);
  const half: Vec3 =
    s.type === "box"
      ? [s.size[0] / 2, s.size[1] / 2, s.size[2] / 2]
      : s.type === "sphere"
        ? [s.radius, s.radius, s.radius]
        : ([0, 1, 2].map((a) => (AXES[a] === s.axis ? s.height / 2 : s.radius)) as Vec3);
  return {
    lo: [s.center[0] - half[0], s.center[1] - half[1], s.center[2] - half[2]],
    hi: [s.center[0] + half[0], s.center[1] + half[1], s.center[2] + half[2]],
  };
}

/** Every structure's geometry, and the polyslabs' vertex total. */
export function checkStructures(ctx: CheckContext): void {
  const { spec, add, problems, halfSize } = ctx;
  const outsideDomain = (s: StructureSpec, path: string) => {
    const { lo, hi } = structureBounds(s);
    for (let a = 0; a < 3; a++) {
      if (hi[a] <= -halfSize[a] || lo[a] >= halfSize[a]) {
        add(
          s.type === "polyslab"
            ? a === 2
              ? `${path}.z_min`
              : `${path}.vertices`
            : `${path}.center`,
          `the ${s.type} lies entirely outside the domain: along ${AXES[a]} it spans ` +
            `[${fmt(lo[a])}, ${fmt(hi[a])}] m, the domain [${fmt(-halfSize[a])}, ${fmt(halfSize[a])}] m`,
        );
        break;
      }
    }
  };

  let polygonVertices = 0;
  spec.structures.forEach((s, i) => {
    const path = `structures[${i}]`;
    if (s.type === "polyslab") {
      const found = polySlabProblems(s, path);
      problems.push(...found);
      polygonVertices += s.vertices.length + (s.holes ?? []).reduce((n, h) => n + h.length, 0);
      if (found.length === 0) outsideDomain(s, path);
      return;
    }
    const dims: [string, number][] =
      s.type === "box"
        ? s.size.map((v, a): [string, number] => [`size[${a}]`, v])
        : s.type === "sphere"
          ? [["radius", s.radius]]
          : [
              ["radius", s.radius],
              ["height", s.height],
            ];
    for (const [name, v] of dims) {
      if (!(finite(v) && v > 0)) add(`${path}.${name}`, "must be a positive number of metres");
    }
    if (!s.center.every(finite)) {
      add(`${path}.center`, "must be finite");
      return;
    }
    outsideDomain(s, path);
  });
  if (polygonVertices > MAX_REQUEST_POLYGON_VERTICES) {
    add(
      "structures",
      `the polyslabs have ${polygonVertices} vertices in all; at most ` +
        `${MAX_REQUEST_POLYGON_VERTICES} are allowed per request`,
    );
  }
}
