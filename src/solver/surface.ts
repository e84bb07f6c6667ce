/**
 * How many grid cells the structures' surfaces cross, approximately: each structure's surface
 * area inside the grid over the cell's face, h², times how many cells painting mixes per h² of
 * surface (some E component's cube straddles it): about 1.5 for a face normal to an axis, 2 for
 * a curved or slanted one (surface.test.ts checks the count against painting). Such cells cost
 * the time step and the set-up more than the grid's size says: a smoothed interface cell is a
 * coefficient entry of its own (medium.ts), which the fast kernel gathers lane by lane in a
 * mixed piece of its row (wasm/runs.ts), and painting computes a fill fraction for it
 * (docs/benchmarks.md). Estimates only (jobs/timing.ts): nothing is painted, and overlapping
 * structures are counted as if apart.
 */
import { planGrid, stepsOver, type GridPlan } from "./grid.js";
import { orientRings } from "./polyslab.js";
import type { SimulationSpec, StructureSpec, Vec3 } from "./types.js";

/** Cells painting mixes per h² of a face normal to an axis, and of a curved surface. */
const PLANAR = 1.5;
const CURVED = 2;

/** Length of [a0, a1] ∩ [b0, b1]. */
function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

/** Area of an axis-aligned box's faces that lie inside the grid. */
function boxArea(lo: Vec3, hi: Vec3, grid: { lo: Vec3; hi: Vec3 }): number {
  let area = 0;
  for (let a = 0; a < 3; a++) {
    const b = (a + 1) % 3;
    const c = (a + 2) % 3;
    const face =
      overlap(lo[b], hi[b], grid.lo[b], grid.hi[b]) * overlap(lo[c], hi[c], grid.lo[c], grid.hi[c]);
    for (const x of [lo[a], hi[a]]) if (x > grid.lo[a] && x < grid.hi[a]) area += face;
  }
  return area;
}

/**
 * The part inside the grid of a box `center` ± `half`, per axis: `reach`, half the length of
 * the box inside the grid, and `fraction`, the share of the box's extent that is (reach over
 * half). A curved surface crossing the grid's faces is counted as its whole area times the
 * box's fraction inside; written as products of reaches (never more than the grid's
 * half-extent) and fractions (at most 1), that product neither overflows nor makes ∞ · 0 for
 * a structure far larger than the grid, as 4π·r² times a fraction did for r = 1e308 (issue #26).
 */
function clipToGrid(
  center: Vec3,
  half: Vec3,
  grid: { lo: Vec3; hi: Vec3 },
): { reach: Vec3; fraction: Vec3 } {
  const reach: Vec3 = [0, 0, 0];
  const fraction: Vec3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const lo = center[a] - half[a];
    const hi = center[a] + half[a];
    reach[a] = overlap(lo, hi, grid.lo[a], grid.hi[a]) / 2;
    fraction[a] = half[a] > 0 ? Math.min(1, reach[a] / half[a]) : 0;
  }
  return { reach, fraction };
}

/**
 * Side length of a ring of [x, y] vertices (packed x0, y0, x1, y1, …) weighted by the cells
 * painting mixes per h² of a side: PLANAR where the edge runs along x or y, CURVED where slanted.
 */
function weightedPerimeter(ring: ArrayLike<number>): number {
  let sum = 0;
  const n = ring.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const dx = ring[2 * j] - ring[2 * i];
    const dy = ring[2 * j + 1] - ring[2 * i + 1];
    const length = Math.hypot(dx, dy);
    const aligned = Math.min(Math.abs(dx), Math.abs(dy)) <= 1e-9 * length;
    sum += (aligned ? PLANAR : CURVED) * length;
  }
  return sum;
}

