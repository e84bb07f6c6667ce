/**
 * Structure geometry for sub-cell smoothing: the fraction of a grid-aligned box (one cell on a
 * side, centred on a Yee E position: a cube on a uniform grid, a box of the local steps on a
 * graded one) that a structure fills, and the structure's outward normal there.
 *
 * - box: the exact overlap volume (product of 1-D overlaps), normal from its gradient.
 * - polyslab: the exact area fraction of the cube's x–y square inside the outline times the z
 *   overlap, normal from the edges crossing the square (polyslab.ts).
 * - sphere, cylinder's wall: the surface taken as its tangent plane at the signed distance d
 *   from the cube's centre along the normal n, and the exact fraction of the cube behind that
 *   plane (cubeFill). It is exact for planar faces of any orientation, errs by O(h²/R) on a
 *   surface of curvature radius R, and is continuous in the geometry, so results change
 *   smoothly (not in staircase jumps) as a structure moves or the grid is refined. A
 *   cylinder's fill is the wall's times the overlap with its caps along the axis, as a box's.
 * On periodic axes the structures' periodic images count too.
 * Structures that reach a face of the region of interest on a `pml` axis continue through the
 * absorber (DESIGN §1): box faces at or beyond that face move to infinity, and curved shapes
 * are evaluated at the query point projected onto the face (an extrusion).
 */
import { interiorSpanM, type GridPlan } from "./grid.js";
import { ON_NODE, overlap1d, overlapSlope } from "./overlap.js";
import { polySlabShape } from "./polyslab.js";
import type { DomainFaces, Shape } from "./shape.js";
import type { PolySlabSpec, StructureSpec, Vec3 } from "./types.js";

export function domainFaces(plan: GridPlan): DomainFaces {
  const lo: Vec3 = [0, 0, 0];
  const hi: Vec3 = [0, 0, 0];
  const ext: [boolean, boolean, boolean] = [false, false, false];
  const period: Vec3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const ax = plan.axes[a];
    // The smaller of the requested and the rounded extent: a structure that reaches the
    // requested face counts as touching it even when rounding moved the grid face outward.
    const [from, to] = interiorSpanM(ax);
    const interior = to - from;
    const half = Math.min(ax.requestedSizeM, interior) / 2;
    lo[a] = -half;
    hi[a] = half;
    ext[a] = ax.boundary === "pml";
    if (ax.boundary === "periodic") period[a] = ax.nodesM[ax.cells] - ax.nodesM[0];
  }
  return { lo, hi, extends: ext, period };
}

function boxShape(center: Vec3, size: Vec3, faces: DomainFaces): Shape {
  const tol = 1e-9;
  const lo: Vec3 = [0, 0, 0];
  const hi: Vec3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    lo[a] = center[a] - size[a] / 2;
    hi[a] = center[a] + size[a] / 2;
    const span = faces.hi[a] - faces.lo[a];
    if (faces.extends[a]) {
      if (lo[a] <= faces.lo[a] + tol * span) lo[a] = -Infinity;
      if (hi[a] >= faces.hi[a] - tol * span) hi[a] = Infinity;
    }
    // A box at least one period wide covers a periodic axis entirely.
    if (faces.period[a] > 0 && size[a] >= faces.period[a] * (1 - tol)) {
      lo[a] = -Infinity;
      hi[a] = Infinity;
    }
  }
  // Along a periodic axis the box's images (one period either side) are disjoint, so the
  // overlaps add up exactly.
  const images = faces.period.map((L) => (L > 0 ? [-L, 0, L] : [0]));
  const overlap = (a: number, c: number, h: number) => {
    let o = 0;
    for (const s of images[a]) o += overlap1d(c, h, lo[a] + s, hi[a] + s);
    return Math.min(o, 1);
  };
  const slope = (a: number, c: number, h: number) => {
    let g = 0;
    for (const s of images[a]) g += overlapSlope(c, h, lo[a] + s, hi[a] + s);
    return g;
  };
  return {
    lo: lo.map((v, a) => v - faces.period[a]) as Vec3,
    hi: hi.map((v, a) => v + faces.period[a]) as Vec3,
    coversAll: lo.every((v) => v === -Infinity) && hi.every((v) => v === Infinity),
    fill(p, h, normal) {
      const o0 = overlap(0, p[0], h[0]);
      const o1 = overlap(1, p[1], h[1]);
      const o2 = overlap(2, p[2], h[2]);
      const f = o0 * o1 * o2;
      if (f > 0 && f < 1) {
        // Outward normal = −∇f / |∇f| (slope is d(overlap)/dc·h along its axis).
        const g0 = slope(0, p[0], h[0]) * o1 * o2;
        const g1 = slope(1, p[1], h[1]) * ((h[0] / h[1]) * o0 * o2);
        const g2 = slope(2, p[2], h[2]) * ((h[0] / h[2]) * o0 * o1);
        const norm = Math.hypot(g0, g1, g2) || 1;
        normal[0] = -g0 / norm;
        normal[1] = -g1 / norm;
        normal[2] = -g2 / norm;
      }
      return f;
    },
    clip(p, h) {
      const out: [Vec3, Vec3] = [
        [0, 0, 0],
        [1, 1, 1],
      ];
      for (let a = 0; a < 3; a++) {
        const c0 = p[a] - h[a] / 2;
        // The images' parts of the cube along a, in its unit length: one interval, or no box.
        const parts = images[a]
          .map((s) => [(lo[a] + s - c0) / h[a], (hi[a] + s - c0) / h[a]])
          .map(([l, u]) => [Math.max(0, l!), Math.min(1, u!)] as const)
          .filter(([l, u]) => u > l)
          .sort((x, y) => x[0] - y[0]);
        if (parts.length === 0) return undefined;
        for (let k = 1; k < parts.length; k++)
          if (parts[k]![0] > parts[k - 1]![1]) return undefined;
        out[0][a] = parts[0]![0];
        out[1][a] = Math.max(...parts.map((x) => x[1]));
      }
      return out;
    },
  };
}

