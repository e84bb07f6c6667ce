/**
 * Checks of `domain.symmetry`: the solver steps only the half at coordinates ≥ 0 of each
 * symmetric axis (grid.ts, AxisPlan.mirror), so what it leaves out must be the mirror image of
 * what it steps. The source must be symmetric with the stated parity (checks/source.ts), the
 * structures must be the mirror images of one another (or
 * of themselves), and each monitor must be its own mirror image (centred on the plane) or lie
 * in the half that is stepped.
 */
import type { StructureSpec, Vec3 } from "../types.js";
import { AXES, finite, fmt, type CheckContext } from "./common.js";
import { checkSourceParity, type SourceFacts } from "./source.js";
import { planGrid, type GridPlan } from "../grid.js";

/** The problems of `domain.symmetry`, after the source's and the structures' own checks. */
export function checkSymmetry(ctx: CheckContext, source: SourceFacts): void {
  const { spec, add } = ctx;
  const symmetry = spec.domain.symmetry;
  if (!symmetry) return;
  // The grid as it would be without symmetry, planned once for every symmetric axis.
  let whole: GridPlan | null | undefined;
  const wholeGrid = () =>
    (whole ??= ctx.grid()
      ? planGrid({ ...spec.domain, symmetry: undefined }, spec.fdtd_settings.courant_factor)
      : null);
  for (let a = 0; a < 3; a++) {
    const s = symmetry[a];
    if (s === "none") continue;
    const path = `domain.symmetry[${a}]`;
    const plane = `${AXES[a]} = 0`;
    if (spec.domain.boundary_conditions[a] === "periodic") {
      add(
        path,
        `a symmetric axis cannot be periodic: the solver steps the half at ${AXES[a]} ≥ 0 ` +
          `with a ${s} wall on the plane ${plane}; use pml, pec or pmc along ${AXES[a]}, or none here`,
      );
    }
    checkSourceParity(ctx, source, a, path);
    checkNodeOnPlane(ctx, wholeGrid(), a, path);
    checkStructuresMirror(ctx, a);
    spec.monitors.forEach((m, i) => {
      const c = m.center[a];
      const half = m.size[a] / 2;
      if (!finite(c) || !finite(half)) return;
      const tol = 1e-9 * Math.max(spec.domain.size[a], Math.abs(c));
      if (Math.abs(c) <= tol || c - half >= -tol) return;
      add(
        `monitors[${i}].center`,
        `with symmetry along ${AXES[a]} the solver steps only ${AXES[a]} ≥ 0: a monitor must be ` +
          `centred on ${plane} (its own mirror image) or lie at ${AXES[a]} ≥ 0; this one spans ` +
          `[${fmt(c - half)}, ${fmt(c + half)}] m`,
      );
    });
  }
}

/**
 * The grid without symmetry must have a node on the mirror plane: the solver steps the half
 * from a node there, which is half of that grid only then. With an odd number of cells across
 * (uniform), or mesh overrides that leave no node on the plane, the half is another grid: a
 * sphere's dipole power came out 8 % apart (an outside probe).
 */
function checkNodeOnPlane(
  ctx: CheckContext,
  whole: GridPlan | null,
  a: number,
  path: string,
): void {
  if (!whole) return; // the domain's own problems are reported already
  const axis = whole.axes[a];
  const nodes = axis.nodesM;
  let k = 0;
  while (k + 1 < nodes.length && nodes[k + 1]! <= 0) k++;
  const below = nodes[k]!;
  const above = nodes[Math.min(k + 1, nodes.length - 1)]!;
  const tol = 1e-9 * axis.minStepM;
  if (Math.abs(below) <= tol || Math.abs(above) <= tol) return;
  const name = AXES[a];
  const cause =
    axis.uniformStepM !== null
      ? `${axis.interiorCells} cells of ${fmt(axis.uniformStepM)} m across ${name}: make ` +
        `domain.size along ${name} an even number of cells`
      : `the mesh overrides leave none there: centre an override on ${name} = 0 with an ` +
        `even number of its cells across it`;
  ctx.add(
    path,
    `with symmetry along ${name} the solver steps ${name} ≥ 0 from a grid node on ${name} = 0, ` +
      `but the whole grid has no node there (its nearest are at ${fmt(below)} and ` +
      `${fmt(above)} m; ${cause}), and the half would be another grid`,
  );
}