function surfaceArea(s: StructureSpec, grid: { lo: Vec3; hi: Vec3 }): number {
  switch (s.type) {
    case "box": {
      const lo = s.center.map((c, a) => c - s.size[a] / 2) as Vec3;
      const hi = s.center.map((c, a) => c + s.size[a] / 2) as Vec3;
      return PLANAR * boxArea(lo, hi, grid);
    }
    case "sphere": {
      // 4π·r² times the fraction inside: 4π·(r·f_x)·(r·f_y)·f_z.
      const r = s.radius;
      const { reach, fraction } = clipToGrid(s.center, [r, r, r], grid);
      return CURVED * 4 * Math.PI * reach[0] * reach[1] * fraction[2];
    }
    case "cylinder": {
      // 2π·r·(CURVED·height + PLANAR·r) times the fraction inside, with r·f = reach across the
      // axis and height·f = 2·reach along it.
      const a = "xyz".indexOf(s.axis);
      const [b, c] = [(a + 1) % 3, (a + 2) % 3];
      const half = [0, 1, 2].map((k) => (k === a ? s.height / 2 : s.radius)) as Vec3;
      const { reach, fraction: f } = clipToGrid(s.center, half, grid);
      const side = CURVED * 2 * reach[a] * reach[b] * f[c];
      const caps = PLANAR * reach[b] * reach[c] * f[a];
      return 2 * Math.PI * (side + caps);
    }
    case "polyslab": {
      const { rings, area: signedArea } = orientRings(s);
      const sides = rings.reduce((sum, r) => sum + weightedPerimeter(r), 0);
      const area = Math.abs(signedArea);
      const height = overlap(s.z_min, s.z_max, grid.lo[2], grid.hi[2]);
      let caps = 0;
      for (const z of [s.z_min, s.z_max]) if (z > grid.lo[2] && z < grid.hi[2]) caps += area;
      // A slab outside the grid's z range has no sides in it (and no ∞ · 0 from a long outline).
      return (height > 0 ? sides * height : 0) + PLANAR * caps;
    }
  }
}

/** A structure's axis-aligned bounds in metres. */
export function structureBounds(s: StructureSpec): { lo: Vec3; hi: Vec3 } {
  switch (s.type) {
    case "box":
      return {
        lo: s.center.map((c, a) => c - s.size[a] / 2) as Vec3,
        hi: s.center.map((c, a) => c + s.size[a] / 2) as Vec3,
      };
    case "sphere":
      return {
        lo: s.center.map((c) => c - s.radius) as Vec3,
        hi: s.center.map((c) => c + s.radius) as Vec3,
      };
    case "cylinder": {
      const a = "xyz".indexOf(s.axis);
      return {
        lo: s.center.map((c, b) => c - (b === a ? s.height / 2 : s.radius)) as Vec3,
        hi: s.center.map((c, b) => c + (b === a ? s.height / 2 : s.radius)) as Vec3,
      };
    }
    case "polyslab": {
      const xs = s.vertices.map((v) => v[0]);
      const ys = s.vertices.map((v) => v[1]);
      return {
        lo: [Math.min(...xs), Math.min(...ys), s.z_min],
        hi: [Math.max(...xs), Math.max(...ys), s.z_max],
      };
    }
  }
}

/** Cells the structures' surfaces cross, about (the module comment). */
export function surfaceCells(
  spec: SimulationSpec,
  plan: GridPlan = planGrid(spec.domain, spec.fdtd_settings.courant_factor),
): number {
  // The whole grid, PML included, in metres (the domain is centred on the origin).
  const grid = {
    lo: plan.axes.map((a) => a.nodesM[0]) as Vec3,
    hi: plan.axes.map((a) => a.nodesM[a.cells]) as Vec3,
  };
  // Each surface over the cells around it: h² on a uniform grid, the mean steps of the cells
  // its bounds span on a graded one (mesh overrides).
  let count = 0;
  for (const s of spec.structures) {
    let h = plan.baseStepM;
    if (!plan.uniform) {
      const { lo, hi } = structureBounds(s);
      h = plan.axes.reduce((sum, ax, a) => sum + stepsOver(ax, lo[a], hi[a]).meanM, 0) / 3;
    }
    count += surfaceArea(s, grid) / h ** 2;
  }
  const cells = plan.axes[0].cells * plan.axes[1].cells * plan.axes[2].cells;
  return Math.min(cells, Math.round(count));
}