/**
 * Fill of a box of sides h (per axis) by the half-space behind a plane at signed distance d
 * from its centre (negative inside) with unit normal n: the exact volume fraction, by
 * inclusion and exclusion over the box's corners, in units of h0 = h[0]:
 *   V = Σ_v (−1)^{|v|} max(0, T − a·v)³ / (6·a1·a2·a3),  a_i = |n_i|·h_i/h0,
 *   T = −d/h0 + (a1 + a2 + a3)/2,
 * with the 2-D and 1-D forms where components of a vanish. (A linear ramp in d is exact only
 * for faces normal to an axis; on a sphere it displaces the surface by a fraction of a cell,
 * a first-order error in the sphere's size.)
 */
export function cubeFill(d: number, hv: Vec3, n: Vec3): number {
  const h = hv[0];
  // |a| sorted descending without an array (this runs for every cell near a curved surface).
  let a0 = Math.abs(n[0]);
  let a1 = Math.abs(n[1]) * (hv[1] / h);
  let a2 = Math.abs(n[2]) * (hv[2] / h);
  let t0: number;
  if (a1 > a0) {
    t0 = a0;
    a0 = a1;
    a1 = t0;
  }
  if (a2 > a1) {
    t0 = a1;
    a1 = a2;
    a2 = t0;
    if (a1 > a0) {
      t0 = a0;
      a0 = a1;
      a1 = t0;
    }
  }
  const sum = a0 + a1 + a2;
  const t = -d / h + sum / 2;
  // A plane within rounding of the box's corner leaves it whole or empty (overlap.ts ON_NODE):
  // a cylinder's wall on a cell face cut 1e-16 of it on one side of a mirror only.
  if (t <= ON_NODE * sum) return 0;
  if (t >= (1 - ON_NODE) * sum) return 1;
  const tiny = 1e-6 * sum;
  if (a1 <= tiny) return Math.min(1, Math.max(0, t / a0));
  if (a2 <= tiny) {
    const v =
      positiveSquare(t) -
      positiveSquare(t - a0) -
      positiveSquare(t - a1) +
      positiveSquare(t - a0 - a1);
    return Math.min(1, Math.max(0, v / (2 * a0 * a1)));
  }
  const v =
    positiveCube(t) -
    positiveCube(t - a0) -
    positiveCube(t - a1) -
    positiveCube(t - a2) +
    positiveCube(t - a0 - a1) +
    positiveCube(t - a0 - a2) +
    positiveCube(t - a1 - a2) -
    positiveCube(t - sum);
  return Math.min(1, Math.max(0, v / (6 * a0 * a1 * a2)));
}

function positiveSquare(x: number): number {
  return x > 0 ? x * x : 0;
}

