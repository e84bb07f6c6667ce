/**
 * Seeded random layouts for comparing our geometry and design-rule checks with KLayout's:
 * rectangles, L and U shapes, circles, overlaps, abutments, kissing corners and diagonal
 * neighbours, on a coarse grid (so distances often equal a rule exactly) or on 1 nm.
 */

import { circleRing } from "../geometry/circle.js";
import { rectangleRing, type Ring } from "../geometry/polygon.js";

/** Mulberry32: a small, fast, seedable generator (not for cryptography). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RandomLayout {
  polygons: Ring[];
  /** Width rule (nm) to check with. */
  widthNm: number;
  /** Space rule (nm) to check with. */
  spaceNm: number;
}

/**
 * One random layout of `count` shapes in a field about 3 µm across; with `manhattan`, no
 * circles (every edge horizontal or vertical).
 */
// eslint-disable-next-line max-lines-per-function -- not yet split (issue #27)
export function randomLayout(seed: number, count = 8, manhattan = false): RandomLayout {
  const rnd = seededRandom(seed);
  const grid = rnd() < 0.5 ? 10 : 1;
  const q = (v: number): number => Math.round(v / grid) * grid;
  const between = (lo: number, hi: number): number => q(lo + rnd() * (hi - lo));
  const field = 3000;
  const polygons: Ring[] = [];
  const boxes: Array<[number, number, number, number]> = [];
  const widthNm = between(100, 200);
  const spaceNm = between(100, 200);
  for (let k = 0; k < count; k += 1) {
    const kind = rnd();
    const x = between(0, field);
    const y = between(0, field);
    const w = between(40, 600);
    const h = between(40, 600);
    if (kind < 0.3) {
      polygons.push(rectangleRing(x, y, x + w, y + h));
      boxes.push([x, y, x + w, y + h]);
    } else if (kind < 0.42) {
      // L shape: a w × h box minus its upper-right part.
      const t1 = between(30, Math.max(31, w - 10));
      const t2 = between(30, Math.max(31, h - 10));
      polygons.push(
        Int32Array.of(x, y, x + w, y, x + w, y + t2, x + t1, y + t2, x + t1, y + h, x, y + h),
      );
    } else if (kind < 0.54) {
      // U shape: two arms and a base; the notch is often narrower than the space rule.
      const arm = between(40, 200);
      const gap = between(40, 300);
      const base = between(40, 200);
      const height = between(base + 40, base + 600);
      const right = x + 2 * arm + gap;
      polygons.push(
        Int32Array.of(
          x,
          y,
          right,
          y,
          right,
          y + height,
          right - arm,
          y + height,
          right - arm,
          y + base,
          x + arm,
          y + base,
          x + arm,
          y + height,
          x,
          y + height,
        ),
      );
    } else if (kind < 0.66 && !manhattan) {
      const r = between(40, 400);
      polygons.push(circleRing(x, y, r, 1 + rnd() * 4, 1));
    } else if (kind < 0.78 && boxes.length > 0) {
      // Abutting box: shares the right edge of an earlier box (partly or fully).
      const [, b0y, b1x, b1y] = boxes[Math.floor(rnd() * boxes.length)]!;
      const y0 = between(b0y - 100, b1y - 20);
      const box: [number, number, number, number] = [b1x, y0, b1x + w, y0 + between(20, 400)];
      polygons.push(rectangleRing(...box));
      boxes.push(box);
    } else if (kind < 0.88 && boxes.length > 0) {
      // Kissing corner, or a diagonal neighbour just inside or outside the space rule.
      const [, , b1x, b1y] = boxes[Math.floor(rnd() * boxes.length)]!;
      const off = rnd() < 0.4 ? 0 : between(0, 150);
      const off2 = rnd() < 0.4 ? off : between(0, 150);
      const box: [number, number, number, number] = [
        b1x + off,
        b1y + off2,
        b1x + off + w,
        b1y + off2 + h,
      ];
      polygons.push(rectangleRing(...box));
      boxes.push(box);
    } else {
      // A thin line (often below the width rule), horizontal or vertical.
      const t = between(30, 260);
      const box: [number, number, number, number] =
        rnd() < 0.5 ? [x, y, x + w * 2, y + t] : [x, y, x + t, y + h * 2];
      polygons.push(rectangleRing(...box));
      boxes.push(box);
    }
  }
  return { polygons, widthNm, spaceNm };
}

/**
 * A dense layout of `shapes` shapes (about one per 4 µm²) for benchmarks and large
 * comparisons: rectangles 50–2000 nm, L shapes, circles of 100–800 nm radius (1 nm sagitta)
 * and thin lines, alternating between two layers. Overlapping circles merge into polygons of
 * hundreds of edges, where KLayout's box scanner switches from brute force to sorting.
 */
export function denseLayout(shapes: number, seed: number): Ring[][] {
  const rnd = seededRandom(seed);
  const side = Math.round(Math.sqrt(shapes * 4e6));
  const layers: Ring[][] = [[], []];
  const int = (lo: number, hi: number) => Math.floor(lo + rnd() * (hi - lo));
  for (let i = 0; i < shapes; i += 1) {
    const x = int(0, side);
    const y = int(0, side);
    const w = int(50, 2000);
    const h = int(50, 2000);
    const kind = rnd();
    let ring: Ring;
    if (kind < 0.6) ring = rectangleRing(x, y, x + w, y + h);
    else if (kind < 0.75) {
      const t = Math.max(40, Math.floor(w / 3));
      ring = Int32Array.of(x, y, x + w, y, x + w, y + t, x + t, y + t, x + t, y + h, x, y + h);
    } else if (kind < 0.85) ring = circleRing(x, y, int(100, 800), 1);
    else {
      ring =
        rnd() < 0.5
          ? rectangleRing(x, y, x + 2 * w, y + int(60, 200))
          : rectangleRing(x, y, x + int(60, 200), y + 2 * h);
    }
    layers[i % 2]!.push(ring);
  }
  return layers;
}
