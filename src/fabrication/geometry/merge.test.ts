import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { mergePolygons, type MergeResult } from "./merge.js";
import { rectangleRing, ringArea2 } from "./polygon.js";
import { orient } from "./predicates.js";

const loopsAsText = (m: MergeResult): string[] => m.loops.map((l) => Array.from(l).join(","));
/** Area of the union: outer loops (clockwise) count positive, holes negative. */
const unionArea = (m: MergeResult): number => m.loops.reduce((a, l) => a - ringArea2(l) / 2, 0);

/** Exact area of a union of axis-aligned rectangles by coordinate compression. */
function rectangleUnionArea(rects: Array<[number, number, number, number]>): number {
  const xs = [...new Set(rects.flatMap((r) => [r[0], r[2]]))].sort((a, b) => a - b);
  const ys = [...new Set(rects.flatMap((r) => [r[1], r[3]]))].sort((a, b) => a - b);
  let area = 0;
  for (let i = 0; i + 1 < xs.length; i += 1) {
    for (let j = 0; j + 1 < ys.length; j += 1) {
      const cx = (xs[i]! + xs[i + 1]!) / 2;
      const cy = (ys[j]! + ys[j + 1]!) / 2;
      if (rects.some((r) => r[0] < cx && cx < r[2] && r[1] < cy && cy < r[3])) {
        area += (xs[i + 1]! - xs[i]!) * (ys[j + 1]! - ys[j]!);
      }
    }
  }
  return area;
}

/** No two edges of the result cross properly, and no vertex lies inside another edge. */
function assertPlanar(m: MergeResult): void {
  const edges: number[][] = [];
  for (const l of m.loops) {
    const n = l.length / 2;
    for (let i = 0; i < n; i += 1) {
      const j = (i + 1) % n;
      edges.push([l[2 * i]!, l[2 * i + 1]!, l[2 * j]!, l[2 * j + 1]!]);
    }
  }
  for (let a = 0; a < edges.length; a += 1) {
    for (let b = a + 1; b < edges.length; b += 1) {
      const [ax, ay, bx, by] = edges[a]!;
      const [cx, cy, dx, dy] = edges[b]!;
      const o1 = orient(ax!, ay!, bx!, by!, cx!, cy!);
      const o2 = orient(ax!, ay!, bx!, by!, dx!, dy!);
      const o3 = orient(cx!, cy!, dx!, dy!, ax!, ay!);
      const o4 = orient(cx!, cy!, dx!, dy!, bx!, by!);
      assert.ok(!(o1 * o2 < 0 && o3 * o4 < 0), `edges ${edges[a]} and ${edges[b]} cross`);
    }
  }
}

test("merge: one rectangle comes back clockwise (interior on the right), from its lowest point", () => {
  const m = mergePolygons([rectangleRing(0, 0, 100, 50)]);
  assert.deepEqual(loopsAsText(m), ["0,0,0,50,100,50,100,0"]);
  assert.equal(m.polygonCount, 1);
  // Either input orientation gives the same result.
  assert.deepEqual(
    loopsAsText(mergePolygons([Int32Array.of(0, 0, 0, 50, 100, 50, 100, 0)])),
    loopsAsText(m),
  );
});

test("merge: abutting rectangles become one outline with the shared edge gone and collinear edges joined", () => {
  const m = mergePolygons([rectangleRing(0, 0, 100, 100), rectangleRing(100, 0, 200, 50)]);
  assert.deepEqual(loopsAsText(m), ["0,0,0,100,100,100,100,50,200,50,200,0"]);
  const same = mergePolygons([rectangleRing(0, 0, 100, 100), rectangleRing(100, 0, 200, 100)]);
  assert.deepEqual(loopsAsText(same), ["0,0,0,100,200,100,200,0"]);
});

test("merge: overlapping and identical shapes count once", () => {
  const m = mergePolygons([
    rectangleRing(0, 0, 100, 100),
    rectangleRing(50, 50, 150, 150),
    rectangleRing(0, 0, 100, 100),
  ]);
  assert.equal(m.loops.length, 1);
  assert.equal(unionArea(m), 17_500);
});

test("merge: corner-touching shapes are two loops of one polygon (KLayout's maximum coherence)", () => {
  const m = mergePolygons([rectangleRing(0, 0, 100, 100), rectangleRing(100, 100, 200, 200)]);
  assert.deepEqual(loopsAsText(m), ["0,0,0,100,100,100,100,0", "100,100,100,200,200,200,200,100"]);
  assert.equal(m.polygonCount, 1);
  const apart = mergePolygons([rectangleRing(0, 0, 100, 100), rectangleRing(101, 100, 200, 200)]);
  assert.equal(apart.polygonCount, 2);
});