function positiveCube(x: number): number {
  return x > 0 ? x * x * x : 0;
}

/** Projects p onto the region of interest along absorbing axes (extrusion through the PML). */
function project(p: Vec3, faces: DomainFaces, out: Vec3): Vec3 {
  for (let a = 0; a < 3; a++) {
    out[a] = faces.extends[a] ? Math.min(faces.hi[a], Math.max(faces.lo[a], p[a])) : p[a];
  }
  return out;
}

function sphereShape(center: Vec3, radius: number, faces: DomainFaces): Shape {
  const q: Vec3 = [0, 0, 0];
  const lo: Vec3 = [0, 0, 0];
  const hi: Vec3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    lo[a] = center[a] - radius;
    hi[a] = center[a] + radius;
    if (faces.extends[a] && lo[a] <= faces.lo[a]) lo[a] = -Infinity;
    if (faces.extends[a] && hi[a] >= faces.hi[a]) hi[a] = Infinity;
  }
  return {
    lo,
    hi,
    fill(p, h, normal) {
      project(p, faces, q);
      const dx = q[0] - center[0];
      const dy = q[1] - center[1];
      const dz = q[2] - center[2];
      const r = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (r === 0) return 1;
      normal[0] = dx / r;
      normal[1] = dy / r;
      normal[2] = dz / r;
      return cubeFill(r - radius, h, normal);
    },
  };
}

function cylinderShape(
  center: Vec3,
  radius: number,
  height: number,
  axis: number,
  faces: DomainFaces,
): Shape {
  const q: Vec3 = [0, 0, 0];
  const radial: Vec3 = [0, 0, 0];
  const lo: Vec3 = [0, 0, 0];
  const hi: Vec3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const half = a === axis ? height / 2 : radius;
    lo[a] = center[a] - half;
    hi[a] = center[a] + half;
    if (faces.extends[a] && lo[a] <= faces.lo[a]) lo[a] = -Infinity;
    if (faces.extends[a] && hi[a] >= faces.hi[a]) hi[a] = Infinity;
  }
  const u = (axis + 1) % 3;
  const v = (axis + 2) % 3;
  return {
    lo,
    hi,
    fill(p, h, normal) {
      project(p, faces, q);
      const du = q[u] - center[u];
      const dv = q[v] - center[v];
      const rho = Math.sqrt(du * du + dv * dv);
      // The radial part: the side wall's tangent plane (cubeFill); the axial part: the
      // overlap of the cube's extent along the axis with the caps' (a box's, overlap.ts).
      // The fill is their product, exact for the caps' planes and the wall's where the other
      // leaves the cube whole, and the normal comes from the product's gradient. (The nearer
      // surface's plane alone, as before, put a cube at the rim's edge half inside, with a
      // normal that rounding chose: mirror images of one rod were painted apart.)
      radial[u] = rho > 0 ? du / rho : 1;
      radial[v] = rho > 0 ? dv / rho : 0;
      radial[axis] = 0;
      const fr = cubeFill(rho - radius, h, radial);
      const fa = overlap1d(q[axis], h[axis], lo[axis], hi[axis]);
      const f = fr * fa;
      if (f > 0 && f < 1) {
        // Outward: the wall's normal where it cuts the cube, −slope along the axis at a cap.
        const wall = fr < 1 ? fa : 0;
        const cap = -overlapSlope(q[axis], h[axis], lo[axis], hi[axis]) * fr;
        const norm = Math.hypot(wall, cap) || 1;
        normal[u] = (wall * radial[u]) / norm;
        normal[v] = (wall * radial[v]) / norm;
        normal[axis] = cap / norm;
      }
      return f;
    },
  };
}

/**
 * A shape on periodic axes with its images one period either side. Along an axis where the
 * shape is at most one period wide, its images at most abut it, and their fills add up
 * exactly. Along one where it is wider (a layer across a unit cell, a sphere larger than the
 * cell) they overlap it, and a cube takes the largest of their fills: their union's where one
 * image holds the others' part of the cube, less where two images' surfaces cross it, never
 * more (adding them counted a rod's surface cubes two or three times). The sum is capped at 1;
 * the normal is that of the image whose surface cuts the cube most evenly (of overlapping
 * ones, the fullest's).
 */