/** Every structure's mirror image about the plane normal to axis a must be in the list too. */
function checkStructuresMirror(ctx: CheckContext, a: number): void {
  const { spec, add } = ctx;
  // A thousandth of a cell: closer than any grid can tell apart.
  const tol = 1e-3 * spec.domain.resolution;
  spec.structures.forEach((s, i) => {
    const image = mirrorStructure(s, a);
    if (image === null) {
      add(
        `structures[${i}]`,
        `a polyslab with a sidewall angle is not its own mirror image about z = 0 (nor any ` +
          `polyslab's); symmetry along z needs vertical sidewalls`,
      );
      return;
    }
    if (spec.structures.some((t) => sameStructure(image, t, tol))) return;
    add(
      `structures[${i}]`,
      `with symmetry along ${AXES[a]} every structure needs its mirror image about ` +
        `${AXES[a]} = 0 (itself, centred there, or another of the same material): this ` +
        `${s.type} has none, and the solver would simulate it mirrored`,
    );
  });
}

/** A structure's mirror image about the plane normal to axis a; null if no spec describes it. */
export function mirrorStructure(s: StructureSpec, a: number): StructureSpec | null {
  const flip = (c: Vec3): Vec3 => c.map((v, d) => (d === a ? -v : v)) as Vec3;
  switch (s.type) {
    case "box":
    case "sphere":
    case "cylinder":
      return { ...s, center: flip(s.center) };
    case "polyslab": {
      if (a === 2) {
        if ((s.sidewall_angle_deg ?? 0) !== 0) return null;
        return { ...s, z_min: -s.z_max, z_max: -s.z_min };
      }
      const pt = (p: [number, number]): [number, number] =>
        a === 0 ? [-p[0], p[1]] : [p[0], -p[1]];
      return {
        ...s,
        vertices: s.vertices.map(pt),
        ...(s.holes ? { holes: s.holes.map((h) => h.map(pt)) } : {}),
      };
    }
  }
}

const close = (x: number, y: number, tol: number) => Math.abs(x - y) <= tol;
const closeVec = (x: readonly number[], y: readonly number[], tol: number) =>
  x.length === y.length && x.every((v, d) => close(v, y[d], tol));

/** The same points, in any order (an outline's start and orientation do not matter). */
function samePoints(p: [number, number][], q: [number, number][], tol: number): boolean {
  if (p.length !== q.length) return false;
  const used = new Array<boolean>(q.length).fill(false);
  return p.every((v) => {
    const k = q.findIndex((w, j) => !used[j] && closeVec(v, w, tol));
    if (k < 0) return false;
    used[k] = true;
    return true;
  });
}

function sameStructure(s: StructureSpec, t: StructureSpec, tol: number): boolean {
  if (s.type !== t.type || s.material !== t.material) return false;
  switch (s.type) {
    case "box":
      return t.type === "box" && closeVec(s.center, t.center, tol) && closeVec(s.size, t.size, tol);
    case "sphere":
      return (
        t.type === "sphere" && closeVec(s.center, t.center, tol) && close(s.radius, t.radius, tol)
      );
    case "cylinder":
      return (
        t.type === "cylinder" &&
        s.axis === t.axis &&
        closeVec(s.center, t.center, tol) &&
        close(s.radius, t.radius, tol) &&
        close(s.height, t.height, tol)
      );
    case "polyslab": {
      if (t.type !== "polyslab") return false;
      const holes = (x: typeof s) => x.holes ?? [];
      return (
        close(s.z_min, t.z_min, tol) &&
        close(s.z_max, t.z_max, tol) &&
        close(s.sidewall_angle_deg ?? 0, t.sidewall_angle_deg ?? 0, 1e-9) &&
        samePoints(s.vertices, t.vertices, tol) &&
        holes(s).length === holes(t).length &&
        holes(s).every((h) => holes(t).some((k) => samePoints(h, k, tol)))
      );
    }
  }
}