test("merge: a frame keeps its hole, counter-clockwise, in the same polygon", () => {
  const m = mergePolygons([
    rectangleRing(0, 0, 300, 100),
    rectangleRing(0, 200, 300, 300),
    rectangleRing(0, 0, 100, 300),
    rectangleRing(200, 0, 300, 300),
  ]);
  assert.deepEqual(loopsAsText(m), ["0,0,0,300,300,300,300,0", "100,100,200,100,200,200,100,200"]);
  assert.ok(ringArea2(m.loops[1]!) > 0, "hole runs counter-clockwise");
  assert.deepEqual(Array.from(m.loopPolygon), [0, 0]);
  assert.equal(unionArea(m), 80_000);
  // A shape inside the hole is a polygon of its own.
  const island = mergePolygons([
    rectangleRing(0, 0, 300, 100),
    rectangleRing(0, 200, 300, 300),
    rectangleRing(0, 0, 100, 300),
    rectangleRing(200, 0, 300, 300),
    rectangleRing(140, 140, 160, 160),
  ]);
  assert.equal(island.polygonCount, 2);
});

test("merge: crossing diagonals meet at rounded points, as KLayout rounds them", () => {
  // A diamond over a rectangle whose corners lie inside it: the union is the diamond.
  const m = mergePolygons([Int32Array.of(0, 0, 10, -7, 20, 0, 10, 7), rectangleRing(5, -3, 15, 3)]);
  assert.equal(unionArea(m), 140);
  // Two crossing triangles: crossings at non-integer points are rounded to the grid.
  const x = mergePolygons([
    Int32Array.of(0, 0, 1000, 0, 500, 700),
    Int32Array.of(0, 500, 1000, 500, 500, -200),
  ]);
  assert.equal(x.polygonCount, 1);
  assertPlanar(x);
});

test("merge: random rectangles give the exact union area and a crossing-free outline", () => {
  const rect = fc
    .tuple(
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 1, max: 15 }),
      fc.integer({ min: 1, max: 15 }),
    )
    .map(([x, y, w, h]): [number, number, number, number] => [
      x * 10,
      y * 10,
      (x + w) * 10,
      (y + h) * 10,
    ]);
  fc.assert(
    fc.property(fc.array(rect, { minLength: 1, maxLength: 25 }), (rects) => {
      const m = mergePolygons(rects.map((r) => rectangleRing(...r)));
      assert.equal(unionArea(m), rectangleUnionArea(rects));
      for (const l of m.loops) assert.ok(l.length >= 8);
      assertPlanar(m);
    }),
    { numRuns: 300 },
  );
});

test("merge: random triangles — area matches a fine raster of the union", () => {
  const pt = fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 }));
  fc.assert(
    fc.property(fc.array(fc.tuple(pt, pt, pt), { minLength: 1, maxLength: 6 }), (tris) => {
      const rings = tris.map(([a, b, c]) => Int32Array.of(a[0], a[1], b[0], b[1], c[0], c[1]));
      const m = mergePolygons(rings);
      assertPlanar(m);
      // Raster at quarter-nanometre sample points; a sample counts when inside any triangle.
      const inside = (r: Int32Array, x: number, y: number): boolean => {
        const s1 = orient(r[0]!, r[1]!, r[2]!, r[3]!, x, y);
        const s2 = orient(r[2]!, r[3]!, r[4]!, r[5]!, x, y);
        const s3 = orient(r[4]!, r[5]!, r[0]!, r[1]!, x, y);
        return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
      };
      let samples = 0;
      for (let x = 0.125; x < 300; x += 0.5) {
        for (let y = 0.125; y < 300; y += 0.5) {
          if (rings.some((r) => ringArea2(r) !== 0 && inside(r, x, y))) samples += 1;
        }
      }
      const rasterArea = samples * 0.25;
      // Rounding crossings to 1 nm moves the outline by at most ~0.7 nm: tolerance scales with
      // the perimeter; a wrong winding rule would be off by whole triangles.
      const perimeter = rings.reduce(
        (p, r) =>
          p +
          Math.hypot(r[2]! - r[0]!, r[3]! - r[1]!) +
          Math.hypot(r[4]! - r[2]!, r[5]! - r[3]!) +
          Math.hypot(r[0]! - r[4]!, r[1]! - r[5]!),
        0,
      );
      assert.ok(
        Math.abs(unionArea(m) - rasterArea) <= 0.8 * perimeter + 4,
        `area ${unionArea(m)} vs raster ${rasterArea}`,
      );
    }),
    { numRuns: 40 },
  );
});