function withImages(shape: Shape, faces: DomainFaces): Shape {
  const periodic = [0, 1, 2].filter((a) => faces.period[a] > 0);
  if (periodic.length === 0) return shape;
  const wide = periodic.filter((a) => shape.hi[a] - shape.lo[a] > faces.period[a] * (1 + 1e-9));
  const added = imageShifts(
    periodic.filter((a) => !wide.includes(a)),
    faces,
  );
  const overlapping = imageShifts(wide, faces);
  const q: Vec3 = [0, 0, 0];
  const n: Vec3 = [0, 0, 0];
  const m: Vec3 = [0, 0, 0];
  return {
    lo: shape.lo.map((v, a) => v - faces.period[a]) as Vec3,
    hi: shape.hi.map((v, a) => v + faces.period[a]) as Vec3,
    fill(p, h, normal) {
      let f = 0;
      let best = 2;
      for (const s of added) {
        // The largest of the overlapping images' fills, and its normal.
        let largest = 0;
        for (const t of overlapping) {
          for (let a = 0; a < 3; a++) q[a] = p[a] - s[a] - t[a];
          if (!nearShape(shape, q, h)) continue;
          const fi = shape.fill(q, h, n);
          if (fi <= largest) continue;
          largest = fi;
          m[0] = n[0];
          m[1] = n[1];
          m[2] = n[2];
        }
        if (largest > 0 && largest < 1 && Math.abs(largest - 0.5) < best) {
          best = Math.abs(largest - 0.5);
          normal[0] = m[0];
          normal[1] = m[1];
          normal[2] = m[2];
        }
        f += largest;
      }
      return Math.min(f, 1);
    },
  };
}

/** The shifts by −1, 0 and +1 periods along each of `axes`, in every combination. */
function imageShifts(axes: readonly number[], faces: DomainFaces): Vec3[] {
  let out: Vec3[] = [[0, 0, 0]];
  for (const a of axes) {
    out = out.flatMap((s) =>
      [-1, 0, 1].map((m) => s.map((v, b) => (b === a ? m * faces.period[a] : v)) as Vec3),
    );
  }
  return out;
}

/** Whether the cube of sides h at q may meet the shape's bounds. */
function nearShape(shape: Shape, q: Vec3, h: Vec3): boolean {
  for (let a = 0; a < 3; a++) {
    if (q[a] < shape.lo[a] - h[a] || q[a] > shape.hi[a] + h[a]) return false;
  }
  return true;
}

const AXIS_NUMBER = { x: 0, y: 1, z: 2 } as const;

/** The smoothing geometry of one structure of the request. */
export function shapeOf(s: StructureSpec, faces: DomainFaces): Shape {
  switch (s.type) {
    case "box":
      return boxShape(s.center, s.size, faces);
    case "sphere":
      return withImages(sphereShape(s.center, s.radius, faces), faces);
    case "cylinder": {
      // A rod at least one period long along a periodic axis is, with its images, an infinite
      // one: its caps (whose corners the fill rounds) are not there.
      const axis = AXIS_NUMBER[s.axis];
      const period = faces.period[axis];
      const height = period > 0 && s.height >= period * (1 - 1e-9) ? Infinity : s.height;
      return withImages(cylinderShape(s.center, s.radius, height, axis, faces), faces);
    }
    case "polyslab": {
      const withImagesShape = withImages(polySlabShape(s, faces), faces);
      // A rectangle's part of a cube is a box, as the same box's (cube-shares.ts).
      const box = rectangleBox(s);
      return box
        ? { ...withImagesShape, clip: boxShape(box.center, box.size, faces).clip }
        : withImagesShape;
    }
  }
}

/** The box a polyslab is when its outline is a rectangle along the axes (no holes, upright). */
function rectangleBox(s: PolySlabSpec): { center: Vec3; size: Vec3 } | null {
  const v = s.vertices;
  if (v.length !== 4 || (s.holes?.length ?? 0) > 0 || (s.sidewall_angle_deg ?? 0) !== 0) {
    return null;
  }
  const alongAxes = v.every(([x, y], i) => {
    const [nx, ny] = v[(i + 1) % 4]!;
    return x === nx || y === ny;
  });
  if (!alongAxes) return null;
  const xs = v.map((p) => p[0]);
  const ys = v.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return {
    center: [(x0 + x1) / 2, (y0 + y1) / 2, (s.z_min + s.z_max) / 2],
    size: [x1 - x0, y1 - y0, s.z_max - s.z_min],
  };
}
